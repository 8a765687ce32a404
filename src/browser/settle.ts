import type { Page } from 'playwright';
import { evalIn } from './session.js';

// Waits that end when the page has done what they wait for, each bounded: used by static perception (entrance
// animations, relayout after a resize) and by the step recorder (hover styles, the effects of an action), in
// place of fixed sleeps (issue 13 point 2).

/**
 * Resolve once the page has no finite CSS transition / CSS or Web animation still running and its fonts
 * are loaded, or when `limitMs` passes (infinite animations — spinners, marquees, game loops — never
 * block it). Best effort: a page that broke `getAnimations` or hangs only costs the bound.
 * @returns the number of finite animations still running at the end (0 = still)
 */
export async function waitForStill(page: Page, limitMs: number): Promise<number> {
  const expr = `new Promise((resolve) => {
    const t0 = performance.now();
    const check = () => {
      let pending = 0;
      try {
        for (const a of document.getAnimations()) {
          const t = a.effect && a.effect.getComputedTiming ? a.effect.getComputedTiming() : null;
          if (a.playState === 'running' && t && Number.isFinite(t.endTime)) pending++;
        }
      } catch (e) {}
      const fonts = !document.fonts || document.fonts.status === 'loaded';
      if ((pending === 0 && fonts) || performance.now() - t0 > ${limitMs}) resolve(pending); else setTimeout(check, 40);
    };
    check();
  })`;
  return evalIn<number>(page, expr, limitMs + 1000, 'wait for animations').catch(() => -1);
}

/** Resolve after the page painted two frames (a relayout is on screen), or after `limitMs`. */
export async function waitForFrames(page: Page, limitMs: number): Promise<void> {
  await evalIn(page, 'new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(1))))', limitMs, 'two frames').catch(() => undefined);
}


/** What {@link scrollThrough} did: screens scrolled (0 = the page fits its viewport), and the document's height, px. */
export interface ScrollThrough {
  screens: number;
  heightPx: number;
}

/**
 * Scroll the document down a screen at a time to `limitPx` (or its end), two painted frames per screen, then
 * back to the top — what a reviewer does before judging a long page. Content an LLM's page reveals on scroll
 * (an IntersectionObserver adding a `visible` class to sections at opacity 0, lazy images) is then shown in the
 * full-page screenshot and in the text checks, as the reviewer saw it, instead of as blank bands. Scrolls are
 * instant (`behavior: 'instant'` overrides a page's `scroll-behavior: smooth`); at most `maxScreens` screens;
 * bounded by `limitMs` overall. Best effort: a page that fails or hangs only costs the bound (then null).
 */
export async function scrollThrough(page: Page, limitPx: number, maxScreens: number, limitMs: number): Promise<ScrollThrough | null> {
  const expr = `(async () => {
    const el = document.scrollingElement || document.documentElement;
    const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(1))));
    const step = Math.max(200, Math.round(innerHeight * 0.8));
    let screens = 0;
    for (let y = step; screens < ${maxScreens} && y < Math.min(el.scrollHeight, ${limitPx}) && el.scrollHeight > innerHeight; y += step) {
      window.scrollTo({ top: y, left: 0, behavior: 'instant' });
      screens++;
      await frames();
    }
    const heightPx = el.scrollHeight;
    if (screens) { window.scrollTo({ top: 0, left: 0, behavior: 'instant' }); await frames(); }
    return { screens, heightPx };
  })()`;
  return evalIn<ScrollThrough>(page, expr, limitMs, 'scroll through').catch(() => null);
}
