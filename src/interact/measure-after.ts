import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright';
import { evalIn } from '../browser/session.js';
import type { StepCheck } from '../types.js';
import { sleep, timebox } from '../util/timebox.js';
import type { Decision } from './agent.js';
import type { KeyframeOptions } from './record/keyframe.js';

/** A measurement an agent may ask for right after its action ({@link Decision.measure}). */
export type MeasureKind = NonNullable<Decision['measure']>;

/** The invariant each measurement serves, when the decision names none (issue 18). */
export const MEASURE_INVARIANT: Record<MeasureKind, StepCheck['invariant']> = { 'layout-375': 'layout-after-toggle', resize: 'resize-keeps', dpr2: 'dpr-sharp' };

/** Phone viewport of the layout and DPR looks, CSS px. */
export const PHONE = { width: 375, height: 812 } as const;

/**
 * A careful tester's second look after an action (issue 11 point 3; paper §4.1, METHOD.md §2.3), the app
 * running meanwhile (`clock.run()` first, `clock.pause()` at the end, whatever happened):
 * - `layout-375`: the layout at a 375-px phone width after a language or theme switch — `{ viewport: 375,
 *   overflowPx, offenders, clipped (≤ 10), overlapping (count), screenshot }`;
 * - `resize`: canvas ink before and after the window is shrunk by 320×120 px (at least 400×300) and
 *   restored — `{ inkBefore, inkAfter, resizedTo, screenshot }`;
 * - `dpr2`: the canvases' backing stores on a 375-px phone viewport at device pixel ratio 2 (CDP device
 *   metrics override, cleared after) — `{ viewport: 375, dpr: 2, canvases, screenshot }`.
 * A screenshot of what was measured is written to `file` (relative to the evidence folder). The original
 * viewport is restored. Probe calls are time-boxed by `opts.unresponsiveMs`.
 * @throws the page's or the probe's error (e.g. StageTimeoutError); the caller records it as `{ error }`
 */
export async function measureAfter(
  page: Page,
  kind: MeasureKind,
  file: string,
  opts: KeyframeOptions,
  clock: { run(): Promise<void>; pause(): Promise<void> },
): Promise<Record<string, unknown>> {
  const vp = page.viewportSize() ?? { width: 1280, height: 800 };
  const shoot = async () => fs.writeFileSync(path.join(opts.evidenceDir, file), await page.screenshot({ timeout: opts.unresponsiveMs }));
  await clock.run();
  try {
    if (kind === 'layout-375') {
      await page.setViewportSize({ ...PHONE });
      await sleep(400);
      const o = await evalIn<{ overflowPx: number; offenders: { selector: string; right: number }[] }>(page, 'window.__cookieProbe.overflow()', opts.unresponsiveMs, 'overflow');
      const problems = await evalIn<{ kind: string; selector: string; text: string }[]>(page, 'window.__cookieProbe.textProblems()', opts.unresponsiveMs, 'text problems');
      await shoot();
      return { viewport: 375, overflowPx: o.overflowPx, offenders: o.offenders, clipped: problems.filter((p) => p.kind === 'clipped' || p.kind === 'cut').slice(0, 10), overlapping: problems.filter((p) => p.kind === 'overlap').length, screenshot: file };
    }
    if (kind === 'resize') {
      const inkBefore = await evalIn<{ ink: number } | null>(page, 'window.__cookieProbe.canvasInk()', opts.unresponsiveMs, 'ink');
      const resizedTo = { width: Math.max(400, vp.width - 320), height: Math.max(300, vp.height - 120) };
      await page.setViewportSize(resizedTo);
      await sleep(350);
      await page.setViewportSize(vp);
      await sleep(400);
      const inkAfter = await evalIn<{ ink: number } | null>(page, 'window.__cookieProbe.canvasInk()', opts.unresponsiveMs, 'ink');
      await shoot();
      return { inkBefore: inkBefore?.ink ?? null, inkAfter: inkAfter?.ink ?? null, resizedTo, screenshot: file };
    }
    const cdp = await page.context().newCDPSession(page);
    try {
      await cdp.send('Emulation.setDeviceMetricsOverride', { ...PHONE, deviceScaleFactor: 2, mobile: true });
      await sleep(500);
      const canvases = await evalIn<unknown[]>(page, 'window.__cookieProbe.canvasBacking()', opts.unresponsiveMs, 'canvas backing');
      // the keyframe must show what was measured: Playwright's page.screenshot renders at the viewport it
      // manages (1280×800, DPR 1), not under this session's override; the session's own capture does (750 px wide)
      const shot = (await timebox(cdp.send('Page.captureScreenshot', { format: 'png' }), opts.unresponsiveMs, 'DPR-2 screenshot')) as { data?: string } | undefined;
      if (shot?.data) fs.writeFileSync(path.join(opts.evidenceDir, file), Buffer.from(shot.data, 'base64'));
      else await shoot();
      return { viewport: 375, dpr: 2, canvases, screenshot: file };
    } finally {
      await cdp.send('Emulation.clearDeviceMetricsOverride').catch(() => {});
      await cdp.detach().catch(() => {});
    }
  } finally {
    await page.setViewportSize(vp).catch(() => {});
    await sleep(300);
    await clock.pause().catch(() => {});
  }
}

/**
 * The step's check with a measurement added: the decision's own check gains `measured`; without one, a
 * check of the measurement's invariant ({@link MEASURE_INVARIANT}) on the target (or the measurement's name).
 */
export function withMeasurement(check: StepCheck | undefined, d: Decision & { measure: MeasureKind }, measured: Record<string, unknown>): StepCheck {
  return check ? { ...check, measured } : { invariant: MEASURE_INVARIANT[d.measure], subject: d.action.target?.name ?? d.measure, measured };
}
