import type { Action, AgentProtocolRecord, AgentReport, InteractiveElement, StepCheck, TraceStep, Usage } from '../types.js';

/** An interactive element as the agent sees it; `ref` is its id for this observation. */
export type ObservedElement = InteractiveElement & {
  handlers?: string[];
  /** The collection item the element belongs to (container CSS path, index among its kind, item text). */
  item?: { c: string; i: number; text: string };
  /** A text field that declares a digits-only rule (inputmode, pattern, card/zip name). */
  numericOnly?: boolean;
  /** Option labels of a `<select>` (first 12). */
  options?: string[];
};

/** What the agent is shown at the start of a step (the app is frozen meanwhile). */
export interface Observation {
  step: number;
  budget: number;
  url: string;
  /** Visible interactive elements, numbered by `ref`. */
  elements: ObservedElement[];
  /** PNG of the viewport, for agents that look (`wantsScreenshot`). */
  screenshot: Buffer | null;
  viewport: { width: number; height: number };
  /** The previous step, if any. */
  previous: TraceStep | null;
  /**
   * The page's lists (containers of ≥ 2 children of one kind with text: lists, tables, card grids), each by
   * CSS path with its items' visible texts (≤ 120 chars each, ≤ 60 items). Only for agents that ask
   * (`wantsLists`): the offline explorer takes search words from items that hold no control.
   */
  lists?: { id: string; items: string[] }[];
  /**
   * A drag-and-drop the page offers (for agents with `wantsLists`): from the centre of the first element the
   * page made draggable to the centre of a drop zone that does not hold it (viewport px), the dragged
   * element's text and the zone's CSS path. Absent when the page has none.
   */
  dragPlan?: DragPlan;
}

/** A drag from a draggable element to a drop zone, as the probe found it (see `Observation.dragPlan`). */
export interface DragPlan {
  from: { x: number; y: number };
  to: { x: number; y: number };
  text: string;
  zone: string;
}

/** The agent's choice: one action (with the element it targets, by ref) or finish. */
export interface Decision {
  action: Action;
  reasoning: string;
  /** Element ref from the observation, when the action targets an element. */
  ref?: number;
  /** Identity of the attempted control or move (used to count tries). */
  key?: string;
  /** The invariant this action serves: the loop records readings before and after it (issue 18). */
  check?: { invariant: StepCheck['invariant']; subject: string; params?: StepCheck['params'] };
  /**
   * A measurement the loop takes right after the action: the layout at 375 px (after a language/theme
   * switch), canvas ink around a window resize (after drawing), canvas backing at DPR 2 (phone viewport).
   */
  measure?: 'layout-375' | 'resize' | 'dpr2';
  /** Fill by paste/autofill (a paste event and an insert without key events) instead of typing. */
  paste?: boolean;
  /** Set when the agent could not produce a valid action (e.g. repeated malformed tool calls): the step is recorded as failed, nothing is done. */
  invalid?: string;
  /** Tokens and cost of this deliberation. */
  usage?: Usage;
}

/**
 * An agent of Stage 2 (paper §4.1: observe → think → act; METHOD.md §2.3): it receives the URL, the user's
 * brief and a step budget, nothing per query beyond them, and documents rather than judges. Two families
 * implement it: the offline explorer and the model-backed computer-use agent.
 */
export interface Agent {
  readonly name: string;
  /** Whether observations must carry a screenshot. */
  readonly wantsScreenshot: boolean;
  /** Whether observations must carry the page's lists (`Observation.lists`). */
  readonly wantsLists?: boolean;
  /** Decide the next action; `kind: 'finish'` ends the exploration. */
  next(obs: Observation): Promise<Decision>;
  /** Learn from the finished step (e.g. count a control that showed no effect). */
  observeResult?(step: TraceStep, decision: Decision): void;
  /** The neutral report at the end, from the agent's own notes and the trace. */
  report(steps: TraceStep[], untested: string[], consoleErrors: string[]): Promise<AgentReport> | AgentReport;
  /** Tokens and cost spent (model-backed agents). */
  usage?(): Usage;
  /** True when the page looked game-like to the agent. */
  readonly gameLike?: boolean;
  /** Model-backed agents: the wire protocol used and what happened on it (recorded in the trace as `protocol`). */
  protocolRecord?(): AgentProtocolRecord;
}
