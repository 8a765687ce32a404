/**
 * `cookie-eval/judges`: the Judge interface of Stage 3 (finished evidence in, judgement out), the
 * versioned JudgePlugin factory a config names in `judge.use`, and the built-in judges (`offline`, `model`).
 */
// the public types name Node's (Buffer, NodeJS.*) and Playwright's, which need @types/node (a dependency):
// kept in the .d.ts so a consumer's tsc sees them even where its tsconfig lists no `types`
/// <reference types="node" preserve="true" />
export type { Defect, Evidence, Judgement, RubricVerdict, Scores, Scores8 } from '../types.js';
export { JUDGE_API_VERSION, defineJudge, type Judge, type JudgeContext, type JudgePlugin } from '../plugins/api.js';
export { BUILTIN_JUDGES } from '../plugins/builtin.js';
export { judgeOffline } from '../judge/offline/judge.js';
