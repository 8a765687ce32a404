import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reduceNpmrc, refusedDependencies } from '../../src/deploy/dependencies.js';
import { startRegistryProxy } from '../../src/deploy/registry-proxy.js';
import { tmpDir, writeFiles } from '../helpers.js';

const REGISTRY = 'https://registry.npmjs.org/';
const pkg = (o: Record<string, unknown>) => JSON.stringify({ name: 'app', version: '1.0.0', private: true, ...o });
const refusedIn = (files: Record<string, string>, registry = REGISTRY) => {
  const dir = tmpDir('cookie-deps-');
  writeFiles(dir, files);
  return refusedDependencies(path.join(dir, 'app'), registry).map((r) => `${r.name} | ${r.field} | ${r.reason}`);
};

describe('only registry dependencies are installed (issue 19 point 1)', () => {
  it('accepts versions, ranges, dist-tags, npm: aliases and folders inside the project', () => {
    expect(
      refusedIn({
        'app/package.json': pkg({
          dependencies: { react: '^19.0.0', 'lucide-react': 'latest', '@radix-ui/react-slot': '1.2.3', compat: 'npm:react@^18' },
          devDependencies: { vite: '~7.3.0', local: 'file:./packages/local', rel: './packages/rel' },
          overrides: { react: '$react', 'some-dep': { '.': '2.0.0', nested: '^1' } },
        }),
        'app/packages/local/package.json': pkg({ name: 'local', dependencies: { clsx: '^2' } }),
        'app/packages/rel/package.json': pkg({ name: 'rel' }),
      }),
    ).toEqual([]);
  });

  it('refuses git, tarball URLs, http and paths outside the project in every dependency field, with the field named', () => {
    const got = refusedIn({
      'app/package.json': pkg({
        dependencies: { hosted: 'github:evil/repo', tarball: 'https://example.com/t.tgz' },
        devDependencies: { outside: 'file:../../etc', home: '~/secret' },
        optionalDependencies: { x: 'git+http://127.0.0.1:9/x.git' },
        peerDependencies: { plain: 'http://127.0.0.1:9/p.tgz' },
        overrides: { lodash: 'git+ssh://git@example.com/l.git' },
      }),
    });
    expect(got).toEqual(
      expect.arrayContaining([
        'hosted | dependencies | a git repository',
        'tarball | dependencies | a tarball URL',
        'outside | devDependencies | a path outside the project',
        'home | devDependencies | a path outside the project',
        'x | optionalDependencies | a git repository',
        'plain | peerDependencies | a tarball URL over plain http',
        'lodash | overrides | a git repository',
      ]),
    );
    expect(got).toHaveLength(7);
  });

  it('looks into in-project folder dependencies and workspaces, and an alias of a git URL is refused', () => {
    const got = refusedIn({
      'app/package.json': pkg({ dependencies: { inner: 'file:./inner', alias: 'npm:foo@git+https://example.com/f.git' }, workspaces: ['ws/*'] }),
      'app/inner/package.json': pkg({ name: 'inner', dependencies: { deep: 'https://example.com/deep.tgz' } }),
      'app/ws/one/package.json': pkg({ name: 'one', optionalDependencies: { gitdep: 'gitlab:a/b' } }),
    });
    expect(got).toEqual(expect.arrayContaining(['deep | inner: dependencies | a tarball URL', 'gitdep | ws/one: optionalDependencies | a git repository']));
    expect(got.some((g) => g.startsWith('alias | dependencies | not a spec npm accepts'))).toBe(true);
  });

  it('checks every resolved URL of the lockfile (v3 and v1) against the registry', () => {
    const got = refusedIn({
      'app/package.json': pkg({ dependencies: { 'left-pad': '^1.3.0', ok: '^1.0.0' } }),
      'app/package-lock.json': JSON.stringify({
        lockfileVersion: 3,
        packages: {
          '': { name: 'app' },
          'node_modules/ok': { version: '1.0.0', resolved: 'https://registry.npmjs.org/ok/-/ok-1.0.0.tgz' },
          'node_modules/left-pad': { version: '1.3.0', resolved: 'http://127.0.0.1:9/left-pad-1.3.0.tgz' },
          'node_modules/g': { version: '1.0.0', resolved: 'git+ssh://git@github.com/a/g.git#abc' },
          'node_modules/linked': { resolved: '../../outside', link: true },
        },
      }),
    });
    expect(got).toEqual(
      expect.arrayContaining(['left-pad | package-lock.json | plain http, not the registry', 'g | package-lock.json | a git repository', 'linked | package-lock.json | a path outside the project']),
    );
    expect(got.some((g) => g.startsWith('ok |'))).toBe(false);
    const v1 = refusedIn({
      'app/package.json': pkg({ dependencies: { a: '^1' } }),
      'app/package-lock.json': JSON.stringify({ lockfileVersion: 1, dependencies: { a: { version: '1.0.0', resolved: 'https://evil.example/a.tgz', dependencies: { b: { version: 'github:x/y' } } } } }),
    });
    expect(v1).toEqual(expect.arrayContaining(['a | package-lock.json | not the registry', 'b | package-lock.json | a git repository']));
  });

  it('a mirror registry: its own URLs and registry.npmjs.org ones (npm rewrites them) are accepted, others not', () => {
    const files = {
      'app/package.json': pkg({ dependencies: { a: '^1', b: '^1', c: '^1' } }),
      'app/package-lock.json': JSON.stringify({
        lockfileVersion: 3,
        packages: {
          'node_modules/a': { resolved: 'http://127.0.0.1:4873/npm/a/-/a-1.0.0.tgz' },
          'node_modules/b': { resolved: 'https://registry.npmjs.org/b/-/b-1.0.0.tgz' },
          'node_modules/c': { resolved: 'http://127.0.0.1:4873/other/c-1.0.0.tgz' },
        },
      }),
    };
    expect(refusedIn(files, 'http://127.0.0.1:4873/npm/')).toEqual(['c | package-lock.json | plain http, not the registry']);
  });
});

describe("a candidate's .npmrc is reduced to harmless keys", () => {
  it('keeps legacy-peer-deps and the like; drops registry, git, proxies, scripts, tokens and ${VAR} values', () => {
    const { kept, dropped } = reduceNpmrc(
      ['legacy-peer-deps=true', 'git=./evil-git', 'registry=http://127.0.0.1:9/', '@evil:registry=http://x/', '//registry.npmjs.org/:_authToken=${NPM_TOKEN}', 'script-shell=./sh', 'https-proxy=http://x', 'save-exact = true', 'engine-strict=${HOME}', '; comment', ''].join('\n'),
    );
    expect(kept).toBe('legacy-peer-deps=true\nsave-exact=true\n');
    expect(dropped).toEqual(['git', 'registry', '@evil:registry', '//registry.npmjs.org/:_authToken', 'script-shell', 'https-proxy', 'engine-strict']);
  });
});

describe("Cookie's registry proxy lets through the registry and nothing else", () => {
  let registry: http.Server;
  let canary: net.Server;
  let canaryHits = 0;
  let regPort = 0;
  let canaryPort = 0;
  beforeAll(async () => {
    registry = http.createServer((q, r) => r.end(`registry saw ${q.url}`));
    canary = net.createServer((c) => (canaryHits++, c.destroy()));
    await new Promise<void>((r) => registry.listen(0, '127.0.0.1', r));
    await new Promise<void>((r) => canary.listen(0, '127.0.0.1', r));
    regPort = (registry.address() as net.AddressInfo).port;
    canaryPort = (canary.address() as net.AddressInfo).port;
  });
  afterAll(() => (registry.close(), canary.close()));

  /** Send a raw request through the proxy's Unix socket; resolves with the whole answer. */
  const raw = (socket: string, text: string) =>
    new Promise<string>((resolve) => {
      const c = net.connect(socket, () => c.write(text));
      let out = '';
      c.on('data', (d) => (out += d)).on('close', () => resolve(out)).on('error', () => resolve(out));
    });

  it('forwards absolute-form requests to the registry and refuses other hosts, ports and CONNECT, recording each', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cookie-proxy-'));
    const sock = path.join(dir, 'p.sock');
    const proxy = await startRegistryProxy(sock, `http://127.0.0.1:${regPort}/`);
    try {
      const ok = await raw(sock, `GET http://127.0.0.1:${regPort}/react HTTP/1.1\r\nhost: 127.0.0.1:${regPort}\r\nconnection: close\r\n\r\n`);
      expect(ok).toMatch(/^HTTP\/1.1 200/);
      expect(ok).toContain('registry saw');
      const other = await raw(sock, `GET http://127.0.0.1:${canaryPort}/x.tgz HTTP/1.1\r\nhost: x\r\n\r\n`);
      expect(other).toMatch(/^HTTP\/1.1 403/);
      const tunnel = await raw(sock, `CONNECT 127.0.0.1:${canaryPort} HTTP/1.1\r\nhost: x\r\n\r\n`);
      expect(tunnel).toMatch(/^HTTP\/1.1 403/); // an http registry: no tunnels at all
      const sameHostOtherPort = await raw(sock, `GET http://127.0.0.1:${canaryPort}/react HTTP/1.1\r\n\r\n`);
      expect(sameHostOtherPort).toMatch(/^HTTP\/1.1 403/);
      expect(canaryHits).toBe(0);
      expect(proxy.refused).toEqual([`GET http://127.0.0.1:${canaryPort}/x.tgz`, `CONNECT 127.0.0.1:${canaryPort}`, `GET http://127.0.0.1:${canaryPort}/react`]);
      expect(proxy.allowed).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  it('an https registry: only CONNECT to its host and port', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cookie-proxy-'));
    const sock = path.join(dir, 'p.sock');
    const proxy = await startRegistryProxy(sock, `https://127.0.0.1:${regPort}/`);
    try {
      const ok = await raw(sock, `CONNECT 127.0.0.1:${regPort} HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\nhost: a\r\nconnection: close\r\n\r\n`);
      expect(ok).toMatch(/^HTTP\/1.1 200 Connection Established\r\n\r\nHTTP\/1.1 200/); // the tunnel carries bytes through unchanged
      expect(await raw(sock, `CONNECT evil.example:443 HTTP/1.1\r\n\r\n`)).toMatch(/^HTTP\/1.1 403/);
      expect(await raw(sock, `GET http://127.0.0.1:${regPort}/react HTTP/1.1\r\n\r\n`)).toMatch(/^HTTP\/1.1 403/); // plain http to an https registry
      expect(proxy.refused).toEqual(['CONNECT evil.example:443', `GET http://127.0.0.1:${regPort}/react`]);
    } finally {
      await proxy.close();
    }
  });
});
