import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFenceProxy, type FenceProxy } from '../../src/browser/fence-proxy.js';

// The network fence's proxy sits between the browser and the app for the whole run. A page that reloads
// every few hundred ms aborts its requests and tunnels all the time: a reset socket must end that request,
// never the run (an uncaught "read ECONNRESET" ended a whole `cookie test` under load). Each case below
// resets a connection mid-exchange and then checks the proxy still serves.
let app: http.Server;
let proxy: FenceProxy;
let origin: string;
const uncaught: unknown[] = [];
const onUncaught = (e: unknown) => void uncaught.push(e);

beforeAll(async () => {
  process.on('uncaughtException', onUncaught);
  app = http.createServer((req, res) => {
    if (req.url === '/slow') {
      // a body that never ends: the client resets while it streams
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('x'.repeat(64 * 1024));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((r) => app.listen(0, '127.0.0.1', () => r()));
  origin = `http://127.0.0.1:${(app.address() as net.AddressInfo).port}`;
  proxy = await startFenceProxy(origin, () => {});
});

afterAll(async () => {
  process.off('uncaughtException', onUncaught);
  await proxy.close();
  app.closeAllConnections();
  await new Promise((r) => app.close(r));
});

/** Write `request` to the proxy, wait for the first bytes back, then reset the connection (RST, not FIN). */
function resetAfterFirstBytes(request: string): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(proxy.port, '127.0.0.1', () => s.write(request));
    s.once('data', (d) => {
      s.resetAndDestroy();
      resolve(d.toString('latin1').split('\r\n')[0]!);
    });
    s.on('error', () => {});
  });
}

async function get(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: proxy.port, path: `${origin}${path}` }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve(`${res.statusCode} ${body}`));
      })
      .on('error', reject);
  });
}

describe('fence proxy: connections the browser resets', () => {
  it('a refused tunnel that the browser resets after the 403 does not crash the proxy', async () => {
    expect(await resetAfterFirstBytes('CONNECT evil.example.com:443 HTTP/1.1\r\nHost: evil.example.com:443\r\n\r\n')).toBe('HTTP/1.1 403 Forbidden');
    await new Promise((r) => setTimeout(r, 50));
    expect(await get('/')).toBe('200 ok');
    expect(uncaught).toEqual([]);
  });

  it('a response the browser resets mid-body does not crash the proxy', async () => {
    expect(await resetAfterFirstBytes(`GET ${origin}/slow HTTP/1.1\r\nHost: ${new URL(origin).host}\r\n\r\n`)).toBe('HTTP/1.1 200 OK');
    await new Promise((r) => setTimeout(r, 50));
    expect(await get('/')).toBe('200 ok');
    expect(uncaught).toEqual([]);
  });

  it('an app server that resets mid-body ends that response only', async () => {
    const reset = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
      setTimeout(() => req.socket.resetAndDestroy(), 10);
    });
    await new Promise<void>((r) => reset.listen(0, '127.0.0.1', () => r()));
    const o = `http://127.0.0.1:${(reset.address() as net.AddressInfo).port}`;
    const p = await startFenceProxy(o, () => {});
    const status = await new Promise<string>((resolve) => {
      http
        .get({ host: '127.0.0.1', port: p.port, path: `${o}/` }, (res) => {
          res.on('data', () => {});
          res.on('error', () => resolve(`${res.statusCode} cut`));
          res.on('end', () => resolve(`${res.statusCode} end`));
        })
        .on('error', () => resolve('request error'));
    });
    expect(status).toMatch(/^200 (cut|end)$/);
    expect(uncaught).toEqual([]);
    await p.close();
    reset.closeAllConnections();
    await new Promise((r) => reset.close(r));
    // (a runaway guard only: on the code before the fix this response never ended)
  }, 30_000);
});
