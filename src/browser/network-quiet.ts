import type { Page, Request, WebSocket } from 'playwright';

/**
 * The page's network activity as Playwright reports it: requests in flight (the page's and its dedicated
 * workers'), open WebSockets, and when anything last started or ended. Lets static perception tell a page
 * whose network cannot change its DOM any more from one still waiting on a response, without waiting out
 * Playwright's fixed 500 ms of `networkidle` (issue 13). Evidence collection only; it never judges.
 */
export interface NetworkActivity {
  /** Requests started and not yet finished or failed. */
  inFlight(): number;
  /** WebSockets opened and not yet closed. */
  openSockets(): number;
  /** ms since a request or WebSocket last started or ended (since tracking began when none did). */
  quietMs(): number;
  /** Stop listening. */
  dispose(): void;
}

/** Start tracking a page's network activity ({@link NetworkActivity}). Never throws. */
export function trackNetwork(page: Page): NetworkActivity {
  const inFlight = new Set<Request>();
  let sockets = 0;
  let lastAt = Date.now();
  const started = (r: Request) => {
    inFlight.add(r);
    lastAt = Date.now();
  };
  const ended = (r: Request) => {
    inFlight.delete(r);
    lastAt = Date.now();
  };
  const socket = (ws: WebSocket) => {
    sockets++;
    lastAt = Date.now();
    ws.on('close', () => {
      sockets--;
      lastAt = Date.now();
    });
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  page.on('websocket', socket);
  return {
    inFlight: () => inFlight.size,
    openSockets: () => sockets,
    quietMs: () => Date.now() - lastAt,
    dispose: () => {
      page.off('request', started);
      page.off('requestfinished', ended);
      page.off('requestfailed', ended);
      page.off('websocket', socket);
    },
  };
}
