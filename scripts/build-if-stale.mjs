#!/usr/bin/env node
// `npm run build` only when dist/ is missing or older than any of its sources (src/, reporters/, the
// tsconfigs, package.json): the `prepack` script (so `npm pack` in a clone that was just built packs that
// build instead of compiling everything again and rewriting dist/ under a CLI that may be running from it)
// and the test suite's global setup share this one rule. `--check` prints whether a build is due and exits
// 0 (up to date) or 1 (stale), building nothing. A source whose compiled file is missing from dist/ (one deleted
// by hand) also makes it stale; `--forget-missing` (run first by `npm run build`) then deletes dist/.tsbuildinfo,
// without which tsc's incremental build would think that file still up to date and never write it again.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** What dist/ is built from. */
const BUILD_INPUTS = ['src', 'reporters', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];
/** Written by scripts/copy-assets.mjs at the end of every build. */
const BUILD_STAMP = path.join(ROOT, 'dist', '.build-stamp');

/** Newest modification time (ms) of the files at or below the given paths (relative to the repository). */
function newest(paths) {
  let t = 0;
  for (const p of paths) {
    const abs = path.join(ROOT, p);
    if (!fs.existsSync(abs)) continue;
    if (fs.statSync(abs).isFile()) t = Math.max(t, fs.statSync(abs).mtimeMs);
    else for (const f of fs.readdirSync(abs, { recursive: true })) t = Math.max(t, fs.statSync(path.join(abs, String(f))).mtimeMs);
  }
  return t;
}

/** tsc's record of its last incremental build (tsconfig.build.json `tsBuildInfoFile`). */
const BUILD_INFO = path.join(ROOT, 'dist', '.tsbuildinfo');
/** The folders compiled into dist/ (tsconfig.build.json `include`). */
const COMPILED = ['src', 'reporters'];

/** Sources under {@link COMPILED} (`.ts`, not `.d.ts`) whose compiled `.js` is missing from dist/ (paths relative to the repository). */
function missingOutputs() {
  const missing = [];
  for (const dir of COMPILED) {
    const abs = path.join(ROOT, dir);
    if (!fs.existsSync(abs)) continue;
    for (const f of fs.readdirSync(abs, { recursive: true }).map(String)) {
      if (!/\.tsx?$/.test(f) || f.endsWith('.d.ts')) continue;
      const rel = path.join(dir, f);
      if (!fs.existsSync(path.join(ROOT, 'dist', rel.replace(/\.tsx?$/, '.js')))) missing.push(rel);
    }
  }
  return missing;
}

/** Whether dist/ is missing, older than a source it is built from, or lacks a source's compiled file. */
function buildIsStale() {
  const built = fs.existsSync(BUILD_STAMP) ? fs.statSync(BUILD_STAMP).mtimeMs : 0;
  return built < newest(BUILD_INPUTS) || missingOutputs().length > 0;
}

/** Run `npm run build` when {@link buildIsStale}; returns whether it built. Throws when the build fails. */
function buildIfStale() {
  if (!buildIsStale()) return false;
  execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  return true;
}

if (process.argv.includes('--forget-missing')) {
  const missing = missingOutputs();
  if (missing.length && fs.existsSync(BUILD_INFO)) {
    fs.rmSync(BUILD_INFO);
    console.log(`dist/ lacks the compiled files of ${missing.length} source(s) (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}): tsc builds everything again`);
  }
  process.exit(0);
}
if (process.argv.includes('--check')) {
  const stale = buildIsStale();
  console.log(stale ? 'dist/ is older than its sources: a build is due' : 'dist/ is up to date');
  process.exit(stale ? 1 : 0);
}
console.log(buildIfStale() ? 'built dist/' : 'dist/ is up to date with its sources: not built again');
