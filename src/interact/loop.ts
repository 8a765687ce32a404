import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright';
import { answers, type AppSession } from '../browser/session.js';
import type { EndReason, InteractionTrace, TraceStep } from '../types.js';
import { errorMessage, sleep, timebox } from '../util/timebox.js';
import type { Agent, Decision, Observation } from './agent.js';
import { Coverage } from './coverage.js';
import { HumanInput } from './input.js';
import { observe } from './observe.js';
import { Rng } from '../common/random.js';
import { Recording } from './record/recording.js';
import { StepRecorder } from './step.js';
import { invalidStep, unresponsiveStep } from './trace-step.js';
import { timed } from '../util/profile.js';
import { pngWritesDone } from '../common/png.js';

/** Options of the interaction loop. Times in ms. */
export interface InteractOptions {
  /** The app's URL (the loop returns to it when a step leaves the app). */
  url: string;
  /** The app's origin: a page URL outside it is off the app. */
  origin: string;
  /** Folder of this evaluation's evidence: keyframes go to `screenshots/`, the recording to `video.mp4`/`audio.webm`. */
  evidenceDir: string;
  /** Step budget (reference verifier: 25). */
  steps: number;
  /** Seed of the human-like input (pointer paths, typing rhythm). */
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
  /** Record video.mp4 (needs ffmpeg) and the page's audio. */
  video: boolean;
  audio: boolean;
  /** Output frame rate of the video. */
  fps: number;
  /** Told when step `step` (1-based) of `budget` begins, for progress reporting; must not throw. */
  onStep?: (step: number, budget: number) => void;
  /**
   * This machine's cumulative CPU stall clock, ms ({@link cpuStallMs}), when the browser runs on this
   * machine: frame timings then record the window's CPU pressure. Absent for a remote browser.
   */
  cpuStall?: () => number | null;
}

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
 *
 * The units it composes: {@link observe} (what the agent is shown), {@link StepRecorder} (one action and
 * its evidence), {@link Recording} (freeze, video, audio), {@link Coverage} (controls seen and tried).
 * The trace's `endedBecause` says why it stopped ({@link EndReason}). The app's failures, the agent's
 * failures in `next()` and the harness's failures mid-loop end the loop and are recorded, not thrown.
 * @throws when the evidence folder cannot be created, or when the agent's `report()` throws
 */
export async function interact(session: AppSession, agent: Agent, opts: InteractOptions): Promise<InteractionTrace> {
  const { page, log } = session;
  const t0 = Date.now();
  const input = new HumanInput(page, new Rng(opts.seed));
  const steps: TraceStep[] = [];
  const coverage = new Coverage();
  let endedBecause: EndReason = 'budget';
  let endDetail: string | undefined;
  fs.mkdirSync(path.join(opts.evidenceDir, 'screenshots'), { recursive: true });

  // the app runs only while the agent acts: the video records exactly then
  const clock = await timed('loop.record-start', () => Recording.start(page, log, opts));
  const recorder = new StepRecorder(page, log, input, clock, opts);

  try {
    await timed('loop.first-pause', () => clock.pause());
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
      let obs: Observation;
      try {
        obs = await timed('loop.observe', () => observe(page, agent, { step: i, budget: opts.steps, previous: steps[steps.length - 1] ?? null }, opts.unresponsiveMs));
      } catch (e) {
        endedBecause = (await answers(page, 1000)) ? 'error' : 'unresponsive';
        if (endedBecause === 'unresponsive') steps.push(unresponsiveStep(i, 'The page stopped answering between steps.'));
        // what failed, for the evidence (an observation that failed on a page that still answers is Cookie's or the page's, not a hang)
        else endDetail = `observation failed: ${errorMessage(e)}`;
        break;
      }
      coverage.see(obs.elements);
      // ── think (frozen, time-boxed) ──
      const thinkStart = Date.now();
      let decision: Decision;
      try {
        decision = await timed('loop.think', () => timebox(agent.next(obs), opts.thinkTimeoutMs, 'agent deliberation'));
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
        steps.push(invalidStep(i, decision, thinkMs));
        continue;
      }
      const step = await recorder.record(i, decision, thinkMs, obs.elements);
      if (decision.usage) step.usage = decision.usage;
      steps.push(step);
      coverage.tried(decision.action.target);
      agent.observeResult?.(step, decision);
      if (step.outcome === 'unresponsive') {
        endedBecause = 'unresponsive';
        break;
      }
      if (page.isClosed()) {
        endedBecause = 'crashed';
        break;
      }
      await timed('loop.return', () => returnToApp(i));
    }
  } catch (e) {
    // a page too busy to be frozen or probed is unresponsive (the app's fault, a hang); anything else is a
    // failure of the harness mid-loop: keep the steps so far, and still wrap up below
    if (!page.isClosed() && !(await answers(page, 1000))) {
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
  const recording = await timed('loop.record-finish', () => clock.finish(endedBecause === 'unresponsive' || endedBecause === 'crashed'));
  // the keyframes are written off the event loop while the steps go on: all on disk before the trace is returned
  await timed('loop.keyframe-writes', () => pngWritesDone(opts.evidenceDir));
  const untested = coverage.untested();
  const consoleErrors = [...log.pageErrors, ...log.consoleErrors].filter((e) => e.step !== undefined).map((e) => e.text);
  return {
    agent: agent.name,
    stepBudget: opts.steps,
    steps,
    endedBecause,
    ...(endDetail !== undefined ? { endDetail } : {}),
    untested,
    coverage: coverage.byGroup(),
    gameLike: !!agent.gameLike,
    durationMs: Date.now() - t0,
    recording,
    report: await Promise.resolve(agent.report(steps, untested, consoleErrors)),
    ...(agent.usage ? { usage: agent.usage() } : {}),
  };

  /** If the step left the app (off-origin navigation or an error page), go back to it (frozen again after). */
  async function returnToApp(index: number): Promise<void> {
    if (page.isClosed()) return;
    const offApp = !page.url().startsWith(opts.origin);
    const docFailed = log.failedRequests.some((r) => r.step === index && r.resourceType === 'document' && !r.blocked);
    if (!offApp && !docFailed) return;
    await clock.run().catch(() => {});
    await timebox(reload(page, opts.url), 12_000, 'return to app').catch(() => {});
    await sleep(500);
    await clock.pause().catch(() => {});
  }
}

async function reload(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: 'load', timeout: 10_000 });
}
