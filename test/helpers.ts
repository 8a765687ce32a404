import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunResults } from '../src/types.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SHARED = path.resolve(ROOT, '..', 'shared');
export const BIN = path.join(ROOT, 'bin', 'cookie.js');

/** Run the real CLI; resolves with exit code and output (never rejects on a non-zero exit). */
export function runCli(args: string[], opts: { cwd?: string; timeoutMs?: number; env?: Record<string, string> } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? ROOT, env: { ...process.env, NO_COLOR: '1', ...opts.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 280_000);
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
