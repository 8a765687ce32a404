// V8 code cache for the large CommonJS files Cookie requires (issue 13, start-up): Playwright's two bundles
// (coreBundle.js 3.6 MB, utilsBundle.js 3.3 MB in 1.65) take 0.3–0.4 s to load on 2 cores, a third of it
// V8 parsing and compiling them, paid before the browser can even be launched. Node 22 has
// module.enableCompileCache(); Node 20 (this machine's) does not, so the few files that matter are compiled
// here with vm.Script and V8's cached data, the way v8-compile-cache does, with one difference that decides the
// gain: the cache is written when the process ends (after the run), so it holds every function the run compiled
// lazily (launch, CDP, screenshots), not only the top level (v8-compile-cache writes right after compiling, which
// measured no gain here). The cache lives in ~/.cache/cookie/v8, out of reach of candidates (the install sandbox
// mounts no home folder; src/deploy/sandbox.ts); a file's entry is named by the hash of its path and identity on
// disk (size, inode, modification and change times), Node's version, the architecture and the process's V8 flags,
// and V8 refuses data it cannot use (then the file is compiled as usual and the entry written afresh). COOKIE_CODE_CACHE=0 turns it off; COOKIE_CODE_CACHE_DIR moves it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { writeBytesAtomic } from './atomic.js';

/** Files smaller than this (bytes) load as usual: their parse time is not worth a cache entry. */
export const CODE_CACHE_MIN_BYTES = 256 * 1024;

/**
 * The files of Playwright that are cached: its two bundles. Their dynamic `import()` calls (a code-cached
 * script has none on Node 20, see {@link requireWithCodeCache}) are only on paths Cookie never takes: Kerberos
 * proxy authentication, a WebCrypto fallback for Node < 19, Vite for component testing
 * (test/unit/code-cache.test.ts lists them, and fails when an upgrade adds one).
 */
export const PLAYWRIGHT_BUNDLES = /[\\/]playwright-core[\\/]lib[\\/](coreBundle|utilsBundle)\.js$/;

/** What one {@link requireWithCodeCache} call did with each large file it loaded (for tests and the bench). */
export interface CodeCacheUse {
  /** Absolute path of the file. */
  file: string;
  /** The cache entry's path. */
  entry: string;
  /** `hit`: V8 took the cached data; `rejected`: there was an entry V8 refused; `miss`: none yet. */
  state: 'hit' | 'rejected' | 'miss';
}

/** The cache folder: COOKIE_CODE_CACHE_DIR, else `~/.cache/cookie/v8`; null when COOKIE_CODE_CACHE=0. */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.COOKIE_CODE_CACHE === '0') return null;
  return env.COOKIE_CODE_CACHE_DIR || path.join(os.homedir(), '.cache', 'cookie', 'v8');
}

type CompileFn = (this: Module, content: string, filename: string, ...rest: unknown[]) => unknown;
interface InternalModule {
  prototype: { _compile: CompileFn; require(id: string): unknown };
  wrap(source: string): string;
  _resolveFilename(request: string, parent: unknown, isMain: boolean, options?: unknown): string;
  _resolveLookupPaths(request: string, parent: unknown): string[] | null;
  _extensions: unknown;
  _cache: unknown;
}
const M = Module as unknown as InternalModule;

/**
 * Most entries kept in the cache folder (the newest written): one per Playwright install and set of V8 flags,
 * so several projects or clones on one machine each keep theirs, and the folder stays a few tens of MB at most.
 */
export const CODE_CACHE_MAX_ENTRIES = 8;

/** Scripts whose cached data is still to be written when the process ends: entry path → script. */
const pending = new Map<string, vm.Script>();
let exitHook = false;

/** Write every pending entry (synchronously: the process's `exit` event calls it). Never throws. */
function writePending(): void {
  const dirs = new Set<string>();
  for (const [entry, script] of pending) {
    try {
      writeBytesAtomic(entry, script.createCachedData(), { private: true });
      dirs.add(path.dirname(entry));
    } catch {
      /* a read-only or full disk: the next run compiles as usual */
    }
  }
  pending.clear();
  // the oldest entries beyond the cap go (an upgraded Playwright's, a deleted clone's)
  for (const dir of dirs) {
    try {
      const entries = fs.readdirSync(dir).filter((f) => f.endsWith('.bin')).map((f) => ({ f, at: fs.statSync(path.join(dir, f)).mtimeMs })).sort((a, b) => b.at - a.at);
      for (const { f } of entries.slice(CODE_CACHE_MAX_ENTRIES)) fs.rmSync(path.join(dir, f), { force: true });
    } catch {
      /* gone meanwhile */
    }
  }
}

/**
 * `require(specifier)` from the module at `fromUrl` (a file URL or path), with the V8 code cache (see the head
 * of this file) for the CommonJS files it loads whose path matches `files` and which have at least
 * {@link CODE_CACHE_MIN_BYTES}; every other file, and all files when the cache is off, load through Node as
 * usual. Entries missing or refused are written when the process exits (atomically; a failed write is ignored).
 * One difference from Node's own loading: a dynamic `import()` in a cached file rejects with
 * ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING (Node 20 loses a vm.Script's import callback when the script comes
 * from cached data, and its default-loader constant prints an experimental warning): cache only files whose
 * `import()` calls are on paths that are never taken ({@link PLAYWRIGHT_BUNDLES}).
 * @param files which files to cache (matched against the absolute path)
 * @param uses filled with what was done with each cached file (optional)
 * @param env where COOKIE_CODE_CACHE and COOKIE_CODE_CACHE_DIR are read ({@link codeCacheDir})
 * @returns the module's exports
 * @throws whatever `require` throws (a missing package, an error in its code)
 */
export function requireWithCodeCache<T>(specifier: string, fromUrl: string, files: RegExp, uses: CodeCacheUse[] = [], env: NodeJS.ProcessEnv = process.env): T {
  const req = createRequire(fromUrl);
  const dir = codeCacheDir(env);
  if (!dir) return req(specifier) as T;
  const original = M.prototype._compile;
  M.prototype._compile = function compileWithCache(this: Module, content: string, filename: string, ...rest: unknown[]) {
    // (a file with a hashbang line would not parse inside the wrapper: Node's own loader handles it)
    if (typeof content !== 'string' || content.length < CODE_CACHE_MIN_BYTES || !files.test(filename) || content.startsWith('#!')) return original.call(this, content, filename, ...rest);
    // V8 refuses data made under other V8 flags (--max-old-space-size, --stack-size): each set of flags gets its
    // own entry, or processes started differently would rewrite one entry in turn
    const flags = `${process.execArgv.join(' ')}\0${env.NODE_OPTIONS ?? ''}`;
    // the file as it is on disk, not its 7 MB of text (hashing that cost 11 ms at every start): any rewrite of the
    // file (a reinstall, an upgrade, an edit) changes its change time, which no program can set back
    const st = fs.statSync(filename, { bigint: true });
    const identity = `${filename}\0${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
    const key = crypto.createHash('sha256').update(`${process.version}\0${process.arch}\0${flags}\0${identity}`).digest('hex').slice(0, 16);
    const entry = path.join(dir, `${path.basename(filename).replace(/[^\w.-]/g, '_')}-${key}.bin`);
    let cachedData: Buffer | undefined;
    try {
      cachedData = fs.readFileSync(entry);
    } catch {
      /* no entry yet */
    }
    const script = new vm.Script(M.wrap(content), { filename, ...(cachedData ? { cachedData } : {}) });
    const state: CodeCacheUse['state'] = !cachedData ? 'miss' : script.cachedDataRejected ? 'rejected' : 'hit';
    uses.push({ file: filename, entry, state });
    if (state !== 'hit') {
      pending.set(entry, script);
      if (!exitHook) {
        exitHook = true;
        process.once('exit', writePending);
      }
    }
    // the wrapper's arguments as Node gives them (lib/internal/modules/cjs/loader.js, makeRequireFunction)
    const mod = this as unknown as { exports: unknown; require(id: string): unknown };
    const localRequire = Object.assign((id: string) => mod.require(id), {
      resolve: Object.assign((request: string, options?: unknown) => M._resolveFilename(request, mod, false, options), { paths: (request: string) => M._resolveLookupPaths(request, mod) }),
      main: req.main,
      extensions: M._extensions,
      cache: M._cache,
    });
    const fn = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return fn.call(mod.exports, mod.exports, localRequire, mod, filename, path.dirname(filename));
  };
  try {
    return req(specifier) as T;
  } finally {
    M.prototype._compile = original;
  }
}
