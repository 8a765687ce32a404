import { describe, expect, it } from 'vitest';
import { stepStatus } from '../../reporters/html/index.js';
import type { ConsoleEntry } from '../../src/types.js';

const entry = (origin: ConsoleEntry['origin']): ConsoleEntry => ({ text: 'TypeError: x is undefined', origin, atMs: 10, step: 1 });

describe('HTML report action list', () => {
  it('a step that made the page throw, or failed, does not read "ok"', () => {
    expect(stepStatus({ outcome: 'ok', pageErrors: [entry('app')], consoleErrors: [] })).toBe('page error');
    expect(stepStatus({ outcome: 'ok', pageErrors: [], consoleErrors: [entry('app')] })).toBe('console error');
    expect(stepStatus({ outcome: 'failed', pageErrors: [entry('app')], consoleErrors: [] })).toBe('failed');
    expect(stepStatus({ outcome: 'timeout', pageErrors: [], consoleErrors: [] })).toBe('timeout');
    // the environment's errors (a blocked CDN) are not the step's
    expect(stepStatus({ outcome: 'ok', pageErrors: [], consoleErrors: [entry('environment')] })).toBe('ok');
    expect(stepStatus({ outcome: 'ok', pageErrors: [], consoleErrors: [] })).toBe('ok');
  });
});
