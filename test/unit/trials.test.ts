import { describe, expect, it } from 'vitest';
import { describeTrials, markTrials, repeatTasks, summarizeTrials, trialMeans, unstableReason } from '../../src/runner/trials.js';
import type { EvaluationResult, EvaluationTask, RunResults } from '../../src/types.js';

const task = (id: string) => ({ id, query: { id: id.split('/')[0] }, candidate: { name: id.split('/')[1], mode: 'html', artifactPath: '/x' } }) as unknown as EvaluationTask;
const result = (id: string, total: number | null, index: number, of = 3): EvaluationResult =>
  ({ id: `${id}@${index}`, queryId: id.split('/')[0], candidate: id.split('/')[1], status: total === null ? 'error' : 'scored', scores: total === null ? null : { functionality: total, aesthetics: total - 10, total: total - 5 }, trial: { index, of, baseId: id } }) as unknown as EvaluationResult;

describe('repeated trials', () => {
  it('repeats each evaluation with its own id (and so its own seeds and evidence folder)', () => {
    const t = repeatTasks([task('q/a'), task('q/b')], 3);
    expect(t.map((x) => x.id)).toEqual(['q/a@1', 'q/a@2', 'q/a@3', 'q/b@1', 'q/b@2', 'q/b@3']);
    expect(t[4]!.trial).toEqual({ index: 2, of: 3, baseId: 'q/b' });
    expect(repeatTasks([task('q/a')], 1)[0]!.id).toBe('q/a');
  });

  it("keeps a TS spec's fixtures on every trial, still out of the JSON", () => {
    const fixtures = { page: async () => {} };
    const t = task('q/a');
    Object.defineProperty(t, 'fixtures', { value: fixtures, enumerable: false });
    const trials = repeatTasks([t], 2);
    for (const x of trials) {
      expect(x.fixtures).toBe(fixtures);
      expect(JSON.stringify(x)).not.toContain('fixtures');
    }
  });

  it('summarises mean and spread, and flags trials that disagree beyond the margin', () => {
    const rs = [result('q/a', 80, 1), result('q/a', 82, 2), result('q/a', 84, 3), result('q/b', 40, 1), result('q/b', 70, 2), result('q/b', 55, 3)];
    const [a, b] = summarizeTrials(rs, 10);
    expect(a).toMatchObject({ id: 'q/a', n: 3, scored: 3, unstable: false, functionality: { mean: 82, sd: 2, min: 80, max: 84 } });
    expect(b).toMatchObject({ id: 'q/b', unstable: true, total: { mean: 50, min: 35, max: 65 } });
    expect(b!.total!.sd).toBe(15);
  });

  it('a candidate scored in some trials and not in others is unstable', () => {
    const [s] = summarizeTrials([result('q/a', 80, 1), result('q/a', null, 2), result('q/a', 80, 3)]);
    expect(s).toMatchObject({ n: 3, scored: 2, unstable: true });
  });

  it('marks every trial of an unstable evaluation and gives win rates one mean per evaluation', () => {
    const run = { evaluations: [result('q/a', 80, 1), result('q/a', 95, 2), result('q/a', 80, 3), result('q/b', 50, 1), result('q/b', 50, 2), result('q/b', 50, 3)] } as unknown as RunResults;
    markTrials(run, 10);
    expect(run.evaluations.filter((e) => e.unstable).map((e) => e.id)).toEqual(['q/a@1', 'q/a@2', 'q/a@3']);
    const means = trialMeans(run.evaluations, run.trials!);
    expect(means.map((m) => [m.id, m.scores!.functionality, m.unstable])).toEqual([['q/a', 85, true], ['q/b', 50, false]]);
  });

  it('a trial mean counts an unscored trial 0, sums the trials\' usage and carries its summary', () => {
    const usage = { requests: 2, inputTokens: 100, outputTokens: 10, costUsd: 0.5 };
    const rs = [{ ...result('q/a', 80, 1, 2), usage }, { ...result('q/a', null, 2, 2), usage }];
    const [m] = trialMeans(rs, summarizeTrials(rs, 10));
    // functionality 80 and an unscored trial: (80 + 0) / 2; total (75 + 0) / 2
    expect(m!.scores).toEqual({ functionality: 40, aesthetics: 35, total: 37.5 });
    expect(m!.usage).toEqual({ requests: 4, inputTokens: 200, outputTokens: 20, costUsd: 1 });
    expect(m!).toMatchObject({ id: 'q/a', status: 'scored', unstable: true, trialSummary: { n: 2, scored: 1 } });
    const none = [result('q/b', null, 1, 2), result('q/b', null, 2, 2)];
    expect(trialMeans(none, summarizeTrials(none))[0]!.scores).toBeNull();
  });

  it('says why an evaluation is unstable, with its spread', () => {
    const [a, b, c] = summarizeTrials([result('q/a', 65, 1, 2), result('q/a', 85, 2, 2), result('q/b', 80, 1, 2), result('q/b', 82, 2, 2), result('q/c', 80, 1, 2), result('q/c', null, 2, 2)], 10);
    expect(a!.margin).toBe(10);
    expect(unstableReason(a!)).toBe('totals range 60.0–80.0 (20.0 points > margin 10)');
    expect(describeTrials(a!)).toBe('unstable: total 70.0 ± 14.1 over 2 trials, range 60.0–80.0 (20.0 points > margin 10)');
    expect(unstableReason(b!)).toBe('');
    expect(describeTrials(b!)).toBe('stable: total 76.0 ± 1.4 over 2 trials, range 75.0–77.0');
    expect(unstableReason(c!)).toBe('scored in 1 of 2 trials');
    expect(describeTrials(c!)).toBe('unstable: total 75.0 ± 0.0 over 1 scored of 2 trials, range 75.0–75.0');
  });
});
