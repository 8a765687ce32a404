import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sirv from 'sirv';

/** A running static HTTP server on 127.0.0.1. */
export interface StaticServer {
  origin: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Serve `root` over HTTP on 127.0.0.1 on an OS-assigned port (no port guessing: no collisions under
 * concurrency). Static serving is sirv's job; Cookie adds only an answer for `/favicon.ico` when the app
 * has none, so the browser's own favicon request is never a 404 blamed on the app (PITFALLS.md).
 * @param root absolute folder to serve
 * @param opts.spa answer unknown paths with index.html (client-side routing of a built single-page app)
 * @param opts.deny folders never served (Cookie's output dir); dotfiles, spec and config files never are,
 *   nor anything a symlink leads to outside `root`
 */
export async function startStaticServer(root: string, opts: { spa?: boolean; port?: number; deny?: string[] } = {}): Promise<StaticServer> {
  const serve = sirv(root, { dev: true, dotfiles: false, single: !!opts.spa });
  const deny = (opts.deny ?? []).map((d) => path.resolve(d));
  const realRoot = fs.realpathSync(root);
  /** A symlink inside the candidate's folder that leads out of it (to /etc, to the host's files). */
  const escapes = (abs: string): boolean => {
    let real: string;
    try {
      real = fs.realpathSync(abs);
    } catch {
      return false; // missing: sirv answers 404 (or index.html for a single-page app)
    }
    return real !== realRoot && !real.startsWith(realRoot + path.sep);
  };
  const server = http.createServer((req, res) => {
    // never serve dotfiles (.env, .git), Cookie's own specs and config, or folders Cookie writes (results)
    let pathname = '/';
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      /* malformed: sirv answers 404 */
    }
    const abs = path.resolve(root, `.${pathname}`);
    if (pathname.split('/').some((seg) => seg.startsWith('.') && seg !== '.' && seg !== '..') || /\.cookie\.(ya?ml|spec\.[cm]?[tj]s)$|(^|\/)cookie\.config\.[cm]?[tj]s$/.test(pathname) || deny.some((d) => abs === d || abs.startsWith(d + path.sep)) || escapes(abs)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    if (req.url === '/favicon.ico' && !fs.existsSync(`${root}/favicon.ico`)) {
      res.writeHead(204).end();
      return;
    }
    serve(req, res, () => {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
