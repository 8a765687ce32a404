import http from 'node:http';
import net from 'node:net';

/** A running fence proxy. */
export interface FenceProxy {
  /** `http://127.0.0.1:<port>`, for the browser context's proxy setting. */
  server: string;
  close(): Promise<void>;
}

/**
 * The network fence's second wall: an HTTP proxy on 127.0.0.1 through which the evaluation's browser
 * context sends everything — including what page-level request interception does not see (dedicated and
 * shared workers' fetches and WebSockets, speculative prefetches). Only the app's own origin is forwarded;
 * every other request, and every CONNECT tunnel except one to the app's own host:port (its WebSockets),
 * is refused with 403 and reported.
 * @param allowedOrigin the app's origin, e.g. http://127.0.0.1:41234
 * @param onBlocked told of each refused request (URL or host:port)
 */
export async function startFenceProxy(allowedOrigin: string, onBlocked: (url: string, kind: string) => void): Promise<FenceProxy> {
  const allowed = new URL(allowedOrigin);
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (target.origin !== allowed.origin) {
      onBlocked(target.href, 'proxy');
      res.writeHead(403, { 'content-type': 'text/plain' }).end('blocked by Cookie: outside the app');
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-connection'];
    const up = http.request(target, { method: req.method, headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.writeHead(502).end());
    req.pipe(up);
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const [host, port] = (req.url ?? '').split(':');
    if (host !== allowed.hostname || port !== allowed.port) {
      // a worker's WebSocket, or WebRTC's TCP (TURN over TCP): both arrive as CONNECT tunnels
      onBlocked(`tunnel ${req.url}`, 'tunnel');
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  return {
    server: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
