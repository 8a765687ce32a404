import { describe, expect, it } from 'vitest';
import { markTrials, repeatTasks, summarizeTrials, trialMeans } from '../../src/runner/trials.js';
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
});
