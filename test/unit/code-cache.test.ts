import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CODE_CACHE_MAX_ENTRIES, CODE_CACHE_MIN_BYTES, codeCacheDir, PLAYWRIGHT_BUNDLES } from '../../src/util/code-cache.js';

// The V8 code cache of large CommonJS files (src/util/code-cache.ts, issue 13: Playwright's bundles load in
// about half the time). Each case runs in a fresh Node process (the cache is read when a file is compiled,
// written when the process exits), through the built module the CLI uses.
const ROOT = path.resolve(__dirname, '../..');
const MODULE = pathToFileURL(path.join(ROOT, 'dist/src/util/code-cache.js')).href;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'cookie-code-cache-'));
  dirs.push(d);
  return d;
};

/** A large CommonJS module that uses what Node gives a module: require, require.resolve, __dirname, module; and import(). */
function writeLargeModule(dir: string, salt = ''): string {
  fs.writeFileSync(path.join(dir, 'helper.js'), 'module.exports = { twice: (n) => 2 * n };\n');
  const fns = Array.from({ length: 7000 }, (_, i) => `function f${i}(x) { return x + ${i} /*${salt}*/; }`).join('\n');
  const src = `${fns}\nconst helper = require('./helper');\nmodule.exports = { sum: f6999(1), twice: helper.twice(21), resolved: require.resolve('./helper'), dir: __dirname, same: module.exports === exports, later: () => import('node:path').then((m) => typeof m.join, (e) => e.code) };\n`;
  expect(src.length).toBeGreaterThanOrEqual(CODE_CACHE_MIN_BYTES);
  const file = path.join(dir, 'large.js');
  fs.writeFileSync(file, src);
  return file;
}

/** Require `target` in a fresh Node process through requireWithCodeCache; what it exported, what the cache did, what it printed. */
function load(target: string, env: Record<string, string>, files: RegExp = /[\\/]large\.js$/, nodeFlags: string[] = []): { value: Record<string, unknown>; uses: { file: string; entry: string; state: string }[]; stderr: string } {
  const script = `
    import { requireWithCodeCache } from ${JSON.stringify(MODULE)};
    const uses = [];
    const m = requireWithCodeCache(${JSON.stringify(target)}, ${JSON.stringify(pathToFileURL(path.join(ROOT, 'package.json')).href)}, new RegExp(${JSON.stringify(files.source)}), uses);
    const value = typeof m.chromium === 'object' ? { launch: typeof m.chromium.launch } : { ...m, later: await m.later() };
    console.log(JSON.stringify({ value, uses }));`;
  const r = spawnSync(process.execPath, [...nodeFlags, '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env } });
  expect(r.status, r.stderr).toBe(0);
  return { ...JSON.parse(r.stdout.trim().split('\n').pop()!), stderr: r.stderr };
}

describe('V8 code cache of large CommonJS files', () => {
  it('compiles a large module from its cache in the next process, with require, __dirname and module as Node gives them; import() inside it rejects', () => {
    const dir = tmp();
    const cache = path.join(tmp(), 'v8');
    const file = writeLargeModule(dir);
    // import() in a cached file: Node 20 has no callback for it (the documented difference; never an experimental warning)
    const expected = { sum: 7000, twice: 42, resolved: path.join(dir, 'helper.js'), dir, same: true, later: 'ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING' };
    const first = load(file, { COOKIE_CODE_CACHE_DIR: cache });
    expect(first.value).toEqual(expected);
    expect(first.stderr).toBe('');
    expect(first.uses).toEqual([{ file, entry: expect.stringContaining(cache), state: 'miss' }]);
    // written when that process ended; the small helper is never cached
    expect(fs.readdirSync(cache)).toEqual([path.basename(first.uses[0]!.entry)]);
    const second = load(file, { COOKIE_CODE_CACHE_DIR: cache });
    expect(second.value).toEqual(expected);
    expect(second.uses.map((u) => u.state)).toEqual(['hit']);
    expect(second.stderr).toBe('');
    // a file the pattern does not name loads through Node as usual: its import() works, nothing is cached
    const other = load(file, { COOKIE_CODE_CACHE_DIR: path.join(tmp(), 'v8') }, /never-this-file/);
    expect(other.uses).toEqual([]);
    expect(other.value.later).toBe('function');
  });

  it('a damaged entry is refused by V8: the module compiles as usual and the entry is written afresh', () => {
    const dir = tmp();
    const cache = path.join(tmp(), 'v8');
    const file = writeLargeModule(dir);
    const { entry } = load(file, { COOKIE_CODE_CACHE_DIR: cache }).uses[0]!;
    fs.writeFileSync(entry, fs.readFileSync(entry).subarray(0, 200));
    const damaged = load(file, { COOKIE_CODE_CACHE_DIR: cache });
    expect(damaged.uses.map((u) => u.state)).toEqual(['rejected']);
    expect(damaged.value.sum).toBe(7000);
    expect(load(file, { COOKIE_CODE_CACHE_DIR: cache }).uses.map((u) => u.state)).toEqual(['hit']);
  });

  it('changed content gets its own entry (never the old code); the folder keeps only the newest entries', () => {
    const dir = tmp();
    const cache = path.join(tmp(), 'v8');
    const file = writeLargeModule(dir);
    const old = load(file, { COOKIE_CODE_CACHE_DIR: cache }).uses[0]!.entry;
    // same length, other code: V8's own check compares only the source's length
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('f6999(1)', 'f6998(1)'));
    const changed = load(file, { COOKIE_CODE_CACHE_DIR: cache });
    expect(changed.value.sum).toBe(6999);
    expect(changed.uses[0]!.state).toBe('miss');
    expect(changed.uses[0]!.entry).not.toBe(old);
    // more contents than the cap: the oldest entries go, the newest stay
    const entries: string[] = [old, changed.uses[0]!.entry];
    for (let i = 0; i < CODE_CACHE_MAX_ENTRIES; i++) {
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/sum: f\d+\(1\)/, `sum: f${6990 - i}(1)`));
      entries.push(load(file, { COOKIE_CODE_CACHE_DIR: cache }).uses[0]!.entry);
    }
    expect(fs.readdirSync(cache).sort()).toEqual(entries.slice(-CODE_CACHE_MAX_ENTRIES).map((e) => path.basename(e)).sort());
  });

  it('processes started with other V8 flags keep entries of their own instead of rewriting one in turn', () => {
    const dir = tmp();
    const cache = path.join(tmp(), 'v8');
    const file = writeLargeModule(dir);
    const plain = () => load(file, { COOKIE_CODE_CACHE_DIR: cache });
    const flagged = () => load(file, { COOKIE_CODE_CACHE_DIR: cache }, undefined, ['--stack-size=2000']);
    expect([plain(), flagged()].map((r) => r.uses[0]!.state)).toEqual(['miss', 'miss']);
    expect([plain(), flagged(), plain()].map((r) => r.uses[0]!.state)).toEqual(['hit', 'hit', 'hit']);
    expect(fs.readdirSync(cache)).toHaveLength(2);
  });

  it('off with COOKIE_CODE_CACHE=0 (nothing read or written); a cache folder that cannot be written costs nothing but the cache', () => {
    const dir = tmp();
    const file = writeLargeModule(dir);
    const cache = path.join(tmp(), 'v8');
    const off = load(file, { COOKIE_CODE_CACHE_DIR: cache, COOKIE_CODE_CACHE: '0' });
    expect(off.value.twice).toBe(42);
    expect(off.value.later).toBe('function');
    expect(off.uses).toEqual([]);
    expect(fs.existsSync(cache)).toBe(false);
    expect(codeCacheDir({ COOKIE_CODE_CACHE: '0' })).toBeNull();
    expect(codeCacheDir({})).toBe(path.join(os.homedir(), '.cache', 'cookie', 'v8'));
    // a file where the folder should be: every write fails, the module still loads, the process exits 0
    const blocked = path.join(tmp(), 'not-a-folder');
    fs.writeFileSync(blocked, '');
    expect(load(file, { COOKIE_CODE_CACHE_DIR: blocked }).value.sum).toBe(7000);
  });

  it("Playwright's bundles: cached after one process, taken from the cache by the next", () => {
    const cache = path.join(tmp(), 'v8');
    const first = load('playwright', { COOKIE_CODE_CACHE_DIR: cache }, PLAYWRIGHT_BUNDLES);
    expect(first.value).toEqual({ launch: 'function' });
    expect(first.uses.map((u) => [path.basename(u.file), u.state]).sort()).toEqual([['coreBundle.js', 'miss'], ['utilsBundle.js', 'miss']]);
    const second = load('playwright', { COOKIE_CODE_CACHE_DIR: cache }, PLAYWRIGHT_BUNDLES);
    expect(second.uses.map((u) => [u.file, u.state])).toEqual(first.uses.map((u) => [u.file, 'hit']));
  });

  it("every dynamic import() in Playwright's cached bundles is on a path Cookie never takes (an upgrade that adds one fails here)", () => {
    const lib = path.dirname(require.resolve('playwright-core/package.json', { paths: [ROOT] }));
    const sites: string[] = [];
    for (const f of ['coreBundle.js', 'utilsBundle.js']) {
      const src = fs.readFileSync(path.join(lib, 'lib', f), 'utf8');
      for (const m of src.matchAll(/(?<![\w$.])import\(\s*(["'`])([^"'`]*)\1/g)) sites.push(`${f}: ${m[2]}`);
    }
    // Kerberos proxy authentication (Cookie's browser uses no proxy credentials), a WebCrypto fallback that runs
    // only where globalThis.crypto is missing (Node < 19), Vite for Playwright's component testing
    expect(sites.sort()).toEqual(['coreBundle.js: vite', 'utilsBundle.js: kerberos', 'utilsBundle.js: node:crypto']);
  });
});
