import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright';
import { evalIn, isResponsive, type AppSession } from '../browser/session.js';
import { decodePng, diffRatio, type Rgba } from '../perceive/image.js';
import type { InteractionTrace, RecordingEvidence, StepEffect, TraceStep } from '../types.js';
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
}

interface Capture {
  png: Buffer | null;
  img: Rgba | null;
  snap: { mutations: number; scrollX: number; scrollY: number; url: string; focusBox: Box | null; content?: { elements: number; textChars: number } } | null;
}
type Box = { x: number; y: number; width: number; height: number };
type FrameSnap = { frames: number; longFrames: number; longFrameMs: number };
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
  let endedBecause = 'budget';
  const noise = Math.min(0.5, opts.animatedShare);
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
      // ── think (frozen, time-boxed) ──
      const thinkStart = Date.now();
      let decision: Decision;
      try {
        decision = await timebox(
          agent.next({ step: i, budget: opts.steps, url: page.url(), elements, screenshot, viewport: page.viewportSize() ?? { width: 1280, height: 800 }, previous: steps[steps.length - 1] ?? null }),
          opts.thinkTimeoutMs,
          'agent deliberation',
        );
      } catch (e) {
        endedBecause = `agent-error: ${errorMessage(e)}`;
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
      const step = await runStep(i, decision, thinkMs);
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
    } else endedBecause = `error: ${errorMessage(e)}`;
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
    untested,
    coverage: [...groupSeen.entries()].map(([group, sigs]) => ({ group, seen: sigs.size, tried: groupTried.get(group)?.size ?? 0 })),
    gameLike: !!agent.gameLike,
    durationMs: Date.now() - t0,
    recording,
    report: await Promise.resolve(agent.report(steps, untested, consoleErrors)),
    ...(agent.usage ? { usage: agent.usage() } : {}),
  };

  // ── one step ──
  async function runStep(index: number, d: Decision, thinkMs: number): Promise<TraceStep> {
    log.step = index;
    const counts = { c: log.consoleErrors.length, p: log.pageErrors.length, d: log.dialogs.length, n: log.navigations.length };
    const name = (s: string) => `screenshots/step-${String(index).padStart(2, '0')}-${s}.png`;
    let outcome: TraceStep['outcome'] = 'ok';
    let error: string | undefined;
    let box: { x: number; y: number; width: number; height: number } | null = null;
    const started = Date.now();
    const videoStart = video?.offsetMs() ?? null;
    await run();

    // the pointer travels to the target while the app runs (hover styles settle before the keyframe)
    try {
      if (d.ref !== undefined) {
        const r = await evalIn<{ x: number; y: number; width: number; height: number; cx: number; cy: number; covered: boolean; coveredBy: string | null } | null>(page, `window.__cookieProbe.reveal(${d.ref})`, opts.unresponsiveMs, 'reveal');
        if (!r) throw new Error('element disappeared before it could be used');
        box = { x: r.x, y: r.y, width: r.width, height: r.height };
        if (d.action.target) d.action.target.box = { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) };
        if (r.covered) d.reasoning += ` (covered by ${r.coveredBy}: a real pointer hits that instead)`;
        const aim = input.aim(box);
        await timebox(input.moveTo(aim.x, aim.y), opts.unresponsiveMs, 'pointer move');
        await sleep(300);
      } else if (d.action.x !== undefined && d.action.y !== undefined && d.action.kind !== 'drag') {
        await timebox(input.moveTo(d.action.x, d.action.y), opts.unresponsiveMs, 'pointer move');
      }
    } catch (e) {
      outcome = 'failed';
      error = errorMessage(e);
    }

    let before: Capture = { png: null, img: null, snap: null };
    let frames0: FrameSnap | null = null;
    let framesT0 = 0;
    if (outcome === 'ok') {
      await pause().catch(() => {});
      before = await capture(name('before'));
      await run().catch(() => {});
      frames0 = await evalIn<FrameSnap>(page, 'window.__cookieProbe.snapshot()', 2000).catch(() => null);
      framesT0 = Date.now();
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
      if (!(await isResponsive(page, 500))) {
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
        ? { fps: Math.round(((frames1.frames - frames0.frames) * 10000) / (ended - framesT0)) / 10, longFrames: frames1.longFrames - frames0.longFrames, longFrameMs: frames1.longFrameMs - frames0.longFrameMs }
        : undefined;
    await pause().catch(() => {});
    const videoEnd = video?.offsetMs() ?? null;
    const after = await capture(name('after'));
    const ev = during();
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
      effect = {
        pixelChange: round(pixelChange),
        targetPixelChange: targetPixelChange === null ? null : round(targetPixelChange),
        domMutations,
        scrolled,
        outsidePixelChange: round(outsidePixelChange),
        screenChanged: outsidePixelChange > noise * 1.5 + 0.0003 || domMutations > (opts.idleMutationsPerSec * (ended - started) * 1.5) / 1000 || scrolled || ev.dialogs.length > 0 || ev.navigations.length > 0 || before.snap?.url !== after.snap?.url,
      };
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
      ...(before.snap?.content && after.snap?.content ? { content: { before: before.snap.content, after: after.snap.content } } : {}),
      ...ev,
      outcome,
      ...(error ? { error } : {}),
    };
  }

  async function capture(file: string): Promise<Capture> {
    try {
      const png = await timebox(page.screenshot({ timeout: opts.unresponsiveMs, caret: 'initial' }), opts.unresponsiveMs + 1000, 'screenshot');
      fs.writeFileSync(path.join(opts.evidenceDir, file), png);
      const snap = await evalIn<Capture['snap']>(page, 'window.__cookieProbe ? window.__cookieProbe.snapshot() : null', opts.unresponsiveMs, 'snapshot').catch(() => null);
      return { png, img: decodePng(png), snap };
    } catch {
      return { png: null, img: null, snap: null };
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
