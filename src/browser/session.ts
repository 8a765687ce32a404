import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright';
import type { CdnRewrite, ConsoleEntry, DialogEvent, DocumentLoad, FailedRequest, NavigationEvent } from '../types.js';
import { timebox } from '../util/timebox.js';
import { seededRandomScript } from './determinism.js';
import { startFenceProxy } from './fence-proxy.js';
import { hostAndPort, publicOriginFor } from '../util/public-url.js';

const PROBE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'probe.init.js');
const MEDIA = path.join(path.dirname(fileURLToPath(import.meta.url)), 'media.init.js');
const WEBRTC = path.join(path.dirname(fileURLToPath(import.meta.url)), 'webrtc.init.js');

/** The sourceURL prefix of scripts Cookie injects into the page (errors thrown there are not the app's). */
export const HARNESS_SCRIPT_PREFIX = 'cookie-harness://';

/**
 * Why a WebRTC attempt is a refused request: the browser runs with `disable_non_proxied_udp` (no UDP socket
 * at all, STUN and TURN/UDP included) and its TCP goes through the fence proxy, which only lets the app's
 * own host:port through (issue 19).
 */
export const WEBRTC_REFUSED = 'blocked: WebRTC may not send UDP; TCP only to the app through the fence proxy';

/** Most entries kept per kind of event (a page flooding the console must not flood memory); `dropped` counts the rest. */
export const MAX_ENTRIES = 500;

/**
 * Everything the page did that Cookie records as evidence, stamped with ms since the session opened and
 * the interaction step in progress (`step`, set by the agent; undefined during load/perception).
 */
export class EventLog {
  readonly consoleErrors: ConsoleEntry[] = [];
  readonly pageErrors: ConsoleEntry[] = [];
  readonly failedRequests: FailedRequest[] = [];
  readonly dialogs: DialogEvent[] = [];
  readonly navigations: NavigationEvent[] = [];
  /** Each time the main document finished loading (the first load, Cookie's returns to the app, and the page's own reloads). */
  readonly loads: DocumentLoad[] = [];
  /** Loads Cookie itself is about to cause (a fresh load at a viewport): the next ones are stamped `byCookie`. */
  ownLoadsPending = 0;
  /** Requests answered by the offline CDN. */
  readonly cdnRewrites: CdnRewrite[] = [];
  /** Entries not kept because a list was full (console floods), by kind. */
  readonly dropped: Record<string, number> = {};
  /** URLs Cookie blocked because they left the app's origin. */
  readonly blockedUrls = new Set<string>();
  step: number | undefined;
  /** True once the page's renderer process died (out of memory, a renderer failure). */
  crashed = false;
  /** Wall-clock ms (Date.now() in Node) when the page's audio recording started, if it did. */
  audioStartedAt: number | null = null;
  private readonly t0 = Date.now();

  /** ms since the session opened. */
  now(): number {
    return Date.now() - this.t0;
  }
}

/** ms within which a healthy context closes; a slower close means the page left load in the browser (see {@link AppSession.close}). */
export const CONTEXT_CLOSE_SLOW_MS = 5_000;

/** An isolated browser context showing one candidate's app, with the network fenced to its origin. */
export interface AppSession {
  context: BrowserContext;
  page: Page;
  log: EventLog;
  origin: string;
  /**
   * Close the context; bounded in time (`limitMs`, default 10 000 ms) even when the page's renderer is hung.
   * A caller that will kill the browser anyway (a page known to hang, on a browser of its own) passes a short
   * limit rather than wait for a hung renderer.
   * @returns true when the context closed promptly (within {@link CONTEXT_CLOSE_SLOW_MS}); false when it
   *   needed longer or did not close: the page has left load in the browser process (a pushState flood keeps
   *   it busy for minutes after its renderer is gone), so a pooled browser should be replaced
   */
  close(limitMs?: number): Promise<boolean>;
}

/** Options of {@link openAppSession}. */
export interface SessionOptions {
  viewport: { width: number; height: number };
  /** Answer given to `prompt()` dialogs. */
  promptAnswer?: string;
  /**
   * Install Playwright's clock (timers, rAF, Date, performance become pausable) and the media init script
   * (AudioContext/media tracking and audio capture) before any app code: needed by the environment freeze
   * and the audio recording of Stage 2. Default true.
   */
  media?: boolean;
  /** Answer a request that leaves the app (the offline CDN); null keeps it blocked. */
  resolveExternal?: (url: string) => Fulfil | null;
  /**
   * Rewrite an app document (HTML) before the browser parses it; returns the HTML and the URLs the rewrite
   * concerns (the offline CDN: integrity hashes of libraries it serves dropped, see `dropCdnIntegrity`).
   */
  rewriteDocument?: (html: string) => { html: string; urls: string[] };
  /** Seed of the page's Math.random / crypto.getRandomValues (src/browser/determinism.ts); unset: the browser's own. */
  randomSeed?: number;
  /** Epoch ms the page's Date starts at (Playwright's clock); unset: the real time. */
  dateOrigin?: number;
  /** For same-origin requests the app's folder cannot answer (404): a stand-in, or null. */
  resolveMissingLocal?: { matches: (url: string) => boolean; resolve: (url: string) => Fulfil | null };
  /**
   * The browser reaches the app at a public origin (`origin`, from config `deploy.publicUrl`) rather than where
   * this machine serves it: `localOrigin` is that local origin (the fence proxy forwards the app's requests
   * there), `host` the interface the fence proxy binds (config `deploy.host`), and `publicUrl` the template by
   * which the browser reaches a port of this machine: the proxy is announced to the browser with it and its own
   * port, and the app's public host:port goes to the app directly (a proxy bypass rule for exactly that host and port).
   */
  publicRoute?: { localOrigin: string; host: string; publicUrl: string };
}

/** A response that stands in for a request. */
export interface Fulfil {
  status: number;
  contentType: string;
  body: Buffer;
  rewrite: CdnRewrite;
}

function isSameOrigin(url: string, origin: string): boolean {
  if (url.startsWith('data:') || url.startsWith('blob:') || url.startsWith('about:')) return true;
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

/** How long a session's context gets to close by default (ms): what a hung renderer can take (issue 19). */
export const SESSION_CLOSE_LIMIT_MS = 10_000;

/**
 * Open a fresh context for one evaluation (paper §4.1: a live browser-accessible instance):
 * - the probe init script (src/browser/probe.init.js) before any app code;
 * - a network fence: requests and WebSockets to anything but the app's own origin are blocked and
 *   recorded as failed requests (`blocked: true`); service workers are blocked; downloads refused;
 * - dialogs answered the way a user who clicked meant (confirm → accept, prompt → `promptAnswer`),
 *   popups recorded and closed, main-frame navigations recorded (PITFALLS.md);
 * - console errors and uncaught exceptions recorded with their origin (`environment` when caused by the
 *   fence or the favicon, else `app`).
 * @param origin the app's origin as the browser knows it, e.g. http://127.0.0.1:41234 (or a public origin, see
 *   {@link SessionOptions.publicRoute}): the only origin its pages may reach
 */
export async function openAppSession(browser: Browser, origin: string, opts: SessionOptions): Promise<AppSession> {
  const log = new EventLog();
  // second wall of the fence: everything the context sends goes through a proxy that only lets the app's
  // own origin through (workers' requests and WebSockets bypass page-level interception)
  const pub = opts.publicRoute;
  const proxy = await startFenceProxy(
    origin,
    (url, kind) => {
      if (log.blockedUrls.has(url)) return;
      log.blockedUrls.add(url);
      if (log.failedRequests.length < MAX_ENTRIES) log.failedRequests.push({ url: url.slice(0, 500), resourceType: kind, errorText: 'blocked: outside the app (fence proxy)', blocked: true, atMs: log.now(), step: log.step });
    },
    pub ? { upstreamOrigin: pub.localOrigin, host: pub.host } : {},
  );
  // `<-loopback>`: loopback addresses go through the proxy too (Chromium bypasses them by default). With a public
  // route the browser (maybe on another host) reaches the proxy the way it reaches the app, and the app's own
  // public host:port directly, so the app works even where only its port is forwarded (the fence then fails closed)
  const app = hostAndPort(origin);
  const proxySetting = pub ? { server: publicOriginFor(pub.publicUrl, proxy.port), bypass: `<-loopback>,${app.hostname}:${app.port}` } : { server: proxy.server, bypass: '<-loopback>' };
  const context = await browser.newContext({
    proxy: proxySetting,
    viewport: opts.viewport,
    deviceScaleFactor: 1,
    serviceWorkers: 'block',
    acceptDownloads: false,
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  context.setDefaultTimeout(10_000);
  context.setDefaultNavigationTimeout(15_000);
  await context.addInitScript({ path: PROBE });
  if (opts.randomSeed !== undefined) await context.addInitScript({ content: seededRandomScript(opts.randomSeed) });
  if (opts.media !== false || opts.dateOrigin !== undefined) await context.clock.install(opts.dateOrigin !== undefined ? { time: opts.dateOrigin } : {});
  // WebRTC cannot send UDP (launch.ts); what a page asked for is recorded as refused requests
  await context.exposeBinding('__cookieWebrtc', (_source, urls: unknown) => {
    if (!Array.isArray(urls)) return;
    for (const u of urls.slice(0, 50)) {
      const url = `${String(u).slice(0, 300)}`;
      if (log.blockedUrls.has(url)) continue;
      log.blockedUrls.add(url);
      if (log.failedRequests.length >= MAX_ENTRIES) return void (log.dropped.requests = (log.dropped.requests ?? 0) + 1);
      log.failedRequests.push({ url, resourceType: 'webrtc', errorText: WEBRTC_REFUSED, blocked: true, atMs: log.now(), step: log.step });
    }
  });
  await context.addInitScript({ path: WEBRTC });
  if (opts.media !== false) {
    await context.addInitScript({ path: MEDIA });
    await context.exposeBinding('__cookieAudioStarted', () => {
      log.audioStartedAt ??= Date.now();
    });
  }

  // the document a page tried to open off the app (its own URL then reads chrome-error://)
  const blockedDocument = new WeakMap<Page, string>();
  let lastBlockedDocument: string | undefined;
  // CDN URLs whose Subresource Integrity hash the app's HTML no longer enforces (see dropCdnIntegrity)
  const integrityDropped = new Set<string>();
  const fulfil = (route: import('playwright').Route, f: Fulfil) => {
    const unpinned = integrityDropped.has(f.rewrite.url);
    log.cdnRewrites.push(unpinned ? { ...f.rewrite, note: `${f.rewrite.note ? `${f.rewrite.note}; ` : ''}the page's integrity hash was not enforced (the offline copy's bytes are not the pinned build's)` } : f.rewrite);
    return route.fulfill({ status: f.status, contentType: f.contentType, body: f.body, headers: { 'access-control-allow-origin': '*', 'cache-control': 'max-age=3600' } }).catch(() => {});
  };
  await context.route('**/*', async (route) => {
    const req = route.request();
    const url = req.url();
    if (isSameOrigin(url, origin)) {
      // an app document that pins CDN libraries with integrity hashes: served without the hashes of the ones
      // the offline CDN answers (another build than the pinned one would be refused: the environment's doing)
      if (opts.rewriteDocument && req.resourceType() === 'document') {
        const res = await route.fetch({ maxRedirects: 0 }).catch(() => null);
        if (!res) return route.continue().catch(() => {});
        if (/text\/html/i.test(res.headers()['content-type'] ?? '')) {
          const body = await res.text().catch(() => null);
          const dropped = body === null ? null : opts.rewriteDocument(body);
          if (dropped?.urls.length) {
            for (const u of dropped.urls) integrityDropped.add(u);
            return route.fulfill({ response: res, body: dropped.html }).catch(() => {});
          }
        }
        return route.fulfill({ response: res }).catch(() => {});
      }
      if (opts.resolveMissingLocal?.matches(url)) {
        const res = await route.fetch().catch(() => null);
        if (res && res.status() === 404) {
          const f = opts.resolveMissingLocal.resolve(url);
          if (f) return fulfil(route, f);
        }
        return res ? route.fulfill({ response: res }).catch(() => {}) : route.continue().catch(() => {});
      }
      return route.continue().catch(() => {});
    }
    const f = opts.resolveExternal?.(url);
    if (f) return fulfil(route, f);
    log.blockedUrls.add(url);
    if (log.failedRequests.length >= MAX_ENTRIES) {
      log.dropped.requests = (log.dropped.requests ?? 0) + 1;
      return route.abort('blockedbyclient').catch(() => {});
    }
    if (req.resourceType() === 'document') {
      lastBlockedDocument = url;
      try {
        blockedDocument.set(req.frame().page(), url);
      } catch {
        /* a popup's first request can come before its page exists */
      }
    }
    log.failedRequests.push({ url: url.slice(0, 500), resourceType: req.resourceType(), errorText: 'blocked: outside localhost', blocked: true, atMs: log.now(), step: log.step });
    return route.abort('blockedbyclient').catch(() => {});
  });
  await context.routeWebSocket(
    (url) => !isSameOrigin(url.toString().replace(/^ws/, 'http'), origin),
    (ws) => {
      log.blockedUrls.add(ws.url());
      log.failedRequests.push({ url: ws.url().slice(0, 500), resourceType: 'websocket', errorText: 'blocked: outside localhost', blocked: true, atMs: log.now(), step: log.step });
      ws.close({ code: 1008, reason: 'blocked by Cookie' }).catch(() => {});
    },
  );

  const page = await context.newPage();
  const mainPage = page;

  context.on('page', (p) => {
    if (p === mainPage) return;
    // a popup: record where it went, then close it (the app must not spawn windows we do not watch)
    void (async () => {
      await p.waitForURL((u) => u.href !== 'about:blank', { timeout: 1500 }).catch(() => {});
      let url = p.url();
      if (url === 'about:blank' || url.startsWith('chrome-error:')) url = blockedDocument.get(p) ?? lastBlockedDocument ?? url;
      if (log.navigations.length < MAX_ENTRIES) log.navigations.push({ kind: 'popup', url: url.slice(0, 500), offApp: !isSameOrigin(url, origin), atMs: log.now(), step: log.step });
      else log.dropped.navigations = (log.dropped.navigations ?? 0) + 1;
      await p.close().catch(() => {});
    })();
  });

  page.on('crash', () => {
    log.crashed = true;
  });

  page.on('dialog', (d) => {
    const type = d.type();
    const answer: DialogEvent['answer'] = 'accepted';
    if (log.dialogs.length < MAX_ENTRIES) log.dialogs.push({ type, message: d.message().slice(0, 300), answer, atMs: log.now(), step: log.step });
    else log.dropped.dialogs = (log.dropped.dialogs ?? 0) + 1;
    const p = type === 'prompt' ? d.accept(d.defaultValue() || opts.promptAnswer || 'Test') : d.accept();
    p.catch(() => {});
  });

  page.on('load', () => {
    const byCookie = log.ownLoadsPending > 0;
    if (byCookie) log.ownLoadsPending--;
    if (log.loads.length < MAX_ENTRIES) log.loads.push({ atMs: log.now(), step: log.step, ...(byCookie ? { byCookie: true } : {}) });
    else log.dropped.loads = (log.dropped.loads ?? 0) + 1;
  });

  page.on('framenavigated', (f) => {
    if (f !== page.mainFrame()) return;
    let url = f.url();
    if (url === 'about:blank') return;
    if (url.startsWith('chrome-error:')) url = blockedDocument.get(page) ?? url;
    // a pushState/reload flood must not flood memory: the first MAX_ENTRIES are kept, the rest counted
    if (log.navigations.length < MAX_ENTRIES) log.navigations.push({ kind: 'navigation', url: url.slice(0, 500), offApp: !isSameOrigin(url, origin), atMs: log.now(), step: log.step });
    else log.dropped.navigations = (log.dropped.navigations ?? 0) + 1;
  });

  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const text = msg.text().slice(0, 1000);
    const loc = msg.location();
    const where = loc?.url ? `${loc.url}:${loc.lineNumber}` : undefined;
    const env =
      (loc?.url && log.blockedUrls.has(loc.url)) ||
      /ERR_BLOCKED_BY_CLIENT|ERR_NAME_NOT_RESOLVED|favicon\.ico|Failed to find a valid digest in the 'integrity' attribute/.test(text) ||
      /GPU stall|GL_CLOSE_PATH_NV|Automatic fallback to software WebGL/.test(text);
    if (log.consoleErrors.length >= MAX_ENTRIES) return void (log.dropped.console = (log.dropped.console ?? 0) + 1);
    log.consoleErrors.push({ text, origin: env ? 'environment' : 'app', atMs: log.now(), location: where, step: log.step });
  });

  page.on('pageerror', (err) => {
    const text = `${err.name}: ${err.message}`.slice(0, 1000);
    const top = (err.stack ?? '').split('\n').find((l) => /https?:\/\//.test(l));
    if (log.pageErrors.length >= MAX_ENTRIES) return void (log.dropped.pageErrors = (log.dropped.pageErrors ?? 0) + 1);
    // thrown inside Cookie's own in-page scripts (probe, media capture, axe-core): the harness's, not the app's
    const harness = (err.stack ?? '').split('\n').slice(1, 3).some((l) => l.includes(HARNESS_SCRIPT_PREFIX) || /(probe|media|webrtc)\.init\.js/.test(l));
    log.pageErrors.push({ text, origin: harness ? 'environment' : 'app', atMs: log.now(), location: top?.trim().slice(0, 300), step: log.step });
  });

  page.on('requestfailed', (req) => {
    const url = req.url();
    if (log.blockedUrls.has(url)) return; // already recorded by the fence
    const errorText = req.failure()?.errorText ?? 'failed';
    if (/ERR_ABORTED/.test(errorText) && req.resourceType() === 'media') return; // media range requests cancelled by the browser
    if (log.failedRequests.length >= MAX_ENTRIES) return void (log.dropped.requests = (log.dropped.requests ?? 0) + 1);
    log.failedRequests.push({ url: url.slice(0, 500), resourceType: req.resourceType(), errorText, blocked: false, atMs: log.now(), step: log.step });
  });
  page.on('response', (res) => {
    if (res.status() < 400) return;
    const url = res.url();
    if (/\/favicon\.ico$/.test(url)) return;
    if (log.failedRequests.length >= MAX_ENTRIES) return void (log.dropped.requests = (log.dropped.requests ?? 0) + 1);
    log.failedRequests.push({ url: url.slice(0, 500), resourceType: res.request().resourceType(), status: res.status(), blocked: false, atMs: log.now(), step: log.step });
  });

  return {
    context,
    page,
    log,
    origin,
    async close(limitMs = SESSION_CLOSE_LIMIT_MS) {
      const start = Date.now();
      const prompt = await timebox(context.close(), limitMs, 'context close').then(() => Date.now() - start < CONTEXT_CLOSE_SLOW_MS, () => false);
      await proxy.close();
      return prompt;
    },
  };
}

/** Playwright's error when the page replaced its document under a call (a reload, a followed link): busy, not broken. */
export const CONTEXT_DESTROYED = /Execution context was destroyed/;

/**
 * True when the page's main thread answers a trivial evaluation within `ms`. A page stuck in a busy
 * loop makes every browser call wait forever (PITFALLS.md), so this is how hangs are detected. A page
 * that replaced its document mid-call (it reloads itself, follows a link) is busy, not hung: the new
 * document is asked, within the same `ms`; and a page whose main frame parsed a new document during the
 * window (`domcontentloaded`) answers even when no evaluation got through — on a loaded machine a page that
 * reloads every few hundred ms can destroy every context before Playwright's call lands in it, and a hung
 * renderer parses nothing. Any other failure (a time-out, a closed page) is no answer.
 */
export async function isResponsive(page: Page, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  let parsed = false;
  const onDocument = (): void => void (parsed = true);
  page.on('domcontentloaded', onDocument);
  try {
    for (;;) {
      try {
        await timebox(page.evaluate('1'), Math.max(1, deadline - Date.now()), 'responsiveness probe');
        return true;
      } catch (e) {
        if (page.isClosed()) return false;
        if (!CONTEXT_DESTROYED.test(String((e as Error)?.message ?? e)) || Date.now() >= deadline) return parsed;
      }
    }
  } finally {
    page.off('domcontentloaded', onDocument);
  }
}

/**
 * Whether the page still answers, the way a hang is decided (PITFALLS.md: never blame the app for the machine):
 * {@link isResponsive} within `ms` and, when it misses, once more within `2 × ms`. On a machine whose CPUs other
 * work holds (two evaluations, a recording, a test suite on 2 cores) a working page can miss one window; a page
 * in a busy loop misses both. Costs `2 × ms` more only on a page that missed the first window. Never throws.
 */
export async function answers(page: Page, ms: number): Promise<boolean> {
  return (await isResponsive(page, ms)) || (!page.isClosed() && (await isResponsive(page, 2 * ms)));
}

/** Evaluate a string expression in the page (never a compiled function: see probe.init.js), time-boxed. */
export function evalIn<T>(page: Page, expression: string, ms: number, label = expression.slice(0, 40)): Promise<T> {
  return timebox(page.evaluate(expression) as Promise<T>, ms, label);
}
