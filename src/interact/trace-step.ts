import type { EventLog } from '../browser/session.js';
import type { TraceStep } from '../types.js';
import type { Decision } from './agent.js';

/** The page's events a step records (what happened while it ran). */
export type StepEvents = Pick<TraceStep, 'consoleErrors' | 'pageErrors' | 'dialogs' | 'navigations'>;

/** The event log's lengths at one instant (see {@link markLog}). */
export interface LogMark {
  consoleErrors: number;
  pageErrors: number;
  dialogs: number;
  navigations: number;
}

/** Where the event log stands now: a step's events are those logged after its mark ({@link eventsSince}). */
export function markLog(log: Pick<EventLog, keyof StepEvents>): LogMark {
  return { consoleErrors: log.consoleErrors.length, pageErrors: log.pageErrors.length, dialogs: log.dialogs.length, navigations: log.navigations.length };
}

/** Console errors, page errors, dialogs and navigations logged since `mark` (copies, in log order). */
export function eventsSince(log: Pick<EventLog, keyof StepEvents>, mark: LogMark): StepEvents {
  return {
    consoleErrors: log.consoleErrors.slice(mark.consoleErrors),
    pageErrors: log.pageErrors.slice(mark.pageErrors),
    dialogs: log.dialogs.slice(mark.dialogs),
    navigations: log.navigations.slice(mark.navigations),
  };
}

/**
 * The step recorded when the page's main thread stopped answering before an action could be taken (paper
 * §4.1; METHOD.md §2.3): a zero-length `wait` with outcome `unresponsive`, no keyframes, no effect.
 * @param index the step's index (0-based)
 * @param reasoning why it is recorded (shown in the trace)
 */
export function unresponsiveStep(index: number, reasoning: string): TraceStep {
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

/**
 * The step recorded when the agent produced no valid action (`decision.invalid`, e.g. repeated malformed
 * tool calls): nothing is done, outcome `failed` with the agent's reason, the deliberation's time (ms) and usage.
 */
export function invalidStep(index: number, d: Decision, thinkMs: number): TraceStep {
  return { ...unresponsiveStep(index, d.reasoning), outcome: 'failed', error: `no valid action: ${d.invalid}`, thinkMs, ...(d.usage ? { usage: d.usage } : {}) };
}
