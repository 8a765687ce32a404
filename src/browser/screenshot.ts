import type { CDPSession, Page } from 'playwright';
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
 * A PNG of the page's viewport at its current size (CSS px × device pixel ratio), the caret as the page
 * shows it. Time-boxed by `timeoutMs` (+1 s for the fallback).
 * @param opts.fast Chromium's speed-optimised PNG encoding (`optimizeForSpeed`): the same pixels in a PNG
 *   2–3× larger, about 0.1 s less per capture of a detailed page on a 2-core machine. For captures compared
 *   in memory, or recompressed before they are kept (keepPng, common/png.ts)
 * @throws when the page does not paint within the limit or is closed
 */
export async function viewportPng(page: Page, timeoutMs: number, opts: { fast?: boolean } = {}): Promise<Buffer> {
  const cdp = await cdpSessionOf(page);
  if (cdp) {
    try {
      const { data } = await timebox(cdp.send('Page.captureScreenshot', { format: 'png', ...(opts.fast ? { optimizeForSpeed: true } : {}) }), timeoutMs, 'screenshot');
      return Buffer.from(data, 'base64');
    } catch (e) {
      if (page.isClosed() || /timed out/.test(String(e))) throw e;
      // a detached session (a navigation replaced the target): open a new one next time, use Playwright's now
      sessions.delete(page);
    }
  }
  return timebox(page.screenshot({ timeout: timeoutMs, caret: 'initial' }), timeoutMs + 1000, 'screenshot');
}
