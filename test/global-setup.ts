import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Vitest globalSetup: the CLI runs the compiled dist/, so build it once before the tests when it is
 * missing or older than any source (a fresh clone, or edited sources), never per test; the package's
 * `prepack` applies the same rule, so the package test's `npm pack` never rewrites dist/ under running CLIs.
 * Every temporary folder of the run (the tests' own, the CLI's, Chromium's profiles) goes below one folder
 * of this run (TMPDIR, which the test workers and every process they start inherit), removed when the run
 * ends: a test killed half-way, or a process that died before its cleanup, leaves nothing in /tmp. Each project
 * of the config (unit, e2e) calls it; COOKIE_VITEST_TMP names the run's folder, so only the first call works.
 * @returns the teardown Vitest calls after the last test file
 */
export default function setup(): () => void {
  // each project of the config (unit, e2e) calls it: the first one sets the run up, the others find it done
  if (process.env.COOKIE_VITEST_TMP) return () => {};
  // the same rule as `npm pack`'s prepack (scripts/build-if-stale.mjs): `npm run build` only when stale
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build-if-stale.mjs')], { cwd: ROOT, stdio: 'inherit' });
  const previous = process.env.TMPDIR;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cookie-vitest-'));
  process.env.TMPDIR = tmp;
  process.env.COOKIE_VITEST_TMP = tmp;
  return () => {
    delete process.env.COOKIE_VITEST_TMP;
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  };
}
