import { spawn, type ChildProcess } from 'node:child_process';
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

/**
 * Send `signal` to a child process a test started and wait until it has exited; resolves at once when it
 * already has (waiting for an 'exit' event that already fired would hang the test until its 15-minute limit,
 * hiding why: a watch process that died early did). A child still there after `graceMs` (scaled) is killed
 * with SIGKILL.
 */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGINT', graceMs = 30_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), scaled(graceMs));
  await exited;
  clearTimeout(timer);
}

/**
 * Run a command; resolves with its exit code (null when killed), output, wall time (ms) and whether it ran out
 * `timeoutMs` (never rejects on a non-zero exit). With `group`, it runs in a process group of its own and the
 * whole group is killed at the limit: a shell's children too (npm under `sh -c`), which would otherwise keep
 * the output pipes open and the promise pending.
 */
export function runProcess(cmd: string, args: string[], opts: { cwd?: string; env?: Record<string, string>; timeoutMs: number; group?: boolean }): Promise<{ code: number | null; stdout: string; stderr: string; ms: number; timedOut: boolean }> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: opts.cwd ?? ROOT, env: { ...process.env, NO_COLOR: '1', ...opts.env }, detached: !!opts.group, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (opts.group) process.kill(-child.pid!, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {}
    }, opts.timeoutMs);
    const done = (code: number | null, error = '') => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr: stderr + error, ms: Date.now() - t0, timedOut });
    };
    child.on('error', (e) => done(127, e.message));
    child.on('close', (code) => done(code));
  });
}

/** Run the real CLI; resolves with exit code and output (never rejects on a non-zero exit). */
export function runCli(args: string[], opts: { cwd?: string; timeoutMs?: number; env?: Record<string, string> } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runProcess(process.execPath, [BIN, ...args], { cwd: opts.cwd, env: opts.env, timeoutMs: opts.timeoutMs ?? TEST_TIMEOUT - 10_000 });
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
