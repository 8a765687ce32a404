import type { EvaluationResult } from '../types.js';

/** One evaluation's change between two runs (scores 0–100; null when not scored). */
export interface ScoreChange {
  queryId: string;
  candidate: string;
  before: { status: string; total: number | null; functionality: number | null; aesthetics: number | null };
  after: { status: string; total: number | null; functionality: number | null; aesthetics: number | null };
  /** after.total − before.total, counting an unscored evaluation as 0 (as the leaderboard does). */
  delta: number;
  /** The generation prompt's hash changed too (a regenerated candidate). */
  regenerated: boolean;
}

const view = (r: EvaluationResult) => ({ status: r.status, total: r.scores?.total ?? null, functionality: r.scores?.functionality ?? null, aesthetics: r.scores?.aesthetics ?? null });

/**
 * The score changes of a re-run against the previous run, per candidate and per query: every evaluation of
 * `next` that was evaluated again (not reused from the cache) and existed in `previous`.
 */
export function scoreChanges(previous: EvaluationResult[], next: EvaluationResult[]): ScoreChange[] {
  const before = new Map(previous.map((r) => [r.id, r]));
  const out: ScoreChange[] = [];
  for (const r of next) {
    const p = before.get(r.id);
    if (!p || r.cached) continue;
    out.push({
      queryId: r.queryId,
      candidate: r.candidate,
      before: view(p),
      after: view(r),
      delta: Math.round(((r.scores?.total ?? 0) - (p.scores?.total ?? 0)) * 10) / 10,
      regenerated: !!r.generation && r.generation.promptHash !== p.generation?.promptHash,
    });
  }
  return out;
}

/** Lines for the console: `score change: q × cand: total 52.5 → 68 (+15.5), F …, A … [regenerated]`. */
export function formatScoreChanges(changes: ScoreChange[]): string[] {
  const s = (x: ScoreChange['before']) => (x.total === null ? x.status : String(x.total));
  const sign = (d: number) => (d > 0 ? `+${d}` : String(d));
  return changes.map(
    (c) =>
      `score change: ${c.queryId} × ${c.candidate}: total ${s(c.before)} → ${s(c.after)} (${sign(c.delta)})` +
      (c.before.functionality !== null && c.after.functionality !== null ? `, F ${c.before.functionality} → ${c.after.functionality}, A ${c.before.aesthetics} → ${c.after.aesthetics}` : '') +
      (c.regenerated ? ' [regenerated: generation prompt or settings changed]' : ''),
  );
}
