import type { Page } from 'playwright';
import { evalIn, isResponsive, type EventLog } from '../browser/session.js';
import { frameTimingBetween, type FrameSnap } from '../browser/frame-timing.js';
import type { CoverInfo, Readings, StepCheck, StepEffect, TraceStep } from '../types.js';
import { errorMessage, sleep, timebox } from '../util/timebox.js';
import { performAction } from './act.js';
import type { Decision, ObservedElement } from './agent.js';
import { CLEAR_WORDS, changedRegions, countRegions, decideEffect, motionChange, lastingMotionChange, changedLines, ZERO_IDENTITY_KEYS, type EmptyState } from './effect.js';
import type { HumanInput } from './input.js';
import { measureAfter, withMeasurement } from './measure-after.js';
import { captureKeyframe, countersOnly, keyframeFile, NO_CAPTURE, type Box, type Capture } from './record/keyframe.js';
import { assembleEffect, compareKeyframes, regionsPerSecond, stillAnimating, type Shot } from './step-effect.js';
import { eventsSince, markLog } from './trace-step.js';
import { span } from '../util/profile.js';

/** A keyframe's element and text counts for the trace; `loading` kept only when the document was still being parsed. */
function contentOf(c: { elements: number; textChars: number; loading?: boolean }): { elements: number; textChars: number; loading?: boolean } {
  return { elements: c.elements, textChars: c.textChars, ...(c.loading ? { loading: true } : {}) };
}

/** What the step recorder needs of the interaction's options ({@link InteractOptions}). Times in ms. */
export interface StepOptions {
  url: string;
  origin: string;
  evidenceDir: string;
  /** Limit of one action. */
  stepTimeoutMs: number;
  /** A page that does not answer within this is recorded as unresponsive. */
  unresponsiveMs: number;
  /** Share of the screen that animates by itself (static perception): the noise floor of pixel diffs. */
  animatedShare: number;
  /** DOM changes per second while idle (static perception): the noise floor of DOM effects. */
  idleMutationsPerSec: number;
  /** The machine's cumulative CPU stall clock, ms, when the browser runs here (frame timings record CPU pressure). */
  cpuStall?: () => number | null;
}

/** The app's clock as a step drives it ({@link Recording}): run/pause the app with the video, video position in ms. */
export interface StepClock {
  run(): Promise<void>;
  pause(): Promise<void>;
  pauseVideo(): void;
  videoOffset(): number | null;
}

/**
 * The step recorder of Stage 2 (paper §4.1, Appendix B.1; METHOD.md §2.3): it carries out one decided
 * action on the frozen app and records its evidence as a {@link TraceStep}. Idle baseline (a screenshot
 * only on a page that moves by itself) → the app runs → the pointer travels to the target → freeze,
 * keyframe "before" (readings for a check) → run → the action with human-like input (time-boxed) → effects
 * show (at least 450 ms, then until the DOM is quiet and no transition runs, ≤ 1.65 s) → freeze, keyframe "after" → the effect measured
 * counterfactually against the baseline (with a second look for started/stopped motion), frame timing,
 * trusted-click delivery, the page's events meanwhile, the video offsets, and a measurement the agent asked
 * for. A page that stops answering gives outcome `unresponsive`. It keeps one belief across steps: whether
 * the page moves by itself ({@link pageAnimates}). It documents, never judges.
 */
export class StepRecorder {
  private animating: boolean;
  /** The static noise floor of pixel diffs (share of the screen, ≤ 0.5). */
  private readonly noise: number;
  /** DOM changes the page makes by itself between two settle looks 100 ms apart (twice its idle rate). */
  private readonly idleMutationsPerLook: number;

  constructor(
    private readonly page: Page,
    private readonly log: EventLog,
    private readonly input: HumanInput,
    private readonly clock: StepClock,
    private readonly opts: StepOptions,
  ) {
    this.noise = Math.min(0.5, opts.animatedShare);
    this.idleMutationsPerLook = Math.floor((opts.idleMutationsPerSec * 2) / 10);
    // does the page change on its own (then each step takes an idle baseline first)? From static
    // perception at the start, then from what each step's running time showed
    this.animating = opts.animatedShare > 0.001 || opts.idleMutationsPerSec > 0.5;
  }

  /** Whether the next step takes a screenshot baseline (the page was last seen moving by itself). */
  get pageAnimates(): boolean {
    return this.animating;
  }

  /**
   * Carry out decision `d` as step `index` (0-based) and record it; the app is frozen before and after.
   * Sets `log.step` to `index` (the caller clears it). May add the target's box (px) and a note about a
   * cover to `d.action.target`/`d.reasoning`. Failures of the action are recorded in the step (`failed`,
   * `timeout`, `unresponsive`).
   * @param thinkMs how long the agent deliberated, ms
   * @param observed the elements of the observation the decision was made on (`d.ref` indexes them)
   * @throws only when the page cannot be frozen or probed at all (the loop treats it as a hang or a harness error)
   */
  async record(index: number, d: Decision, thinkMs: number, observed: ObservedElement[]): Promise<TraceStep> {
    const { page, log, opts, clock } = this;
    log.step = index;
    const mark = markLog(log);
    const name = (s: string) => keyframeFile(index, s);
    const capture = (file: string | null, ref: number | string) => captureKeyframe(page, opts, file, ref);
    let outcome: TraceStep['outcome'] = 'ok';
    let error: string | undefined;
    let box: Box | null = null;
    const started = Date.now();
    const cutsBefore = this.input.shortcuts;
    const videoStart = clock.videoOffset();
    let intercepted: CoverInfo | undefined;
    // idle baseline (only on a page that animates by itself): a look right before the app runs for the
    // pointer's travel, so what the app does on its own over that time is known — it costs one screenshot
    const refArg = d.ref ?? 'null';
    let end = span('step.baseline');
    const base0 = this.animating ? await capture(null, refArg) : await countersOnly(page, opts.unresponsiveMs);
    end();
    end = span('step.run');
    await clock.run();
    end();
    end = span('step.aim');

    // the pointer travels to the target while the app runs (hover styles settle before the keyframe)
    try {
      if (d.ref !== undefined) {
        const r = await evalIn<{ x: number; y: number; width: number; height: number; cx: number; cy: number; covered: boolean; coveredBy: string | null; cover: CoverInfo | null } | null>(page, `window.__cookieProbe.reveal(${d.ref})`, opts.unresponsiveMs, 'reveal');
        if (!r) throw new Error('element disappeared before it could be used');
        box = { x: r.x, y: r.y, width: r.width, height: r.height };
        if (d.action.target) d.action.target.box = { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) };
        if (r.covered) d.reasoning += ` (covered by ${r.coveredBy}: a real pointer hits that instead)`;
        if (r.cover) intercepted = r.cover;
        const aim = this.input.aim(box);
        await this.movePointer(aim.x, aim.y);
        // hover styles settle before the keyframe: until no transition runs and the DOM is quiet (≤ 300 ms)
        await this.waitSettled(100, 300);
      } else if (d.action.x !== undefined && d.action.y !== undefined && d.action.kind !== 'drag') {
        await this.movePointer(d.action.x, d.action.y);
      }
    } catch (e) {
      outcome = 'failed';
      error = errorMessage(e);
    }

    let before: Capture = NO_CAPTURE;
    let frames0: FrameSnap | null = null;
    let framesT0 = 0;
    let stall0: number | null = null;
    let readingsBefore: Readings | null = null;
    let targetActive = false;
    let actStart = 0;
    end();
    if (outcome === 'ok') {
      end = span('step.pause');
      await clock.pause().catch(() => {});
      end();
      end = span('step.keyframe-before');
      // the keyframe and the readings a check needs, taken together on the frozen app
      [before, targetActive, readingsBefore] = await Promise.all([
        capture(name('before'), refArg),
        d.ref !== undefined && d.action.kind === 'click' ? evalIn<boolean>(page, `window.__cookieProbe.isActive(${d.ref})`, opts.unresponsiveMs, 'active').catch(() => false) : false,
        d.check ? evalIn<Readings>(page, `window.__cookieProbe.readings(${refArg}, [])`, opts.unresponsiveMs, 'readings').catch(() => null) : null,
      ]);
      end();
      end = span('step.run');
      await clock.run().catch(() => {});
      end();
      end = span('step.act');
      actStart = Date.now();
      frames0 = await evalIn<FrameSnap>(page, 'window.__cookieProbe.snapshot()', 2000).catch(() => null);
      framesT0 = Date.now();
      stall0 = opts.cpuStall?.() ?? null;
      const actMs = (d.action.durationMs ?? 0) + opts.unresponsiveMs + (d.action.value?.length ?? 0) * 250;
      try {
        await timebox(performAction(page, this.input, d, opts.unresponsiveMs, opts.origin, opts.url), Math.min(actMs, opts.stepTimeoutMs), d.action.kind);
      } catch (e) {
        error = errorMessage(e);
        outcome = /timed out/.test(error) ? 'timeout' : 'failed';
      }
      end();
    }
    const base = { index, action: d.action, reasoning: d.reasoning, thinkMs, startedAt: new Date(started).toISOString() };
    if (outcome === 'timeout' || !(await isResponsive(page, outcome === 'ok' ? opts.unresponsiveMs : 1500))) {
      // a busy machine is not a hung app: the last probe gets the full limit
      if (!(await isResponsive(page, opts.unresponsiveMs))) {
        clock.pauseVideo();
        const videoNow = clock.videoOffset();
        return {
          ...base,
          endedAt: new Date().toISOString(),
          durationMs: Date.now() - started,
          video: videoStart !== null && videoNow !== null ? { startMs: videoStart, endMs: videoNow } : null,
          screenshotBefore: before.png ? name('before') : null,
          screenshotAfter: null,
          effect: null,
          ...eventsSince(log, mark),
          outcome: 'unresponsive',
          error: `main thread stopped answering after ${d.action.kind}${error ? ` (${error})` : ''}`,
        };
      }
    }
    // let effects show, then freeze for the "after" keyframe
    end = span('step.settle');
    const settleFrom = Date.now();
    void before.img; // decode the "before" keyframe now, inside the settle time
    // a person looks for about half a second; longer while the DOM changes or a transition runs (≤ 1.65 s)
    await this.waitSettled(450, 1650, settleFrom);
    // the action navigated the app (a GET form, a link to another of its pages): read the new document only
    // once it is parsed — until then the screen still shows the old page (paint holding) while the DOM is the
    // new one's first bytes, and the step would read as "the page destroyed itself" (bounded: a page that
    // never finishes parsing is measured as it is)
    if (log.navigations.length > mark.navigations && !page.isClosed()) {
      await page.waitForLoadState('domcontentloaded', { timeout: Math.max(1000, opts.unresponsiveMs) }).catch(() => {});
    }
    end();
    const frames1 = frames0 ? await evalIn<FrameSnap>(page, 'window.__cookieProbe.snapshot()', 2000).catch(() => null) : null;
    const ended = Date.now();
    const frameTiming =
      frames0 && frames1 && ended > framesT0
        ? frameTimingBetween(frames0, frames1, ended - framesT0, opts.cpuStall ? { from: stall0, to: opts.cpuStall() } : undefined)
        : undefined;
    const clickDelivered = d.action.kind === 'click' && typeof frames0?.clicks === 'number' && typeof frames1?.clicks === 'number' ? frames1.clicks > frames0.clicks : undefined;
    end = span('step.pause');
    await clock.pause().catch(() => {});
    end();
    let videoEnd = clock.videoOffset();
    end = span('step.keyframe-after');
    // the keyframe and the page's readings after the action, taken together on the frozen app
    // each list read before, with the kind of item it held (read again by that kind)
    const known = (readingsBefore?.collections ?? []).map((c) => (c.key ? { id: c.id, key: c.key } : c.id));
    const needsEmptyState = !!d.action.target && (CLEAR_WORDS.test(d.action.target.name) || ZERO_IDENTITY_KEYS.test(d.action.target.name));
    let [after, readingsAfter, external, empty] = await Promise.all([
      capture(name('after'), refArg),
      d.check ? evalIn<Readings>(page, `window.__cookieProbe.readings(${refArg}, ${JSON.stringify(known)})`, opts.unresponsiveMs, 'readings').catch(() => null) : null,
      before.img ? evalIn<NonNullable<StepEffect['external']>>(page, `window.__cookieProbe.externalSince(${before.snap?.external ?? 0})`, opts.unresponsiveMs, 'external').catch(() => []) : [],
      needsEmptyState && before.img ? evalIn<EmptyState>(page, 'window.__cookieProbe.emptyState()', opts.unresponsiveMs, 'empty').catch(() => null) : null,
    ]);
    // the action navigated and the new document is still being parsed (committed after the settle wait; the
    // screen still shows the old page): let it finish parsing (bounded), then take the keyframe again
    if (after.snap?.content?.loading && !page.isClosed()) {
      await clock.run().catch(() => {});
      await page.waitForLoadState('domcontentloaded', { timeout: Math.max(1000, opts.unresponsiveMs) }).catch(() => {});
      await clock.pause().catch(() => {});
      videoEnd = clock.videoOffset();
      after = await capture(name('after'), refArg);
    }
    end();
    end = span('step.effect');
    const ev = eventsSince(log, mark);
    let check: StepCheck | undefined;
    if (d.check) {
      check = { invariant: d.check.invariant, subject: d.check.subject, ...(d.check.params ? { params: d.check.params } : {}), before: readingsBefore, after: readingsAfter };
    }
    let effect: StepEffect | null = null;
    if (before.img && after.img) {
      const diff = compareKeyframes(base0, { ...before, img: before.img }, { ...after, img: after.img }, box);
      const { actionGrid, idleGrid, idleMs, idleMutations, masks } = diff;
      const actionMs = Math.max(1, after.at - actStart);
      const verdict = decideEffect({
        action: actionGrid,
        idle: idleGrid,
        idleMs,
        actionMs,
        mutations: diff.domMutations,
        idleMutations,
        staticIdleMutations: (opts.idleMutationsPerSec * (ended - started)) / 1000,
        outsidePixelChange: diff.outsidePixelChange,
        noise: this.noise,
        textChanged: before.text && after.text ? changedLines(before.text, after.text) : [],
        idleTextChanged: base0.text && before.text ? changedLines(base0.text, before.text) : [],
        scrolled: diff.scrolled,
        dialogs: ev.dialogs.length,
        navigations: ev.navigations.length,
        urlChanged: !!before.snap && !!after.snap && before.snap.url !== after.snap.url,
        external,
        targetName: d.action.target?.name ?? null,
        targetInItem: !!(d.ref !== undefined && observed.find((e) => e.ref === d.ref)?.item),
        empty,
        targetActive,
      });
      let motion: StepEffect['motion'];
      let kind = verdict.kind;
      let why = verdict.why;
      // nothing else showed on a page that moves by itself: did the action start or stop that motion?
      if (kind !== 'changed' && idleGrid && countRegions(idleGrid) >= 2 && after.img) {
        // the app runs for about the baseline's length, then is looked at: changed regions per second since the
        // look at `fromAt` (its pixels `from`); null rate when the screenshot failed
        const lookAfter = async (from: Shot['img'], fromAt: number): Promise<{ img: Shot['img'] | null; at: number; rate: number | null }> => {
          await clock.run().catch(() => {});
          await sleep(Math.min(600, Math.max(250, idleMs)));
          await clock.pause().catch(() => {});
          videoEnd = clock.videoOffset();
          const { img, at } = await capture(null, refArg);
          return { img, at, rate: img ? regionsPerSecond(changedRegions(from, img, masks), at - fromAt) : null };
        };
        const later = await lookAfter(after.img, after.at);
        if (later.img && later.rate !== null) {
          motion = { before: regionsPerSecond(idleGrid, idleMs), after: later.rate };
          // a change seen once is looked at again: a pause holds, the page's own animation changing pace does not
          // (a decorative sun drifting ease-in-out slowed near its turning point as a dead button was clicked)
          if (motionChange(motion.before, motion.after)) {
            const again = await lookAfter(later.img, later.at);
            if (again.rate !== null) motion.later = again.rate;
            const m = motion.later !== undefined ? lastingMotionChange(motion.before, motion.after, motion.later) : null;
            if (m) {
              kind = 'changed';
              why = `motion ${m}`;
            }
          }
        }
      }
      // what this step showed about the page's own motion decides the next step's baseline
      this.animating = stillAnimating(base0, before, diff) ?? this.animating;
      effect = assembleEffect(diff, { ...verdict, kind, why }, base0, before, motion, external);
    }
    end();
    end = span('step.measure');
    if (d.measure && outcome === 'ok' && !page.isClosed()) {
      const measured = await measureAfter(page, d.measure, name(d.measure), opts, clock).catch((e) => ({ error: errorMessage(e) }));
      check = withMeasurement(check, { ...d, measure: d.measure }, measured);
    }
    end();
    return {
      ...base,
      endedAt: new Date(ended).toISOString(),
      durationMs: ended - started,
      video: videoStart !== null && videoEnd !== null ? { startMs: videoStart, endMs: videoEnd } : null,
      screenshotBefore: before.png ? name('before') : null,
      screenshotAfter: after.png ? name('after') : null,
      effect,
      ...(frameTiming ? { frameTiming } : {}),
      ...(clickDelivered !== undefined ? { clickDelivered } : {}),
      ...(before.snap?.content && after.snap?.content ? { content: { before: contentOf(before.snap.content), after: contentOf(after.snap.content) } } : {}),
      ...ev,
      outcome,
      ...(error ? { error } : {}),
      ...(intercepted ? { intercepted } : {}),
      ...(this.input.shortcuts > cutsBefore ? { pointerPathCut: true } : {}),
      ...(check ? { check } : {}),
    };
  }

  /**
   * The human-like pointer travel; on a busy machine its many small moves can outlast the limit, and then
   * the pointer jumps to the point in one move (the click still lands where a person would click).
   */
  private async movePointer(x: number, y: number): Promise<void> {
    try {
      // the path is cut to one direct move after half the limit (a slow renderer), so none of it runs on after
      await timebox(this.input.moveTo(x, y, this.opts.unresponsiveMs / 2), this.opts.unresponsiveMs, 'pointer move');
    } catch {
      await timebox(this.page.mouse.move(x, y), this.opts.unresponsiveMs * 2, 'pointer move');
    }
  }

  /**
   * Wait at least `minMs` and until the page settled — the probe's mutation counter did not move between two
   * looks 100 ms apart (beyond what the page changes by itself in that time: twice its idle rate from static
   * perception) and no finite CSS transition or animation runs — or until `limitMs` (ms). Ends early
   * when the probe is gone (a navigation). The looks are timed from Node, not by the page's (frozen) timers;
   * both times count from `t0` (Date.now(), ms; default now).
   */
  private async waitSettled(minMs: number, limitMs: number, t0 = Date.now()): Promise<void> {
    let last = -1;
    for (;;) {
      const s = await evalIn<{ mutations: number; settling?: number } | null>(this.page, 'window.__cookieProbe ? window.__cookieProbe.snapshot() : null', 1500, 'snapshot').catch(() => null);
      if (!s) return;
      const elapsed = Date.now() - t0;
      if (elapsed >= limitMs || (elapsed >= minMs && last >= 0 && s.mutations - last <= this.idleMutationsPerLook && !s.settling)) return;
      last = s.mutations;
      await sleep(Math.min(100, Math.max(0, limitMs - elapsed)));
    }
  }
}
