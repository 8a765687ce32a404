import fs from 'node:fs';
import net from 'node:net';

/**
 * The only way out of a project candidate's sandbox during `npm install` (issue 19 point 1): an HTTP proxy
 * Cookie runs on the host, listening on a Unix socket in the folder it shares with the sandbox.
 *
 * Design: the sandbox has its own, empty network namespace (no route anywhere, not even to the host's
 * loopback). Inside it, sandbox-init.cjs listens on 127.0.0.1:<port> and forwards each connection to this
 * Unix socket; npm is configured with `proxy`/`https-proxy` = that address. This proxy reads the request head
 * and lets through exactly one destination, the configured registry's host and port: `CONNECT host:port`
 * (HTTPS registries; TLS stays end to end between npm and the registry) or an absolute-form request
 * `GET http://host:port/…` (plain-HTTP registries, e.g. a local mirror). The upstream socket is opened to
 * the registry only, so nothing later on the same connection can reach another host. Everything else — a
 * git host, a tarball URL, a registry named by the candidate, a local canary port — gets `403` and is
 * recorded in {@link RegistryProxy.refused}. Nothing is resolved or connected for a refused request.
 */
export interface RegistryProxy {
  /** Refused requests so far, one line each (`CONNECT evil.example:443`, `GET http://127.0.0.1:9/x`). */
  refused: string[];
  /** Requests let through to the registry. */
  allowed: number;
  close(): Promise<void>;
}

/** The host and port a registry URL is reached at (https default 443, http 80). */
export function registryHostPort(registry: string): { host: string; port: number; protocol: string } {
  const u = new URL(registry);
  return { host: u.hostname.replace(/^\[|\]$/g, '').toLowerCase(), port: Number(u.port || (u.protocol === 'https:' ? 443 : 80)), protocol: u.protocol };
}

const HEAD_LIMIT = 16 * 1024;

/**
 * Start the proxy on the Unix socket `socket` (an existing file there is replaced).
 * @param registry the configured registry URL (e.g. `https://registry.npmjs.org/`)
 */
export async function startRegistryProxy(socket: string, registry: string): Promise<RegistryProxy> {
  const target = registryHostPort(registry);
  const refused: string[] = [];
  const conns = new Set<net.Socket>();
  let allowed = 0;
  const sameTarget = (host: string, port: number) => host.replace(/^\[|\]$/g, '').toLowerCase() === target.host && port === target.port;

  const server = net.createServer((c) => {
    conns.add(c);
    c.on('close', () => conns.delete(c));
    c.on('error', () => c.destroy());
    let head = Buffer.alloc(0);
    const onData = (d: Buffer) => {
      head = Buffer.concat([head, d]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > HEAD_LIMIT) c.destroy();
        return;
      }
      c.off('data', onData);
      c.pause();
      const line = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
      const [method = '', uri = ''] = line.split(' ');
      const refuse = () => {
        if (refused.length < 200) refused.push(`${method} ${uri}`.slice(0, 300));
        const body = `Cookie's registry proxy refused ${method} ${uri}: during install only ${registry} is reachable\n`;
        c.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
      };
      let host = '';
      let port = 0;
      if (method === 'CONNECT') {
        const m = uri.match(/^(\[[^\]]+\]|[^:]+):(\d+)$/);
        if (!m || target.protocol !== 'https:') return refuse();
        host = m[1]!;
        port = Number(m[2]);
      } else {
        let u: URL;
        try {
          u = new URL(uri);
        } catch {
          return refuse();
        }
        if (u.protocol !== 'http:' || target.protocol !== 'http:') return refuse();
        host = u.hostname;
        port = Number(u.port || 80);
      }
      if (!sameTarget(host, port)) return refuse();
      allowed++;
      const up = net.connect(target.port, target.host);
      conns.add(up);
      up.on('close', () => conns.delete(up));
      let connected = false;
      const end2 = () => (c.destroy(), up.destroy());
      up.on('error', () => {
        if (!connected) c.end('HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\n');
        else end2();
      });
      c.on('close', end2);
      up.on('connect', () => {
        connected = true;
        if (method === 'CONNECT') {
          c.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          const rest = head.subarray(end + 4);
          if (rest.length) up.write(rest);
        } else up.write(head);
        c.pipe(up);
        up.pipe(c);
        c.resume();
      });
    };
    c.on('data', onData);
  });
  fs.rmSync(socket, { force: true });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socket, () => resolve()));
  // the sandbox's user must be able to connect; the folder (root-owned, 0755) keeps it from replacing it
  fs.chmodSync(socket, 0o666);
  return {
    refused,
    get allowed() {
      return allowed;
    },
    close: () =>
      new Promise<void>((resolve) => {
        conns.forEach((s) => s.destroy());
        server.close(() => resolve());
      }),
  };
}
