import { attachFixtures } from '../spec/tasks.js';
import type { EvaluationResult, EvaluationTask, JudgeStage, RunResults, Scores, Spread, TrialSummary, Usage } from '../types.js';

/** Score change (0–100, on the total) between an evaluation's trials above which it is flagged unstable. */
export const DEFAULT_UNSTABLE_MARGIN = 10;

/**
 * Repeat every evaluation `n` times (`--repeat-each n`, Playwright's flag): trial k of a task gets the id
 * `<id>@k` (its own evidence folder) and so its own seeds — the agent's input timings and choices, and the
 * page's Math.random, are all derived from the task id. `n` = 1 returns the tasks unchanged.
 * @param n trials per evaluation (≥ 1)
 */
export function repeatTasks(tasks: EvaluationTask[], n: number): EvaluationTask[] {
  if (n <= 1) return tasks;
  return tasks.flatMap((t) =>
    Array.from({ length: n }, (_, i) => {
      const trial: EvaluationTask = { ...t, id: `${t.id}@${i + 1}`, trial: { index: i + 1, of: n, baseId: t.id } };
      // a spread leaves the non-enumerable fixtures behind
      attachFixtures(trial, t.fixtures);
      return trial;
    }),
  );
}

const round = (x: number) => Math.round(x * 10) / 10;

function spread(xs: number[]): Spread | null {
  if (!xs.length) return null;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = xs.length > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1)) : 0;
  return { mean: round(mean), sd: round(sd), min: round(Math.min(...xs)), max: round(Math.max(...xs)) };
}

/**
 * Summarise the trials of every repeated evaluation and flag the unstable ones (issue 15 point 3).
 * Evaluations without a `trial` are left out.
 * @param margin largest total-score range (0–100) still called stable
 */
export function summarizeTrials(results: EvaluationResult[], margin = DEFAULT_UNSTABLE_MARGIN): TrialSummary[] {
  const groups = new Map<string, EvaluationResult[]>();
  for (const r of results) if (r.trial) groups.set(r.trial.baseId, [...(groups.get(r.trial.baseId) ?? []), r]);
  return [...groups.entries()].map(([id, rs]) => {
    rs.sort((a, b) => a.trial!.index - b.trial!.index);
    const scored = rs.filter((r) => r.status === 'scored' && r.scores).map((r) => r.scores as Scores);
    const total = spread(scored.map((s) => s.total));
    return {
      id,
      queryId: rs[0]!.queryId,
      candidate: rs[0]!.candidate,
      n: rs.length,
      scored: scored.length,
      functionality: spread(scored.map((s) => s.functionality)),
      aesthetics: spread(scored.map((s) => s.aesthetics)),
      total,
      unstable: (scored.length > 0 && scored.length < rs.length) || (total !== null && total.max - total.min > margin),
      margin,
      trials: rs.map((r) => r.id),
    };
  });
}

/**
 * A result made by {@link trialMeans}: one per query × candidate, whose scores are the mean over its
 * trials; `trialSummary` is set when it stands for repeated trials (absent for an unrepeated result).
 */
export type TrialMeanResult = EvaluationResult & { trialSummary?: TrialSummary };

const sumUsage = (us: (Usage | undefined)[]): Usage | undefined => {
  const xs = us.filter((u): u is Usage => !!u);
  if (!xs.length) return undefined;
  return xs.reduce((a, u) => ({ requests: a.requests + u.requests, inputTokens: a.inputTokens + u.inputTokens, outputTokens: a.outputTokens + u.outputTokens, costUsd: a.costUsd + u.costUsd }), { requests: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 });
};

/**
 * One result per query × candidate whose scores are the trial means (for win rates and leaderboards:
 * pairwise comparisons use trial means, not one lucky trial). Unrepeated results pass through unchanged.
 *
 * A repeated evaluation becomes its first scored trial (else its first trial) with: `id` = the id without
 * `@k`; `scores` = the mean of each dimension (0–100, unrounded) over all its trials, an unscored trial
 * counting 0 (as an unscored evaluation counts 0 in the leaderboard), or null when no trial was scored;
 * `unstable` from its summary; `usage` summed and `judgeStages` concatenated over the trials (the cost is
 * what all the trials spent); `trialSummary` = its {@link TrialSummary}.
 * @param summaries the run's trial summaries ({@link summarizeTrials}, `run.trials`)
 */
export function trialMeans(results: EvaluationResult[], summaries: TrialSummary[]): TrialMeanResult[] {
  const byId = new Map(summaries.map((s) => [s.id, s]));
  const groups = new Map<string, EvaluationResult[]>();
  for (const r of results) if (r.trial) groups.set(r.trial.baseId, [...(groups.get(r.trial.baseId) ?? []), r]);
  const out: TrialMeanResult[] = [];
  const done = new Set<string>();
  for (const r of results) {
    if (!r.trial) {
      out.push(r);
      continue;
    }
    const baseId = r.trial.baseId;
    if (done.has(baseId)) continue;
    done.add(baseId);
    const rs = groups.get(baseId)!;
    const s = byId.get(baseId) ?? summarizeTrials(rs)[0]!;
    const first = rs.find((x) => x.status === 'scored' && x.scores) ?? r;
    const mean = (k: keyof Scores) => rs.reduce((a, x) => a + (x.status === 'scored' && x.scores ? x.scores[k] : 0), 0) / rs.length;
    const anyScored = rs.some((x) => x.status === 'scored' && x.scores);
    const judgeStages: JudgeStage[] = rs.flatMap((x) => x.judgeStages ?? []);
    out.push({
      ...first,
      id: baseId,
      scores: anyScored ? { functionality: mean('functionality'), aesthetics: mean('aesthetics'), total: mean('total') } : null,
      unstable: s.unstable,
      usage: sumUsage(rs.map((x) => x.usage)),
      ...(judgeStages.length ? { judgeStages } : {}),
      trialSummary: s,
    });
  }
  return out;
}

/** Trials of the run summarised: `run.trials` when the run holds them, else computed from its results ({@link summarizeTrials}); empty when nothing was repeated. */
export function runTrials(run: RunResults, margin = DEFAULT_UNSTABLE_MARGIN): TrialSummary[] {
  return run.trials ?? (run.evaluations.some((e) => e.trial) ? summarizeTrials(run.evaluations, margin) : []);
}

const f1 = (x: number) => x.toFixed(1);

/** A spread as people read it: `70.0 ± 14.1` (mean ± standard deviation, 0–100). */
export function formatSpread(s: Spread): string {
  return `${f1(s.mean)} ± ${f1(s.sd)}`;
}

/**
 * Why an evaluation's trials are unstable, in words, e.g. `totals range 60.0–80.0 (20.0 points > margin 10)`
 * or `scored in 2 of 3 trials`; empty when it is stable.
 */
export function unstableReason(s: TrialSummary): string {
  if (!s.unstable) return '';
  const why: string[] = [];
  if (s.total && s.total.max - s.total.min > s.margin) why.push(`totals range ${f1(s.total.min)}–${f1(s.total.max)} (${f1(s.total.max - s.total.min)} points > margin ${s.margin})`);
  if (s.scored > 0 && s.scored < s.n) why.push(`scored in ${s.scored} of ${s.n} trials`);
  return why.join('; ');
}

/**
 * One line on an evaluation's trials, e.g. `unstable: total 70.0 ± 14.1 over 2 trials, range 60.0–80.0
 * (20.0 points > margin 10)` or `stable: total 75.0 ± 0.0 over 2 trials, range 75.0–75.0`; scores 0–100,
 * ± the standard deviation.
 */
export function describeTrials(s: TrialSummary): string {
  const total = s.total ? `total ${formatSpread(s.total)} over ${s.scored === s.n ? '' : `${s.scored} scored of `}${s.n} trials, range ${f1(s.total.min)}–${f1(s.total.max)}` : `not scored in any of ${s.n} trials`;
  if (!s.unstable) return `stable: ${total}`;
  const why = s.total && s.total.max - s.total.min > s.margin ? ` (${f1(s.total.max - s.total.min)} points > margin ${s.margin})` : '';
  return `unstable: ${total}${why}`;
}

/**
 * Write the trial summaries into a finished run (`run.trials`) and flag each trial of an unstable
 * evaluation (`unstable: true`), so every reporter can show it.
 * @param margin largest total-score range (0–100) still called stable
 */
export function markTrials(run: RunResults, margin = DEFAULT_UNSTABLE_MARGIN): void {
  run.trials = summarizeTrials(run.evaluations, margin);
  const unstable = new Set(run.trials.filter((t) => t.unstable).map((t) => t.id));
  for (const r of run.evaluations) if (r.trial) r.unstable = unstable.has(r.trial.baseId);
}
