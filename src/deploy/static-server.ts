import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { lookup as mimeLookup } from 'mrmime';
import { DEFAULT_HOST, localOriginOf } from '../util/public-url.js';

/** A running static HTTP server (on 127.0.0.1 unless {@link StaticServerOptions.host} says otherwise). */
export interface StaticServer {
  /** How this machine reaches it: `http://127.0.0.1:<port>` (also for a wildcard bind), or the bound address. */
  origin: string;
  port: number;
  /** The interface it is bound to. */
  host: string;
  close(): Promise<void>;
}

/** Options of {@link startStaticServer}. */
export interface StaticServerOptions {
  /** Answer unknown paths with index.html (client-side routing of a built single-page app). */
  spa?: boolean;
  /** Port to listen on (default 0: the OS picks one). */
  port?: number;
  /**
   * Interface to bind (an IP address; default 127.0.0.1, this machine only). `0.0.0.0` or `::` exposes the
   * served folder on every interface (config `deploy.host`, for a browser that is not on this machine).
   */
  host?: string;
  /** Folders never served (Cookie's output dir), compared after resolving symlinks. */
  deny?: string[];
  /** A response that makes no progress for this long is cut (ms, default 30 000). */
  idleTimeoutMs?: number;
}

/** Spec and config file names Cookie reads (never served): `*.cookie.yaml`, `*.cookie.spec.ts`, `cookie.config.ts`, … */
const SPEC_OR_CONFIG = /\.cookie\.(ya?ml|json|jsonl|spec\.[cm]?[jt]sx?)$|^cookie\.config\.[cm]?[jt]s$/;

/**
 * The form of a name the deny rules compare: Unicode NFKC (fullwidth `．`, ligatures and compatibility forms
 * become their plain letters; on macOS the file system stores NFD), then case-folded (a case-insensitive
 * file system opens `DECOY.COOKIE.YAML` as `decoy.cookie.yaml`), then stripped of the trailing dots and
 * spaces Windows file systems ignore.
 */
export function canonicalName(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/[. ]+$/, (m) => (m === name ? m : ''));
}

/**
 * Is this path (relative to the served folder, `/`-separated) one Cookie never serves? Any segment that is a
 * dotfile or dot-folder (`.env`, `.git/config`, `.npmrc`), or a spec or config file by name. Every segment is
 * compared in {@link canonicalName} form, so case, Unicode forms and trailing dots do not slip past.
 */
export function isDeniedRelative(rel: string): boolean {
  const segs = rel.split(/[/\\]+/).filter(Boolean).map(canonicalName);
  return segs.some((s) => (s.startsWith('.') && s !== '.' && s !== '..') || SPEC_OR_CONFIG.test(s));
}

/**
 * Turn a request target into a path relative to the served folder, or null when it cannot name a file there:
 * the WHATWG URL parser resolves `.`/`..` (also `%2e`), `\` becomes `/`, percent-escapes are decoded once,
 * then `\` (from `%5c`) becomes `/` again and duplicate slashes collapse; NUL bytes and any `..` left after
 * decoding (`..%2f`) are refused.
 */
export function requestPath(url: string | undefined): string | null {
  let pathname: string;
  try {
    // origin-form targets are parsed as a path (a leading `//` or `/\\` is not an authority here)
    const target = url ?? '/';
    pathname = decodeURIComponent(new URL(target.startsWith('/') ? `http://x${target}` : target).pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0')) return null;
  const segs = pathname.replace(/\\/g, '/').split('/').filter((s) => s !== '' && s !== '.');
  if (segs.some((s) => s === '..')) return null;
  return segs.join('/');
}

type Found = { abs: string; fd: number; stat: fs.Stats };

/**
 * Serve `root` over HTTP on 127.0.0.1 (or `opts.host`) on an OS-assigned port (no port guessing: no
 * collisions under concurrency). Regular files only, read safely (issue 19):
 * - the target is resolved through symlinks first (`realpath`, which never opens a file), and must stay
 *   inside `root` and outside every `deny` folder;
 * - every deny rule runs on the resolved path's segments in canonical form ({@link isDeniedRelative}), and on
 *   the requested path too: dotfiles, spec and config files are refused however the URL spells them
 *   (trailing slash, `%2e`, `//`, backslashes, case, Unicode forms, a symlink with an innocent name);
 * - the type is checked with `lstat` before anything is opened: FIFOs, sockets, devices and directories
 *   are refused without opening them, and the file is then opened `O_NONBLOCK | O_NOFOLLOW` on the main
 *   thread (an open that can never wait) and checked again with `fstat` (same inode, still a regular
 *   file), so nothing that could block ever reaches the shared libuv thread pool: a named pipe in `dist/`
 *   cannot stall this server, the run's other file I/O or its DNS look-ups;
 * - every response is time-boxed: cut when it makes no progress for `idleTimeoutMs`; requests must
 *   arrive within 10 s (headers) and 30 s (whole request).
 * Why not sirv (used before): sirv opens files by path on the thread pool after a `stat` that follows
 * symlinks, with no hook between the check and the open, so a FIFO blocked a pool thread forever (issue 19,
 * seen 7); what Cookie took from it, the MIME table, is mrmime (sirv's own), and the rest is below.
 * Also: `/favicon.ico` is answered 204 when the app has none, so the browser's own request is never a 404
 * blamed on the app (PITFALLS.md); GET and HEAD only (405 otherwise); single byte ranges (media seeking).
 * @param root absolute folder to serve
 */
export async function startStaticServer(root: string, opts: StaticServerOptions = {}): Promise<StaticServer> {
  const realRoot = fs.realpathSync(root);
  const host = opts.host ?? DEFAULT_HOST;
  const idleMs = opts.idleTimeoutMs ?? 30_000;
  const denyReal = (): string[] =>
    (opts.deny ?? []).map((d) => {
      try {
        return fs.realpathSync(d);
      } catch {
        return path.resolve(d);
      }
    });
  const inside = (abs: string, dir: string) => abs === dir || abs.startsWith(dir + path.sep);
  // a deny folder is compared case-insensitively too (refusing more is safe; allowing more is not)
  const insideFolded = (abs: string, dir: string) => inside(abs, dir) || inside(abs.toLowerCase(), dir.toLowerCase());

  /** Open `rel` (relative to root) if it is a regular file Cookie may serve; null otherwise. Never blocks. */
  const openServable = (rel: string): Found | null => {
    let real: string;
    try {
      real = fs.realpathSync(path.join(realRoot, rel));
    } catch {
      return null; // missing
    }
    if (!inside(real, realRoot)) return null; // a symlink out of the folder
    if (isDeniedRelative(path.relative(realRoot, real))) return null;
    if (denyReal().some((d) => insideFolded(real, d))) return null;
    let st: fs.Stats;
    try {
      st = fs.lstatSync(real);
    } catch {
      return null;
    }
    if (!st.isFile()) return null; // FIFO, socket, device, directory: refused without opening
    let fd: number;
    try {
      fd = fs.openSync(real, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW | fs.constants.O_NOCTTY);
    } catch {
      return null;
    }
    const now = fs.fstatSync(fd);
    if (!now.isFile() || now.ino !== st.ino || now.dev !== st.dev) {
      fs.closeSync(fd); // swapped between the check and the open
      return null;
    }
    return { abs: real, fd, stat: now };
  };

  /** The file a request names: the path itself, its index.html when a folder, its `.html` twin; SPA fallback. */
  const resolve = (rel: string): Found | null => {
    const candidates = [rel, path.posix.join(rel, 'index.html'), path.posix.join(rel, 'index.htm'), `${rel}.html`, `${rel}.htm`].filter((c) => c !== '.html' && c !== '.htm');
    for (const c of candidates) {
      const f = openServable(c);
      if (f) return f;
    }
    return opts.spa ? openServable('index.html') : null;
  };

  const notFound = (res: http.ServerResponse) => res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');

  const server = http.createServer((req, res) => {
    res.setTimeout(idleMs, () => res.destroy());
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Method not allowed');
      return;
    }
    const rel = requestPath(req.url);
    // never serve dotfiles (.env, .git), Cookie's own specs and config, or folders Cookie writes (results)
    if (rel === null || isDeniedRelative(rel)) return notFound(res);
    const found = resolve(rel);
    if (!found) {
      if (rel === 'favicon.ico') return void res.writeHead(204).end();
      return notFound(res);
    }
    const { fd, stat, abs } = found;
    let ctype = mimeLookup(abs) ?? 'application/octet-stream';
    if (ctype === 'text/html') ctype += ';charset=utf-8';
    const headers: http.OutgoingHttpHeaders = { 'content-type': ctype, 'cache-control': 'no-store', 'accept-ranges': 'bytes', 'last-modified': stat.mtime.toUTCString() };
    let start = 0;
    let end = stat.size - 1;
    let status = 200;
    const range = /^bytes=(\d*)-(\d*)$/.exec(String(req.headers.range ?? ''));
    if (req.headers.range && range && (range[1] || range[2])) {
      if (range[1]) {
        start = Number(range[1]);
        end = range[2] ? Math.min(Number(range[2]), stat.size - 1) : stat.size - 1;
      } else {
        start = Math.max(0, stat.size - Number(range[2]));
      }
      if (start > end || start >= stat.size) {
        fs.closeSync(fd);
        res.writeHead(416, { 'content-range': `bytes */${stat.size}` }).end();
        return;
      }
      status = 206;
      headers['content-range'] = `bytes ${start}-${end}/${stat.size}`;
    }
    headers['content-length'] = stat.size === 0 ? 0 : end - start + 1;
    res.writeHead(status, headers);
    if (req.method === 'HEAD' || stat.size === 0) {
      fs.closeSync(fd);
      res.end();
      return;
    }
    // a regular file opened above: reading it cannot wait on another process
    const stream = fs.createReadStream('', { fd, start, end, autoClose: true });
    stream.on('error', () => res.destroy());
    res.on('close', () => stream.destroy());
    stream.pipe(res);
  });
  server.keepAliveTimeout = 1000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    origin: localOriginOf(host, port),
    port,
    host,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
