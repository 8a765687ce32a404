import type { Browser } from 'playwright';
import type { Evidence, StaticPerception } from '../types.js';
import { timebox } from '../util/timebox.js';

/**
 * An empty page's requestAnimationFrame loop: at least 4 frames and 60 ms, at most 300 ms. Resolves with the
 * frames counted and the time they took, ms.
 */
const MACHINE_FPS_PROBE = `new Promise((resolve) => { let n = 0; const t0 = performance.now(); const tick = (t) => { n++; if (t - t0 < 300 && !(t - t0 >= 60 && n >= 4)) requestAnimationFrame(tick); else resolve({ frames: n, ms: t - t0 }); }; requestAnimationFrame(tick); })`;

/**
 * A measured window under this frame rate (fps) asks for the machine's own capacity: wide of the offline judge's
 * stutter rule (under 10 fps), so any judge that blames slowness on the app can first ask what the machine gave.
 */
export const CALIBRATE_BELOW_FPS = 20;
/** A load at least this long asks for the machine's own capacity too, ms (the offline judge calls 10 s slow). */
export const CALIBRATE_LOAD_MS = 5000;

/**
 * Whether the evidence has a slowness the machine could explain: the load took {@link CALIBRATE_LOAD_MS} or more,
 * or the idle window or a step measured under {@link CALIBRATE_BELOW_FPS}. Only then is the machine's frame rate
 * measured ({@link measureMachineFrameRate}): on every other page it would answer no question (issue 13: an
 * evaluation near the physical floor). A page that stopped answering is judged by that, not by its frames: false.
 */
export function needsMachineFrameRate(evidence: Pick<Evidence, 'static' | 'interaction'>): boolean {
  const st = evidence.static;
  const ended = evidence.interaction?.endedBecause;
  if (!st || st.unresponsive || ended === 'unresponsive' || ended === 'crashed') return false;
  if (st.loadMs >= CALIBRATE_LOAD_MS) return true;
  const windows = [st.frameTiming, ...(evidence.interaction?.steps ?? []).map((s) => s.frameTiming)];
  return windows.some((t) => !!t && typeof t.fps === 'number' && t.fps < CALIBRATE_BELOW_FPS);
}

/**
 * The machine's own frame capacity now (PITFALLS.md: the machine's slowness is not the app's): frames per
 * second of an empty page in a fresh context of the same browser, asked after the app's page was closed, so
 * nothing of the app runs meanwhile — the same quiet as before it loaded. Resolves null when the browser gives
 * no answer within `limitMs` (never throws: the judge then has no excuse to offer, and says so).
 * @param limitMs bound of the whole measurement (context, page, frames, closing), ms
 * @returns frames per second (one decimal) and the window measured, ms; null when not measured
 */
export async function measureMachineFrameRate(browser: Browser, limitMs = 4000): Promise<StaticPerception['machineFrameRate'] | null> {
  let context: Awaited<ReturnType<Browser['newContext']>> | null = null;
  const work = async () => {
    context = await browser.newContext();
    const page = await context.newPage();
    return (await page.evaluate(MACHINE_FPS_PROBE)) as { frames: number; ms: number };
  };
  const measuring = work();
  try {
    const cal = await timebox(measuring, limitMs, 'frame-rate calibration');
    return cal.ms > 0 ? { fps: Math.round((cal.frames * 10000) / cal.ms) / 10, windowMs: Math.round(cal.ms) } : null;
  } catch {
    return null;
  } finally {
    const close = () => (context as typeof context | null)?.close().catch(() => {});
    // a context the browser opened only after the bound is closed as soon as it exists
    void measuring.then(close, close);
    await timebox(Promise.resolve(close()), 2000, 'calibration context close').catch(() => {});
  }
}
