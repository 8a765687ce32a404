import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalName, isDeniedRelative, requestPath, startStaticServer, type StaticServer } from '../../src/deploy/static-server.js';

// The candidate's folder is served and nothing else: no path traversal, no symlinks out of it, no dotfiles,
// specs, configs or output dir however the path is spelled, and nothing that is not a regular file.
let server: StaticServer;
let spa: StaticServer;
let base: string;
let root: string;
let sockServer: net.Server;
const SECRET = {
  dotenv: 'SECRET-DOTENV-7c1',
  git: 'SECRET-GITCONFIG-9a2',
  spec: 'SECRET-SPEC-4d8',
  specTs: 'SECRET-SPECTS-1e5',
  config: 'SECRET-CONFIG-6b3',
  results: 'SECRET-RESULTS-2f9',
  npmrc: 'SECRET-NPMRC-8c4',
  unicodeSpec: 'SECRET-UNICODE-SPEC-5a7',
};
beforeAll(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'cookie-static-'));
  root = path.join(base, 'app');
  const files: Record<string, string> = {
    'index.html': '<h1>app</h1>',
    'js/app.js': 'console.log(1)',
    'Über uns/café.html': '<p>café</p>',
    'css/site.css': 'body{margin:0}',
    '.env': SECRET.dotenv,
    '.git/config': SECRET.git,
    '.npmrc': SECRET.npmrc,
    'decoy.cookie.yaml': SECRET.spec,
    'tests/app.cookie.spec.ts': SECRET.specTs,
    'cookie.config.ts': SECRET.config,
    'out/results.json': SECRET.results,
    'out/evidence/a/evidence.json': SECRET.results,
    'spéc.cookie.yml': SECRET.unicodeSpec,
  };
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  fs.writeFileSync(path.join(base, 'outside-secret.txt'), 'OUTSIDE');
  fs.symlinkSync(path.join(base, 'outside-secret.txt'), path.join(root, 'leak.txt'));
  fs.symlinkSync('/etc', path.join(root, 'linketc'));
  fs.symlinkSync(path.join(root, 'js'), path.join(root, 'scripts')); // a symlink that stays inside is fine
  fs.symlinkSync('decoy.cookie.yaml', path.join(root, 'innocent.txt')); // an innocent name for a spec
  fs.symlinkSync('.env', path.join(root, 'env.txt'));
  fs.symlinkSync('out', path.join(root, 'public')); // an innocent name for the output dir
  execFileSync('mkfifo', [path.join(root, 'pipe.txt'), path.join(root, 'data.json')]);
  execFileSync('mkfifo', [path.join(root, 'js', 'index.html')]); // a FIFO as a folder's index
  sockServer = net.createServer();
  await new Promise<void>((r) => sockServer.listen(path.join(root, 'sock.js'), () => r()));
  server = await startStaticServer(root, { deny: [path.join(root, 'out')] });
  spa = await startStaticServer(root, { spa: true, deny: [path.join(root, 'out')] });
});
afterAll(async () => {
  await server.close();
  await spa.close();
  await new Promise<void>((r) => sockServer.close(() => r()));
  fs.rmSync(base, { recursive: true, force: true });
});

/** A raw GET with the request target sent byte for byte (fetch would normalise it first). */
const raw = (origin: string, target: string): Promise<[number, string]> =>
  new Promise((resolve, reject) => {
    const u = new URL(origin);
    const req = http.request({ host: u.hostname, port: u.port, path: target, method: 'GET', agent: false, signal: AbortSignal.timeout(20_000) }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve([res.statusCode ?? 0, body]));
    });
    req.on('error', reject);
    req.end();
  });
const get = (p: string) => raw(server.origin, p);

describe('static server', () => {
  it('serves the candidate folder, including symlinks that stay inside it', async () => {
    expect(await get('/')).toEqual([200, '<h1>app</h1>']);
    expect(await get('/scripts/app.js')).toEqual([200, 'console.log(1)']);
    expect(await get('/%C3%9Cber%20uns/caf%C3%A9.html')).toEqual([200, '<p>café</p>']);
  });
  it('never follows a symlink out of the folder, never serves dotfiles or traverses up', async () => {
    for (const p of ['/leak.txt', '/linketc/passwd', '/.env', '/../outside-secret.txt', '/%2e%2e/outside-secret.txt', '/..%2foutside-secret.txt', '/innocent.txt', '/env.txt', '/public/results.json']) {
      expect((await get(p))[0], p).toBe(404);
    }
  });
  it('answers the favicon with 204 when the app has none', async () => {
    expect((await fetch(`${server.origin}/favicon.ico`)).status).toBe(204);
  });
  it('serves byte ranges (media seeking) and HEAD; refuses other methods', async () => {
    const r = await fetch(`${server.origin}/js/app.js`, { headers: { range: 'bytes=2-5' } });
    expect([r.status, r.headers.get('content-range'), await r.text()]).toEqual([206, 'bytes 2-5/14', 'nsol']);
    expect((await fetch(`${server.origin}/js/app.js`, { method: 'HEAD' })).headers.get('content-length')).toBe('14');
    expect((await fetch(`${server.origin}/js/app.js`, { method: 'POST', body: 'x' })).status).toBe(405);
  });
});

describe('path normalisation (unit)', () => {
  it('resolves dot segments, escapes and backslashes before any rule; refuses what escapes', () => {
    expect(requestPath('/a//b/./c/')).toBe('a/b/c');
    expect(requestPath('/a/%2e%2E/b')).toBe('b');
    expect(requestPath('/a\\b')).toBe('a/b');
    expect(requestPath('/a%5cb')).toBe('a/b');
    expect(requestPath('/..%2f..%2fetc/passwd')).toBeNull();
    expect(requestPath('/a%00b')).toBeNull();
    expect(requestPath('/%E0%A4%A')).toBeNull();
  });
  it('denies dotfiles, specs and configs in every case and Unicode form', () => {
    for (const p of ['.env', 'a/.git/config', 'DECOY.COOKIE.YAML', 'decoy.cookie.yaml.', 'decoy\uFF0Ecookie\uFF0Eyaml', 'x/Cookie.Config.TS', 'a.cookie.spec.mts', '\uFF0Eenv']) expect(isDeniedRelative(p), p).toBe(true);
    for (const p of ['index.html', 'js/app.js', 'cookie.html', 'docs/cookie-config.md', 'a.cookie.png']) expect(isDeniedRelative(p), p).toBe(false);
    expect(canonicalName('Ｆｏｏ.JS')).toBe('foo.js');
  });
});

// ── fuzz: generated spellings of each protected path; none is ever served, normal files still are ──
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const enc = (ch: string) => [...Buffer.from(ch)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
/** Spellings a browser or an attacker could send for the same path (each keeps it naming the same file on a lenient server). */
function variant(segments: string[], r: () => number, { caseAndUnicode }: { caseAndUnicode: boolean }): string {
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
  let segs = segments.map((s) => {
    let out = '';
    for (const ch of s.normalize(caseAndUnicode && r() < 0.3 ? 'NFD' : 'NFC')) {
      const x = r();
      if (ch === '.' && x < 0.25) out += pick(['%2e', '%2E']);
      else if (ch === '.' && caseAndUnicode && x < 0.35) out += enc('\uFF0E');
      else if (/[a-z]/.test(ch) && caseAndUnicode && x < 0.3) out += ch.toUpperCase();
      else if (x < 0.45 || /[^\x21-\x7e]/.test(ch)) out += enc(ch);
      else out += ch;
    }
    return out;
  });
  if (caseAndUnicode && r() < 0.2) segs[segs.length - 1] += pick(['.', '%2e', '%20']);
  // a detour through another folder: literal `/` around `..` (an escaped `%5c..` is a traversal, refused)
  if (r() < 0.3) segs = segs.map((s) => (r() < 0.5 ? `./${s}` : `zz/../${s}`));
  if (r() < 0.2) segs = segs.flatMap((s) => ['%2e', s]);
  const sep = () => pick(['/', '/', '//', '\\', '%5c', '%5C', '/./']);
  let p = segs.map((s) => sep() + s).join('');
  if (r() < 0.4) p += pick(['/', '//', '\\', '%2f', '/.']);
  if (r() < 0.2) p += pick(['?x=1', '?', '#frag', '?a=/../..']);
  if (!p.startsWith('/')) p = `/${p}`;
  return p;
}

describe('fuzz: path variants of protected files', () => {
  const protectedPaths: [string, string][] = [
    ['.env', SECRET.dotenv],
    ['.git/config', SECRET.git],
    ['.npmrc', SECRET.npmrc],
    ['decoy.cookie.yaml', SECRET.spec],
    ['tests/app.cookie.spec.ts', SECRET.specTs],
    ['cookie.config.ts', SECRET.config],
    ['out/results.json', SECRET.results],
    ['out/evidence/a/evidence.json', SECRET.results],
    ['spéc.cookie.yml', SECRET.unicodeSpec],
    ['innocent.txt', SECRET.spec],
    ['public/results.json', SECRET.results],
  ];
  it('no spelling of a dotfile, spec, config or output-dir path is ever served (static and SPA servers)', async () => {
    const r = rng(19);
    const tried = new Set<string>();
    for (const [rel, secret] of protectedPaths) {
      for (let i = 0; i < 40; i++) {
        const v = variant(rel.split('/'), r, { caseAndUnicode: true });
        if (tried.has(v)) continue;
        tried.add(v);
        for (const origin of [server.origin, spa.origin]) {
          const [status, body] = await raw(origin, v);
          expect(body, `${v} answered ${status}`).not.toContain(secret);
          if (origin === server.origin) expect(status, v).not.toBe(200);
        }
      }
    }
    expect(tried.size).toBeGreaterThan(300);
  });
  it('the same kinds of spelling still reach ordinary files', async () => {
    const r = rng(7);
    const ordinary: [string, string][] = [
      ['js/app.js', 'console.log(1)'],
      ['css/site.css', 'body{margin:0}'],
      ['Über uns/café.html', '<p>café</p>'],
    ];
    let served = 0;
    const misses: string[] = [];
    for (const [rel, text] of ordinary) {
      for (let i = 0; i < 40; i++) {
        const v = variant(rel.split('/'), r, { caseAndUnicode: false });
        const [status, body] = await get(v);
        // NFD spellings of "café" name no file on a case- and form-exact file system: 404, never another file
        if (status === 200) {
          expect(body, v).toBe(text);
          served++;
        } else {
          expect(status, v).toBe(404);
          misses.push(v);
        }
      }
    }
    expect(served, misses.join('\n')).toBeGreaterThan(80);
  });
});

describe('only regular files are served, and never by blocking', () => {
  it('FIFOs and sockets are refused without opening them; the server and the thread pool stay free', async () => {
    // more concurrent requests than libuv has pool threads (4): one blocking open each would stall them all
    const asks = Array.from({ length: 12 }, (_, i) => get(['/pipe.txt', '/data.json', '/js/', '/sock.js'][i % 4]!));
    const answers = await Promise.all(asks);
    expect(answers.map((a) => a[0])).toEqual(Array(12).fill(404));
    // the shared thread pool is not stalled: an ordinary async read and an ordinary page both finish
    expect(await fs.promises.readFile(path.join(root, 'index.html'), 'utf8')).toBe('<h1>app</h1>');
    expect(await get('/js/app.js')).toEqual([200, 'console.log(1)']);
    // the SPA server answers a FIFO path with its index.html, never by opening the FIFO
    expect(await raw(spa.origin, '/pipe.txt')).toEqual([200, '<h1>app</h1>']);
  });
});
