import fs from 'node:fs';
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { EventLog, type AppSession } from '../../src/browser/session.js';
import { perceive } from '../../src/perceive/perceive.js';
import { fakePage, png } from '../fixtures/fake-page.js';
import { tmpDir } from '../helpers.js';

// Static perception on a page that stops answering after load (a loop started by a timer): once a probe
// call times out, perception asks the hang question (two windows, PITFALLS.md) and stops there; it starts
// no capture that would only wait out its own limit on a hung page (issue 13: 35 → 20 s, a core burned
// meanwhile). Counted in calls made, not in wall time.
const never = new Promise<never>(() => {});

function session(hangAfter: (expression: string) => boolean): { s: AppSession; calls: string[] } {
  let hung = false;
  const { page, calls } = fakePage({
    evaluate: (e) => {
      if (hung) return never;
      if (hangAfter(e)) hung = true;
      if (e.includes('snapshot()')) return { mutations: 3, frames: 10, longFrames: 0, longFrameMs: 0 };
      if (e.includes('requestAnimationFrame(tick)')) return { frames: 18, ms: 300 };
      if (e.includes('getAnimations')) return 0;
      if (e.includes('inventory()')) return { title: 'Tip calculator', textSample: 'Tip calculator. Bill. Add 15% tip.', htmlLang: 'en', scrollHeight: 800 };
      if (e.includes('overflow()')) return { overflowPx: 0, offenders: [], clippedText: 0, visibleTextLength: 30, canvases: 0, images: 0, svgs: 0 };
      if (e.startsWith('axe.run')) return [];
      return 1;
    },
    screenshot: () => png([[1, 1]]),
  });
  Object.assign(page, { goto: async () => ({ status: () => 200, request: () => ({ timing: () => ({ requestStart: 2, responseStart: 9 }) }) }), waitForLoadState: async () => undefined, addScriptTag: async () => undefined });
  return { s: { page: page as Page, context: {} as AppSession['context'], log: new EventLog(), origin: 'http://127.0.0.1:1', close: async () => true }, calls };
}

const opts = () => ({
  url: 'http://127.0.0.1:1/',
  evidenceDir: tmpDir('cookie-perceive-hang-'),
  viewports: [{ width: 375, height: 812 }, { width: 1280, height: 800 }],
  defaultViewport: { width: 1280, height: 800 },
  expectedLanguage: 'en',
  timeouts: { navigation: 1000, settle: 2000, unresponsive: 50 },
});

describe('static perception on a page that hangs after load', () => {
  it('a probe snapshot that times out in the idle window ends perception with the hang, before the second screenshot, the inventory, axe or any viewport', async () => {
    // the page answers through the settle wait and the window's first screenshot; the frame snapshot at the end
    // of the window (the one after the first snapshot that follows that screenshot) never answers
    let after = 0;
    const { s, calls } = session((e) => e.includes('snapshot()') && calls.includes('screenshot') && ++after === 1);
    const o = opts();
    const r = await perceive(s, o);
    expect(r.unresponsive).toBe(true);
    expect(r.problems).toEqual(['main thread stopped answering during perception (after load)']);
    expect(calls.filter((c) => c === 'screenshot')).toHaveLength(1);
    expect(calls.some((c) => c.includes('inventory()') || c.includes('axe') || c.startsWith('setViewportSize'))).toBe(false);
    expect(fs.existsSync(`${o.evidenceDir}/screenshots/fullpage.png`)).toBe(false);
  });

  it('a wait for entrance animations that gets no answer asks the hang question before any capture', async () => {
    const { s, calls } = session((e) => e.includes('getAnimations'));
    const r = await perceive(s, opts());
    expect(r.unresponsive).toBe(true);
    expect(r.problems.at(-1)).toBe('main thread stopped answering during perception (after load)');
    expect(calls).not.toContain('screenshot');
  });

  it('a page that answers throughout is perceived in full: every viewport, the inventory, no hang', async () => {
    const { s, calls } = session(() => false);
    const r = await perceive(s, opts());
    expect(r.unresponsive).toBe(false);
    expect(calls.some((c) => c.includes('inventory()'))).toBe(true);
    expect(calls).toContain('setViewportSize:375x812');
  });
});
