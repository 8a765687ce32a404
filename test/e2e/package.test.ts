// Cookie as an installed package, the way the README says to install it (cookie-eval and cookie-cdn are not
// on npm): the README's commands run as written — `npm pack` in the repository (the clone), then `npm install`
// of the tarballs in a project `npm init -y` made (CommonJS) outside the repository — and the package is used
// there the way a new user would.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CDN_INSTALL_FIX } from '../../src/deploy/cdn.js';
import { ROOT, runProcess, scaled } from '../helpers.js';

const CONSUMER = path.join(ROOT, 'test', 'e2e', 'package-consumer');
/** Where the README's commands put the tarballs; replaced by a fresh folder here. */
const README_PACKS = '/tmp/cookie-packs';

/** Run a command in a process group of its own, killed whole at the limit ({@link runProcess}). */
function sh(cmd: string, args: string[], cwd: string, timeoutMs = 600_000) {
  return runProcess(cmd, args, { cwd, env: { npm_config_update_notifier: 'false' }, timeoutMs, group: true });
}

/** The README's install commands ("Using Cookie from another project"): the lines of its first two sh blocks, in the clone and in the project. */
function readmeInstall(): { clone: string[]; project: string[] } {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Using Cookie from another project'));
  const [clone, project] = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].slice(0, 2).map((m) => m[1]!.trim().split('\n'));
  return { clone: clone!, project: project! };
}

/**
 * Run one README command line with the tarball folder replaced. npm sometimes hangs for good with nothing
 * in flight (npm/cli#4028: idle in epoll, no socket or file open; seen once here in `npm install` of the
 * tarballs, 2026-12-04): a line that ran out its time limit is run once more, and the test fails only when it
 * fails again. The limits are many times a normal run's (seconds) and scale with COOKIE_TEST_TIME_SCALE.
 */
async function run(line: string, packs: string, cwd: string) {
  const command = line.split(README_PACKS).join(packs);
  const first = await sh('sh', ['-c', command], cwd, scaled(300_000));
  if (!first.timedOut) return first;
  console.warn(`package test: \`${command}\` ran out its ${Math.round(scaled(300_000) / 1000)} s and was killed; running it once more`);
  return sh('sh', ['-c', command], cwd, scaled(600_000));
}

const install = readmeInstall();
let project = '';
let packs = '';

beforeAll(async () => {
  // the clone: pack cookie-eval and cookie-cdn. prepack builds dist/ only when it is stale; the globalSetup
  // has just built it, so the pack must not compile again (it would rewrite dist/ under the CLIs other test
  // files are running from it)
  packs = fs.mkdtempSync(path.join(os.tmpdir(), 'cookie-packs-'));
  const stamp = path.join(ROOT, 'dist', '.build-stamp');
  const builtAt = fs.statSync(stamp).mtimeMs;
  for (const line of install.clone) {
    const r = await run(line, packs, ROOT);
    expect(r.code, `${line}\n${r.stderr}`).toBe(0);
  }
  expect(fs.statSync(stamp).mtimeMs).toBe(builtAt);
  expect(fs.readdirSync(packs).sort()).toEqual(['cookie-cdn-0.1.0.tgz', 'cookie-eval-0.1.0.tgz']);
  // the project: what `npm init -y` makes ("type": "commonjs"), outside the repository, with cookie-eval and
  // the TypeScript `npm install typescript` resolves today (cookie-cdn comes later, by its own README line)
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'cookie-consumer-'));
  expect(path.relative(ROOT, project).startsWith('..')).toBe(true);
  const init = await sh('npm', ['init', '-y'], project);
  expect(init.code, init.stderr).toBe(0);
  expect(JSON.parse(fs.readFileSync(path.join(project, 'package.json'), 'utf8')).type ?? 'commonjs').toBe('commonjs');
  for (const f of fs.readdirSync(CONSUMER)) fs.copyFileSync(path.join(CONSUMER, f), path.join(project, f.replace(/\.txt$/, '')));
  expect(install.project[0]).toMatch(/^npm install --save-dev \S+cookie-eval-0\.1\.0\.tgz typescript$/);
  const r = await run(install.project[0]!, packs, project);
  expect(r.code, r.stderr).toBe(0);
}, scaled(1_200_000));

describe('cookie-eval installed as the README says (npm pack in the clone, npm install of the tarball) into a CommonJS project outside the repo', () => {
  it('ships dist, bin, prompts and LICENSE, not the repo (tests, bench, examples, sources)', () => {
    const pkg = path.join(project, 'node_modules', 'cookie-eval');
    for (const f of ['LICENSE', 'bin/cookie.js', 'dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/index.js.map', 'dist/src/browser/probe.init.js', 'dist/src/browser/media.init.js', 'dist/src/deploy/sandbox-init.cjs', 'dist/reporters/html/app.js', 'prompts/agent.md']) {
      expect(fs.existsSync(path.join(pkg, f)), f).toBe(true);
    }
    for (const f of ['test', 'bench', 'examples', 'src', '.ci', 'vitest.config.ts']) expect(fs.existsSync(path.join(pkg, f)), f).toBe(false);
    // the offline CDN copies are not a dependency (their own optional package, cookie-cdn)
    expect(fs.readdirSync(path.join(project, 'node_modules')).filter((d) => d.startsWith('cdn-'))).toEqual([]);
  });

  it('`npx cookie --help` and `--version` work', async () => {
    const help = await sh('npx', ['cookie', '--help'], project);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/test \[\.\.\.paths\]/);
    const version = await sh('npx', ['cookie', '--version'], project);
    expect(version.stdout).toMatch(/cookie\/\d+\.\d+\.\d+/);
  });

  it('plain node imports and requires runCookie and every subpath export without a TypeScript loader', async () => {
    const script = "const m = await import('cookie-eval'); const c = await import('cookie-eval/config'); const r = await import('cookie-eval/reporters'); const a = await import('cookie-eval/agents'); const j = await import('cookie-eval/judges'); console.log(JSON.stringify([typeof m.runCookie, typeof c.defineConfig, r.REPORTER_API_VERSION, Object.keys(a.BUILTIN_AGENTS), Object.keys(j.BUILTIN_JUDGES)]));";
    const expected = ['function', 'function', 1, ['offline', 'model'], ['offline', 'model']];
    const r = await sh(process.execPath, ['--input-type=module', '-e', script], project);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual(expected);
    // CommonJS: require() of the ES module package (Node >= 20.19), through the exports' default condition
    const cjs = "const m = require('cookie-eval'); const c = require('cookie-eval/config'); const r = require('cookie-eval/reporters'); const a = require('cookie-eval/agents'); const j = require('cookie-eval/judges'); console.log(JSON.stringify([typeof m.runCookie, typeof c.defineConfig, r.REPORTER_API_VERSION, Object.keys(a.BUILTIN_AGENTS), Object.keys(j.BUILTIN_JUDGES)]));";
    const rc = await sh(process.execPath, ['-e', cjs], project);
    expect(rc.stderr.replace(/^.*ExperimentalWarning.*\n(.*--trace-warnings.*\n)?/gm, '')).toBe('');
    expect(JSON.parse(rc.stdout)).toEqual(expected);
  });

  it('tsc --noEmit passes without skipLibCheck, with the TypeScript `npm install typescript` gives, on a typed config, spec, reporter, agent and judge with only cookie-eval and typescript; it catches a wrong type', async () => {
    // the TypeScript a user gets today, not the repository's pinned one
    const installed = (JSON.parse(fs.readFileSync(path.join(project, 'node_modules', 'typescript', 'package.json'), 'utf8')) as { version: string }).version;
    const latest = await sh('npm', ['view', 'typescript', 'dist-tags.latest'], project);
    expect(latest.code, latest.stderr).toBe(0);
    expect(installed).toBe(latest.stdout.trim());
    expect(JSON.parse(fs.readFileSync(path.join(project, 'package.json'), 'utf8')).devDependencies).toEqual({ 'cookie-eval': expect.stringMatching(/cookie-eval-0\.1\.0\.tgz$/), typescript: `^${installed}` });
    const tsconfig = JSON.parse(fs.readFileSync(path.join(project, 'tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> };
    expect(tsconfig.compilerOptions.skipLibCheck).toBeUndefined();
    const tsc = path.join(project, 'node_modules', 'typescript', 'bin', 'tsc');
    const ok = await sh(process.execPath, [tsc, '--noEmit', '-p', 'tsconfig.json'], project);
    expect(ok.stdout + ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    // the same settings on a config with a wrong type (a tsconfig of its own: TypeScript 7 refuses file names beside a tsconfig.json)
    fs.writeFileSync(path.join(project, 'tsconfig.bad.json'), JSON.stringify({ extends: './tsconfig.json', include: ['bad-config.ts'] }));
    const bad = await sh(process.execPath, [tsc, '--noEmit', '-p', 'tsconfig.bad.json'], project);
    expect(bad.code).not.toBe(0);
    expect(bad.stdout).toMatch(/bad-config\.ts\(4,\d+\): error TS2322: Type 'string' is not assignable to type 'number/);
    expect(bad.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('runs a spec with its own reporter, agent and judge given by module path; without cookie-cdn the console says once how to add it', async () => {
    const out = path.join(project, 'cookie-results');
    const r = await sh('npx', ['cookie', 'test', '.', '--output-dir', out], project);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // the reporter module ran and saw the judge module's scores
    const line = r.stdout.split('\n').find((l) => l.startsWith('my-reporter '));
    expect(line, r.stdout).toBeTruthy();
    const seen = JSON.parse(line!.slice('my-reporter '.length)) as { evaluations: number; ids: string[]; totals: number[]; judge: string[] };
    expect(seen.evaluations).toBe(1);
    expect(seen.ids).toEqual(['counter/plain']);
    // the agent module clicked once: one ok step (10) + the judge's option bonus (7); aesthetics 50
    expect(seen.totals).toEqual([(17 + 50) / 2]);
    expect(seen.judge).toEqual(['1 step(s), bonus 7']);
    const ev = JSON.parse(fs.readFileSync(path.join(out, 'evidence', 'counter', 'plain', 'evidence.json'), 'utf8'));
    expect(ev.interaction.agent).toBe('one-click');
    expect(ev.custom).toEqual({ title: 'Counter' });
    // the CDN script was refused and recorded as unresolved (the environment's), and the hint came once
    expect(ev.cdn.unresolved.some((u: string) => u.includes('canvas-confetti'))).toBe(true);
    // the hint says what works: the README's way to pack and install cookie-cdn
    expect((r.stdout + r.stderr).split(CDN_INSTALL_FIX)).toHaveLength(2);
    expect(CDN_INSTALL_FIX).toContain(install.clone.find((l) => l.includes('cookie-cdn'))!.replace(/ --pack-destination \S+/, ''));
    expect(install.project[1]).toMatch(/^npm install --save-dev \S+cookie-cdn-0\.1\.0\.tgz$/);
  });

  it('the README\'s cookie-cdn line installs the offline CDN copies: the run no longer says how to add them', async () => {
    const add = await run(install.project[1]!, packs, project);
    expect(add.code, add.stderr).toBe(0);
    expect(fs.existsSync(path.join(project, 'node_modules', 'cookie-cdn', 'package.json'))).toBe(true);
    const r = await sh('npx', ['cookie', 'test', '.', '--no-cache', '--output-dir', path.join(project, 'cookie-results-cdn')], project);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain('offline CDN copies are not installed');
  });

  it('the same files load in an ES module project ("type": "module")', async () => {
    const pkg = path.join(project, 'package.json');
    fs.writeFileSync(pkg, JSON.stringify({ ...JSON.parse(fs.readFileSync(pkg, 'utf8')), type: 'module' }));
    const r = await sh('npx', ['cookie', 'test', '.', '--list'], project);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/counter\/plain/);
  });
});
