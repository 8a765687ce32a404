import fs from 'node:fs';
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
 */
export async function startStaticServer(root: string, opts: { spa?: boolean; port?: number } = {}): Promise<StaticServer> {
  const serve = sirv(root, { dev: true, dotfiles: false, single: !!opts.spa });
  const server = http.createServer((req, res) => {
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
