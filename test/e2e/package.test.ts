// Cookie as an installed package: pack it (`npm pack`), install the tarball into a temporary project
// outside the repository (dependencies from the npm cache), and use it there the way a new user would.
import { execFile, type ExecFileException } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';

const CONSUMER = path.join(ROOT, 'test', 'e2e', 'package-consumer');

/** Run a command; resolves with its exit code and output (never rejects on a non-zero exit). */
function sh(cmd: string, args: string[], cwd: string, timeoutMs = 600_000): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const t = Date.now();
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1', npm_config_update_notifier: 'false' } }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof (err as ExecFileException).code === 'number' ? ((err as ExecFileException).code as number) : 1) : 0, stdout, stderr, ms: Date.now() - t });
    });
  });
}

let project = '';
let tarball = '';

beforeAll(async () => {
  // dist/ was built by the globalSetup: pack it as is (no prepack rebuild)
  const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cookie-pack-'));
  const pack = await sh('npm', ['pack', '--ignore-scripts', '--pack-destination', packDir, '--json'], ROOT);
  expect(pack.code, pack.stderr).toBe(0);
  tarball = path.join(packDir, (JSON.parse(pack.stdout) as { filename: string }[])[0]!.filename);
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'cookie-consumer-'));
  expect(path.relative(ROOT, project).startsWith('..')).toBe(true);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  for (const f of fs.readdirSync(CONSUMER)) fs.copyFileSync(path.join(CONSUMER, f), path.join(project, f.replace(/\.txt$/, '')));
  const typescript = (JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', 'typescript', 'package.json'), 'utf8')) as { version: string }).version;
  const install = await sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, `typescript@${typescript}`], project);
  expect(install.code, install.stderr).toBe(0);
}, 900_000);

describe('cookie-eval installed from npm pack into a project outside the repo', () => {
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

  it('plain node imports runCookie and every subpath export without a TypeScript loader', async () => {
    const script = "const m = await import('cookie-eval'); const c = await import('cookie-eval/config'); const r = await import('cookie-eval/reporters'); const a = await import('cookie-eval/agents'); const j = await import('cookie-eval/judges'); console.log(JSON.stringify([typeof m.runCookie, typeof c.defineConfig, r.REPORTER_API_VERSION, Object.keys(a.BUILTIN_AGENTS), Object.keys(j.BUILTIN_JUDGES)]));";
    const r = await sh(process.execPath, ['--input-type=module', '-e', script], project);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual(['function', 'function', 1, ['offline', 'model'], ['offline', 'model']]);
  });

  it('tsc --noEmit passes on a typed config, spec, reporter, agent and judge with only cookie-eval and typescript, and catches a wrong type', async () => {
    expect(fs.existsSync(path.join(project, 'node_modules', '@types', 'node'))).toBe(false);
    const ok = await sh(process.execPath, [path.join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', 'tsconfig.json'], project);
    expect(ok.stdout + ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    const bad = await sh(process.execPath, [path.join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '--strict', '--skipLibCheck', '--module', 'nodenext', '--moduleResolution', 'nodenext', 'bad-config.ts'], project);
    expect(bad.code).not.toBe(0);
    expect(bad.stdout).toMatch(/bad-config\.ts\(4,\d+\): error TS2322: Type 'string' is not assignable to type 'number/);
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
    expect((r.stdout + r.stderr).match(/npm install --save-dev cookie-cdn/g)).toHaveLength(1);
  });
});
