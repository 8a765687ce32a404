import type { ResolvedConfig } from '../config/schema.js';
import type { Evidence, Judgement } from '../types.js';
import { judgeModel } from './model/judge.js';
import { judgeOffline } from './offline/judge.js';

/** A judge: finished evidence (and its folder, for screenshots and video) in, judgement out. Never a browser. */
export type JudgeFn = (evidence: Evidence, evidenceDir: string) => Judgement | Promise<Judgement>;

/** The judge of a config: the offline rubric judge, or the model-backed three-stage judge; with the config's ablations. */
export function makeJudge(config: ResolvedConfig): JudgeFn {
  if (config.judge.kind === 'model' && config.judge.model) {
    const opts = { model: config.judge.model, pricing: config.pricing, finalFunctionality: config.judge.finalFunctionality, keyframes: config.judge.keyframes, sourceChars: config.judge.sourceChars, ablation: config.ablation };
    return (ev, dir) => judgeModel(ev, dir, opts);
  }
  return (ev) => judgeOffline(ev, config.ablation);
}
