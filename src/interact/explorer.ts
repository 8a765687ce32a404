import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright';
import { evalIn, isResponsive, type AppSession } from '../browser/session.js';
import { decodePng, diffRatio, type Rgba } from '../perceive/image.js';
import type { Action, DomInventory, InteractionTrace, InteractiveElement, StepEffect, TraceStep } from '../types.js';
import { errorMessage, sleep, timebox } from '../util/timebox.js';
import { HumanInput } from './input.js';
import { Rng } from './random.js';
import { valueFor } from './values.js';

/** Options of the offline explorer. Times in ms. */
export interface ExploreOptions {
  url: string;
  origin: string;
  evidenceDir: string;
  /** Step budget (reference verifier: 25). */
  steps: number;
  seed: number;
  /** How long game keys are held. */
  holdMs: number;
  /** Limit of one step. */
  stepTimeoutMs: number;
  /** A page that does not answer within this is recorded as unresponsive. */
  unresponsiveMs: number;
  /** Limit of the whole exploration. */
  totalTimeoutMs: number;
  /** Share of the screen that animates by itself (from static perception): the noise floor of pixel diffs. */
  animatedShare: number;
  inventory: DomInventory | null;
}

type Scanned = InteractiveElement & { handlers?: string[] };
interface Plan {
  action: Action;
  reasoning: string;
  ref?: number;
  key: string;
}
interface Capture {
  png: Buffer | null;
  img: Rgba | null;
  snap: { mutations: number; scrollX: number; scrollY: number; url: string } | null;
}

/** Most elements tried per group of repeated elements (the reference verifier samples 3–5). */
export const SAMPLE_PER_GROUP = 4;
/** Accessible names that start a game or an app flow, in the benchmark's main languages. */
const START_WORDS = /\b(start|play|begin|new game|restart|go)\b|开始|開始|开始游戏|jouer|commencer|jugar|empezar|iniciar|começar|spielen|starten|スタート|시작|プレイ/i;
const GAME_KEYS: { key: string; hold: boolean }[] = [
  { key: 'Enter', hold: false },
  { key: 'Space', hold: false },
  { key: 'ArrowRight', hold: true },
  { key: 'ArrowLeft', hold: true },
  { key: 'ArrowUp', hold: true },
  { key: 'ArrowDown', hold: true },
  { key: 'w', hold: true },
  { key: 'a', hold: true },
  { key: 's', hold: true },
  { key: 'd', hold: true },
];
const TEXT_TYPES = new Set(['text', 'email', 'number', 'tel', 'url', 'password', 'search', 'date', 'time', 'datetime-local', 'month', 'week', 'textarea', undefined as unknown as string]);

/**
 * Is the page game-like: keyboard listeners on window/document/body/canvas, or a canvas covering
 * at least 30% of the viewport.
 */
export function isGameLike(inv: DomInventory | null): boolean {
  if (!inv) return false;
  const keys = inv.listenedEvents.some((e) => e === 'keydown' || e === 'keyup' || e === 'keypress');
  return keys || inv.canvases.some((c) => c.areaShare >= 0.3);
}

function isExternal(el: Scanned, origin: string): boolean {
  if (!el.href || el.tag !== 'a') return false;
  if (/^(mailto|tel|sms|ftp):/i.test(el.href)) return true;
  if (/^(#|javascript:)/i.test(el.href) || el.href === '') return false;
  try {
    return new URL(el.href, origin + '/').origin !== origin;
  } catch {
    return true;
  }
}

/**
 * The offline explorer (Stage 2, Agent-Driven Interaction; paper §4.1, METHOD.md §2.3 and §9): a
 * deterministic agent that exercises the page as a curious person would, breadth first, within a step
 * budget — fills fields with values that fit their type and submits them, clicks buttons, tabs and
 * in-app links (a sample of up to 4 of each group of repeated elements; never links off the app), and
 * on game-like pages focuses the game surface and presses and holds Enter, Space, arrows and WASD.
 * A control with no visible effect gets a second try later (never blame the app after one try).
 * It documents, never judges: each step records the action, why, before/after keyframes, the visible
 * effect (pixel and DOM change beyond the page's own animation), errors, dialogs and navigations.
 * A page whose main thread stops answering ends the exploration with outcome `unresponsive`.
 */
export async function explore(session: AppSession, opts: ExploreOptions): Promise<InteractionTrace> {
  const { page, log } = session;
  const rng = new Rng(opts.seed);
  const input = new HumanInput(page, rng);
  const t0 = Date.now();
  const steps: TraceStep[] = [];
  const gameLike = isGameLike(opts.inventory);
  const shotsDir = path.join(opts.evidenceDir, 'screenshots');
  fs.mkdirSync(shotsDir, { recursive: true });

  const attempts = new Map<string, number>(); // plan key → tries
  const noEffect = new Set<string>(); // plan keys whose last try did nothing visible
  const groupTried = new Map<string, number>();
  const groupSeen = new Map<string, Set<string>>();
  const allSeen = new Map<string, string>(); // signature → label
  const filledForms = new Set<number>();
  let lastFilled: Scanned | null = null;
  let gameKeyIndex = 0;
  let canvasFocused = false;
  let scrolls = 0;
  let endedBecause = 'budget';
  const noise = Math.min(0.5, opts.animatedShare);

  const plan = (els: Scanned[], stepIndex: number): Plan | null => {
    const usable = els.filter((e) => !e.disabled && !isExternal(e, opts.origin) && e.type !== 'file' && e.box.width * e.box.height >= 16);
    const fresh = (key: string) => !attempts.has(key);
    const groupOk = (e: Scanned) => (groupTried.get(e.group) ?? 0) < SAMPLE_PER_GROUP;
    const click = (e: Scanned, why: string): Plan => ({
      action: { kind: 'click', target: target(e) },
      reasoning: why,
      ref: e.ref,
      key: `click|${e.signature}`,
    });

    // 1. on game-like pages: a start button first
    if (gameLike && stepIndex < 3) {
      const start = usable.find((e) => (e.role === 'button' || e.role === 'clickable' || e.role === 'link') && START_WORDS.test(e.name) && fresh(`click|${e.signature}`));
      if (start) return click(start, `Game-like page: start the game with "${start.name}".`);
    }
    // 2. a submit/add button right after filling a field (a person fills, then submits)
    if (lastFilled) {
      const f = lastFilled;
      const near = usable
        .filter((e) => (e.role === 'button' || (e.tag === 'input' && /submit|button/.test(e.type ?? ''))) && fresh(`click|${e.signature}`))
        .map((e) => ({ e, d: f.form !== undefined && e.form === f.form ? 0 : Math.hypot(e.box.x - f.box.x, e.box.y - f.box.y) }))
        .filter((x) => x.d < 400)
        .sort((a, b) => a.d - b.d)[0];
      const fields = usable.filter((e) => isField(e) && fresh(`fill|${e.signature}`) && (f.form === undefined ? false : e.form === f.form));
      if (!fields.length) {
        lastFilled = null;
        if (near) {
          if (f.form !== undefined) filledForms.add(f.form);
          return click(near.e, `Submit what was just entered ("${f.name}") with the nearest button "${near.e.name}".`);
        }
        const k = `press|Enter|${f.signature}`;
        if (fresh(k)) return { action: { kind: 'press', key: 'Enter', target: target(f) }, reasoning: `No button near "${f.name}": press Enter to submit it.`, ref: f.ref, key: k };
      }
    }
    // 3. fields, in document order
    for (const e of usable) {
      if (!isField(e) || !fresh(`fill|${e.signature}`) || !groupOk(e)) continue;
      if (e.role === 'checkbox' || e.role === 'radio' || e.role === 'switch') {
        return { action: { kind: 'check', target: target(e) }, reasoning: `Toggle ${e.role} "${e.name}".`, ref: e.ref, key: `fill|${e.signature}` };
      }
      if (e.role === 'combobox' && e.tag === 'select') {
        return { action: { kind: 'select', target: target(e), value: '1' }, reasoning: `Choose another option in "${e.name}".`, ref: e.ref, key: `fill|${e.signature}` };
      }
      if (e.role === 'slider') {
        return { action: { kind: 'press', key: 'ArrowRight', target: target(e) }, reasoning: `Move slider "${e.name}".`, ref: e.ref, key: `fill|${e.signature}` };
      }
      const value = valueFor({ type: e.tag === 'textarea' ? 'textarea' : e.type, name: e.name });
      return { action: { kind: 'fill', target: target(e), value }, reasoning: `Fill "${e.name || e.type || 'field'}" with a value that fits its type.`, ref: e.ref, key: `fill|${e.signature}` };
    }
    // 4. game keys: focus the game surface, then press and hold
    if (gameLike && gameKeyIndex < GAME_KEYS.length) {
      if (!canvasFocused && opts.inventory?.canvases.length) {
        canvasFocused = true;
        const vp = page.viewportSize() ?? { width: 1280, height: 800 };
        return { action: { kind: 'click', x: Math.round(vp.width / 2), y: Math.round(vp.height / 2) }, reasoning: 'Focus the game surface before sending keys (games ignore keys until focused).', key: 'focus-canvas' };
      }
      const g = GAME_KEYS[gameKeyIndex++]!;
      return g.hold
        ? { action: { kind: 'hold', key: g.key, durationMs: opts.holdMs }, reasoning: `Hold ${g.key} for ${opts.holdMs} ms as a player would.`, key: `hold|${g.key}` }
        : { action: { kind: 'press', key: g.key }, reasoning: `Press ${g.key} (start/confirm in many games).`, key: `press|${g.key}` };
    }
    // 5. buttons, tabs, clickables and in-app links: breadth first over groups
    const clickables = usable.filter((e) => !isField(e));
    for (let round = 0; round < SAMPLE_PER_GROUP; round++) {
      for (const e of clickables) {
        if ((groupTried.get(e.group) ?? 0) !== round || !fresh(`click|${e.signature}`)) continue;
        return click(e, `Breadth-first: try ${e.role} "${e.name || e.tag}" (${round + 1}${round ? 'th' : 'st'} of its group).`);
      }
    }
    // 6. second try for controls that did nothing the first time
    for (const e of clickables) {
      const k = `click|${e.signature}`;
      if (noEffect.has(k) && (attempts.get(k) ?? 0) < 2) return { ...click(e, `Second try: "${e.name || e.tag}" showed no effect the first time.`), key: k };
    }
    // 7. scroll to reveal more of a long page
    const vh = page.viewportSize()?.height ?? 800;
    if (scrolls < 2 && (opts.inventory?.scrollHeight ?? 0) > vh * 1.3) {
      scrolls++;
      return { action: { kind: 'scroll', deltaY: Math.round(vh * 0.9) }, reasoning: 'Scroll down to see the rest of the page.', key: `scroll|${scrolls}` };
    }
    return null;
  };

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
    let els: Scanned[];
    try {
      els = await evalIn<Scanned[]>(page, 'window.__cookieProbe ? window.__cookieProbe.scan() : []', opts.unresponsiveMs, 'scan');
    } catch (e) {
      endedBecause = (await isResponsive(page, 1000)) ? 'error' : 'unresponsive';
      if (endedBecause === 'unresponsive') steps.push(unresponsiveStep(i, 'The page stopped answering between steps.'));
      break;
    }
    for (const e of els) {
      if (!groupSeen.has(e.group)) groupSeen.set(e.group, new Set());
      groupSeen.get(e.group)!.add(e.signature);
      allSeen.set(e.signature, `${e.role} "${e.name || e.tag}"`);
    }
    const p = plan(els, i);
    if (!p) {
      endedBecause = 'exhausted';
      break;
    }
    attempts.set(p.key, (attempts.get(p.key) ?? 0) + 1);
    if (p.action.target) groupTried.set(p.action.target.group, (groupTried.get(p.action.target.group) ?? 0) + (attempts.get(p.key) === 1 ? 1 : 0));
    const step = await runStep(i, p);
    steps.push(step);
    if (step.effect && !step.effect.screenChanged && step.outcome === 'ok') noEffect.add(p.key);
    else noEffect.delete(p.key);
    if (p.action.kind === 'fill') lastFilled = els.find((e) => e.ref === p.ref) ?? null;
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
  log.step = undefined;

  const tried = new Set([...attempts.keys()].map((k) => k.replace(/^(click|fill|press\|Enter)\|/, '')));
  return {
    agent: 'offline-explorer',
    stepBudget: opts.steps,
    steps,
    endedBecause,
    untested: [...allSeen.entries()].filter(([sig]) => !tried.has(sig)).map(([, label]) => label).slice(0, 50),
    coverage: [...groupSeen.entries()].map(([group, sigs]) => ({ group, seen: sigs.size, tried: groupTried.get(group) ?? 0 })),
    gameLike,
    durationMs: Date.now() - t0,
  };

  // ── one step: act, then record what changed ──
  async function runStep(index: number, p: Plan): Promise<TraceStep> {
    log.step = index;
    const started = Date.now();
    const startedAt = new Date(started).toISOString();
    const errBefore = { c: log.consoleErrors.length, p: log.pageErrors.length, d: log.dialogs.length, n: log.navigations.length };
    const name = (s: string) => `screenshots/step-${String(index).padStart(2, '0')}-${s}.png`;
    let outcome: TraceStep['outcome'] = 'ok';
    let error: string | undefined;
    let box: { x: number; y: number; width: number; height: number } | null = null;

    // aim (and hover: so the pixel diff does not count hover styles as an effect)
    try {
      if (p.ref !== undefined) {
        const r = await evalIn<{ x: number; y: number; width: number; height: number; cx: number; cy: number; covered: boolean; coveredBy: string | null } | null>(
          page,
          `window.__cookieProbe.reveal(${p.ref})`,
          opts.unresponsiveMs,
          'reveal',
        );
        if (!r) throw new Error('element disappeared before it could be used');
        box = { x: r.x, y: r.y, width: r.width, height: r.height };
        if (p.action.target) p.action.target.box = { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) };
        if (r.covered) p.reasoning += ` (covered by ${r.coveredBy}: a real pointer hits that instead)`;
        const aim = input.aim(box);
        await timebox(input.moveTo(aim.x, aim.y), opts.unresponsiveMs, 'pointer move');
        await sleep(350);
      } else if (p.action.x !== undefined && p.action.y !== undefined) {
        await timebox(input.moveTo(p.action.x, p.action.y), opts.unresponsiveMs, 'pointer move');
      }
    } catch (e) {
      outcome = 'failed';
      error = errorMessage(e);
    }

    const before = outcome === 'ok' ? await capture(name('before')) : { png: null, img: null, snap: null };
    if (outcome === 'ok') {
      const actMs = (p.action.durationMs ?? 0) + opts.unresponsiveMs + (p.action.value?.length ?? 0) * 100;
      try {
        await timebox(act(p), Math.min(actMs, opts.stepTimeoutMs), `${p.action.kind}`);
      } catch (e) {
        error = errorMessage(e);
        outcome = /timed out/.test(error) ? 'timeout' : 'failed';
      }
    }
    if (outcome === 'timeout' || !(await isResponsive(page, outcome === 'ok' ? opts.unresponsiveMs : 1500))) {
      if (!(await isResponsive(page, 500))) {
        return {
          ...unresponsiveStep(index, p.reasoning),
          action: p.action,
          startedAt,
          durationMs: Date.now() - started,
          screenshotBefore: before.png ? name('before') : null,
          consoleErrors: log.consoleErrors.slice(errBefore.c),
          pageErrors: log.pageErrors.slice(errBefore.p),
          dialogs: log.dialogs.slice(errBefore.d),
          navigations: log.navigations.slice(errBefore.n),
          error: `main thread stopped answering after ${p.action.kind}${error ? ` (${error})` : ''}`,
        };
      }
    }
    // let effects show: a short pause, then until the DOM is quiet (bounded)
    await sleep(450);
    await waitQuiet(1200);
    const after = await capture(name('after'));
    const dialogs = log.dialogs.slice(errBefore.d);
    const navigations = log.navigations.slice(errBefore.n);
    let effect: StepEffect | null = null;
    if (before.img && after.img) {
      const pixelChange = diffRatio(before.img, after.img);
      const targetPixelChange = box ? diffRatio(before.img, after.img, box) : null;
      const domMutations = before.snap && after.snap ? after.snap.mutations - before.snap.mutations : 0;
      const scrolled = !!before.snap && !!after.snap && (before.snap.scrollY !== after.snap.scrollY || before.snap.scrollX !== after.snap.scrollX);
      const beyondNoise = pixelChange > noise * 1.5 + 0.003;
      effect = {
        pixelChange: round(pixelChange),
        targetPixelChange: targetPixelChange === null ? null : round(targetPixelChange),
        domMutations,
        scrolled,
        screenChanged: beyondNoise || domMutations > 0 || scrolled || dialogs.length > 0 || navigations.length > 0 || (before.snap?.url !== after.snap?.url),
      };
    }
    return {
      index,
      action: p.action,
      reasoning: p.reasoning,
      startedAt,
      durationMs: Date.now() - started,
      screenshotBefore: before.png ? name('before') : null,
      screenshotAfter: after.png ? name('after') : null,
      effect,
      consoleErrors: log.consoleErrors.slice(errBefore.c),
      pageErrors: log.pageErrors.slice(errBefore.p),
      dialogs,
      navigations,
      outcome,
      ...(error ? { error } : {}),
    };
  }

  async function act(p: Plan): Promise<void> {
    const a = p.action;
    switch (a.kind) {
      case 'click':
        await input.press();
        if (p.key === 'focus-canvas') canvasFocused = true;
        return;
      case 'check':
        await input.press();
        return;
      case 'fill':
        await input.press();
        await input.selectAll();
        await input.type(a.value ?? '');
        return;
      case 'select':
        await input.press();
        await page.keyboard.press('Escape');
        await evalIn(page, `window.__cookieProbe.selectIndex(${p.ref}, ${Number(a.value ?? 1)})`, opts.unresponsiveMs, 'select');
        return;
      case 'press':
        if (p.ref !== undefined && a.kind === 'press' && a.target && a.key !== 'Enter') await input.press();
        await input.tap(a.key!);
        return;
      case 'hold':
        await input.hold(a.key!, a.durationMs ?? opts.holdMs);
        return;
      case 'scroll':
        await input.scroll(a.deltaY ?? 600);
        return;
      default:
        return;
    }
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

  /** If the step left the app (off-origin navigation or an error page), go back to it. */
  async function returnToApp(index: number): Promise<void> {
    if (page.isClosed()) return;
    const url = page.url();
    const offApp = !url.startsWith(opts.origin);
    const docFailed = log.failedRequests.some((r) => r.step === index && r.resourceType === 'document' && !r.blocked);
    if (offApp || docFailed) {
      await timebox(page.goto(opts.url, { waitUntil: 'load', timeout: 10_000 }), 12_000, 'return to app').catch(() => {});
      await sleep(500);
    }
  }
}

function isField(e: Scanned): boolean {
  if (e.tag === 'textarea' || e.tag === 'select') return true;
  if (e.tag === 'input') return TEXT_TYPES.has(e.type ?? 'text') || ['checkbox', 'radio', 'range', 'color'].includes(e.type ?? '');
  return e.role === 'textbox' || e.role === 'checkbox' || e.role === 'radio' || e.role === 'switch' || e.role === 'slider';
}

function target(e: Scanned): NonNullable<Action['target']> {
  return { signature: e.signature, name: e.name, role: e.role, tag: e.tag, group: e.group, box: e.box };
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
