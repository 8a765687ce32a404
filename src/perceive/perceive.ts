import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright';
import { cpuPressureOver, frameTimingBetween, type FrameSnap } from '../browser/frame-timing.js';
import { answers, CONTEXT_DESTROYED, evalIn, type AppSession } from '../browser/session.js';
import type { DomInventory, StaticPerception, ViewportCheck } from '../types.js';
import { attempt, sleep, timebox } from '../util/timebox.js';
import { StageTimeoutError } from '../errors.js';
import { span } from '../util/profile.js';
import { scrollThrough, waitForFrames, waitForStill } from '../browser/settle.js';
import { pageScreenshot, viewportPng } from '../browser/screenshot.js';
import { axeFindings, loadAxe, type AxeWorld } from './axe.js';
import { trackNetwork } from '../browser/network-quiet.js';
import { blankCheck, colourStats, contentShare, decodePng, diffRatio, type Rgba } from './image.js';

/** Options of {@link perceive}. Times in ms, sizes in px. */
export interface PerceiveOptions {
  url: string;
  evidenceDir: string;
  /** Viewports to check; the last is restored afterwards and is the default one. */
  viewports: { width: number; height: number }[];
  defaultViewport: { width: number; height: number };
  expectedLanguage: string;
  timeouts: { navigation: number; settle: number; unresponsive: number };
  /**
   * This machine's cumulative CPU stall clock, ms ({@link cpuStallMs}), when the browser runs on this
   * machine: frame timings then record the window's CPU pressure. Absent for a remote browser.
   */
  cpuStall?: () => number | null;
  /**
   * The stage's time budget, ms (`timeouts.perceive`): captures that no longer fit are skipped and listed in
   * `incomplete` instead of the stage failing. Absent: no budget of its own (the caller's time box only).
   */
  budgetMs?: number;
}

/**
 * An empty page's requestAnimationFrame loop (run before the app loads): frames and elapsed ms. It runs 300 ms,
 * or ends at 60 ms once 4 frames came (50 fps or more: a machine far from the 20 fps below which the judge
 * calls the machine the limit — its only use of the figure: `machine < 20`, and `page ≥ half of it` only for
 * a page under 10 fps; a machine under 20 fps delivers at most 2 frames in 60 ms, and is measured the full 300).
 */
/**
 * How long perception waits for axe-core's compilation after the load before it starts the settle wait, ms
 * (0.1–0.2 s on an idle 2-core machine): a bound, so a page that hangs right after its load is found by the
 * settle wait's own limit, not after axe-core's.
 */
const AXE_LOAD_WAIT_MS = 3000;

/** Kept free at the end of the perception budget for restoring the viewport and the language check, ms. */
const BUDGET_RESERVE_MS = 6000;
/** A capture (screenshot, axe, a viewport) is started only when at least this much budget is left, ms. */
const MIN_CAPTURE_MS = 5000;

/** Full-page screenshots are cropped to this height, px (reference verifier: 8,000). */
export const FULL_PAGE_MAX_HEIGHT = 8000;

/** Most screens static perception scrolls through before its inventory and full-page capture (perceive.ts `scrollThrough`). */
export const SCROLL_THROUGH_MAX_SCREENS = 20;

async function shoot(page: Page, file: string, evidenceDir: string, fullPage = false, clipHeight?: number): Promise<Buffer> {
  const opts = fullPage && clipHeight ? { fullPage, clip: { x: 0, y: 0, width: page.viewportSize()!.width, height: clipHeight } } : { fullPage };
  const buf = await pageScreenshot(page, { ...opts, animations: 'allow', caret: 'initial', timeout: 15_000 }, 20_000, `screenshot ${file}`);
  fs.writeFileSync(path.join(evidenceDir, file), buf);
  return buf;
}

/**
 * How long after the load a timeout the page set is waited for, ms: one due by then (a splash screen hidden
 * after 2 s, a "loading" delay) runs before the page is captured, as it would while a reviewer looks at it.
 */
export const LOOK_AFTER_LOAD_MS = 3000;

/** Bound of the wait for entrance animations after the DOM is quiet, ms (reference verifier: a fixed 2 s). */
export const ENTRANCE_LIMIT_MS = 2000;
/** Idle window between the two default-viewport screenshots, ms: animated share and frame timing. */
export const IDLE_WINDOW_MS = 700;
/**
 * When a page that shows no sign of motion is checked in its idle window, ms after the window opened: a page
 * still then (see {@link isStillSince}) ends its window there instead of at {@link IDLE_WINDOW_MS}.
 */
export const STILL_CHECK_MS = 50;

/** The idle window's mid-point check: the probe's snapshot and its count of motion sources. */
interface IdleCheck {
  snap: FrameSnap & StillSnap;
  sources: number;
}

/** The parts of the probe's snapshot that change when a page moves by itself. */
export interface StillSnap {
  mutations: number;
  /** Canvas 2D and WebGL draw calls so far. */
  draws?: number;
  /** Running CSS and Web animations now (finite and infinite). */
  animations?: number;
  scrollX?: number;
  scrollY?: number;
}

/**
 * Whether a page did nothing that shows motion between two probe snapshots: no DOM change, no canvas draw
 * call, no running animation at either, the same scroll, and no element that can move the picture without
 * any of these (`sources`: timers due before the window would end — an interval of at most 1 s, a timeout, a
 * frame loop —, canvas, video, frames, SMIL, marquee, animated images; probe `motionSources(horizonMs)`).
 * A snapshot without a counter (an older probe) is never still. Used to end static perception's idle window
 * early (issue 13); the window's screenshots still decide the animated share.
 */
export function isStillSince(a: StillSnap, b: StillSnap, sources: number): boolean {
  if (sources !== 0 || a.draws === undefined || b.draws === undefined || a.animations === undefined || b.animations === undefined) return false;
  return a.mutations === b.mutations && a.draws === b.draws && a.animations === 0 && b.animations === 0 && a.scrollX === b.scrollX && a.scrollY === b.scrollY;
}

/** Bound of the wait after a viewport change, ms (was a fixed 500 ms sleep). */
export const RESIZE_LIMIT_MS = 500;

/**
 * A changed share of the viewport (0–1) rounded to 3 decimals for the evidence, where any change stays
 * visible: a 64-px loading spinner changes 0.003–0.06 % of a 1280 × 800 viewport between the window's two
 * screenshots (least when the gap is near a whole turn, as on a busy machine), which plain rounding made 0,
 * "nothing moves", on a page a reviewer sees spinning.
 */
export function shareOf(ratio: number): number {
  return ratio > 0 ? Math.max(0.001, Math.round(ratio * 1000) / 1000) : 0;
}

/** How long the DOM must go unchanged to be settled, ms (Playwright's `networkidle` asks the same of the network). */
export const QUIET_MS = 500;

/**
 * How long the DOM and the network must be quiet before a page that has nothing left that could change it
 * counts as settled, ms (see {@link canSettleEarly}); every other page waits for {@link QUIET_MS}.
 */
export const EARLY_QUIET_MS = 100;

/** What the settle wait knows about a page when it asks whether the page can still change by itself. */
export interface SettleState {
  /** ms since the DOM last changed (the probe's clock). */
  quietMs: number;
  /** The probe's `pendingTimers(QUIET_MS)`: intervals ≤ 1 s, timeouts due within 500 ms, frame loops, idle callbacks. */
  timers: number;
  /** `document.readyState === 'complete'`. */
  complete: boolean;
  /** Requests in flight, and open WebSockets ({@link trackNetwork}). */
  inFlight: number;
  openSockets: number;
  /** ms since a request last started or ended. */
  netQuietMs: number;
  /** Dedicated workers the page runs (they can post a message that changes the DOM at any time). */
  workers: number;
}

/**
 * Whether a page is settled before the full {@link QUIET_MS}: its DOM and network have been quiet for
 * {@link EARLY_QUIET_MS}, the document is complete, and nothing is left that could change the DOM within the
 * rest of the 500 ms — no timer due by then, no frame loop or idle callback, no request in flight, no open
 * WebSocket, no worker. Any doubt keeps the full wait (issue 13: wait for what is needed, not less).
 */
export function canSettleEarly(s: SettleState): boolean {
  return earlySettleInMs(s) === 0;
}

/**
 * How long until {@link canSettleEarly} holds if nothing changes, ms: 0 when it holds now; the time the DOM's
 * or the network's quiet still needs to reach {@link EARLY_QUIET_MS} when only time is missing; null when
 * something else keeps the page from settling early (a timer, a request, a socket, a worker, a document
 * still loading). The settle wait asks again at that moment instead of at its next regular poll (issue 13:
 * a still page's document request ends a few ms after its load, and a fixed 150-ms poll then overshot).
 */
export function earlySettleInMs(s: SettleState): number | null {
  if (!s.complete || s.timers !== 0 || s.inFlight !== 0 || s.openSockets !== 0 || s.workers !== 0) return null;
  return Math.max(0, EARLY_QUIET_MS - s.quietMs, EARLY_QUIET_MS - s.netQuietMs);
}

/**
 * Wait until the DOM has been quiet for {@link QUIET_MS} and `ready()` holds, or until `early()` says a page
 * quiet for {@link EARLY_QUIET_MS} has nothing left that could change it (see {@link canSettleEarly}), or the
 * limit passes (ms).
 * @returns `quiet` true when quiet; `early` true when it ended at the early check
 */
async function waitForQuiet(page: Page, limitMs: number, ready: () => boolean = () => true, early?: (snap: { quietMs: number; timers: number; complete: boolean }) => number | null): Promise<{ quiet: boolean; early: boolean }> {
  const deadline = Date.now() + limitMs;
  let last = -1;
  let quietSince = Date.now();
  let quietMs = 0;
  let snapAt = Date.now();
  const expr = early ? `({ ...window.__cookieProbe.snapshot(), timers: window.__cookieProbe.pendingTimers(${QUIET_MS}), complete: document.readyState === 'complete' })` : 'window.__cookieProbe.snapshot()';
  while (Date.now() < deadline) {
    const snap = await evalIn<{ mutations: number; quietMs?: number; timers?: number; complete?: boolean }>(page, expr, 3000).catch(() => null);
    if (!snap) return { quiet: false, early: false };
    if (snap.mutations !== last) {
      last = snap.mutations;
      quietSince = Date.now();
    }
    // the probe times the quiet itself (since the DOM last changed, on the page's clock): a page whose last
    // change came before the wait began has been quiet that long already
    snapAt = Date.now();
    quietMs = typeof snap.quietMs === 'number' && snap.quietMs >= 0 ? snap.quietMs : Date.now() - quietSince;
    // the early rule first: whether a page has nothing left that could change it is a fact about the page, not
    // about how long the machine took to ask (on a busy machine a still page is often quiet 500 ms already)
    const earlyIn = early && typeof snap.timers === 'number' ? early({ quietMs, timers: snap.timers, complete: snap.complete === true }) : null;
    if (earlyIn === 0) return { quiet: true, early: true };
    if (quietMs >= QUIET_MS && ready()) return { quiet: true, early: false };
    // ask again when the quiet would be complete (at most 150 ms on: a change restarts it), or when a page
    // that may end early would have been quiet long enough (its DOM's or its network's quiet)
    const wait = earlyIn !== null ? earlyIn + 5 : QUIET_MS - quietMs + 5;
    await sleep(Math.min(150, Math.max(20, wait)));
  }
  // the limit passed: quiet all the same when the DOM was (only `ready()` kept it waiting)
  return { quiet: last >= 0 && quietMs + (Date.now() - snapAt) >= QUIET_MS, early: false };
}

/**
 * Stage 1, Static Perception (paper §4.1; METHOD.md §2.2 and §9): open the app with no user action and
 * record what a reviewer sees first — load time, whether it settles, a full-page screenshot at the default
 * viewport (cropped to 8,000 px), a screenshot, horizontal overflow and a blank test at each viewport,
 * the DOM inventory, axe-core findings (contrast, names, alt text), how much of the screen animates, and
 * the language of the visible text against the query's. Console errors, page errors, failed requests,
 * dialogs and navigations are collected by the session's event log meanwhile.
 * Never throws for the app's misbehaviour: time-outs and failed captures go into `problems`.
 */
export async function perceive(session: AppSession, opts: PerceiveOptions): Promise<StaticPerception> {
  const { page } = session;
  const problems: string[] = [];
  const t0 = Date.now();
  const result: StaticPerception = {
    loadMs: 0,
    settled: false,
    unresponsive: false,
    fullPageScreenshot: null,
    viewports: [],
    inventory: null,
    language: null,
    axe: null,
    animatedShare: 0,
    idleMutationsPerSec: 0,
    problems,
  };
  fs.mkdirSync(path.join(opts.evidenceDir, 'screenshots'), { recursive: true });
  // the language model (franc's trigram tables, ~30 ms of Node's time to load) loads while the page does,
  // off the path to the first evaluation; read at the end
  const languageCheck = import('../common/language-check.js');
  languageCheck.catch(() => {});

  let end = span('perceive.navigate');
  // the load time is the navigation's, with the CPU pressure over it
  // the page's requests, sockets and their timing from the navigation on (read by the settle wait)
  const net = trackNetwork(page);
  // every return before the tracker's last use (the wait for the page's first timers) goes through here
  const finishNet = () => {
    net.dispose();
    return result;
  };
  const navStart = Date.now();
  const navStall = opts.cpuStall?.() ?? null;
  const nav = await attempt(() => page.goto(opts.url, { waitUntil: 'load', timeout: opts.timeouts.navigation }), opts.timeouts.navigation + 2000, 'navigation', null);
  result.loadMs = Date.now() - navStart;
  const navStallEnd = opts.cpuStall?.() ?? null;
  end();
  if (!nav.ok) problems.push(`load did not complete: ${nav.error}`);
  else if (nav.value && nav.value.status() >= 400) {
    result.entryStatus = nav.value.status();
    problems.push(`entry document answered HTTP ${nav.value.status()}`);
  }

  // the page stopped answering: the typed cause for the judge, the line saying it for a human
  const unresponsive = (cause: NonNullable<StaticPerception['unresponsiveCause']>): void => {
    result.unresponsive = true;
    result.unresponsiveCause = cause;
    if (cause === 'dialog-loop') result.dialogLoopCount = dialogCount(session);
    problems.push(
      cause === 'crash' ? 'the page crashed (its renderer process died)'
      : cause === 'hang-at-load' ? `main thread did not answer within ${opts.timeouts.unresponsive} ms after load (busy loop?)`
      : cause === 'hang-after-load' ? 'main thread stopped answering during perception (after load)'
      : `the page opens dialogs in an endless loop (${result.dialogLoopCount} so far)`,
    );
  };
  if (session.log.crashed) {
    unresponsive('crash');
    return finishNet();
  }
  if (!(await answers(page, opts.timeouts.unresponsive))) {
    unresponsive(session.log.crashed ? 'crash' : 'hang-at-load');
    return finishNet();
  }
  // axe-core compiles into its own world now: the page's main thread would otherwise do it after the captures,
  // and the settle wait below measures the quiet on the page's clock meanwhile (its first question is answered
  // once the compilation is done). Waited for here, bounded: a page that hangs meanwhile is found by the settle
  end = span('perceive.axe-load');
  const axeLoading: Promise<AxeWorld | null> = nav.ok ? loadAxe(page).catch(() => null) : Promise.resolve(null);
  await Promise.race([axeLoading, sleep(AXE_LOAD_WAIT_MS)]);
  end();

  // a page can hang or flood dialogs after it loaded: check after every capture that timed out, and stop
  // perceiving (the evidence says why) instead of waiting out every remaining time limit
  const stuck = async (): Promise<boolean> => {
    if (session.log.crashed || page.isClosed()) {
      unresponsive('crash');
      return true;
    }
    if (dialogFlood(session)) {
      unresponsive('dialog-loop');
      return true;
    }
    if (!(await answers(page, opts.timeouts.unresponsive))) {
      unresponsive('hang-after-load');
      return true;
    }
    return false;
  };

  // the probe's snapshot (3-s limit); a time-out is remembered, and the next checkpoint asks whether the page
  // still answers ({@link answers}: two windows, so a busy machine is not taken for a hung page) before starting
  // a capture that would only wait out its own limit on a page that hangs
  let probeTimedOut = false;
  const snapshot = <T>(expression = 'window.__cookieProbe.snapshot()'): Promise<T | null> =>
    evalIn<T>(page, expression, 3000).catch((e) => {
      if (e instanceof StageTimeoutError) probeTimedOut = true;
      return null;
    });
  const timedOutAndStuck = async (): Promise<boolean> => {
    if (!probeTimedOut) return false;
    probeTimedOut = false;
    return stuck();
  };

  const settleStart = Date.now();
  // the network and the DOM settle at the same time: both waits run together (each needs 500 ms of quiet)
  end = span('perceive.settle');
  // (the DOM's quiet counts only once the network is idle: a render after the last response resets it)
  let networkIdle = false;
  // set when the wait ended early: Playwright's networkidle, still pending, is then left to end on its own
  let decidedEarly = false;
  const network = page
    .waitForLoadState('networkidle', { timeout: opts.timeouts.settle })
    .catch(() => {
      if (!decidedEarly) problems.push('network did not go idle within the settle limit');
    })
    .finally(() => (networkIdle = true));
  // a page with nothing left that could change its DOM (no timer due, request, socket or worker) is settled
  // after 100 ms of quiet; any other waits for the full 500 (issue 13)
  const early = (snap: { quietMs: number; timers: number; complete: boolean }) =>
    earlySettleInMs({ ...snap, inFlight: net.inFlight(), openSockets: net.openSockets(), netQuietMs: net.quietMs(), workers: page.workers().length });
  const settle = await waitForQuiet(page, Math.max(1000, opts.timeouts.settle - (Date.now() - settleStart)), () => networkIdle, early);
  decidedEarly = settle.early;
  if (!decidedEarly) await network;
  const quiet = settle.quiet;
  if (decidedEarly) result.settledEarly = true;
  result.settled = nav.ok && quiet;
  end();
  if (!quiet) {
    problems.push('DOM kept changing through the settle limit');
    if (await stuck()) return finishNet();
  }
  // entrance animations: wait until no finite CSS/Web animation is still running and fonts are ready
  // (the reference verifier sleeps 2 s; here 2 s is only the bound, a still page goes on at once)
  end = span('perceive.still');
  // -1: the page did not answer the wait at all (it hangs, or replaced its document): ask whether it still
  // answers before any capture that would only wait out its own limit on a hung page (issue 13)
  const still = await waitForStill(page, ENTRANCE_LIMIT_MS);
  end();
  if (still === -1 && (await stuck())) return finishNet();

  // timeouts the page set for its first seconds (a splash screen hidden after 1.5 s, a "loading" delay, a loop
  // that locks it up 2 s in): a reviewer looking at the page sees them run, so perception waits for each one
  // due within LOOK_AFTER_LOAD_MS of the load, then for the quiet again; a page with none goes on at once
  end = span('perceive.first-timers');
  const loadedAt = navStart + result.loadMs;
  for (let i = 0; i < 8; i++) {
    const left = loadedAt + LOOK_AFTER_LOAD_MS - Date.now();
    if (left <= 0) break;
    const due = await snapshot<number | null>(`window.__cookieProbe.nextTimeoutIn(${Math.round(left)})`);
    if (typeof due !== 'number') {
      if (await timedOutAndStuck()) return finishNet();
      break;
    }
    result.waitedForTimers = (result.waitedForTimers ?? 0) + 1;
    await sleep(due + 20);
    const again = await waitForQuiet(page, Math.max(1000, opts.timeouts.settle), () => net.inFlight() === 0 && net.quietMs() >= QUIET_MS, early);
    if (!again.quiet) {
      if (await stuck()) return finishNet();
      problems.push('DOM kept changing through the settle limit after a timer the page set at load');
      break;
    }
    if ((await waitForStill(page, ENTRANCE_LIMIT_MS)) === -1 && (await stuck())) return finishNet();
  }
  net.dispose();
  end();
  end = span('perceive.idle-window');

  // how much of the default viewport animates by itself (noise floor for "did an action do anything"),
  // and the frame timing over the same idle gap between the two screenshots (the app runs; nobody
  // touches it; no capture falls inside the measured window)
  const defName = `screenshots/viewport-${opts.defaultViewport.width}.png`;
  const m0 = await snapshot<{ mutations: number; loadWorkMs?: number }>();
  // what the load time was made of: the server's wait for the entry document (the browser's own timing of
  // its request, to the first byte), the page's own work before its load event (read now, after the settle
  // wait: the browser reports a long frame only once it ended), and the CPU pressure over the navigation
  const docTiming = nav.value ? nav.value.request().timing() : null;
  const loadPressure = cpuPressureOver(navStall, navStallEnd, result.loadMs);
  result.loadTiming = {
    ...(docTiming && docTiming.responseStart >= 0 ? { documentWaitMs: Math.round(docTiming.responseStart - Math.max(0, docTiming.requestStart)) } : {}),
    ...(typeof m0?.loadWorkMs === 'number' ? { workMs: m0.loadWorkMs } : {}),
    ...(loadPressure !== null ? { cpuPressure: loadPressure } : {}),
  };
  // a probe call that timed out: the same question as above before a 15-s screenshot on a page that hangs
  if (await timedOutAndStuck()) return result;
  const tm0 = Date.now();
  const a = await attempt(async () => {
    const png = await viewportPng(page, 15_000);
    fs.writeFileSync(path.join(opts.evidenceDir, defName), png);
    return png;
  }, 25_000, 'screenshot', null);
  const aAtMs = session.log.now();
  if (!a.ok && (await stuck())) return result;
  // no frame within the limit from a page that still answers (one that stopped its own loading before it had a
  // body gives none, ever): every later capture would wait out the same limit, so none is asked for
  const noFrame = !a.ok;
  if (noFrame) {
    result.noFrame = true;
    problems.push(`the page gave no frame to capture within 15 s while it answered (${a.error}): its other captures were not attempted`);
  }
  const f0 = await snapshot<FrameSnap & StillSnap>();
  const dialogs0 = dialogCount(session);
  const tf0 = Date.now();
  const stall0 = opts.cpuStall?.() ?? null;
  // the first screenshot is decoded while the window runs (Node would only wait)
  const imgA = a.value ? decodePng(a.value) : null;
  // a page with nothing that could move by itself (no DOM change, draw call or running animation since the
  // first screenshot, and no canvas, video, frame, SMIL, marquee or animated image) ends its window early; a
  // page that moved after all is watched through the whole window (issue 13: wait for what is needed)
  await sleep(Math.max(0, STILL_CHECK_MS - (Date.now() - tf0)));
  const fm = await snapshot<IdleCheck>(`({ snap: window.__cookieProbe.snapshot(), sources: window.__cookieProbe.motionSources(${IDLE_WINDOW_MS - STILL_CHECK_MS}) })`);
  if (await timedOutAndStuck()) return result;
  const stillSoFar = !!(f0 && fm?.snap && typeof fm.sources === 'number' && isStillSince(f0, fm.snap, fm.sources)) && dialogCount(session) === dialogs0;
  if (stillSoFar) result.idleWindowEndedEarly = true;
  else await sleep(Math.max(0, IDLE_WINDOW_MS - (Date.now() - tf0)));
  const f1 = stillSoFar ? fm!.snap : await snapshot<FrameSnap>();
  if (f0 && f1) result.frameTiming = frameTimingBetween(f0, f1, Date.now() - tf0, opts.cpuStall ? { from: stall0, to: opts.cpuStall() } : undefined);
  if (await timedOutAndStuck()) return result;
  // a still page's second capture is encoded like the first: the same pixels are then the same bytes, and
  // nothing needs decoding (a moving page's is fast-encoded: it is decoded and compared anyway)
  const b = noFrame ? { value: null } : await attempt(() => viewportPng(page, 10_000, { fast: !stillSoFar }), 15_000, 'screenshot', null);
  if (imgA && b.value) result.animatedShare = stillSoFar && a.value && b.value.equals(a.value) ? 0 : shareOf(diffRatio(imgA, decodePng(b.value)));
  if (stillSoFar && imgA && result.animatedShare > 0) {
    // it moved in a way the probe does not see (a scroll, a stylesheet rule, an image): the rest of the window
    await sleep(Math.max(0, IDLE_WINDOW_MS - (Date.now() - tf0)));
    const b2 = await attempt(() => viewportPng(page, 10_000, { fast: true }), 15_000, 'screenshot', null);
    delete result.idleWindowEndedEarly;
    if (b2.value) result.animatedShare = Math.max(result.animatedShare, shareOf(diffRatio(imgA, decodePng(b2.value))));
  }
  const m1 = await snapshot<{ mutations: number }>();
  if (m0 && m1) result.idleMutationsPerSec = Math.round(((m1.mutations - m0.mutations) * 1000 * 10) / Math.max(1, Date.now() - tm0)) / 10;

  end();
  // the page stopped answering during the window (a loop that starts seconds after load): say so now, not
  // after the inventory's own 15-s limit
  if (await timedOutAndStuck()) return result;
  // a long page is scrolled through once, as a reviewer reads it, before its inventory and full-page capture:
  // sections it reveals on scroll are then judged as shown, not as blank bands or hidden text
  end = span('perceive.scroll-through');
  if (!noFrame) {
    const scrolled = await scrollThrough(page, FULL_PAGE_MAX_HEIGHT, SCROLL_THROUGH_MAX_SCREENS, 10_000);
    if (scrolled?.screens) {
      result.scrolledThrough = scrolled;
      if ((await waitForStill(page, ENTRANCE_LIMIT_MS)) === -1 && (await stuck())) return result;
    } else if (!scrolled && (await timedOutAndStuck())) return result;
  }
  end();
  end = span('perceive.inventory');
  const inventory = () => attempt(() => evalIn<DomInventory>(page, 'window.__cookieProbe.inventory()', 15_000, 'DOM inventory'), 16_000, 'inventory', null);
  const loadsBefore = documentLoads(session);
  const inv = await askNextDocument(page, inventory);
  if (inv.ok) {
    result.inventory = inv.value;
    // a page that replaced the built-ins the probe measures with is not measured, it is reported (issue 19.6)
    if (inv.value?.tampered?.length) result.probeError = `the page replaced built-ins Cookie's in-page probe measures with (${inv.value.tampered.join(', ')}); what the probe sees cannot be trusted`;
  }
  else {
    problems.push(`DOM inventory failed: ${inv.error}`);
    if (await stuck()) return result;
    // a document that kept being replaced is the page's reload loop (judged as such), not a broken probe — also
    // when, on a loaded machine, the call timed out between two of its documents instead of seeing one destroyed
    if (!CONTEXT_DESTROYED.test(inv.error ?? '') && documentLoads(session) === loadsBefore) result.probeError = `DOM inventory failed: ${inv.error}`;
  }

  // the stage's budget: a capture that no longer fits is skipped and recorded, so a page that answers slowly
  // (a Mandelbrot redrawn in full on every resize) ends with what was captured, not as a harness error. A
  // capture once started keeps its own limit (cutting it short would call a slow page hung); the stage's
  // time box leaves room for one.
  const deadline = opts.budgetMs !== undefined ? t0 + opts.budgetMs - BUDGET_RESERVE_MS : Infinity;
  const skipped: string[] = [];
  const fits = (label: string, needMs: number): boolean => {
    if (Date.now() + needMs <= deadline) return true;
    skipped.push(label);
    return false;
  };
  // a viewport's pixels (decoding, blank test, colours: Node's work, ~20–50 ms a viewport) are analysed while
  // the browser does the next piece of work — axe-core, the next resize, the restore — on the other core
  // (issue 13: overlap what can overlap); every capture is analysed before perception returns
  let pending: ViewportCapture | null = null;
  const analysePending = () => {
    const c = pending;
    pending = null;
    if (!c) return;
    try {
      result.viewports.push(analyseViewport(c));
    } catch (e) {
      problems.push(`viewport ${c.vp.width}px check failed: ${(e as Error).message}`);
    }
  };
  const alongside = async <T>(work: Promise<T>): Promise<T> => {
    // one turn of the event loop first, so the work's first message is on its way to the browser
    await new Promise<void>((r) => setImmediate(r));
    analysePending();
    return work;
  };
  const finish = () => {
    analysePending();
    result.viewports.sort((x, y) => x.width - y.width);
    if (skipped.length) {
      result.incomplete = { skipped, spentMs: Date.now() - t0 };
      problems.push(`perception reached its time budget (${opts.budgetMs} ms) and skipped: ${skipped.join(', ')}`);
    }
    return result;
  };

  // the default viewport's check first (its screenshot was taken in the idle window and is reused): it is what
  // decides whether the page rendered, so a budget spent on a slow page is never what leaves it out
  end();
  end = span('perceive.viewport-default');
  // (captureViewport asks the next document itself when the page replaced its own under the layout measurement)
  // a fresh load at a width where the page overflowed right after a resize (see captureViewport); the page is loaded
  // afresh at the default width again before the interaction starts
  let reloaded = false;
  const reload = async (): Promise<void> => {
    session.log.ownLoadsPending++;
    reloaded = true;
    await page.reload({ waitUntil: 'load', timeout: opts.timeouts.navigation });
    await waitForFrames(page, RESIZE_LIMIT_MS);
    await waitForStill(page, ENTRANCE_LIMIT_MS);
  };
  const freshAt = async (vp: { width: number; height: number }, file: string): Promise<{ layout: Layout; shot: Buffer } | null> => {
    if (!fits(`fresh load at ${vp.width}`, opts.timeouts.navigation + MIN_CAPTURE_MS)) return null;
    const r = await attempt(async () => {
      await reload();
      const layout = await evalIn<Layout>(page, 'window.__cookieProbe.overflow()', 8000);
      return { layout, shot: await shoot(page, file, opts.evidenceDir) };
    }, opts.timeouts.navigation + 20_000, `fresh load at ${vp.width}`, null);
    return r.ok ? r.value : null;
  };
  // one viewport captured (its pixels left to analyse alongside the next piece of work); `stuck` when the
  // capture failed and the page no longer answers
  const viewport = async (vp: { width: number; height: number }): Promise<{ capture: ViewportCapture | null; stuck: boolean }> => {
    if (noFrame) return { capture: null, stuck: false };
    const reuse = vp.width === opts.defaultViewport.width && a.value ? { png: a.value, img: imgA, atMs: aAtMs } : null;
    if (!reuse && vp.width !== opts.defaultViewport.width) result.resizesFromMs ??= session.log.now();
    const check = await alongside(attempt(() => captureViewport(page, vp, opts.evidenceDir, reuse, () => session.log.now(), freshAt), 30_000 + opts.timeouts.navigation, `viewport ${vp.width}`, null));
    if (check.value) return { capture: (pending = check.value), stuck: false };
    problems.push(`viewport ${vp.width}px check failed: ${check.error}`);
    return { capture: null, stuck: await stuck() };
  };
  const defaultVp = opts.viewports.find((v) => v.width === opts.defaultViewport.width);
  const defaultCheck = defaultVp && fits(`viewport ${defaultVp.width}`, 2000) ? await viewport(defaultVp) : null;
  if (defaultCheck?.stuck) return finish();

  end();
  end = span('perceive.fullpage');
  const height = Math.min(result.inventory?.scrollHeight ?? opts.defaultViewport.height, FULL_PAGE_MAX_HEIGHT);
  const defLayout = defaultCheck?.capture?.ov;
  // a still page that fits the default viewport both ways: its full page is the viewport screenshot already
  // taken (same pixels: nothing moved in the idle window, nothing is below or beside it)
  const fitsViewport = !!(result.idleWindowEndedEarly && result.animatedShare === 0 && a.value && result.inventory && result.inventory.scrollHeight <= opts.defaultViewport.height && defLayout && defLayout.overflowPx <= 0);
  if (fitsViewport) {
    fs.writeFileSync(path.join(opts.evidenceDir, 'screenshots/fullpage.png'), a.value!);
    result.fullPageScreenshot = 'screenshots/fullpage.png';
    result.fullPageIsViewport = true;
  } else if (!noFrame && fits('full-page screenshot', MIN_CAPTURE_MS)) {
    const full = await alongside(attempt(
      () => shoot(page, 'screenshots/fullpage.png', opts.evidenceDir, true, (result.inventory?.scrollHeight ?? 0) > FULL_PAGE_MAX_HEIGHT ? height : undefined),
      25_000,
      'full-page screenshot',
      null,
    ));
    if (full.ok) result.fullPageScreenshot = 'screenshots/fullpage.png';
    else {
      problems.push(`full-page screenshot failed: ${full.error}`);
      if (await stuck()) return finish();
    }
  }

  end();
  end = span('perceive.axe');
  if (fits('axe-core', MIN_CAPTURE_MS)) {
    // (loaded after the page's load event; loaded again when it failed then, or the page replaced its document)
    const axe = await alongside(attempt(async () => axeFindings(page, await timebox(axeLoading, 10_000, 'axe-core load').catch(() => null)), 20_000, 'axe-core', null));
    if (axe.ok) result.axe = axe.value;
    else {
      problems.push(`axe-core failed: ${axe.error}`);
      // a page that locked up meanwhile: stop here, as after every other capture that failed
      if (await stuck()) return finish();
    }
  }

  end();
  end = span('perceive.viewports');
  for (const vp of opts.viewports) {
    if (vp === defaultVp || !fits(`viewport ${vp.width}`, MIN_CAPTURE_MS)) continue;
    if ((await viewport(vp)).stuck) return finish();
  }
  end();
  end = span('perceive.restore');
  // dialogs in a loop leave the page unusable even when every capture succeeded between them
  if (dialogFlood(session)) unresponsive('dialog-loop');
  await alongside(attempt(() => page.setViewportSize(opts.defaultViewport), 5000, 'restore viewport', undefined).then(() => waitForFrames(page, 300)));
  if (reloaded && fits('fresh load at the default viewport', opts.timeouts.navigation + MIN_CAPTURE_MS)) await attempt(reload, opts.timeouts.navigation + 10_000, 'fresh load at the default viewport', undefined);

  end();
  if (result.inventory) {
    const lang = await attempt(async () => (await languageCheck).checkLanguage(result.inventory!.textSample, opts.expectedLanguage, result.inventory!.htmlLang), 10_000, 'language check', null);
    if (lang.ok) result.language = lang.value;
    else problems.push(`language check failed: ${lang.error}`);
  }
  return finish();
}

/** The layout the probe measures at a viewport (`window.__cookieProbe.overflow()`). */
type Layout = { overflowPx: number; offenders: { selector: string; right: number }[]; clippedText: number; visibleTextLength: number; canvases: number; images: number; svgs: number };

/**
 * One viewport's capture before its pixels are analysed ({@link analyseViewport}): the screenshot (PNG bytes,
 * and the decoded image when the caller had it already) and the layout the probe measured at that width.
 */
interface ViewportCapture {
  vp: { width: number; height: number };
  /** The screenshot's path in the evidence folder. */
  file: string;
  shot: Buffer;
  img: Rgba | null;
  /** The probe's layout; null when the page replaced its document under every measurement. */
  ov: Layout | null;
  layoutNotMeasured?: string;
  /** The overflow right after the resize, px, when a fresh load at this width overflowed less. */
  overflowAfterResizePx?: number;
  /** When the screenshot kept was taken, ms on the session log's clock. */
  shotAtMs: number;
}

/**
 * Capture one viewport: screenshot (or `reuse`, taken at this width, with its decoded image) and layout
 * (overflow, clipped text); the blank test and colours come from {@link analyseViewport}.
 * @param reuse the first screenshot, when taken at this width: its bytes, decoded image and time (`atMs`)
 * @param now the session log's clock, ms (when each screenshot kept was taken)
 * @param fresh load the page afresh at a width and measure it again (null when it could not): asked when the
 *   page overflows right after a resize
 * @throws when the layout measurement failed for another reason than the page replacing its document
 */
async function captureViewport(page: Page, vp: { width: number; height: number }, dir: string, reuse: { png: Buffer; img: Rgba | null; atMs: number } | null, now: () => number, fresh?: (vp: { width: number; height: number }, file: string) => Promise<{ layout: Layout; shot: Buffer } | null>): Promise<ViewportCapture> {
  const file = `screenshots/viewport-${vp.width}.png`;
  let shot: Buffer;
  let shotAtMs: number;
  const reused = !!reuse && page.viewportSize()?.width === vp.width;
  if (reused) {
    shot = reuse!.png;
    shotAtMs = reuse!.atMs;
  } else {
    await timebox(page.setViewportSize(vp), 5000, 'resize');
    // the relayout is painted after two frames; transitions a media query starts finish within the bound
    await waitForFrames(page, RESIZE_LIMIT_MS);
    await waitForStill(page, RESIZE_LIMIT_MS);
    shot = await shoot(page, file, dir);
    shotAtMs = now();
  }
  const layout = await askNextDocument(page, () => attempt(() => evalIn<Layout>(page, 'window.__cookieProbe.overflow()', 8000), 9000, 'layout', null));
  // a page that replaced its document under every call (a reload loop on a loaded machine): the screenshot is
  // kept and judged by its pixels, the layout is recorded as not measured (never as "no overflow")
  if (!layout.ok && !CONTEXT_DESTROYED.test(layout.error ?? '')) throw new Error(layout.error);
  let ov: Layout | null = layout.value;
  // overflow right after a resize: is it the page at this width, or the desktop layout that did not follow the
  // resize? A reader on a phone loads the page at this width: ask a fresh load at it (once; bounded)
  let overflowAfterResizePx: number | undefined;
  if (ov && ov.overflowPx > 8 && !reuse && fresh) {
    const again = await fresh(vp, file);
    // the fresh load's measures and screenshot (the file on disk) stand; the resize's overflow is kept when larger
    if (again) {
      if (again.layout.overflowPx < ov.overflowPx) overflowAfterResizePx = ov.overflowPx;
      ov = again.layout;
      shot = again.shot;
      shotAtMs = now();
    }
  }
  return {
    vp,
    file,
    shot,
    // (a reused screenshot is never replaced by a fresh load: that is asked only after a resize)
    img: reused ? reuse!.img : null,
    ov,
    ...(ov ? {} : { layoutNotMeasured: `the page replaced its document under every layout measurement (${layout.error})` }),
    ...(overflowAfterResizePx !== undefined ? { overflowAfterResizePx } : {}),
    shotAtMs,
  };
}

/** One viewport's check from its capture: layout, blank test, content share and colours of its pixels. @throws on an undecodable screenshot */
function analyseViewport(c: ViewportCapture): ViewportCheck {
  const { ov } = c;
  const hasContent = ov ? ov.visibleTextLength > 0 || ov.canvases > 0 || ov.images > 0 || ov.svgs > 0 : true;
  const img = c.img ?? decodePng(c.shot);
  return {
    width: c.vp.width,
    height: c.vp.height,
    screenshot: c.file,
    overflowPx: ov?.overflowPx ?? 0,
    overflowingElements: ov?.offenders ?? [],
    blank: blankCheck(img, hasContent),
    contentShare: contentShare(img),
    ...(ov ? { clippedText: ov.clippedText } : { layoutNotMeasured: c.layoutNotMeasured }),
    colour: colourStats(img),
    ...(c.overflowAfterResizePx !== undefined ? { overflowAfterResizePx: c.overflowAfterResizePx } : {}),
    shotAtMs: c.shotAtMs,
  };
}

/** Whether the session's dialogs so far are an endless loop ({@link isDialogFlood}). */
function dialogFlood(session: AppSession): boolean {
  return isDialogFlood(session.log.dialogs.map((d) => d.atMs), dialogCount(session), session.log.now());
}

/** Dialogs the page opened so far (kept and dropped entries). */
function dialogCount(session: AppSession): number {
  return session.log.dialogs.length + (session.log.dropped.dialogs ?? 0);
}

/**
 * Whether the dialogs a page opened with no user input (static perception) are an endless loop: more than
 * 100 in all, or the last {@link DIALOG_FLOOD_MIN} each opened within {@link DIALOG_LOOP_GAP_MS} of the one
 * before, and the last one that recently (the loop is still going). Gaps between dialogs, not a rate over
 * perception: how fast Cookie answers a dialog, and how long its own captures take, depend on the machine (a
 * loaded one answered an alert every 150 ms slowly enough to fall under a 5-a-second rate), while a page that
 * asks again as soon as it is answered does so on any machine. A page that greets with an alert or two never
 * comes near; a finite chain of alerts at load is over, not still going, by the time perception asks.
 *
 * @param opensMs when each kept dialog opened, ms on the session log's clock, ascending
 * @param total dialogs opened, kept and dropped
 * @param nowMs the session log's clock now, ms
 */
export function isDialogFlood(opensMs: readonly number[], total: number, nowMs: number): boolean {
  if (total > 100) return true;
  if (opensMs.length < DIALOG_FLOOD_MIN) return false;
  const last = opensMs.slice(-DIALOG_FLOOD_MIN);
  for (let i = 1; i < last.length; i++) if (last[i]! - last[i - 1]! > DIALOG_LOOP_GAP_MS) return false;
  return nowMs - last[last.length - 1]! <= DIALOG_LOOP_GAP_MS;
}

/** Dialogs in a row with no user input that can make an endless loop ({@link isDialogFlood}). */
export const DIALOG_FLOOD_MIN = 8;

/** Longest gap, ms, between one dialog and the next (and from the last one to now) in a dialog loop ({@link isDialogFlood}). */
export const DIALOG_LOOP_GAP_MS = 1500;

/** What {@link attempt} returns. */
type Attempted<T> = Awaited<ReturnType<typeof attempt<T>>>;

/** How many times the main document finished loading so far (kept and dropped entries: a reload flood is counted, not stored). */
function documentLoads(session: AppSession): number {
  return session.log.loads.length + (session.log.dropped.loads ?? 0);
}

/**
 * Run a capture; when the page replaced its document under it (it reloads or navigates itself), wait for the
 * next document's load (≤ 5 s) and ask again, at most 3 more times. Returns the last attempt.
 */
async function askNextDocument<T>(page: Page, run: () => Promise<Attempted<T>>): Promise<Attempted<T>> {
  let r = await run();
  for (let i = 0; i < 3 && !r.ok && CONTEXT_DESTROYED.test(r.error ?? '') && !page.isClosed(); i++) {
    await page.waitForLoadState('load', { timeout: 5000 }).catch(() => {});
    r = await run();
  }
  return r;
}
