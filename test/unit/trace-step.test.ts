import { describe, expect, it } from 'vitest';
import { EventLog } from '../../src/browser/session.js';
import { eventsSince, invalidStep, markLog, unresponsiveStep } from '../../src/interact/trace-step.js';

const entry = (text: string, step?: number): EventLog['consoleErrors'][number] => ({ text, origin: 'app', atMs: 0, step });

describe('per-step evidence: events and the steps recorded without an action', () => {
  it("a step's events are those logged after its mark, each list on its own", () => {
    const log = new EventLog();
    log.consoleErrors.push(entry('old'));
    log.navigations.push({ kind: 'navigation', url: 'http://a/', offApp: false, atMs: 0, step: undefined });
    const mark = markLog(log);
    expect(mark).toEqual({ consoleErrors: 1, pageErrors: 0, dialogs: 0, navigations: 1 });
    log.consoleErrors.push(entry('new', 0));
    log.pageErrors.push(entry('boom', 0));
    log.dialogs.push({ type: 'alert', message: 'hi', answer: 'accepted', atMs: 1, step: 0 });
    const ev = eventsSince(log, mark);
    expect(ev.consoleErrors.map((e) => e.text)).toEqual(['new']);
    expect(ev.pageErrors.map((e) => e.text)).toEqual(['boom']);
    expect(ev.dialogs).toHaveLength(1);
    expect(ev.navigations).toEqual([]);
    // copies: later entries do not leak into a recorded step
    log.pageErrors.push(entry('later', 1));
    expect(ev.pageErrors).toHaveLength(1);
  });

  it('an unresponsive step is a zero-length wait with no keyframes and no effect', () => {
    const s = unresponsiveStep(4, 'The page stopped answering between steps.');
    expect(s).toMatchObject({ index: 4, action: { kind: 'wait' }, durationMs: 0, screenshotBefore: null, screenshotAfter: null, effect: null, outcome: 'unresponsive', error: 'main thread stopped answering' });
    expect(Number.isNaN(Date.parse(s.startedAt))).toBe(false);
  });

  it('an invalid decision is a failed step carrying the reason, the thinking time and the usage', () => {
    const usage = { requests: 4, inputTokens: 10, outputTokens: 2, costUsd: 0 };
    const s = invalidStep(2, { action: { kind: 'wait', durationMs: 0 }, reasoning: 'gave up', invalid: 'element_id 9 is not in the list', usage }, 1234);
    expect(s).toMatchObject({ index: 2, reasoning: 'gave up', outcome: 'failed', error: 'no valid action: element_id 9 is not in the list', thinkMs: 1234, usage });
    expect('usage' in invalidStep(0, { action: { kind: 'wait' }, reasoning: '', invalid: 'x' }, 0)).toBe(false);
  });
});
