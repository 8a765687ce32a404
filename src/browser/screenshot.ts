import { EventEmitter, once } from 'node:events';
import type { CDPSession, Page, PageScreenshotOptions } from 'playwright';
import { timebox } from '../util/timebox.js';

// The viewport screenshot of a settled or frozen page, taken by the DevTools protocol directly
// (Page.captureScreenshot): Playwright's page.screenshot adds a frame synchronisation and style
// injections that cost 60–170 ms a shot on a 2-core machine, and a step takes up to four. Used for the
// step keyframes and perception's idle pair; captures that follow a resize keep page.screenshot.

const sessions = new WeakMap<Page, Promise<CDPSession | null>>();

/**
 * The page's one CDP session, opened on first use (5-s limit) and shared by its screenshots and perception's
 * axe-core injection; null when the browser offers none (callers then use Playwright's own calls).
 */
export function cdpSessionOf(page: Page): Promise<CDPSession | null> {
  let s = sessions.get(page);
  if (!s) {
    s = timebox(page.context().newCDPSession(page), 5000, 'CDP session').catch(() => null);
    sessions.set(page, s);
  }
  return s;
}

/**
 * The main frame's document commits and loads, as the page's CDP session reports them (`Page.frameNavigated`
 * for a frame without a parent: a new document, never a same-document navigation; `Page.loadEventFired`):
 * `events` emits `commit` and `load`.
 */
interface DocumentWatch {
  /** Whether the last committed document fired its load event (or came back from the back/forward cache). */
  loaded: boolean;
  events: EventEmitter;
}

const watches = new WeakMap<CDPSession, Promise<DocumentWatch | null>>();

/** The session's {@link DocumentWatch} (enables its Page domain once, 5-s limit); null when the session has none. */
function documentWatch(cdp: CDPSession): Promise<DocumentWatch | null> {
  let w = watches.get(cdp);
  if (!w) {
    w = (async () => {
      if (typeof cdp.on !== 'function') return null;
      const watch: DocumentWatch = { loaded: true, events: new EventEmitter() };
      cdp.on('Page.frameNavigated', (e) => {
        if (e.frame.parentId) return;
        watch.loaded = e.type === 'BackForwardCacheRestore';
        watch.events.emit('commit');
      });
      cdp.on('Page.loadEventFired', () => {
        watch.loaded = true;
        watch.events.emit('load');
      });
      await timebox(cdp.send('Page.enable'), 5000, 'CDP Page domain');
      return watch;
    })().catch(() => null);
    watches.set(cdp, w);
  }
  return w;
}

/** How long a capture stranded by a new document waits for that document's load before it is asked again, ms. */
export const STRANDED_CAPTURE_LOAD_WAIT_MS = 5000;

/**
 * A PNG of the page's viewport at its current size (CSS px × device pixel ratio), the caret as the page
 * shows it. Time-boxed by `timeoutMs` (+1 s for the fallback).
 *
 * Chromium drops a `Page.captureScreenshot` whose document is replaced while it runs: the request is never
 * answered (a page that reloads itself in a loop lost one capture in fifteen this way on a 2-core machine,
 * and the capture then waited out its whole limit, as if the page gave no frame). A capture the main frame's
 * next document overtakes is therefore asked again once that document loaded (≤ {@link
 * STRANDED_CAPTURE_LOAD_WAIT_MS}), within the same `timeoutMs`.
 * @param opts.fast Chromium's speed-optimised PNG encoding (`optimizeForSpeed`): the same pixels in a PNG
 *   2–3× larger, about 0.1 s less per capture of a detailed page on a 2-core machine. For captures compared
 *   in memory, or recompressed before they are kept (keepPng, common/png.ts)
 * @throws StageTimeoutError ("screenshot timed out after `timeoutMs` ms") when the page does not paint within
 *   the limit; the browser's error when the page is closed
 */
export async function viewportPng(page: Page, timeoutMs: number, opts: { fast?: boolean } = {}): Promise<Buffer> {
  const cdp = await cdpSessionOf(page);
  if (cdp) {
    // ends every wait of this call once it returned or timed out
    const done = new AbortController();
    const capture = async (): Promise<string> => {
      const watch = await documentWatch(cdp);
      for (;;) {
        const shot = cdp.send('Page.captureScreenshot', { format: 'png', ...(opts.fast ? { optimizeForSpeed: true } : {}) });
        shot.catch(() => {});
        // a commit while the capture runs may strand it: it is asked again (a capture answered first is kept)
        const committed = watch ? [once(watch.events, 'commit', { signal: done.signal }).then(() => null, () => null)] : [];
        const data = await Promise.race([shot.then((v) => v.data), ...committed]);
        if (data !== null || done.signal.aborted || !watch) return data ?? '';
        // the new document's load (bounded: one that never loads is captured as it is)
        if (!watch.loaded) await once(watch.events, 'load', { signal: AbortSignal.any([done.signal, AbortSignal.timeout(STRANDED_CAPTURE_LOAD_WAIT_MS)]) }).catch(() => {});
      }
    };
    try {
      const data = await timebox(capture(), timeoutMs, 'screenshot').finally(() => done.abort());
      return Buffer.from(data, 'base64');
    } catch (e) {
      if (page.isClosed() || /timed out/.test(String(e))) throw e;
      // a detached session (a navigation replaced the target): open a new one next time, use Playwright's now
      sessions.delete(page);
    }
  }
  return timebox(page.screenshot({ timeout: timeoutMs, caret: 'initial' }), timeoutMs + 1000, 'screenshot');
}

/**
 * Playwright's `page.screenshot(opts)` (its own frame synchronisation: the captures that follow a resize, and
 * full-page ones), time-boxed by `limitMs`. Chromium refuses a capture whose document is replaced meanwhile
 * ("Unable to capture screenshot": 2 of 30 captures of a page reloading every 100 ms); such a capture is asked
 * once more after the next document's load (≤ 5 s).
 * @throws the browser's error (a second refusal included); StageTimeoutError after `limitMs`
 */
export async function pageScreenshot(page: Page, opts: PageScreenshotOptions, limitMs: number, label = 'screenshot'): Promise<Buffer> {
  const take = () => timebox(page.screenshot(opts), limitMs, label);
  try {
    return await take();
  } catch (e) {
    if (page.isClosed() || !/Unable to capture screenshot/.test(String(e))) throw e;
    await page.waitForLoadState('load', { timeout: STRANDED_CAPTURE_LOAD_WAIT_MS }).catch(() => {});
    return take();
  }
}
