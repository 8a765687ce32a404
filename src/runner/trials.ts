import type { EvaluationResult, EvaluationTask, RunResults, Scores, Spread, TrialSummary } from '../types.js';

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
  return tasks.flatMap((t) => Array.from({ length: n }, (_, i) => ({ ...t, id: `${t.id}@${i + 1}`, trial: { index: i + 1, of: n, baseId: t.id } })));
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
      trials: rs.map((r) => r.id),
    };
  });
}

/**
 * One result per query × candidate whose scores are the trial means (for win rates and leaderboards:
 * pairwise comparisons use trial means, not one lucky trial). Unrepeated results pass through.
 */
export function trialMeans(results: EvaluationResult[], summaries: TrialSummary[]): EvaluationResult[] {
  const byId = new Map(summaries.map((s) => [s.id, s]));
  const out: EvaluationResult[] = [];
  const done = new Set<string>();
  for (const r of results) {
    if (!r.trial) {
      out.push(r);
      continue;
    }
    if (done.has(r.trial.baseId)) continue;
    done.add(r.trial.baseId);
    const s = byId.get(r.trial.baseId)!;
    const firstScored = results.find((x) => x.trial?.baseId === s.id && x.status === 'scored') ?? r;
    out.push({ ...firstScored, id: s.id, scores: s.total ? { functionality: s.functionality!.mean, aesthetics: s.aesthetics!.mean, total: s.total.mean } : null, unstable: s.unstable });
  }
  return out;
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
