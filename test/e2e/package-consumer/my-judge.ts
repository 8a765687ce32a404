import { defineJudge, JUDGE_API_VERSION, type Judgement } from 'cookie-eval/judges';

/** Scores from counts in the evidence: every interaction step that changed the page is worth 10 points. */
export default defineJudge<{ bonus: number }>({
  apiVersion: JUDGE_API_VERSION,
  name: 'counts',
  create: (_ctx, options) => ({
    name: 'counts',
    judge(evidence): Judgement {
      const steps = evidence.interaction?.steps ?? [];
      const functionality = Math.min(100, options.bonus + 10 * steps.filter((s) => s.outcome === 'ok').length);
      const aesthetics = evidence.static ? 50 : 0;
      return {
        judge: `counts (${evidence.interaction?.agent ?? 'no agent'})`,
        static8: { functionality: 4, aesthetics: 4 },
        final8: { functionality: functionality / 12.5, aesthetics: aesthetics / 12.5 },
        scores: { functionality, aesthetics, total: (functionality + aesthetics) / 2 },
        defects: [],
        rubric: [],
        reasons: [`${steps.length} step(s), bonus ${options.bonus}`],
      };
    },
  }),
});
