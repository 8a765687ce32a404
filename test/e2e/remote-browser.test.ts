import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import getPort from 'get-port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS } from '../../src/browser/launch.js';
import { readResults, ROOT, runCli, tmpDir, writeFiles } from '../helpers.js';

// Remote browsers: a real `playwright run-server` process and a real Chromium with a DevTools port, both
// started here; Cookie deploys locally and drives them. A canary on another local port must see no
// request from the page (the fence holds through the remote browser). With `deploy.host`/`deploy.publicUrl` the
// app is served on every interface and opened at a public origin other than the local one, which the fence then
// treats as the app's.
let canaryHits = 0;
let canary: http.Server;
let canaryPort = 0;
const page = (port: number, script = '') => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tip calculator</title>
<style>body{font-family:system-ui;max-width:28rem;margin:3rem auto}button{padding:.5rem 1rem}</style></head>
<body><h1>Tip calculator</h1><label for="bill">Bill</label> <input id="bill" type="number" value="40"> <button id="calc">Add 15% tip</button><p id="out"></p>
<script>calc.onclick=()=>{out.textContent='Total: '+(bill.value*1.15).toFixed(2)};
fetch('http://127.0.0.1:${port}/steal').catch(()=>{}); new Image().src='http://127.0.0.1:${port}/pixel';${script}</script></body></html>`;
const spec = 'query: { id: tip, prompt: "A tip calculator: enter the bill, add a 15% tip.", language: en, kind: dynamic }\ncandidates: [ { name: tip, mode: html, path: tip.html } ]\n';

function waitForLine(child: ChildProcess, re: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const on = (d: Buffer) => {
      buf += d;
      const m = re.exec(buf);
      if (m) resolve(m[1] ?? m[0]);
    };
    child.stdout?.on('data', on);
    child.stderr?.on('data', on);
    child.on('exit', (code) => reject(new Error(`exited ${code} before printing ${re}: ${buf.slice(-500)}`)));
  });
}

describe('remote browsers', () => {
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    canary = http.createServer((_req, res) => {
      canaryHits++;
      res.end('secret');
    });
    await new Promise<void>((r) => canary.listen(0, '127.0.0.1', r));
    canaryPort = (canary.address() as { port: number }).port;
  });
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
    canary.close();
  });

  it('evaluates through a real `playwright run-server` (wsEndpoint), fenced to the app', async () => {
    const port = await getPort();
    const server = spawn(process.execPath, [path.join(ROOT, 'node_modules/playwright-core/cli.js'), 'run-server', '--port', String(port), '--host', '127.0.0.1', '--unsafe'], { env: { ...process.env, DEBUG: 'pw:server' } });
    children.push(server);
    await waitForLine(server, /Listening on (ws:\/\/\S+)/);
    let served = '';
    server.stderr!.on('data', (d) => (served += d));
    const dir = tmpDir('cookie-remote-ws-');
    writeFiles(dir, { 'tip.html': page(canaryPort), 'tip.cookie.yaml': spec, 'cookie.config.ts': `export default { recording: { video: false, audio: false }, browser: { wsEndpoint: 'ws://127.0.0.1:${port}/' } };\n` });
    const before = canaryHits;
    const r = await runCli(['test', dir, '--output-dir', path.join(dir, 'out'), '--steps', '5', '--silent'], { cwd: dir });
    const run = readResults(path.join(dir, 'out'));
    expect(run.evaluations[0]).toMatchObject({ status: 'scored' });
    expect(run.browserVersion).toMatch(/^\d+\./);
    expect(served).toMatch(/pw:server.*(serving|connection|Launching)/i); // the server, not Cookie, ran this browser
    expect(canaryHits - before).toBe(0);
    const ev = JSON.parse(fs.readFileSync(path.join(dir, 'out', run.evaluations[0]!.evidenceDir, 'evidence.json'), 'utf8'));
    expect(ev.failedRequests.some((f: { url: string; blocked?: boolean }) => f.url.includes(`:${canaryPort}/`) && f.blocked)).toBe(true);
    expect([0, 1]).toContain(r.code);
  });

  // localhost: another origin string for the same loopback; 127.0.0.2: an address a 127.0.0.1-only bind would
  // refuse, which Cookie's resolver rules must also let the browser reach (sent to the server as launch options)
  it.each(['localhost', '127.0.0.2'])('reaches an app bound to every interface at a public URL that differs from the local one (deploy.host 0.0.0.0, deploy.publicUrl http://%s:{port}), fenced to the public origin', async (publicHost) => {
    const port = await getPort();
    const server = spawn(process.execPath, [path.join(ROOT, 'node_modules/playwright-core/cli.js'), 'run-server', '--port', String(port), '--host', '127.0.0.1', '--unsafe'], { env: process.env });
    children.push(server);
    await waitForLine(server, /Listening on (ws:\/\/\S+)/);
    const dir = tmpDir('cookie-remote-public-');
    // besides the canary, the page asks for its own port under the local origin string (127.0.0.1): not the
    // app's origin for this browser, so refused like any other; and a worker opens a WebSocket to the canary,
    // which only the fence proxy (announced to the browser at the public host, with its own port) sees
    const worker = `try{new WebSocket('ws://127.0.0.1:${canaryPort}/from-worker')}catch(e){}`;
    const local = `fetch('http://127.0.0.1:'+location.port+'/local-origin').catch(()=>{}); new Worker(URL.createObjectURL(new Blob([${JSON.stringify(worker)}],{type:'text/javascript'})));`;
    writeFiles(dir, {
      'tip.html': page(canaryPort, local),
      'tip.cookie.yaml': spec,
      'cookie.config.ts': `export default { recording: { video: false, audio: false }, browser: { wsEndpoint: 'ws://127.0.0.1:${port}/' }, deploy: { host: '0.0.0.0', publicUrl: 'http://${publicHost}:{port}' } };\n`,
    });
    const before = canaryHits;
    const r = await runCli(['test', dir, '--output-dir', path.join(dir, 'out'), '--steps', '5'], { cwd: dir });
    const run = readResults(path.join(dir, 'out'));
    const result = run.evaluations[0]!;
    expect(result, r.stdout + r.stderr).toMatchObject({ status: 'scored' });
    expect(result.scores!.functionality).toBeGreaterThan(0);
    // the run says what binding every interface exposes
    expect(r.stdout + r.stderr).toMatch(/note: deploy\.host is 0\.0\.0\.0: .*each candidate app \(untrusted code\) and its fence proxy listen on every interface/);
    const ev = JSON.parse(fs.readFileSync(path.join(dir, 'out', result.evidenceDir, 'evidence.json'), 'utf8'));
    const appPort: number = ev.deploy.port;
    // evidence: the URL opened is the public one; the local one and the bind are recorded beside it
    expect(ev.deploy).toMatchObject({ url: `http://${publicHost}:${appPort}/tip.html`, publicUrl: `http://${publicHost}:${appPort}/tip.html`, localUrl: `http://127.0.0.1:${appPort}/tip.html`, host: '0.0.0.0' });
    // the page was opened and loaded at the public origin, and the fence counted it as the app
    expect(ev.navigations[0]).toMatchObject({ kind: 'navigation', url: `http://${publicHost}:${appPort}/tip.html`, offApp: false });
    expect(ev.documentLoads.length).toBeGreaterThan(0);
    // the app itself was perceived and played with (not a browser error page, which is scored too)
    expect(ev.static.inventory).toMatchObject({ title: 'Tip calculator' });
    expect(ev.interaction.steps.some((st: { action?: { target?: { name?: string } } }) => st.action?.target?.name === 'Add 15% tip')).toBe(true);
    const failed = ev.failedRequests as { url: string; blocked?: boolean; status?: number }[];
    expect(failed.filter((f) => f.url.startsWith(`http://${publicHost}:${appPort}/`) && !/favicon/.test(f.url))).toEqual([]);
    // everything else still refused and recorded: the canary on another port (0 hits) and the local origin string
    expect(canaryHits - before).toBe(0);
    expect(failed.some((f) => f.url.includes(`:${canaryPort}/`) && f.blocked)).toBe(true);
    expect(failed.some((f) => f.url === `http://127.0.0.1:${appPort}/local-origin` && f.blocked)).toBe(true);
    expect(failed).toContainEqual(expect.objectContaining({ url: `tunnel 127.0.0.1:${canaryPort}`, resourceType: 'tunnel', blocked: true }));
    expect([0, 1]).toContain(r.code);
  });

  // project candidates behind a public URL: the build output server and the bridge to a dev server (which
  // listens inside the candidate's own network namespace) bind every interface; the dev server is told the
  // public host name (Vite refuses unknown Host headers); both are opened at the public origin and scored
  it('React-style projects behind a public URL: a built project and a dev-server project are opened at deploy.publicUrl through run-server', async () => {
    const port = await getPort();
    const server = spawn(process.execPath, [path.join(ROOT, 'node_modules/playwright-core/cli.js'), 'run-server', '--port', String(port), '--host', '127.0.0.1', '--unsafe'], { env: process.env });
    children.push(server);
    await waitForLine(server, /Listening on (ws:\/\/\S+)/);
    const dir = tmpDir('cookie-remote-project-');
    const app = (title: string, extra = "''") => `'<!DOCTYPE html><html lang="en"><head><title>${title}</title></head><body><h1>${title}</h1><button onclick="this.textContent=\\'Clicked\\'">Click me</button><p>' + ${extra} + '</p></body></html>'`;
    writeFiles(dir, {
      'built/package.json': JSON.stringify({ name: 'built', version: '1.0.0', private: true, scripts: { build: 'node build.js' } }),
      'built/build.js': `require('fs').mkdirSync('dist', { recursive: true }); require('fs').writeFileSync('dist/index.html', ${app('Built counter')});`,
      'dev/package.json': JSON.stringify({ name: 'dev', version: '1.0.0', private: true, scripts: { dev: 'vite' }, devDependencies: { vite: 'file:./fv' } }),
      'dev/fv/package.json': JSON.stringify({ name: 'vite', version: '0.0.1', bin: { vite: 'cli.js' } }),
      'dev/fv/cli.js': `#!/usr/bin/env node
const port = Number(process.argv[process.argv.indexOf('--port') + 1]);
require('http').createServer((q, r) => r.end(${app('Dev counter', "'allowed hosts: ' + process.env.__VITE_ADDITIONAL_SERVER_ALLOWED_HOSTS + '; host header: ' + q.headers.host")})).listen(port, '127.0.0.1');
`,
      'p.cookie.yaml': 'query: { id: counter, prompt: "A page with a button that says it was clicked.", language: en, kind: dynamic }\ncandidates: [ { name: built, mode: react, path: built }, { name: dev, mode: react, path: dev } ]\n',
      'cookie.config.ts': `export default { recording: { video: false, audio: false }, browser: { wsEndpoint: 'ws://127.0.0.1:${port}/' }, deploy: { host: '0.0.0.0', publicUrl: 'http://localhost:{port}' } };\n`,
    });
    const r = await runCli(['test', dir, '--output-dir', path.join(dir, 'out'), '--steps', '4'], { cwd: dir });
    const run = readResults(path.join(dir, 'out'));
    for (const name of ['built', 'dev']) {
      const result = run.evaluations.find((e) => e.candidate === name)!;
      expect(result, `${name}: ${r.stdout}${r.stderr}`).toMatchObject({ status: 'scored' });
      const ev = JSON.parse(fs.readFileSync(path.join(dir, 'out', result.evidenceDir, 'evidence.json'), 'utf8'));
      const appPort: number = ev.deploy.port;
      expect(ev.deploy).toMatchObject({ url: `http://localhost:${appPort}/`, localUrl: `http://127.0.0.1:${appPort}/`, host: '0.0.0.0' });
      expect(ev.navigations[0]).toMatchObject({ url: `http://localhost:${appPort}/`, offApp: false });
      expect(ev.static.inventory.title).toBe(name === 'built' ? 'Built counter' : 'Dev counter');
      if (name === 'dev') expect(ev.static.inventory.textSample).toContain(`allowed hosts: localhost; host header: localhost:${appPort}`);
      expect(ev.interaction.steps.some((st: { action?: { target?: { name?: string } } }) => st.action?.target?.name === 'Click me')).toBe(true);
    }
  });

  it('evaluates through a running Chromium over CDP (cdpEndpoint)', async () => {
    const chrome = spawn('/usr/bin/chromium', ['--headless=new', '--remote-debugging-port=0', '--remote-debugging-address=127.0.0.1', `--user-data-dir=${tmpDir('cookie-cdp-profile-')}`, ...CHROMIUM_ARGS, 'about:blank'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(chrome);
    const ws = await waitForLine(chrome, /DevTools listening on (ws:\/\/\S+)/);
    const dir = tmpDir('cookie-remote-cdp-');
    writeFiles(dir, { 'tip.html': page(canaryPort), 'tip.cookie.yaml': spec, 'cookie.config.ts': `export default { recording: { video: false, audio: false }, browser: { cdpEndpoint: '${ws}' } };\n` });
    const before = canaryHits;
    await runCli(['test', dir, '--output-dir', path.join(dir, 'out'), '--steps', '5', '--silent'], { cwd: dir });
    const run = readResults(path.join(dir, 'out'));
    expect(run.evaluations[0]).toMatchObject({ status: 'scored' });
    expect(canaryHits - before).toBe(0);
    expect(chrome.exitCode).toBeNull(); // Cookie disconnected; the user's browser keeps running
  });

  it('an unreachable endpoint is one clear line with the fix', async () => {
    const dir = tmpDir('cookie-remote-bad-');
    const port = await getPort();
    writeFiles(dir, { 'tip.html': page(canaryPort), 'tip.cookie.yaml': spec, 'cookie.config.ts': `export default { browser: { wsEndpoint: 'ws://127.0.0.1:${port}/' } };\n` });
    const r = await runCli(['test', dir, '--output-dir', path.join(dir, 'out')], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toMatch(/could not connect to the Playwright server at ws:\/\/127\.0\.0\.1:\d+\/: .*Fix: start it/);
  });
});
