import type { EvaluationResult, Evidence } from '../types.js';

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

/**
 * Why finished evidence cannot be judged, as the error of its result (stage `perceive`): no static perception,
 * or Cookie's in-page probe could not measure the page (a page that replaced the built-ins it relies on) —
 * which is not the same as a blank page, so no judge sees it. null when the evidence can be judged. The rule
 * of `cookie test` and of `cookie judge` (the same evidence gets the same verdict). Never throws.
 */
export function unjudgeable(evidence: Pick<Evidence, 'static' | 'stageErrors'>): { stage: 'perceive'; message: string } | null {
  if (!evidence.static) return { stage: 'perceive', message: evidence.stageErrors[0]?.message ?? 'static perception produced no evidence' };
  if (evidence.static.probeError) return { stage: 'perceive', message: `Cookie's in-page probe could not measure this page (it may replace built-ins such as Array.prototype or JSON): ${evidence.static.probeError}` };
  return null;
}
