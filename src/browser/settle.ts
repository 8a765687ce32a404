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

