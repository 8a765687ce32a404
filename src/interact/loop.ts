import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright';
import { evalIn, isResponsive, type AppSession } from '../browser/session.js';
import { frameTimingBetween, type FrameSnap } from '../browser/frame-timing.js';
import { decodePng, diffRatio, type Rgba } from '../perceive/image.js';
import type { CoverInfo, EndReason, InteractionTrace, Readings, RecordingEvidence, StepCheck, StepEffect, TraceStep } from '../types.js';
import { CLEAR_WORDS, changedLines, changedRegions, countRegions, decideEffect, motionChange, type EmptyState, type RegionGrid } from './effect.js';
import { errorMessage, sleep, timebox } from '../util/timebox.js';
import { performAction } from './act.js';
import type { Agent, Decision, ObservedElement } from './agent.js';
import { Freezer } from './freeze.js';
import { HumanInput } from './input.js';
import { Rng } from '../common/random.js';
import { AudioRecorder } from './record/audio.js';
import { ffmpegAvailable, muxAudio, probeMedia } from '../common/ffmpeg.js';
import { VideoRecorder } from './record/video.js';

/** Options of the interaction loop. Times in ms. */
export interface InteractOptions {
  url: string;
  origin: string;
  evidenceDir: string;
  /** Step budget (reference verifier: 25). */
  steps: number;
  seed: number;
  /** Limit of one action. */
  stepTimeoutMs: number;
  /** Limit of one deliberation of the agent (model calls). */
  thinkTimeoutMs: number;
  /** A page that does not answer within this is recorded as unresponsive. */
  unresponsiveMs: number;
  /** Limit of the whole interaction. */
  totalTimeoutMs: number;
  /** Share of the screen that animates by itself (static perception): the noise floor of pixel diffs. */
  animatedShare: number;
  /** DOM changes per second while idle (static perception): the noise floor of DOM effects. */
  idleMutationsPerSec: number;
  /** Pause the app while the agent observes and deliberates. */
  freeze: boolean;
  video: boolean;
  audio: boolean;
  fps: number;
  /** Told when step `step` (1-based) of `budget` begins, for progress reporting; must not throw. */
  onStep?: (step: number, budget: number) => void;
  /**
   * This machine's cumulative CPU stall clock, ms ({@link cpuStallMs}), when the browser runs on this
   * machine: frame timings then record the window's CPU pressure. Absent for a remote browser.
   */
  cpuStall?: () => number | null;
}

interface Capture {
  png: Buffer | null;
  img: Rgba | null;
  snap: { mutations: number; draws?: number; animations?: number; external?: number; scrollX: number; scrollY: number; url: string; focusBox: Box | null; content?: { elements: number; textChars: number } } | null;
  /** Visible text lines and field states (the target's own value left out). */
  text: string[] | null;
  at: number;
}
type Box = { x: number; y: number; width: number; height: number };
const grow = (b: Box, px: number): Box => ({ x: b.x - px, y: b.y - px, width: b.width + 2 * px, height: b.height + 2 * px });

/**
 * Stage 2, Agent-Driven Interaction (paper §4.1, Appendix B.1–B.2; METHOD.md §2.3): the observe → think →
 * act loop around any {@link Agent}, with the environment freeze, continuous video and audio, and
 * per-step evidence.
 *
 * Each step: observe the frozen app (elements, and a screenshot for agents that look) → the agent
 * deliberates (still frozen; time-boxed) → unfreeze and record → the pointer travels to the target →
 * freeze, keyframe "before" → unfreeze and record → act with human-like input → let effects show → freeze,
 * keyframe "after" → measure the visible effect (pixels beyond the page's own animation, DOM mutations,
 * scroll, dialogs, navigation) and the errors the step caused. The video holds only the running segments,
 * so the agent's thinking is cut out and the trace's offsets point into it. A page whose main thread stops
 * answering ends the loop with outcome `unresponsive`; an app that navigates away is brought back.
 * It documents, never judges.
 */
export async function interact(session: AppSession, agent: Agent, opts: InteractOptions): Promise<InteractionTrace> {
  const { page, log } = session;
  const t0 = Date.now();
  const input = new HumanInput(page, new Rng(opts.seed));
  const steps: TraceStep[] = [];
  const groupSeen = new Map<string, Set<string>>();
  const allSeen = new Map<string, string>();
  const triedSignatures = new Set<string>();
  const groupTried = new Map<string, Set<string>>();
  let endedBecause: EndReason = 'budget';
  let endDetail: string | undefined;
  const noise = Math.min(0.5, opts.animatedShare);
  // does the page change on its own (then each step takes an idle baseline first)? From static
  // perception at the start, then from what each step's running time showed
  let animating = opts.animatedShare > 0.001 || opts.idleMutationsPerSec > 0.5;
  fs.mkdirSync(path.join(opts.evidenceDir, 'screenshots'), { recursive: true });

  const freezer = await Freezer.attach(page, opts.freeze).catch(() => null);
  const recording: RecordingEvidence = { video: null, videoNote: null, audio: null, freeze: !!freezer?.enabled };
  let video: VideoRecorder | null = null;
  if (opts.video) {
    if (!ffmpegAvailable()) recording.videoNote = 'no video: ffmpeg is not installed or does not run';
    else {
      const vp = page.viewportSize() ?? { width: 1280, height: 800 };
      video = new VideoRecorder(page, { file: path.join(opts.evidenceDir, 'video.mp4'), fps: opts.fps, width: vp.width, height: vp.height });
      await video.start();
    }
  } else recording.videoNote = 'no video: recording is switched off (recording.video: false)';
  const audio = opts.audio ? new AudioRecorder(page, log) : null;
  await audio?.arm();

  // the app runs only while the agent acts: the video records exactly then
  const run = async () => {
    await freezer?.unfreeze(opts.unresponsiveMs);
    video?.resume();
  };
  const pause = async () => {
    video?.pause();
    await freezer?.freeze(opts.unresponsiveMs);
  };

  try {
    await pause();
    const deadline = t0 + opts.totalTimeoutMs;
    for (let i = 0; i < opts.steps; i++) {
      opts.onStep?.(i + 1, opts.steps);
      if (Date.now() > deadline) {
        endedBecause = 'timeout';
        break;
      }
      if (page.isClosed()) {
        endedBecause = 'crashed';
        break;
      }
      // ── observe (frozen) ──
      let elements: ObservedElement[];
      try {
        elements = await evalIn<ObservedElement[]>(page, 'window.__cookieProbe ? window.__cookieProbe.scan() : []', opts.unresponsiveMs, 'scan');
      } catch {
        endedBecause = (await isResponsive(page, 1000)) ? 'error' : 'unresponsive';
        if (endedBecause === 'unresponsive') steps.push(unresponsiveStep(i, 'The page stopped answering between steps.'));
        break;
      }
      for (const e of elements) {
        if (!groupSeen.has(e.group)) groupSeen.set(e.group, new Set());
        groupSeen.get(e.group)!.add(e.signature);
        allSeen.set(e.signature, `${e.role} "${e.name || e.tag}"`);
      }
      const screenshot = agent.wantsScreenshot ? await page.screenshot({ timeout: opts.unresponsiveMs, caret: 'initial' }).catch(() => null) : null;
      const lists = agent.wantsLists ? await evalIn<{ id: string; items: string[] }[]>(page, 'window.__cookieProbe ? window.__cookieProbe.lists() : []', opts.unresponsiveMs, 'lists').catch(() => undefined) : undefined;
      // ── think (frozen, time-boxed) ──
      const thinkStart = Date.now();
      let decision: Decision;
      try {
        decision = await timebox(
          agent.next({ step: i, budget: opts.steps, url: page.url(), elements, screenshot, viewport: page.viewportSize() ?? { width: 1280, height: 800 }, previous: steps[steps.length - 1] ?? null, ...(lists ? { lists } : {}) }),
          opts.thinkTimeoutMs,
          'agent deliberation',
        );
      } catch (e) {
        endedBecause = 'agent-error';
        endDetail = errorMessage(e);
        break;
      }
      const thinkMs = Date.now() - thinkStart;
      if (decision.action.kind === 'finish') {
        endedBecause = 'finished';
        break;
      }
      // ── act (running, recorded) ──
      if (decision.invalid) {
        steps.push({ ...unresponsiveStep(i, decision.reasoning), outcome: 'failed', error: `no valid action: ${decision.invalid}`, thinkMs, ...(decision.usage ? { usage: decision.usage } : {}) });
        continue;
      }
      const step = await runStep(i, decision, thinkMs, elements);
      if (decision.usage) step.usage = decision.usage;
      steps.push(step);
      if (decision.action.target) {
        triedSignatures.add(decision.action.target.signature);
        if (!groupTried.has(decision.action.target.group)) groupTried.set(decision.action.target.group, new Set());
        groupTried.get(decision.action.target.group)!.add(decision.action.target.signature);
      }
      agent.observeResult?.(step, decision);
      if (step.outcome === 'unresponsive') {
        endedBecause = 'unresponsive';
        break;
      }
      if (page.isClosed()) {
        endedBecause = 'crashed';
        break;
      }
      await returnToApp(i);
    }
  } catch (e) {
    // a page too busy to be frozen or probed is unresponsive (the app's fault, a hang); anything else is a
    // failure of the harness mid-loop: keep the steps so far, and still wrap up below
    if (!page.isClosed() && !(await isResponsive(page, 1000).catch(() => false))) {
      endedBecause = 'unresponsive';
      steps.push(unresponsiveStep(steps.length, `The page stopped answering (${errorMessage(e)}).`));
    } else {
      endedBecause = 'error';
      endDetail = errorMessage(e);
    }
  } finally {
    log.step = undefined;
  }

  // ── wrap up (always): the app runs again; stop recording; mux audio into the video ──
  const hung = endedBecause === 'unresponsive' || endedBecause === 'crashed';
  if (!hung) await freezer?.unfreeze(opts.unresponsiveMs).catch(() => {});
  video?.pause();
  if (audio && !hung) recording.audio = await audio.stop(opts.evidenceDir, video);
  else if (audio) recording.audio = { captured: false, note: 'audio could not be fetched: the page stopped answering' };
  if (video) {
    const r = await video.stop();
    const file = path.join(opts.evidenceDir, 'video.mp4');
    if (r.ok) {
      if (recording.audio?.captured && recording.audio.file) {
        const tmp = path.join(opts.evidenceDir, 'video.av.mp4');
        const m = muxAudio(file, path.join(opts.evidenceDir, recording.audio.file), recording.audio.offsetMs ?? 0, tmp);
        if (m.ok) {
          fs.renameSync(tmp, file);
          recording.audio.muxed = true;
        } else recording.audio.note += `; not muxed into the video (${m.reason})`;
      }
      const info = probeMedia(file);
      recording.video = info?.video
        ? { file: 'video.mp4', durationMs: info.durationMs, fps: Math.round(info.video.fps * 100) / 100, frames: info.video.frames, width: info.video.width, height: info.video.height, repaints: video.repaints }
        : null;
      if (!recording.video) recording.videoNote = 'no video: ffprobe could not read the MP4';
    } else {
      recording.videoNote = `no video: ${r.reason}`;
      fs.rmSync(file, { force: true });
    }
  }
  await freezer?.dispose();

  const untested = [...allSeen.entries()].filter(([sig]) => !triedSignatures.has(sig)).map(([, label]) => label).slice(0, 50);
  const consoleErrors = [...log.pageErrors, ...log.consoleErrors].filter((e) => e.step !== undefined).map((e) => e.text);
  return {
    agent: agent.name,
    stepBudget: opts.steps,
    steps,
    endedBecause,
    ...(endDetail !== undefined ? { endDetail } : {}),
    untested,
    coverage: [...groupSeen.entries()].map(([group, sigs]) => ({ group, seen: sigs.size, tried: groupTried.get(group)?.size ?? 0 })),
    gameLike: !!agent.gameLike,
    durationMs: Date.now() - t0,
    recording,
    report: await Promise.resolve(agent.report(steps, untested, consoleErrors)),
    ...(agent.usage ? { usage: agent.usage() } : {}),
  };

  // ── one step ──
  async function runStep(index: number, d: Decision, thinkMs: number, observed: ObservedElement[]): Promise<TraceStep> {
    log.step = index;
    const counts = { c: log.consoleErrors.length, p: log.pageErrors.length, d: log.dialogs.length, n: log.navigations.length };
    const name = (s: string) => `screenshots/step-${String(index).padStart(2, '0')}-${s}.png`;
    let outcome: TraceStep['outcome'] = 'ok';
    let error: string | undefined;
    let box: { x: number; y: number; width: number; height: number } | null = null;
    const started = Date.now();
    const videoStart = video?.offsetMs() ?? null;
    let intercepted: CoverInfo | undefined;
    // idle baseline (only on a page that animates by itself): a look right before the app runs for the
    // pointer's travel, so what the app does on its own over that time is known — it costs one screenshot
    const refArg = d.ref ?? 'null';
    const base0 = animating ? await capture(null, refArg) : await snapOnly();
    await run();

    // the pointer travels to the target while the app runs (hover styles settle before the keyframe)
    try {
      if (d.ref !== undefined) {
        const r = await evalIn<{ x: number; y: number; width: number; height: number; cx: number; cy: number; covered: boolean; coveredBy: string | null; cover: CoverInfo | null } | null>(page, `window.__cookieProbe.reveal(${d.ref})`, opts.unresponsiveMs, 'reveal');
        if (!r) throw new Error('element disappeared before it could be used');
        box = { x: r.x, y: r.y, width: r.width, height: r.height };
        if (d.action.target) d.action.target.box = { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) };
        if (r.covered) d.reasoning += ` (covered by ${r.coveredBy}: a real pointer hits that instead)`;
        if (r.cover) intercepted = r.cover;
        const aim = input.aim(box);
        await movePointer(aim.x, aim.y);
        await sleep(300);
      } else if (d.action.x !== undefined && d.action.y !== undefined && d.action.kind !== 'drag') {
        await movePointer(d.action.x, d.action.y);
      }
    } catch (e) {
      outcome = 'failed';
      error = errorMessage(e);
    }

    let before: Capture = { png: null, img: null, snap: null, text: null, at: 0 };
    let frames0: FrameSnap | null = null;
    let framesT0 = 0;
    let stall0: number | null = null;
    let readingsBefore: Readings | null = null;
    let targetActive = false;
    let actStart = 0;
    if (outcome === 'ok') {
      await pause().catch(() => {});
      before = await capture(name('before'), refArg);
      if (d.ref !== undefined && d.action.kind === 'click') targetActive = await evalIn<boolean>(page, `window.__cookieProbe.isActive(${d.ref})`, opts.unresponsiveMs, 'active').catch(() => false);
      if (d.check) readingsBefore = await evalIn<Readings>(page, `window.__cookieProbe.readings(${refArg}, [])`, opts.unresponsiveMs, 'readings').catch(() => null);
      await run().catch(() => {});
      actStart = Date.now();
      frames0 = await evalIn<FrameSnap>(page, 'window.__cookieProbe.snapshot()', 2000).catch(() => null);
      framesT0 = Date.now();
      stall0 = opts.cpuStall?.() ?? null;
      const actMs = (d.action.durationMs ?? 0) + opts.unresponsiveMs + (d.action.value?.length ?? 0) * 250;
      try {
        await timebox(performAction(page, input, d, opts.unresponsiveMs, opts.origin, opts.url), Math.min(actMs, opts.stepTimeoutMs), d.action.kind);
      } catch (e) {
        error = errorMessage(e);
        outcome = /timed out/.test(error) ? 'timeout' : 'failed';
      }
    }
    const base = { index, action: d.action, reasoning: d.reasoning, thinkMs, startedAt: new Date(started).toISOString() };
    const during = () => ({
      consoleErrors: log.consoleErrors.slice(counts.c),
      pageErrors: log.pageErrors.slice(counts.p),
      dialogs: log.dialogs.slice(counts.d),
      navigations: log.navigations.slice(counts.n),
    });
    if (outcome === 'timeout' || !(await isResponsive(page, outcome === 'ok' ? opts.unresponsiveMs : 1500))) {
      // a busy machine is not a hung app: the last probe gets the full limit
      if (!(await isResponsive(page, opts.unresponsiveMs))) {
        video?.pause();
        return {
          ...base,
          endedAt: new Date().toISOString(),
          durationMs: Date.now() - started,
          video: video && videoStart !== null ? { startMs: videoStart, endMs: video.offsetMs() } : null,
          screenshotBefore: before.png ? name('before') : null,
          screenshotAfter: null,
          effect: null,
          ...during(),
          outcome: 'unresponsive',
          error: `main thread stopped answering after ${d.action.kind}${error ? ` (${error})` : ''}`,
        };
      }
    }
    // let effects show, then freeze for the "after" keyframe
    await sleep(450);
    await waitQuiet(1200);
    const frames1 = frames0 ? await evalIn<FrameSnap>(page, 'window.__cookieProbe.snapshot()', 2000).catch(() => null) : null;
    const ended = Date.now();
    const frameTiming =
      frames0 && frames1 && ended > framesT0
        ? frameTimingBetween(frames0, frames1, ended - framesT0, opts.cpuStall ? { from: stall0, to: opts.cpuStall() } : undefined)
        : undefined;
    const clickDelivered = d.action.kind === 'click' && typeof frames0?.clicks === 'number' && typeof frames1?.clicks === 'number' ? frames1.clicks > frames0.clicks : undefined;
    await pause().catch(() => {});
    let videoEnd = video?.offsetMs() ?? null;
    const after = await capture(name('after'), refArg);
    const ev = during();
    let check: StepCheck | undefined;
    if (d.check) {
      const known = (readingsBefore?.collections ?? []).map((c) => c.id);
      const readingsAfter = await evalIn<Readings>(page, `window.__cookieProbe.readings(${refArg}, ${JSON.stringify(known)})`, opts.unresponsiveMs, 'readings').catch(() => null);
      check = { invariant: d.check.invariant, subject: d.check.subject, ...(d.check.params ? { params: d.check.params } : {}), before: readingsBefore, after: readingsAfter };
    }
    let effect: StepEffect | null = null;
    if (before.img && after.img) {
      const pixelChange = diffRatio(before.img, after.img);
      const targetPixelChange = box ? diffRatio(before.img, after.img, box) : null;
      // what changed beyond the control itself and the focus ring that moved away from another field
      // (pressing anything restyles those; they are not the action's effect)
      const masks = [box, before.snap?.focusBox].filter((b): b is Box => !!b).map((b) => grow(b, 8));
      const outsidePixelChange = masks.length ? diffRatio(before.img, after.img, undefined, masks) : pixelChange;
      const domMutations = before.snap && after.snap ? after.snap.mutations - before.snap.mutations : 0;
      const scrolled = !!before.snap && !!after.snap && (before.snap.scrollY !== after.snap.scrollY || before.snap.scrollX !== after.snap.scrollX);
      // ── the counterfactual: what the action changed beyond what the app did on its own just before ──
      const actionGrid = changedRegions(before.img, after.img, masks);
      const idleMs = base0.img ? Math.max(1, before.at - base0.at) : 0;
      const idleGrid: RegionGrid | null = base0.img ? changedRegions(base0.img, before.img, masks) : null;
      const idleMutations = base0.snap && before.snap ? before.snap.mutations - base0.snap.mutations : 0;
      const external = await evalIn<NonNullable<StepEffect['external']>>(page, `window.__cookieProbe.externalSince(${before.snap?.external ?? 0})`, opts.unresponsiveMs, 'external').catch(() => []);
      const clearLike = !!d.action.target && CLEAR_WORDS.test(d.action.target.name);
      const empty = clearLike ? await evalIn<EmptyState>(page, 'window.__cookieProbe.emptyState()', opts.unresponsiveMs, 'empty').catch(() => null) : null;
      const actionMs = Math.max(1, after.at - actStart);
      const verdict = decideEffect({
        action: actionGrid,
        idle: idleGrid,
        idleMs,
        actionMs,
        mutations: domMutations,
        idleMutations,
        staticIdleMutations: (opts.idleMutationsPerSec * (ended - started)) / 1000,
        outsidePixelChange,
        noise,
        textChanged: before.text && after.text ? changedLines(before.text, after.text) : [],
        idleTextChanged: base0.text && before.text ? changedLines(base0.text, before.text) : [],
        scrolled,
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
        await run().catch(() => {});
        await sleep(Math.min(600, Math.max(250, idleMs)));
        await pause().catch(() => {});
        videoEnd = video?.offsetMs() ?? null;
        const later = await capture(null, refArg);
        if (later.img) {
          const perSec = (g: RegionGrid, ms: number) => Math.round((countRegions(g) * 10000) / Math.max(1, ms)) / 10;
          motion = { before: perSec(idleGrid, idleMs), after: perSec(changedRegions(after.img, later.img, masks), later.at - after.at) };
          const m = motionChange(motion.before, motion.after);
          if (m) {
            kind = 'changed';
            why = `motion ${m}`;
          }
        }
      }
      // what this step showed about the page's own motion decides the next step's baseline
      if (idleGrid) animating = countRegions(idleGrid) > 0 || idleMutations > 0;
      else if (base0.snap && before.snap) animating = (before.snap.draws ?? 0) > (base0.snap.draws ?? 0) || (before.snap.animations ?? 0) > 0 || before.snap.mutations > base0.snap.mutations;
      effect = {
        pixelChange: round(pixelChange),
        targetPixelChange: targetPixelChange === null ? null : round(targetPixelChange),
        domMutations,
        scrolled,
        outsidePixelChange: round(outsidePixelChange),
        screenChanged: kind === 'changed',
        kind,
        why,
        baseline: idleGrid ? { ms: idleMs, regions: countRegions(idleGrid), mutations: idleMutations, textLines: base0.text && before.text ? changedLines(base0.text, before.text).length : 0 } : null,
        regions: { changed: verdict.changed, novel: verdict.novel, total: actionGrid.cells.length },
        textChanged: verdict.textChanged,
        ...(motion ? { motion } : {}),
        ...(external.length ? { external } : {}),
      };
    }
    if (d.measure && outcome === 'ok' && !page.isClosed()) {
      const measured = await measureAfter(d.measure, name(d.measure)).catch((e) => ({ error: errorMessage(e) }));
      check = check ? { ...check, measured } : { invariant: measureInvariant[d.measure], subject: d.action.target?.name ?? d.measure, measured };
    }
    return {
      ...base,
      endedAt: new Date(ended).toISOString(),
      durationMs: ended - started,
      video: video && videoStart !== null && videoEnd !== null ? { startMs: videoStart, endMs: videoEnd } : null,
      screenshotBefore: before.png ? name('before') : null,
      screenshotAfter: after.png ? name('after') : null,
      effect,
      ...(frameTiming ? { frameTiming } : {}),
      ...(clickDelivered !== undefined ? { clickDelivered } : {}),
      ...(before.snap?.content && after.snap?.content ? { content: { before: before.snap.content, after: after.snap.content } } : {}),
      ...ev,
      outcome,
      ...(error ? { error } : {}),
      ...(intercepted ? { intercepted } : {}),
      ...(check ? { check } : {}),
    };

  }

  /**
   * The human-like pointer travel; on a busy machine its many small moves can outlast the limit, and then
   * the pointer jumps to the point in one move (the click still lands where a person would click).
   */
  async function movePointer(x: number, y: number): Promise<void> {
    try {
      await timebox(input.moveTo(x, y), opts.unresponsiveMs, 'pointer move');
    } catch {
      await timebox(page.mouse.move(x, y), opts.unresponsiveMs * 2, 'pointer move');
    }
  }

  /** A keyframe: screenshot (written to `file` unless null), probe snapshot and text state, and when. */
  async function capture(file: string | null, ref: number | string): Promise<Capture> {
    const at = Date.now();
    try {
      const png = await timebox(page.screenshot({ timeout: opts.unresponsiveMs, caret: 'initial' }), opts.unresponsiveMs + 1000, 'screenshot');
      if (file) fs.writeFileSync(path.join(opts.evidenceDir, file), png);
      const snap = await evalIn<Capture['snap']>(page, 'window.__cookieProbe ? window.__cookieProbe.snapshot() : null', opts.unresponsiveMs, 'snapshot').catch(() => null);
      const text = await evalIn<string[]>(page, `window.__cookieProbe.textState(${ref})`, opts.unresponsiveMs, 'text state').catch(() => null);
      return { png, img: decodePng(png), snap, text, at };
    } catch (e) {
      if (process.env.COOKIE_DEBUG) process.stderr.write(`keyframe ${file ?? '(baseline)'} failed: ${errorMessage(e)}\n`);
      return { png: null, img: null, snap: null, text: null, at };
    }
  }

  /** The probe's counters only (no screenshot): enough to learn whether a still page began to animate. */
  async function snapOnly(): Promise<Capture> {
    const snap = await evalIn<Capture['snap']>(page, 'window.__cookieProbe ? window.__cookieProbe.snapshot() : null', opts.unresponsiveMs, 'snapshot').catch(() => null);
    return { png: null, img: null, snap, text: null, at: Date.now() };
  }

  /**
   * A careful tester's second look after an action (issue 11 point 3), the app running meanwhile:
   * `layout-375` — the layout at a 375-px phone width (overflow, clipped/overlapping text) after a language or
   * theme switch; `resize` — canvas ink before and after the window is resized and restored; `dpr2` — the
   * canvases' backing stores on a 375-px phone viewport at device pixel ratio 2. The viewport is restored.
   */
  async function measureAfter(kind: NonNullable<Decision['measure']>, file: string): Promise<Record<string, unknown>> {
    const vp = page.viewportSize() ?? { width: 1280, height: 800 };
    await run();
    try {
      if (kind === 'layout-375') {
        await page.setViewportSize({ width: 375, height: 812 });
        await sleep(400);
        const o = await evalIn<{ overflowPx: number; offenders: { selector: string; right: number }[] }>(page, 'window.__cookieProbe.overflow()', opts.unresponsiveMs, 'overflow');
        const problems = await evalIn<{ kind: string; selector: string; text: string }[]>(page, 'window.__cookieProbe.textProblems()', opts.unresponsiveMs, 'text problems');
        const png = await page.screenshot({ timeout: opts.unresponsiveMs });
        fs.writeFileSync(path.join(opts.evidenceDir, file), png);
        return { viewport: 375, overflowPx: o.overflowPx, offenders: o.offenders, clipped: problems.filter((p) => p.kind === 'clipped').slice(0, 10), overlapping: problems.filter((p) => p.kind === 'overlap').length, screenshot: file };
      }
      if (kind === 'resize') {
        const inkBefore = await evalIn<{ ink: number } | null>(page, 'window.__cookieProbe.canvasInk()', opts.unresponsiveMs, 'ink');
        await page.setViewportSize({ width: Math.max(400, vp.width - 320), height: Math.max(300, vp.height - 120) });
        await sleep(350);
        await page.setViewportSize(vp);
        await sleep(400);
        const inkAfter = await evalIn<{ ink: number } | null>(page, 'window.__cookieProbe.canvasInk()', opts.unresponsiveMs, 'ink');
        const png = await page.screenshot({ timeout: opts.unresponsiveMs });
        fs.writeFileSync(path.join(opts.evidenceDir, file), png);
        return { inkBefore: inkBefore?.ink ?? null, inkAfter: inkAfter?.ink ?? null, resizedTo: { width: Math.max(400, vp.width - 320), height: Math.max(300, vp.height - 120) }, screenshot: file };
      }
      const cdp = await page.context().newCDPSession(page);
      try {
        await cdp.send('Emulation.setDeviceMetricsOverride', { width: 375, height: 812, deviceScaleFactor: 2, mobile: true });
        await sleep(500);
        const canvases = await evalIn<unknown[]>(page, 'window.__cookieProbe.canvasBacking()', opts.unresponsiveMs, 'canvas backing');
        const png = await page.screenshot({ timeout: opts.unresponsiveMs });
        fs.writeFileSync(path.join(opts.evidenceDir, file), png);
        return { viewport: 375, dpr: 2, canvases, screenshot: file };
      } finally {
        await cdp.send('Emulation.clearDeviceMetricsOverride').catch(() => {});
        await cdp.detach().catch(() => {});
      }
    } finally {
      await page.setViewportSize(vp).catch(() => {});
      await sleep(300);
      await pause().catch(() => {});
    }
  }

  async function waitQuiet(limit: number): Promise<void> {
    const end = Date.now() + limit;
    let last = -1;
    while (Date.now() < end) {
      const s = await evalIn<{ mutations: number } | null>(page, 'window.__cookieProbe ? window.__cookieProbe.snapshot() : null', 1500, 'snapshot').catch(() => null);
      if (!s || s.mutations === last) return;
      last = s.mutations;
      await sleep(200);
    }
  }

  /** If the step left the app (off-origin navigation or an error page), go back to it (frozen again after). */
  async function returnToApp(index: number): Promise<void> {
    if (page.isClosed()) return;
    const offApp = !page.url().startsWith(opts.origin);
    const docFailed = log.failedRequests.some((r) => r.step === index && r.resourceType === 'document' && !r.blocked);
    if (!offApp && !docFailed) return;
    await run().catch(() => {});
    await timebox(reload(page, opts.url), 12_000, 'return to app').catch(() => {});
    await sleep(500);
    await pause().catch(() => {});
  }
}

async function reload(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: 'load', timeout: 10_000 });
}

const measureInvariant: Record<NonNullable<Decision['measure']>, StepCheck['invariant']> = { 'layout-375': 'layout-after-toggle', resize: 'resize-keeps', dpr2: 'dpr-sharp' };

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}

function unresponsiveStep(index: number, reasoning: string): TraceStep {
  return {
    index,
    action: { kind: 'wait' },
    reasoning,
    startedAt: new Date().toISOString(),
    durationMs: 0,
    screenshotBefore: null,
    screenshotAfter: null,
    effect: null,
    consoleErrors: [],
    pageErrors: [],
    dialogs: [],
    navigations: [],
    outcome: 'unresponsive',
    error: 'main thread stopped answering',
  };
}
