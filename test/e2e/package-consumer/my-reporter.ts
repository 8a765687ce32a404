import { defineReporter, REPORTER_API_VERSION, type EvaluationResult } from 'cookie-eval/reporters';

const seen: EvaluationResult[] = [];
/** Prints one JSON line when the run ends (a consumer's reporter, given to `reporters` by path). */
export default defineReporter({
  apiVersion: REPORTER_API_VERSION,
  onEvaluationEnd(r) {
    seen.push(r);
  },
  onRunEnd(run) {
    console.log(`my-reporter ${JSON.stringify({ evaluations: run.evaluations.length, ids: seen.map((r) => r.id), totals: seen.map((r) => r.scores?.total ?? null), judge: seen.map((r) => r.reasons.join(' ')) })}`);
  },
});
