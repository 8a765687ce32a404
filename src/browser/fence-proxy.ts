import http from 'node:http';
import net from 'node:net';
import { DEFAULT_HOST, hostAndPort, localOriginOf } from '../util/public-url.js';

/** A running fence proxy. */
export interface FenceProxy {
  /** How this machine reaches it, `http://127.0.0.1:<port>`: the browser context's proxy setting when the browser is here. */
  server: string;
  /** Its OS-assigned port (a browser elsewhere reaches it through config `deploy.publicUrl` with this port). */
  port: number;
  close(): Promise<void>;
}

/** Options of {@link startFenceProxy}. */
export interface FenceProxyOptions {
  /**
   * Where the app is served on this machine when the browser knows it by another origin (config
   * `deploy.publicUrl`): requests and tunnels to the allowed origin are forwarded here (the public name may not
   * even resolve on this machine). Default: the allowed origin itself.
   */
  upstreamOrigin?: string;
  /** Interface to bind (default 127.0.0.1; config `deploy.host`, so that a browser elsewhere can reach it). */
  host?: string;
}

/** `host:port` of a CONNECT request (`[v6]:port` kept in brackets, host lower-cased), or null when malformed. */
function connectTarget(authority: string): { hostname: string; port: string } | null {
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]]+):(\d{1,5})$/i.exec(authority);
  return m ? { hostname: m[1]!.toLowerCase(), port: String(Number(m[2])) } : null;
}

/**
 * The network fence's second wall: an HTTP proxy on 127.0.0.1 through which the evaluation's browser
 * context sends everything — including what page-level request interception does not see (dedicated and
 * shared workers' fetches and WebSockets, speculative prefetches). Only the app's own origin is forwarded;
 * every other request, and every CONNECT tunnel except one to the app's own host:port (its WebSockets),
 * is refused with 403 and reported. With a public URL (config `deploy.publicUrl`) the allowed origin is the
 * public one, the only origin the browser knows the app by, and what it allows goes to `upstreamOrigin`.
 * @param allowedOrigin the app's origin as the browser knows it, e.g. http://127.0.0.1:41234 or http://host.docker.internal:41234
 * @param onBlocked told of each refused request (URL or host:port)
 */
export async function startFenceProxy(allowedOrigin: string, onBlocked: (url: string, kind: string) => void, opts: FenceProxyOptions = {}): Promise<FenceProxy> {
  const allowed = new URL(allowedOrigin);
  const allowedHP = hostAndPort(allowed.origin);
  const upstream = new URL(opts.upstreamOrigin ?? allowed.origin);
  const upstreamHP = hostAndPort(upstream.origin);
  const host = opts.host ?? DEFAULT_HOST;
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
    // the app's own origin, as the browser knows it: served from where it really is (same path, same headers)
    const up = http.request(new URL(`${target.pathname}${target.search}`, upstream), { method: req.method, headers }, (r) => {
      // the app's server or the browser may drop the connection mid-body (a page that reloads every few
      // hundred ms aborts its requests all the time): that request ends, never the run
      r.on('error', () => res.destroy());
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    req.on('error', () => up.destroy());
    res.on('error', () => up.destroy());
    req.pipe(up);
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    // a tunnel's socket is the handler's own (the server no longer listens to its errors): a reset by the
    // browser must not become an uncaught "read ECONNRESET" that ends the whole run
    client.on('error', () => client.destroy());
    const to = connectTarget(req.url ?? '');
    if (!to || to.hostname !== allowedHP.hostname || to.port !== allowedHP.port) {
      // a worker's WebSocket, or WebRTC's TCP (TURN over TCP): both arrive as CONNECT tunnels
      onBlocked(`tunnel ${req.url}`, 'tunnel');
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const app = net.connect(Number(upstreamHP.port), upstreamHP.hostname.replace(/^\[|\]$/g, ''), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) app.write(head);
      app.pipe(client);
      client.pipe(app);
    });
    app.on('error', () => client.destroy());
    client.on('error', () => app.destroy());
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  return {
    server: localOriginOf(host, port),
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
