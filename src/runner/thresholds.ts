import type { EvaluationResult } from '../types.js';

/**
 * Does a result pass: a scored result whose scores (0–100) meet each threshold its spec set, or, when the spec
 * expects another status (`expect: { status: 'error' }` for a candidate that must fail to build), that status.
 * The pass rule of `cookie test`, of a cached hit and of `cookie judge`. Never throws.
 */
export function meetsThresholds(r: Pick<EvaluationResult, 'status' | 'scores' | 'thresholds'> & { expectStatus?: EvaluationResult['status'] }): boolean {
  if (r.expectStatus && r.expectStatus !== 'scored') return r.status === r.expectStatus;
  if (r.status !== 'scored' || !r.scores) return false;
  const t = r.thresholds;
  return (t.functionality === undefined || r.scores.functionality >= t.functionality) && (t.aesthetics === undefined || r.scores.aesthetics >= t.aesthetics) && (t.total === undefined || r.scores.total >= t.total);
}
