import { execSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, readResults, runCli, scaled, tmpDir, writeFiles } from '../helpers.js';

// Project candidates (mode: react) without dependencies, so these run in seconds: the build script is
// the candidate's code, run in its own temporary copy with the host's secrets removed.
function project(dir: string, name: string, build: string) {
  writeFiles(dir, {
    [`${name}/package.json`]: JSON.stringify({ name, version: '1.0.0', private: true, scripts: { build } }),
    [`${name}/build.js`]: `const fs = require('fs'); fs.mkdirSync('dist', { recursive: true });
const names = Object.keys(process.env).sort().join(' ');
// what an attacker tries: read the environment of every visible process, and reach the host's network
let leaked = 'proc clean';
for (const pid of fs.readdirSync('/proc').filter((d) => /^\\d+$/.test(d))) { try { const env = fs.readFileSync('/proc/' + pid + '/environ', 'utf8'); if (env.includes('sekret-123')) leaked = 'LEAKED via /proc/' + pid; } catch {} }
let outside = 'outside unreadable'; try { outside = fs.readFileSync(require('path').join(OUT_DIR, 'secret.txt'), 'utf8'); } catch {}
let wrote = 'outside unwritable'; try { fs.writeFileSync(require('path').join(OUT_DIR, 'escaped.txt'), 'x'); wrote = 'WROTE outside'; } catch {}
fs.writeFileSync('dist/index.html', '<!DOCTYPE html><html lang="en"><body><h1>Environment of the build</h1><p id="secret">' + (process.env.MY_SECRET_TOKEN || 'no secret here') + '</p><p id="key">' + (process.env.OPENAI_API_KEY || 'no key here') + '</p><p>' + names + '</p><p>cwd ' + process.cwd() + '</p><p id="proc">' + leaked + '</p><p>' + outside + '</p><p>' + wrote + '</p></body></html>');`.replaceAll('OUT_DIR', JSON.stringify(dir)),
  });
}
/** Pids from `pid` up to (not including) `stop`, read from /proc. */
function ancestors(pid: number, stop: number): number[] {
  const out: number[] = [];
  for (let p = pid; p > 1 && p !== stop && out.length < 50; ) {
    out.push(p);
    p = Number(fs.readFileSync(`/proc/${p}/status`, 'utf8').match(/^PPid:\s+(\d+)/m)![1]);
  }
  return out;
}
const alive = (pid: number) => fs.existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
const spec = (names: string[]) => `query:\n  id: q\n  prompt: A page.\n  language: en\n  kind: static\ncandidates:\n${names.map((n) => `  - { name: ${n}, mode: react, path: ${n} }`).join('\n')}\n`;

describe('project candidates', () => {
  it('build in a temporary copy with the host secrets removed; the run serves the build output', async () => {
    const dir = tmpDir('cookie-proj-');
    project(dir, 'envy', 'node build.js');
    writeFiles(dir, { 'secret.txt': 'OUTSIDE-SECRET', 's.cookie.yaml': spec(['envy']), 'cookie.config.ts': 'export default { agent: { steps: 4 }, recording: { video: false, audio: false } };\n' });
    const r = await runCli(['test', '.'], { cwd: dir, env: { MY_SECRET_TOKEN: 'sekret-123', OPENAI_API_KEY: 'sk-should-not-leak', GITHUB_TOKEN: 'ghp_x' } });
    expect(r.code).toBe(0);
    const e = readResults(path.join(dir, 'cookie-results')).evaluations[0]!;
    expect(e.status).toBe('scored');
    const ev = JSON.parse(fs.readFileSync(path.join(dir, 'cookie-results', e.evidenceDir, 'evidence.json'), 'utf8'));
    const text: string = ev.static.inventory.textSample;
    expect(text).toContain('no secret here');
    expect(text).toContain('no key here');
    expect(text).not.toMatch(/sekret-123|sk-should-not-leak|GITHUB_TOKEN|MY_SECRET_TOKEN/);
    // a copy in the temporary folder Cookie was given (TMPDIR; the test run gives every process its own)
    expect(text).toContain(`cwd ${path.join(os.tmpdir(), 'cookie-project-')}`);
    expect(text).toContain('proc clean'); // a PID namespace: Cookie's own environment is out of reach
    expect(ev.deploy.steps.find((s: { step: string }) => s.step === 'build').sandbox).toMatch(/^bwrap\(uid 65534.*network: none\)$/);
    expect(text).toContain('outside unreadable'); // the host's /tmp is not mounted in the sandbox
    expect(text).toContain('outside unwritable');
    expect(fs.existsSync(path.join(dir, 'escaped.txt'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'envy', 'dist'))).toBe(false); // the candidate's own folder is untouched
    expect(ev.deploy.steps.map((s: { step: string }) => s.step)).toEqual(['install', 'build']);
  });

  it('a project without a build script gets the dev server on a port Cookie picks, in a network namespace of its own', async () => {
    // a host service the dev server must neither reach nor pass off as the app
    const http = await import('node:http');
    const host = http.createServer((_q, r) => r.end('<h1>HOST SERVICE</h1>'));
    await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
    const hostPort = (host.address() as import('node:net').AddressInfo).port;
    const dir = tmpDir('cookie-proj-');
    writeFiles(dir, {
      'dev/package.json': JSON.stringify({ name: 'dev', version: '1.0.0', private: true, scripts: { dev: 'vite' }, devDependencies: { vite: 'file:./fv' } }),
      'dev/fv/package.json': JSON.stringify({ name: 'vite', version: '0.0.1', bin: { vite: 'cli.js' } }),
      'dev/fv/cli.js': `#!/usr/bin/env node
const http = require('http');
const port = Number(process.argv[process.argv.indexOf('--port') + 1]);
let reach = 'host unreachable';
fetch('http://127.0.0.1:${hostPort}/').then(() => (reach = 'HOST REACHED'), () => {});
http.createServer((q, r) => r.end('<!DOCTYPE html><html lang="en"><body><h1>Dev server app</h1><p>' + reach + ' as uid ' + process.getuid() + '</p></body></html>')).listen(port, '127.0.0.1', () => console.log('  ➜  Local:   http://127.0.0.1:${hostPort}/'));
`,
      's.cookie.yaml': spec(['dev']),
      'cookie.config.ts': 'export default { agent: { steps: 4 }, recording: { video: false, audio: false } };\n',
    });
    try {
      await runCli(['test', '.'], { cwd: dir });
      const e = readResults(path.join(dir, 'cookie-results')).evaluations[0]!;
      expect(e.status).toBe('scored');
      const ev = JSON.parse(fs.readFileSync(path.join(dir, 'cookie-results', e.evidenceDir, 'evidence.json'), 'utf8'));
      expect(ev.deploy.url).not.toContain(String(hostPort)); // the printed URL is not trusted
      expect(ev.static.inventory.textSample).toContain('Dev server app');
      expect(ev.static.inventory.textSample).toContain('host unreachable as uid 65534');
      expect(ev.deploy.steps.find((s: { step: string }) => s.step === 'serve').sandbox).toMatch(/^bwrap\(uid 65534.*network: loopback bridge\)$/);
    } finally {
      host.close();
    }
  });

  it('a build that never ends is a time-boxed build failure, and nothing is left running', async () => {
    const dir = tmpDir('cookie-proj-');
    const marker = `cookie-hang-${process.pid}-${Date.now()}`;
    project(dir, 'hang', `node -e "setInterval(()=>{},1000)" ${marker}`);
    writeFiles(dir, { 's.cookie.yaml': spec(['hang']), 'cookie.config.ts': 'export default { timeouts: { build: 3000 } };\n' });
    // bounded by the build time-out (cause: timeout), not by this machine's speed
    const r = await runCli(['test', '.'], { cwd: dir });
    expect(r.code).toBe(1);
    const e = readResults(path.join(dir, 'cookie-results')).evaluations[0]!;
    expect(e).toMatchObject({ status: 'build-failed', build: { step: 'build', cause: 'timeout' } });
    expect(execSync(`pgrep -f '[${marker[0]}]${marker.slice(1)}' || true`, { encoding: 'utf8' }).trim()).toBe('');
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s while a candidate builds kills its whole sandbox: no orphans, exit %i', async (sig, code) => {
    const dir = tmpDir('cookie-proj-');
    const marker = `cookie-int-${process.pid}-${Date.now()}`;
    project(dir, 'slow', `node -e "setInterval(()=>{},1000)" ${marker}`);
    writeFiles(dir, { 's.cookie.yaml': spec(['slow']) });
    const child = spawn(process.execPath, [BIN, 'test', '.'], { cwd: dir, stdio: 'ignore' });
    const exited = new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    // the [c] keeps pgrep from matching the shell that runs it
    const running = () => execSync(`pgrep -f '[${marker[0]}]${marker.slice(1)}' || true`, { encoding: 'utf8' }).trim();
    while (!running() && child.exitCode === null) await new Promise((r) => setTimeout(r, 200));
    expect(running()).not.toBe('');
    // every process between Cookie and the build (bwrap, the sandbox's init, npm, sh): all must go
    const chain = ancestors(Number(running().split('\n')[0]), child.pid!);
    expect(chain.length).toBeGreaterThan(2);
    child.kill(sig);
    expect(await exited).toBe(code);
    expect(running()).toBe('');
    expect(chain.filter(alive)).toEqual([]);
  });
});

describe('the React generation scaffold', () => {
  it('installs with npm ci from its lockfile, builds with Vite and serves', async () => {
    const { deployProject } = await import('../../src/deploy/project.js');
    const { ROOT } = await import('../helpers.js');
    const os = await import('node:os');
    const d = await deployProject(path.join(ROOT, 'templates/react-vite'), { npmCache: path.join(os.homedir(), '.cache', 'cookie', 'npm'), installTimeoutMs: 300_000, buildTimeoutMs: 180_000, serveTimeoutMs: 30_000 });
    try {
      expect(d.steps.map((s) => `${s.step}:${s.command.split(' ').slice(0, 2).join(' ')}:${s.code}`)).toEqual(['install:npm ci:0', 'build:npm run:0']);
      const html = await (await fetch(d.url)).text();
      expect(html).toContain('<div id="root"></div>');
      const asset = html.match(/src="(\/assets\/[^"]+\.js)"/)![1]!;
      expect((await fetch(new URL(asset, d.url))).status).toBe(200);
    } finally {
      await d.close();
    }
  });
});
