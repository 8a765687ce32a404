import type { CDPSession, Page } from 'playwright';
import { evalIn } from '../browser/session.js';
import { timebox } from '../util/timebox.js';

/**
 * Pause Playwright's installed clock (page.clock) where it stands, in the page: real-time flow stops after the
 * callback in progress, and nothing else runs. Playwright's public `clock.pauseAt(t)` first *fast-forwards* to
 * `t`, running every timer and requestAnimationFrame callback due by then while time stands still — a callback
 * that waits on the clock (a frame budget `while (performance.now() - t0 < 600)`, a busy "sleep" on Date.now())
 * then never ends, and Cookie's own freeze hangs the page (seen: "Page freezes", critical, on a heavy canvas
 * page that runs fine unfrozen). A run of due callbacks in progress finishes first, in real time; timers that
 * fall due while paused run after `clock.resume()`, in real time.
 * Uses the clock controller Playwright injects (`globalThis.__pwClock.controller`, Playwright 1.65; the
 * version is pinned in package-lock.json, and test/e2e/freeze.test.ts fails if this stops pausing);
 * resolves `false` when it is not there, and the caller falls back to the public pause. Main frame only.
 */
const PAUSE_IN_PLACE = `(async () => {
  const c = globalThis.__pwClock && globalThis.__pwClock.controller;
  if (!c || typeof c._innerPause !== 'function') return false;
  if (typeof c._replayLogOnce === 'function') c._replayLogOnce();
  // a run of due callbacks in progress finishes in real time first (pausing under it would stop the time its
  // remaining callbacks read); the next run is only scheduled, and the pause cancels it
  for (let i = 0; i < 100 && c._currentRealTimeTimer && c._currentRealTimeTimer.promise; i++) await c._currentRealTimeTimer.promise;
  await c._innerPause();
  return true;
})()`;

/**
 * The environment freeze of Stage 2 (paper §4.1; MACHINE.md "Environment freeze"): while the agent
 * observes and deliberates, the app is paused — timers, requestAnimationFrame, Date and performance
 * (Playwright clock pause), CSS and Web Animations (CDP Animation.setPlaybackRate 0), media elements
 * (paused) and AudioContexts (suspended). Unfreezing resumes at normal speed with no catch-up burst.
 * Requires a session opened with `media: true` (clock installed before the app loaded). Disabled, every
 * call is a no-op, so the same loop runs with `agent.freeze: false`.
 */
export class Freezer {
  private frozen = false;
  private constructor(
    private readonly page: Page,
    private readonly cdp: CDPSession | null,
    readonly enabled: boolean,
  ) {}

  /** Attach to a page (opens a CDP session and enables the Animation domain). */
  static async attach(page: Page, enabled: boolean): Promise<Freezer> {
    if (!enabled) return new Freezer(page, null, false);
    const cdp = await timebox(page.context().newCDPSession(page), 5000, 'CDP session');
    await timebox(cdp.send('Animation.enable'), 5000, 'Animation.enable');
    return new Freezer(page, cdp, true);
  }

  get isFrozen(): boolean {
    return this.frozen;
  }

  /** Pause the app. Time-boxed (ms); a hung page throws StageTimeoutError. */
  async freeze(ms = 5000): Promise<void> {
    if (!this.enabled || this.frozen) return;
    const all = timebox(
      // the clock, the CSS/Web animations and the media are paused together (independent channels)
      Promise.all([
        (async () => {
          // pause where the clock stands, running nothing (see PAUSE_IN_PLACE); only if this Playwright has no
          // such pause, the public one, at the page's "now" plus a few ms (the clock runs while the call travels)
          if (await evalIn<boolean>(this.page, PAUSE_IN_PLACE, ms, 'clock pause')) return;
          for (const margin of [15, 60, 250]) {
            const now = await evalIn<number>(this.page, 'Date.now()', ms);
            try {
              await this.page.clock.pauseAt(now + margin);
              break;
            } catch (e) {
              // the jump runs the app's due timers; one of them may throw (the app's error, reported on the
              // page's console by the fake clock): the clock is paused all the same
              if (!/to the past/.test(String(e))) break;
              if (margin === 250) throw e;
            }
          }
        })(),
        this.cdp!.send('Animation.setPlaybackRate', { playbackRate: 0 }),
        evalIn(this.page, 'window.__cookieMedia ? window.__cookieMedia.freeze() : null', ms),
      ]),
      ms * 2,
      'freeze',
    );
    try {
      await all;
    } catch (e) {
      // a freeze that failed in part must not leave the app half paused: the animations and the media behind a
      // running clock, or the clock itself (a public pause that threw "to the past" had already stopped it)
      await Promise.all([...this.resumeEffects(ms), timebox(this.page.clock.resume(), ms, 'clock.resume')].map((p) => p.catch(() => {})));
      throw e;
    }
    this.frozen = true;
  }

  /** Resume the app at normal speed. */
  async unfreeze(ms = 5000): Promise<void> {
    if (!this.enabled || !this.frozen) return;
    this.frozen = false;
    await timebox(
      Promise.all([...this.resumeEffects(ms), this.page.clock.resume()]),
      ms * 2,
      'unfreeze',
    );
  }

  /**
   * Set the CSS/Web animations and the media running again (the clock is resumed by the caller). Each call is
   * time-boxed (ms): on a page that hangs the Animation domain never answers either, and an unbounded wait in
   * a failed freeze's clean-up held a whole interaction stage until its own 6-minute limit.
   */
  private resumeEffects(ms: number): Promise<unknown>[] {
    return [timebox(this.cdp!.send('Animation.setPlaybackRate', { playbackRate: 1 }), ms, 'Animation.setPlaybackRate'), evalIn(this.page, 'window.__cookieMedia ? window.__cookieMedia.unfreeze() : null', ms)];
  }

  /** Detach the CDP session. */
  async dispose(): Promise<void> {
    if (this.cdp) await timebox(this.cdp.detach(), 2000, 'detach').catch(() => {});
  }
}
