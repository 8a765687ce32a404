import type { AgentReport, DomInventory, TraceStep } from '../../types.js';
import type { Agent, Decision, Observation, ObservedElement } from '../agent.js';
import { valueFor } from '../values.js';
import { CalculatorHeuristic } from './heuristics/calculator.js';
import { PasteHeuristic } from './heuristics/fields.js';
import { DragDropHeuristic } from './heuristics/drag-drop.js';
import { ListFlowHeuristic } from './heuristics/list-flow.js';
import { DprHeuristic, DrawResizeHeuristic, ToggleLayoutHeuristic } from './heuristics/second-look.js';
import { SearchFilterHeuristic, SortHeuristic } from './heuristics/sort-filter.js';
import { StepperHeuristic } from './heuristics/stepper.js';
import { clickOn as click, target, type Heuristic } from './heuristics/types.js';
import { RETREAT_WORDS, SUBMIT_WORDS } from './heuristics/words.js';

/** Most elements tried per group of repeated elements (the reference verifier samples 3–5). */
export const SAMPLE_PER_GROUP = 4;
/** Steps kept in reserve: exploration stops this many steps before the budget (reference verifier). */
export const RESERVE_STEPS = 3;
/** Tries before a control with no visible effect is given up on. */
export const MAX_TRIES = 2;

/** Accessible names that start a game or an app flow, in the benchmark's main languages. */
export const START_WORDS = /\b(start|play|begin|new game|go)\b|开始|開始|jouer|commencer|jugar|empezar|iniciar|começar|spielen|starten|スタート|시작|プレイ/i;
/** Names of controls that restart a finished game. */
export const RESTART_WORDS = /\b(restart|play again|try again|new game|replay|retry)\b|重新开始|再来|再玩|重玩|rejouer|recommencer|reiniciar|jugar de nuevo|neu starten|nochmal|もう一度|リトライ|다시/i;

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
/** Keys pressed again after a restart (the second round of play). */
const REPLAY_KEYS: { key: string; hold: boolean }[] = [
  { key: 'Space', hold: false },
  { key: 'ArrowRight', hold: true },
  { key: 'ArrowUp', hold: true },
];
const TEXT_TYPES = new Set(['text', 'email', 'number', 'tel', 'url', 'password', 'search', 'date', 'time', 'datetime-local', 'month', 'week', 'textarea']);

/**
 * Is the page game-like: keyboard listeners on window/document/body/canvas, or a canvas covering at
 * least 30% of the viewport.
 */
export function isGameLike(inv: DomInventory | null): boolean {
  if (!inv) return false;
  const keys = inv.listenedEvents.some((e) => e === 'keydown' || e === 'keyup' || e === 'keypress');
  return keys || inv.canvases.some((c) => c.areaShare >= 0.3);
}

/** Is an element a form field (typed into, toggled or chosen from)? */
export function isField(e: ObservedElement): boolean {
  if (e.tag === 'textarea' || e.tag === 'select') return true;
  if (e.tag === 'input') return TEXT_TYPES.has(e.type ?? 'text') || ['checkbox', 'radio', 'range', 'color'].includes(e.type ?? '');
  return e.role === 'textbox' || e.role === 'checkbox' || e.role === 'radio' || e.role === 'switch' || e.role === 'slider';
}

function isExternal(e: ObservedElement, origin: string): boolean {
  if (!e.href || e.tag !== 'a') return false;
  if (/^(mailto|tel|sms|ftp):/i.test(e.href)) return true;
  if (/^(#|javascript:)/i.test(e.href) || e.href === '') return false;
  try {
    return new URL(e.href, origin + '/').origin !== origin;
  } catch {
    return true;
  }
}

/**
 * The offline explorer (Stage 2 without a model; METHOD.md §2.3 and §9): a deterministic agent that
 * exercises the page as a curious person would, breadth first — fills fields with values that fit their
 * type and submits them, clicks buttons, tabs and in-app links (a sample of up to 4 of each group of
 * repeated elements; never links off the app), and on game-like pages runs start → play (press and hold
 * Enter, Space, arrows, WASD on the focused game surface) → lose/win → restart → play again. A control
 * with no visible effect gets one more try later, then is given up on (2 tries); exploration stops
 * {@link RESERVE_STEPS} steps before the budget. It documents, never judges.
 */
export class OfflineExplorer implements Agent {
  readonly name = 'offline-explorer';
  readonly wantsScreenshot = false;
  readonly wantsLists = true;
  readonly gameLike: boolean;
  private readonly attempts = new Map<string, number>();
  private readonly noEffect = new Set<string>();
  private readonly groupTried = new Map<string, number>();
  private lastFilled: ObservedElement | null = null;
  private gameKeyIndex = 0;
  private replayIndex = -1;
  private canvasFocused = false;
  private scrolls = 0;
  /** Signature of the latest clicked control that changed the screen. */
  private lastEffective: string | null = null;
  /** The control whose second try the current setup step prepares. */
  private setupFor: string | null = null;
  /** A click that showed nothing the first time: tried again at once (first-click failure, issue 11). */
  private retryNow: string | null = null;
  /** Careful-tester sequences, in the order they are offered the next step (issue 11 point 3, issue 18). */
  readonly heuristics: Heuristic[];
  /** The DPR-2 look: first on ordinary pages, after the first round of play on game-like ones. */
  private readonly dpr: DprHeuristic;

  constructor(
    private readonly origin: string,
    private readonly inventory: DomInventory | null,
    private readonly holdMs: number,
  ) {
    this.gameLike = isGameLike(inventory);
    this.dpr = new DprHeuristic(inventory);
    this.heuristics = [
      ...(this.gameLike ? [] : [this.dpr]),
      new CalculatorHeuristic(),
      new ListFlowHeuristic(),
      new DragDropHeuristic(),
      new StepperHeuristic(),
      new SortHeuristic(),
      new SearchFilterHeuristic(),
      new PasteHeuristic(),
      new DrawResizeHeuristic(),
      new ToggleLayoutHeuristic(),
    ];
  }

  async next(obs: Observation): Promise<Decision> {
    if (obs.step >= obs.budget - RESERVE_STEPS) return { action: { kind: 'finish' }, reasoning: `Stop ${RESERVE_STEPS} steps before the budget.` };
    const d = this.plan(obs);
    if (!d) return { action: { kind: 'finish' }, reasoning: 'Every reachable control has been tried.' };
    return d;
  }

  observeResult(step: TraceStep, d: Decision): void {
    const key = d.key ?? '';
    const n = (this.attempts.get(key) ?? 0) + 1;
    this.attempts.set(key, n);
    if (d.action.target && n === 1) this.groupTried.set(d.action.target.group, (this.groupTried.get(d.action.target.group) ?? 0) + 1);
    if (step.outcome === 'ok' && step.effect && !step.effect.screenChanged) this.noEffect.add(key);
    else this.noEffect.delete(key);
    if (d.action.kind === 'click' && d.action.target && step.effect?.screenChanged) this.lastEffective = d.action.target.signature;
    if (d.action.kind === 'fill') this.lastFilled = this.pendingFill;
    this.pendingFill = null;
    // nothing at all on the first click of a control: click it again right away; an effect then is a
    // first-click failure (the accordion that needs two clicks), nothing again leaves the later retry as is
    if (d.action.kind === 'click' && d.action.target && step.outcome === 'ok' && step.effect?.kind === 'none' && n === 1 && d.check?.invariant !== 'first-click' && !d.key?.startsWith('retry|')) this.retryNow = d.action.target.signature;
  }

  /** The field of the latest fill decision (its element as observed). */
  private pendingFill: ObservedElement | null = null;

  private fresh(key: string): boolean {
    return !this.attempts.has(key);
  }

  private plan(obs: Observation): Decision | null {
    const els = obs.elements;
    const usable = els.filter((e) => !e.disabled && !isExternal(e, this.origin) && e.type !== 'file' && e.box.width * e.box.height >= 16);
    const groupOk = (e: ObservedElement) => (this.groupTried.get(e.group) ?? 0) < SAMPLE_PER_GROUP;
    const buttonish = (e: ObservedElement) => e.role === 'button' || e.role === 'clickable' || e.role === 'link';

    // 1. game-like pages: a start button first, and a restart button whenever one appears after play
    if (this.gameLike) {
      if (obs.step < 3) {
        const start = usable.find((e) => buttonish(e) && START_WORDS.test(e.name) && !RESTART_WORDS.test(e.name) && this.fresh(`click|${e.signature}`));
        if (start) return click(start, `Game-like page: start the game with "${start.name}".`);
      }
      if (this.gameKeyIndex >= 4) {
        const restart = usable.find((e) => buttonish(e) && RESTART_WORDS.test(e.name) && this.fresh(`click|${e.signature}`));
        if (restart) {
          this.replayIndex = 0;
          return click(restart, `The round is over: restart with "${restart.name}" and play again.`);
        }
      }
      if (this.replayIndex >= 0 && this.replayIndex < REPLAY_KEYS.length) {
        const g = REPLAY_KEYS[this.replayIndex++]!;
        return this.keyDecision(g, 'Second round after the restart:');
      }
    }
    // 1b. a control that showed nothing on its first click: once more, right away
    if (this.retryNow) {
      const sig = this.retryNow;
      this.retryNow = null;
      const e = usable.find((x) => x.signature === sig);
      if (e) return click(e, `Careful tester (first click): "${e.name || e.tag}" showed nothing; click it again right away — does it need two clicks?`, { key: `retry|${e.signature}`, check: { invariant: 'first-click', subject: e.name || e.tag } });
    }
    // 2. submit right after filling a field (a person fills, then submits)
    if (this.lastFilled) {
      const f = this.lastFilled;
      const more = usable.filter((e) => isField(e) && this.fresh(`fill|${e.signature}`) && f.form !== undefined && e.form === f.form);
      if (!more.length) {
        this.lastFilled = null;
        // the way a person submits: a submit button or one named for sending/advancing first ("Weiter", not
        // the "Zurück" beside it; "Save", not "Cancel"), then the nearest other; never one that goes back,
        // cancels or clears what was just typed
        const rank = (e: (typeof usable)[number]) => (e.type === 'submit' || SUBMIT_WORDS.test(e.name) ? 0 : 1);
        // (a wizard's "Weiter" is pressed again after each step's fields: a submit button is fresh per field)
        const near = usable
          .filter((e) => (e.role === 'button' || (e.tag === 'input' && /submit|button/.test(e.type ?? ''))) && (this.fresh(`click|${e.signature}`) || (rank(e) === 0 && this.fresh(`submit|${f.signature}|${e.signature}`))) && !RETREAT_WORDS.test(e.name))
          .map((e) => ({ e, r: rank(e), d: f.form !== undefined && e.form === f.form ? 0 : Math.hypot(e.box.x - f.box.x, e.box.y - f.box.y) }))
          .filter((x) => x.d < 400)
          .sort((a, b) => a.r - b.r || a.d - b.d)[0];
        if (near) return click(near.e, `Submit what was just entered ("${f.name}") with the nearest button "${near.e.name}".`, this.fresh(`click|${near.e.signature}`) ? {} : { key: `submit|${f.signature}|${near.e.signature}` });
        const k = `press|Enter|${f.signature}`;
        if (this.fresh(k) && f.tag !== 'textarea' && f.role === 'textbox') return { action: { kind: 'press', key: 'Enter', target: target(f) }, reasoning: `No button near "${f.name}": press Enter to submit it.`, ref: f.ref, key: k };
      }
    }
    // 2b. careful-tester sequences (calculation, add/complete/delete, sort, search, paste, draw+resize…)
    for (const h of this.heuristics) {
      const d = h.next(obs);
      if (d) {
        this.pendingFill = null;
        return d;
      }
    }
    // 3. fields, in document order
    for (const e of usable) {
      if (!isField(e) || !this.fresh(`fill|${e.signature}`) || !groupOk(e)) continue;
      const key = `fill|${e.signature}`;
      if (e.role === 'checkbox' || e.role === 'radio' || e.role === 'switch') return { action: { kind: 'check', target: target(e) }, reasoning: `Toggle ${e.role} "${e.name}".`, ref: e.ref, key };
      if (e.tag === 'select') return { action: { kind: 'select', target: target(e), value: '1' }, reasoning: `Choose another option in "${e.name}".`, ref: e.ref, key };
      if (e.role === 'slider') return { action: { kind: 'press', key: 'ArrowRight', target: target(e) }, reasoning: `Move slider "${e.name}".`, ref: e.ref, key };
      if (e.type === 'color') return { action: { kind: 'click', target: target(e) }, reasoning: `Open colour picker "${e.name}".`, ref: e.ref, key };
      const value = valueFor({ type: e.tag === 'textarea' ? 'textarea' : e.type, name: e.name });
      this.pendingFill = e;
      return { action: { kind: 'fill', target: target(e), value }, reasoning: `Fill "${e.name || e.type || 'field'}" with a value that fits its type.`, ref: e.ref, key };
    }
    // 4. game keys: focus the game surface, then press and hold
    if (this.gameLike && this.gameKeyIndex < GAME_KEYS.length) {
      if (!this.canvasFocused && this.inventory?.canvases.length) {
        this.canvasFocused = true;
        return { action: { kind: 'click', x: Math.round(obs.viewport.width / 2), y: Math.round(obs.viewport.height / 2) }, reasoning: 'Focus the game surface before sending keys (games ignore keys until focused).', key: 'focus-canvas' };
      }
      return this.keyDecision(GAME_KEYS[this.gameKeyIndex++]!, 'Play:');
    }
    if (this.gameLike) {
      const d = this.dpr.next(obs);
      if (d) return d;
    }
    // 5. buttons, tabs, clickables and in-app links: breadth first over groups
    const clickables = usable.filter((e) => !isField(e));
    for (let round = 0; round < SAMPLE_PER_GROUP; round++) {
      for (const e of clickables) {
        if ((this.groupTried.get(e.group) ?? 0) !== round || !this.fresh(`click|${e.signature}`)) continue;
        return click(e, `Breadth-first: try ${e.role} "${e.name || e.tag}" (${['1st', '2nd', '3rd', '4th'][round]} of its group).`);
      }
    }
    // 6. a second (last) try for controls that did nothing the first time — in a changed state: first
    //    repeat the latest action that did change something ("Reset" does nothing at 0; press "+1" first)
    for (const e of clickables) {
      const k = `click|${e.signature}`;
      if (!this.noEffect.has(k) || (this.attempts.get(k) ?? 0) >= MAX_TRIES) continue;
      if (this.setupFor !== k && this.lastEffective && this.lastEffective !== e.signature) {
        const setup = clickables.find((x) => x.signature === this.lastEffective);
        if (setup) {
          this.setupFor = k;
          return click(setup, `Change the state first (repeat "${setup.name || setup.tag}") so the second try of "${e.name || e.tag}" can show an effect.`);
        }
      }
      this.setupFor = null;
      return click(e, `Second try: "${e.name || e.tag}" showed no effect the first time.`);
    }
    // 7. scroll to reveal more of a long page
    if (this.scrolls < 2 && (this.inventory?.scrollHeight ?? 0) > obs.viewport.height * 1.3) {
      this.scrolls++;
      return { action: { kind: 'scroll', deltaY: Math.round(obs.viewport.height * 0.9) }, reasoning: 'Scroll down to see the rest of the page.', key: `scroll|${this.scrolls}` };
    }
    return null;
  }

  private keyDecision(g: { key: string; hold: boolean }, prefix: string): Decision {
    return g.hold
      ? { action: { kind: 'hold', key: g.key, durationMs: this.holdMs }, reasoning: `${prefix} hold ${g.key} for ${this.holdMs} ms as a player would.`, key: `hold|${g.key}|${this.replayIndex}` }
      : { action: { kind: 'press', key: g.key }, reasoning: `${prefix} press ${g.key} (start/confirm/jump in many games).`, key: `press|${g.key}|${this.replayIndex}` };
  }

  report(steps: TraceStep[], untested: string[], consoleErrors: string[]): AgentReport {
    const label = (s: TraceStep) => (s.action.target ? `${s.action.kind} ${s.action.target.role} "${s.action.target.name || s.action.target.tag}"` : `${s.action.kind}${s.action.key ? ` ${s.action.key}` : ''}`);
    const issues: AgentReport['issuesFound'] = [];
    const seen = new Set<string>();
    for (const s of steps) {
      const name = s.action.target?.name || s.action.key || s.action.kind;
      if (s.outcome === 'unresponsive') issues.push({ feature: name, action: label(s), expected: 'the page keeps responding', actual: 'the main thread stopped answering' });
      for (const e of s.pageErrors) if (!seen.has(e.text)) (seen.add(e.text), issues.push({ feature: name, action: label(s), expected: 'no error', actual: e.text.slice(0, 200) }));
      // typing into a field changes the field itself (not measured as an effect): it is not a silent control
      if (s.outcome === 'ok' && s.effect && !s.effect.screenChanged && s.action.target && s.action.kind !== 'fill' && !seen.has(`none|${name}`)) {
        seen.add(`none|${name}`);
        issues.push({ feature: name, action: label(s), expected: 'a visible response', actual: 'nothing visible changed' });
      }
    }
    const tested = [...new Set(steps.filter((s) => s.action.target).map((s) => `${s.action.target!.role} "${s.action.target!.name || s.action.target!.tag}"`))];
    const changed = steps.filter((s) => s.effect?.screenChanged).length;
    return {
      actionsPerformed: steps.map((s) => `${s.index}: ${label(s)} — ${s.outcome}${s.effect ? (s.effect.screenChanged ? ', screen changed' : ', no visible change') : ''}`),
      issuesFound: issues,
      featuresTested: tested,
      featuresNotTested: untested,
      consoleErrors: consoleErrors.slice(0, 20),
      observation: `${steps.length} actions, ${changed} with a visible effect; ${issues.length} issue(s) noted; ${untested.length} control(s) not exercised.${this.gameLike ? ' The page behaves like a game (keyboard or large canvas).' : ''}`,
    };
  }
}
