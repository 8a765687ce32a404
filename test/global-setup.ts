import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Newest modification time (ms) of the files below the given folders. */
function newest(dirs: string[]): number {
  let t = 0;
  for (const d of dirs) {
    const abs = path.join(ROOT, d);
    if (!fs.existsSync(abs)) continue;
    if (fs.statSync(abs).isFile()) t = Math.max(t, fs.statSync(abs).mtimeMs);
    else for (const f of fs.readdirSync(abs, { recursive: true })) t = Math.max(t, fs.statSync(path.join(abs, String(f))).mtimeMs);
  }
  return t;
}

/**
 * Vitest globalSetup: the CLI runs the compiled dist/, so build it once before the tests when it is
 * missing or older than any source (a fresh clone, or edited sources), never per test.
 * Every temporary folder of the run (the tests' own, the CLI's, Chromium's profiles) goes below one folder
 * of this run (TMPDIR, which the test workers and every process they start inherit), removed when the run
 * ends: a test killed half-way, or a process that died before its cleanup, leaves nothing in /tmp.
 * @returns the teardown Vitest calls after the last test file
 */
export default function setup(): () => void {
  const stamp = path.join(ROOT, 'dist', '.build-stamp');
  const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
  if (built < newest(['src', 'reporters', 'tsconfig.json', 'tsconfig.build.json', 'package.json'])) {
    execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  }
  const previous = process.env.TMPDIR;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cookie-vitest-'));
  process.env.TMPDIR = tmp;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  };
}
