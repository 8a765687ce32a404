import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunResults } from '../src/types.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SHARED = path.resolve(ROOT, '..', 'shared');
export const BIN = path.join(ROOT, 'bin', 'cookie.js');

/**
 * Factor for every wall-clock limit in the tests (COOKIE_TEST_TIME_SCALE, default 1): Cookie bounds the
 * work of each stage itself, so the tests' own limits only catch a runaway and never decide a result on a
 * slow or busy machine. Raise it (e.g. 3) where the machine is shared.
 */
export const TIME_SCALE = Math.max(1, Number(process.env.COOKIE_TEST_TIME_SCALE) || 1);
/** A test's wall-clock limit in ms, scaled by {@link TIME_SCALE}. */
export const scaled = (ms: number): number => Math.round(ms * TIME_SCALE);
/** Per-test limit (vitest's testTimeout): a runaway catcher, not a speed requirement. */
export const TEST_TIMEOUT = scaled(900_000);

/** Run the real CLI; resolves with exit code and output (never rejects on a non-zero exit). */
export function runCli(args: string[], opts: { cwd?: string; timeoutMs?: number; env?: Record<string, string> } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? ROOT, env: { ...process.env, NO_COLOR: '1', ...opts.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? TEST_TIMEOUT - 10_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A fresh temporary folder. */
export function tmpDir(prefix = 'cookie-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Read a run's results.json. */
export function readResults(outputDir: string): RunResults {
  return JSON.parse(fs.readFileSync(path.join(outputDir, 'results.json'), 'utf8')) as RunResults;
}

/** Write files into a folder: { 'a.html': '...', 'spec.cookie.yaml': '...' }. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
}
