import { stripVTControlCharacters } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConsoleReporter } from '../../reporters/console.js';
import type { EvaluationResult, EvaluationTask } from '../../src/types.js';

const task = (id: string): EvaluationTask => ({ id, suiteFile: '/s/a.cookie.yaml', query: { id: id.split('/')[0]!, prompt: 'p', language: 'en', languageLabel: 'en', kind: 'dynamic' }, candidate: { name: id.split('/')[1]!, mode: 'html', artifactPath: '/a.html' }, thresholds: {} });
const result = (id: string, ms: number): EvaluationResult => ({
  id, queryId: id.split('/')[0]!, candidate: id.split('/')[1]!, mode: 'html', suiteFile: '/s/a.cookie.yaml', artifactPath: '/a.html', status: 'scored',
  scores: { functionality: 80, aesthetics: 70, total: 75 }, static8: null, final8: null, defects: [], rubric: [], reasons: [], thresholds: {}, passed: true,
  timings: { total: ms }, evidenceDir: `evidence/${id}`, query: { prompt: 'p', language: 'en', kind: 'dynamic' }, finishedAt: '',
});
function sink(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, stream: { isTTY, columns: 200, write: (s: string) => (chunks.push(isTTY ? s : stripVTControlCharacters(s)), true) } as unknown as NodeJS.WritableStream & { isTTY: boolean } };
}

beforeEach(() => vi.useFakeTimers({ now: new Date('2026-12-01T15:00:00Z') }));
afterEach(() => vi.useRealTimers());

describe('console reporter progress', () => {
  it('off a TTY: one line per finished evaluation and a heartbeat (stage, step n/N, elapsed, ETA) only after a quiet heartbeat interval', () => {
    const { chunks, stream } = sink(false);
    const r = new ConsoleReporter({ stream, heartbeatMs: 30_000 });
    const tasks = ['todo/a', 'todo/b', 'todo/c'].map(task);
    r.onRunStart({ tasks, outputDir: '/o', config: { concurrency: 1 } });
    r.onEvaluationStart(tasks[0]!);
    vi.advanceTimersByTime(60_000);
    r.onEvaluationEnd(result('todo/a', 60_000));
    r.onEvaluationStart(tasks[1]!);
    r.onStageStart(tasks[1]!, 'interact');
    r.onStep(tasks[1]!, 7, 25);
    const before = chunks.length;
    vi.advanceTimersByTime(29_000); // quieter than the interval: no heartbeat yet
    expect(chunks.length).toBe(before);
    vi.advanceTimersByTime(6_000);
    const beat = chunks.slice(before).join('');
    // printed once the log was quiet for 30 s: 1 of 3 done; b has run 30 s of a 60 s mean (30 s left) and c waits (60 s): ETA 1m30s
    expect(beat).toMatch(/^… 1\/3 done · ETA 1m30s · todo\/b interact 7\/25 30s \(1m30s elapsed\)\n$/);
    // at most one heartbeat per interval
    vi.advanceTimersByTime(20_000);
    expect(chunks.slice(before).join('').match(/…/g)).toHaveLength(1);
    vi.advanceTimersByTime(15_000);
    expect(chunks.slice(before).join('').match(/…/g)).toHaveLength(2);
    r.onEvaluationEnd(result('todo/b', 70_000));
    expect(chunks[chunks.length - 1]).toMatch(/^\[2\/3\] todo\/b /);
    expect(chunks.join('')).not.toContain('\r'); // no cursor tricks in a CI log
    r.onRunEnd({ schemaVersion: 1, cookieVersion: '0', browserVersion: '0', startedAt: '', finishedAt: '', config: {}, environment: null, evaluations: [] });
    const n = chunks.length;
    vi.advanceTimersByTime(120_000);
    expect(chunks.length).toBe(n); // the timer stops with the run
  });

  it('on a TTY: the live line shows every running evaluation with stage, step n/N and elapsed time, and the ETA', () => {
    const { chunks, stream } = sink(true);
    const r = new ConsoleReporter({ stream, refreshMs: 1000 });
    const tasks = ['game/x', 'game/y', 'game/z', 'game/w'].map(task);
    r.onRunStart({ tasks, outputDir: '/o', config: { concurrency: 2 } });
    r.onEvaluationStart(tasks[0]!);
    r.onEvaluationStart(tasks[1]!);
    vi.advanceTimersByTime(20_000);
    r.onEvaluationEnd(result('game/x', 20_000));
    r.onEvaluationStart(tasks[2]!);
    r.onStageStart(tasks[1]!, 'interact');
    r.onStep(tasks[1]!, 3, 25);
    r.onStageStart(tasks[2]!, 'perceive');
    vi.advanceTimersByTime(4_000);
    const last = chunks[chunks.length - 1]!;
    expect(last.startsWith('\r\x1b[2K')).toBe(true);
    // y: 24 s of a 20 s mean (0 left); z: 4 s (16 left); w queued (20): 36 s over 2 slots
    expect(last).toContain('▶ 1/4 done · ETA 18s · game/y interact 3/25 24s · game/z perceive 4s');
  });
});

describe('console reporter messages', () => {
  it('marks a note as information, a warning with !, and anything else as a failure', () => {
    const { chunks, stream } = sink(false);
    const r = new ConsoleReporter({ stream });
    r.onError('note: evaluating one at a time');
    r.onError('warning: a spec field is unknown');
    r.onError('spec.yaml: query.kind: invalid');
    expect(chunks.join('')).toBe('i note: evaluating one at a time\n! warning: a spec field is unknown\n✗ spec.yaml: query.kind: invalid\n');
  });
});
