import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, fenceArgs } from '../../src/browser/launch.js';
import { startFenceProxy, type FenceProxy } from '../../src/browser/fence-proxy.js';
import { resolveConfig } from '../../src/config/load.js';
import { deploy } from '../../src/deploy/deploy.js';
import { projectOptionsOf } from '../../src/deploy/project.js';
import { startStaticServer, type StaticServer } from '../../src/deploy/static-server.js';
import type { EvaluationTask } from '../../src/types.js';
import { deployNotes, hostAndPort, localOriginOf, publicOriginFor, publicUrlProblem, resolvablePattern, substitutePort } from '../../src/util/public-url.js';
import { tmpDir, writeFiles } from '../helpers.js';

// Config `deploy` (issue 15 point 2): where apps listen (`host`) and the origin a remote browser reaches them by
// (`publicUrl`, `{port}` = the OS-assigned port); the fence treats the public origin as the app's.

describe('deploy config: parsing and errors', () => {
  const bad = (deploy: Record<string, unknown>) => () => resolveConfig({ deploy }, 'cookie.config.ts');

  it('defaults to loopback and no public URL', () => {
    expect(resolveConfig({}).deploy).toEqual({ host: '127.0.0.1' });
    expect(resolveConfig({ deploy: { host: '0.0.0.0', publicUrl: 'http://host.docker.internal:{port}' } }).deploy).toEqual({ host: '0.0.0.0', publicUrl: 'http://host.docker.internal:{port}' });
    // a tunnel on this machine reaches loopback: a public URL with the default host is fine
    expect(resolveConfig({ deploy: { publicUrl: 'https://{port}.tunnel.example' } }).deploy.host).toBe('127.0.0.1');
    expect(resolveConfig({ deploy: { host: '::', publicUrl: 'http://[fd00::2]:{port}/' } }).deploy.host).toBe('::');
  });

  it('an unparsable publicUrl is an error naming the field and the fix', () => {
    expect(bad({ publicUrl: 'not a url {port}' })).toThrow(/^cookie\.config\.ts: deploy\.publicUrl: "not a url \{port\}" is not a URL.*\. Fix: write a full origin such as http:\/\/host\.docker\.internal:\{port\}/);
    expect(bad({ publicUrl: 'http://h:{port}x' })).toThrow(/deploy\.publicUrl: .* is not a URL/);
  });

  it('a publicUrl without {port}, with a path, another scheme or credentials is an error with its fix', () => {
    expect(bad({ publicUrl: 'http://host.docker.internal:8080' })).toThrow(/deploy\.publicUrl: "http:\/\/host\.docker\.internal:8080" has no \{port\}: every app is served on its own port.*Fix: put \{port\} where the port goes/);
    expect(bad({ publicUrl: 'http://h:{port}/app/' })).toThrow(/deploy\.publicUrl: .* must be an origin.*Fix: drop everything after the host and port/);
    expect(bad({ publicUrl: 'http://h:{port}/?x=1' })).toThrow(/must be an origin/);
    expect(bad({ publicUrl: 'ftp://h:{port}' })).toThrow(/deploy\.publicUrl: "ftp:\/\/h:\{port\}" uses ftp:.*Fix: use http:\/\/ or https:\/\//);
    expect(bad({ publicUrl: 'http://u:p@h:{port}' })).toThrow(/deploy\.publicUrl: .* carries credentials\. Fix: remove the user:password@ part/);
    expect(bad({ publicUrl: 42 })).toThrow(/deploy\.publicUrl: /);
  });

  it('a host that is not an IP address, or a wide bind without a public URL, is an error with its fix', () => {
    expect(bad({ host: 'localhost' })).toThrow(/deploy\.host: "localhost" is not an IP address\. Fix: use the address of an interface of this machine: 127\.0\.0\.1 .*0\.0\.0\.0.*deploy\.publicUrl/);
    expect(bad({ host: '0.0.0.0' })).toThrow(/deploy\.host: is 0\.0\.0\.0, which exposes every candidate app on the network, but deploy\.publicUrl is not set.*Fix: set deploy\.publicUrl .* or remove deploy\.host/);
    expect(bad({ host: '192.168.1.20' })).toThrow(/deploy\.host: is 192\.168\.1\.20, which exposes/);
    expect(bad({ publicURL: 'http://h:{port}' })).toThrow(/deploy: unknown key "publicURL"\. Fix: did you mean "publicUrl" instead of "publicURL"\?/);
    expect(bad({ hots: '0.0.0.0' })).toThrow(/deploy: unknown key "hots"\. Fix: remove or rename hots \(a typo\?\); allowed here: host, publicUrl/);
    // both problems at once, one line each
    expect(bad({ host: 'my-box', publicUrl: 'http://x' })).toThrow(/deploy\.host: "my-box" is not an IP address[^\n]*\n.*deploy\.publicUrl: "http:\/\/x" has no \{port\}/);
  });

  it('a publicUrl without a remote browser is allowed, and the run says what it means', () => {
    const local = resolveConfig({ deploy: { publicUrl: 'http://localhost:{port}' } });
    const notes = deployNotes(local);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^deploy\.publicUrl is set but no remote browser is \(browser\.wsEndpoint \/ browser\.cdpEndpoint\): the browser Cookie launches on this machine opens each app at http:\/\/localhost:<port> .* instead of http:\/\/127\.0\.0\.1:<port>; remove deploy\.publicUrl/);
    // with a remote browser that note is not given; binding every interface always says what it exposes
    const remote = resolveConfig({ browser: { wsEndpoint: 'ws://grid:3000/' }, deploy: { host: '0.0.0.0', publicUrl: 'http://host.docker.internal:{port}' } });
    expect(deployNotes(remote)).toEqual([expect.stringMatching(/^deploy\.host is 0\.0\.0\.0: .*each candidate app \(untrusted code\) and its fence proxy listen on every interface of this machine/)]);
    // a Chromium the user started cannot be given the resolver exclusion: say how
    const cdp = resolveConfig({ browser: { cdpEndpoint: 'http://127.0.0.1:9222' }, deploy: { publicUrl: 'http://host.docker.internal:{port}' } });
    expect(deployNotes(cdp)).toEqual([expect.stringMatching(/browser\.cdpEndpoint: .*add ", EXCLUDE host\.docker\.internal"/)]);
    expect(deployNotes(resolveConfig({}))).toEqual([]);
  });
});

describe('public URL substitution', () => {
  it('fills {port} in the port or the host name and gives an origin', () => {
    expect(substitutePort('http://host.docker.internal:{port}', 41234)).toBe('http://host.docker.internal:41234');
    expect(publicOriginFor('http://host.docker.internal:{port}', 41234)).toBe('http://host.docker.internal:41234');
    expect(publicOriginFor('http://host.docker.internal:{port}/', 5)).toBe('http://host.docker.internal:5');
    expect(publicOriginFor('https://{port}.tunnel.example', 41234)).toBe('https://41234.tunnel.example');
    expect(publicOriginFor('https://app-{port}.Tunnel.Example:{port}', 8443)).toBe('https://app-8443.tunnel.example:8443');
    expect(publicOriginFor('http://[fd00::2]:{port}', 41234)).toBe('http://[fd00::2]:41234');
    // the default port of the scheme disappears from the origin, as in the browser
    expect(publicOriginFor('http://localhost:{port}', 80)).toBe('http://localhost');
    expect(publicUrlProblem('http://localhost:{port}')).toBeNull();
    expect(publicUrlProblem('https://{port}.tunnel.example')).toBeNull();
  });

  it('says where this machine reaches a server bound to an interface', () => {
    expect(localOriginOf('127.0.0.1', 8)).toBe('http://127.0.0.1:8');
    expect(localOriginOf('0.0.0.0', 8)).toBe('http://127.0.0.1:8');
    expect(localOriginOf('::', 8)).toBe('http://[::1]:8');
    expect(localOriginOf('192.168.1.20', 8)).toBe('http://192.168.1.20:8');
    expect(localOriginOf('fd00::2', 8)).toBe('http://[fd00::2]:8');
  });

  it('names the host the browser must be allowed to resolve (IP literals too), and nothing for localhost and 127.0.0.1', () => {
    expect(resolvablePattern('http://host.docker.internal:{port}')).toBe('host.docker.internal');
    expect(resolvablePattern('https://{port}.Tunnel.example')).toBe('*.tunnel.example');
    expect(resolvablePattern('http://localhost:{port}')).toBeNull();
    expect(resolvablePattern('http://127.0.0.1:{port}/')).toBeNull();
    expect(resolvablePattern('http://192.168.1.20:{port}')).toBe('192.168.1.20');
    expect(resolvablePattern('http://[FD00::2]:{port}')).toBe('fd00::2');
    expect(fenceArgs([])).toBe(CHROMIUM_ARGS);
    const rules = fenceArgs(['host.docker.internal', '*.tunnel.example', '172.17.0.1', 'fd00::2']).find((a) => a.startsWith('--host-resolver-rules='));
    expect(rules).toBe('--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1, EXCLUDE host.docker.internal, EXCLUDE *.tunnel.example, EXCLUDE 172.17.0.1, EXCLUDE fd00::2');
    expect(fenceArgs(['host.docker.internal']).filter((a) => !a.startsWith('--host-resolver-rules='))).toEqual(CHROMIUM_ARGS.filter((a) => !a.startsWith('--host-resolver-rules=')));
    // a pattern that could smuggle another rule is dropped
    expect(fenceArgs(['x, MAP * 10.0.0.1'])).toBe(CHROMIUM_ARGS);
    expect(hostAndPort('https://a.example')).toEqual({ hostname: 'a.example', port: '443' });
    expect(hostAndPort('http://[::1]:9')).toEqual({ hostname: '[::1]', port: '9' });
  });
});

describe('deploy with a bind address and a public URL', () => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const o of open.splice(0)) await o.close();
  });
  const get = (url: string, localAddress?: string) =>
    new Promise<number>((resolve, reject) => {
      const req = http.get(url, { ...(localAddress ? { localAddress } : {}) }, (res) => (res.resume(), resolve(res.statusCode ?? 0)));
      req.on('error', reject);
    });

  it('binds every interface only when told: reachable at 127.0.0.2 with 0.0.0.0, not with the default', async () => {
    const root = tmpDir('cookie-bind-');
    writeFiles(root, { 'index.html': '<h1>x</h1>' });
    const wide: StaticServer = await startStaticServer(root, { host: '0.0.0.0' });
    open.push(wide);
    expect(wide.host).toBe('0.0.0.0');
    expect(wide.origin).toBe(`http://127.0.0.1:${wide.port}`);
    expect(await get(`http://127.0.0.2:${wide.port}/`)).toBe(200); // another address than 127.0.0.1: a wide bind
    const narrow = await startStaticServer(root);
    open.push(narrow);
    expect(narrow.host).toBe('127.0.0.1');
    expect(await get(`${narrow.origin}/`)).toBe(200);
    await expect(get(`http://127.0.0.2:${narrow.port}/`)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('records the local and the public URL of the same port', async () => {
    const dir = tmpDir('cookie-deploy-public-');
    writeFiles(dir, { 'my app.html': '<h1>x</h1>' });
    const task = { id: 'q/c', suiteFile: path.join(dir, 's.cookie.yaml'), query: { id: 'q', prompt: 'p', language: 'en', kind: 'static' }, candidate: { name: 'c', mode: 'html', artifactPath: path.join(dir, 'my app.html') }, thresholds: {} } as unknown as EvaluationTask;
    const config = resolveConfig({ deploy: { host: '0.0.0.0', publicUrl: 'http://localhost:{port}' } });
    const d = await deploy(task, projectOptionsOf(config), [], config.deploy);
    open.push(d);
    const { port } = d.evidence;
    expect(d.evidence).toMatchObject({ url: `http://localhost:${port}/my%20app.html`, publicUrl: `http://localhost:${port}/my%20app.html`, localUrl: `http://127.0.0.1:${port}/my%20app.html`, host: '0.0.0.0' });
    expect(await get(d.evidence.localUrl!)).toBe(200);
    // without deploy settings: loopback, the local URL opened, no public URL recorded
    const plain = await deploy(task, projectOptionsOf(config), []);
    open.push(plain);
    expect(plain.evidence).toMatchObject({ url: `http://127.0.0.1:${plain.evidence.port}/my%20app.html`, localUrl: `http://127.0.0.1:${plain.evidence.port}/my%20app.html`, host: '127.0.0.1' });
    expect(plain.evidence.publicUrl).toBeUndefined();
    expect(fs.existsSync(dir)).toBe(true);
  });

  it('the fence proxy treats the public origin as the app and forwards it to the local one; the local origin string is refused', async () => {
    const app = http.createServer((req, res) => res.end(`app saw ${req.url} host=${req.headers.host}`));
    await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
    const appPort = (app.address() as net.AddressInfo).port;
    open.push({ close: () => new Promise<void>((r) => (app.closeAllConnections(), app.close(() => r()))) });
    const blocked: string[] = [];
    const proxy: FenceProxy = await startFenceProxy(`http://localhost:${appPort}`, (u) => blocked.push(u), { upstreamOrigin: `http://127.0.0.1:${appPort}`, host: '0.0.0.0' });
    open.push(proxy);
    expect(proxy.server).toBe(`http://127.0.0.1:${proxy.port}`);
    const viaProxy = (target: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.2', port: proxy.port, path: target, headers: { host: new URL(target).host } }, (res) => {
          let body = '';
          res.on('data', (d) => (body += d)).on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject).end();
      });
    expect(await viaProxy(`http://localhost:${appPort}/tip.html?x=1`)).toEqual({ status: 200, body: `app saw /tip.html?x=1 host=localhost:${appPort}` });
    expect((await viaProxy(`http://127.0.0.1:${appPort}/local`)).status).toBe(403);
    expect((await viaProxy(`http://localhost:${appPort + 1}/other-port`)).status).toBe(403);
    expect(blocked).toEqual([`http://127.0.0.1:${appPort}/local`, `http://localhost:${appPort + 1}/other-port`]);
    // CONNECT (a WebSocket through the proxy): the public host:port is tunnelled to the app, anything else refused
    const connect = (authority: string) =>
      new Promise<string>((resolve, reject) => {
        const s = net.connect(proxy.port, '127.0.0.1', () => s.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`));
        let buf = '';
        let sent = false;
        s.on('data', (d) => {
          buf += d;
          if (sent || !buf.includes('\r\n\r\n')) return;
          if (!/^HTTP\/1\.1 200/.test(buf)) return void (s.destroy(), resolve(buf.split('\r\n')[0]!));
          sent = true;
          s.write(`GET /through-tunnel HTTP/1.1\r\nHost: ${authority}\r\nConnection: close\r\n\r\n`);
        });
        s.on('end', () => resolve(buf.slice(buf.indexOf('app saw'))));
        s.on('error', reject);
      });
    expect(await connect(`localhost:${appPort}`)).toBe(`app saw /through-tunnel host=localhost:${appPort}`);
    expect(await connect(`127.0.0.1:${appPort}`)).toMatch(/^HTTP\/1\.1 403/);
    expect(blocked).toContain(`tunnel 127.0.0.1:${appPort}`);
  });
});
