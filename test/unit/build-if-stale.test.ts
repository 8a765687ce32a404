import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tmpDir, writeFiles } from '../helpers.js';

// scripts/build-if-stale.mjs: the rule `npm pack` (prepack) and the test setup share — build only when dist/
// is missing or older than a source. Checked on a copy of the script in a made-up repository (--check builds
// nothing), so the real dist/ is never touched here.
function repo(): string {
  const dir = tmpDir('cookie-stale-');
  writeFiles(dir, { 'src/index.ts': 'export {};\n', 'reporters/x.ts': 'export {};\n', 'package.json': '{}\n', 'tsconfig.json': '{}\n', 'tsconfig.build.json': '{}\n' });
  fs.mkdirSync(path.join(dir, 'scripts'));
  fs.copyFileSync(path.join(ROOT, 'scripts', 'build-if-stale.mjs'), path.join(dir, 'scripts', 'build-if-stale.mjs'));
  return dir;
}
const check = (dir: string) => spawnSync(process.execPath, [path.join(dir, 'scripts', 'build-if-stale.mjs'), '--check'], { encoding: 'utf8' });
const age = (file: string, secondsAgo: number) => fs.utimesSync(file, new Date(Date.now() - secondsAgo * 1000), new Date(Date.now() - secondsAgo * 1000));

describe('build only when stale (prepack and the test setup)', () => {
  it('no dist/ is stale; a stamp newer than every source is up to date; an edited source or config makes it stale again', () => {
    const dir = repo();
    expect(check(dir)).toMatchObject({ status: 1, stdout: expect.stringMatching(/a build is due/) });
    for (const f of ['src/index.ts', 'reporters/x.ts', 'package.json', 'tsconfig.json', 'tsconfig.build.json']) age(path.join(dir, f), 60);
    writeFiles(dir, { 'dist/.build-stamp': 'x\n', 'dist/src/index.js': 'export {};\n', 'dist/reporters/x.js': 'export {};\n' });
    expect(check(dir)).toMatchObject({ status: 0, stdout: expect.stringMatching(/up to date/) });
    for (const f of ['src/index.ts', 'reporters/x.ts', 'tsconfig.build.json']) {
      fs.utimesSync(path.join(dir, f), new Date(), new Date(Date.now() + 5000));
      expect(check(dir).status, f).toBe(1);
      age(path.join(dir, f), 60);
      expect(check(dir).status, f).toBe(0);
    }
    // a file added deep below src/ counts too
    writeFiles(dir, { 'src/deploy/new.ts': 'export {};\n' });
    fs.utimesSync(path.join(dir, 'src/deploy/new.ts'), new Date(), new Date(Date.now() + 5000));
    expect(check(dir).status).toBe(1);
  });

  it('a compiled file deleted from dist/ makes it stale, and --forget-missing (the first step of npm run build) drops tsc\'s incremental record so the file is written again', () => {
    const dir = repo();
    writeFiles(dir, { 'src/deep/a.ts': 'export {};\n', 'src/types.d.ts': 'export {};\n' });
    for (const f of ['src/index.ts', 'src/deep/a.ts', 'src/types.d.ts', 'reporters/x.ts', 'package.json', 'tsconfig.json', 'tsconfig.build.json']) age(path.join(dir, f), 60);
    writeFiles(dir, { 'dist/.build-stamp': 'x\n', 'dist/.tsbuildinfo': '{}\n', 'dist/src/index.js': 'export {};\n', 'dist/src/deep/a.js': 'export {};\n', 'dist/reporters/x.js': 'export {};\n' });
    const forget = () => spawnSync(process.execPath, [path.join(dir, 'scripts', 'build-if-stale.mjs'), '--forget-missing'], { encoding: 'utf8' });
    // complete (a declaration file has no compiled file): up to date, and the record stays
    expect(check(dir).status).toBe(0);
    expect(forget()).toMatchObject({ status: 0, stdout: '' });
    expect(fs.existsSync(path.join(dir, 'dist/.tsbuildinfo'))).toBe(true);
    fs.rmSync(path.join(dir, 'dist/src/deep/a.js'));
    expect(check(dir)).toMatchObject({ status: 1, stdout: expect.stringMatching(/a build is due/) });
    expect(forget()).toMatchObject({ status: 0, stdout: expect.stringContaining(`compiled files of 1 source(s) (${path.join('src', 'deep', 'a.ts')})`) });
    expect(fs.existsSync(path.join(dir, 'dist/.tsbuildinfo'))).toBe(false);
  });

  it('the package packs the build it has: prepack runs this script, not the compiler', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.prepack).toBe('node scripts/build-if-stale.mjs');
  });
});
