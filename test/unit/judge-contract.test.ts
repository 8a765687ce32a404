import { afterAll, describe, expect, it } from 'vitest';
import type { JudgeFn } from '../../src/judge/index.js';
import { judgeModel } from '../../src/judge/model/judge.js';
import { FULL, judgeOffline } from '../../src/judge/offline/judge.js';
import type { Dimension, Evidence, Judgement, Severity } from '../../src/types.js';
import { click, evidence, evidenceDir, inventory, judgedSteps, perception } from '../fixtures/evidence.js';
import { judgeStageOf, openaiText, startFakeLlm, type SeenRequest } from '../fixtures/fake-llm.js';

// One contract for both judge families (paper §4.1 Stage 3, §4.2; METHOD.md §4): the offline rubric judge
// and the model-backed three-stage judge, the latter against a local server speaking the OpenAI
// chat-completions wire format (no model is reachable from our machines). Finished evidence in, a
// Judgement out, on the paper's scales.

const SEVERITIES: readonly Severity[] = ['critical', 'major', 'minor'];
const DIMENSIONS: readonly Dimension[] = ['functionality', 'aesthetics'];

/** A model judge that answers each stage with valid JSON, naming defects of both dimensions and all severities. */
function modelScript(req: SeenRequest) {
  switch (judgeStageOf(req)) {
    case 'static':
      return openaiText(JSON.stringify({
        functionality: { score: 6, baseline: 'core works', deductions: [{ points: 1, reason: 'Apply has no handler', issue: 'S1' }] },
        aesthetics: { score: 5, baseline: 'clean', bonuses: ['colour system'] },
        issues: [{ id: 'S1', dimension: 'functionality', severity: 'major', description: 'Apply has no handler' }],
      }));
    case 'problems':
      return openaiText(JSON.stringify({
        problems: [
          { dimension: 'functionality', severity: 'critical', title: 'Apply does nothing', description: 'clicked twice, nothing', step: 2, where: 'toolbar', why: 'a key control is dead', static_issue: 'S1' },
          { dimension: 'aesthetics', severity: 'minor', title: 'Low contrast footer', step: null },
        ],
        dismissed_static_issues: [],
      }));
    case 'adjust':
      return openaiText(JSON.stringify({ functionality: { score: 4, adjustments: [{ delta: -2, reason: 'Apply dead', problem: 0 }] }, aesthetics: { score: 5, adjustments: [] }, attribution: [{ what: 'Apply', where: 'step 2', why: 'no effect', severity: 'critical', dimension: 'functionality' }] }));
    default:
      return openaiText(JSON.stringify({ functionality: 4, aesthetics: 5, reason: '' }));
  }
}

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closers) await c();
});

interface JudgeFamily {
  name: string;
  make(): Promise<JudgeFn>;
}

const families: JudgeFamily[] = [
  { name: 'offline rubric judge', make: async () => (ev) => judgeOffline(ev, FULL) },
  {
    name: 'model judge (OpenAI chat completions, fake server)',
    make: async () => {
      const srv = await startFakeLlm(modelScript);
      closers.push(srv.close);
      const model = { provider: 'openai' as const, model: 'judge-model', baseURL: `${srv.url}/v1`, apiKey: 'k', temperature: 0, maxTokens: 500, timeoutMs: 5000, retries: 0, backoffMs: 1 };
      return (ev, dir) => judgeModel(ev, dir, { model, pricing: {}, finalFunctionality: 'min', keyframes: 4, sourceChars: 5000, ablation: FULL });
    },
  },
];

/** Finished evidence of three kinds: the same inputs go to both families. */
const cases: { name: string; evidence: () => Evidence }[] = [
  { name: 'a clean page, explored without trouble', evidence: () => evidence({}, [click('Add', true), click('Filter', true)]) },
  { name: 'a dead control and a step that failed', evidence: () => evidence({}, judgedSteps()) },
  {
    name: 'a broken page: overflow on the phone, a page error, no interaction trace',
    evidence: () =>
      evidence({ static: perception({ inventory: inventory({ textProblems: [{ kind: 'clipped', selector: 'h1', text: 'Tasks' }] }) }), pageErrors: [{ text: 'TypeError: x is undefined', origin: 'app', atMs: 10 }] }, null),
  },
];

/** A judgement without what measures the call rather than the verdict (wall times of model calls). */
const strip = (j: Judgement): unknown => JSON.parse(JSON.stringify(j, (k, v) => (/(^|[a-z])(ms|Ms|latencyMs|durationMs)$/.test(k) ? undefined : v)));

/** Every contract clause a Judgement must meet, whoever made it. */
function expectValidJudgement(j: Judgement): void {
  expect(typeof j.judge).toBe('string');
  expect(j.judge.length).toBeGreaterThan(0);
  for (const s8 of [j.static8, j.final8])
    for (const d of DIMENSIONS) {
      expect(Number.isFinite(s8[d])).toBe(true);
      expect(s8[d]).toBeGreaterThanOrEqual(0);
      expect(s8[d]).toBeLessThanOrEqual(8);
    }
  for (const k of ['functionality', 'aesthetics', 'total'] as const) {
    expect(j.scores[k]).toBeGreaterThanOrEqual(0);
    expect(j.scores[k]).toBeLessThanOrEqual(100);
  }
  // 0–100 is the 0–8 final score × 12.5; the total is the mean of the two dimensions
  for (const d of DIMENSIONS) expect(j.scores[d]).toBeCloseTo(j.final8[d] * 12.5, 1);
  expect(j.scores.total).toBeCloseTo((j.scores.functionality + j.scores.aesthetics) / 2, 1);
  for (const d of j.defects) {
    expect(SEVERITIES).toContain(d.severity);
    expect(DIMENSIONS).toContain(d.dimension);
    expect(['static', 'interaction']).toContain(d.phase);
    expect(d.code).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(d.title.length).toBeGreaterThan(0);
    expect(d.deduction).toBeGreaterThanOrEqual(0);
  }
  for (const r of j.rubric) {
    expect(['pass', 'fail', 'not-assessed', 'exempt']).toContain(r.verdict);
    expect(DIMENSIONS).toContain(r.dimension);
  }
  expect(j.reasons.every((r) => typeof r === 'string')).toBe(true);
}

describe.each(families)('judge contract: $name', (family) => {
  it.each(cases)('$name: a Judgement on the paper scales with well-formed defects, the evidence untouched', async (c) => {
    const judge = await family.make();
    const ev = c.evidence();
    const copy = structuredClone(ev);
    const j = await judge(ev, evidenceDir());
    expectValidJudgement(j);
    expect(ev).toEqual(copy);
  });

  it('finds a control tried twice without effect as a functionality defect', async () => {
    const judge = await family.make();
    const j = await judge(evidence({}, [click('Apply', false), click('Add', true), click('Apply', false)]), evidenceDir());
    expect(j.defects.some((d) => d.dimension === 'functionality' && /apply/i.test(`${d.title} ${d.detail} ${d.feature ?? ''}`))).toBe(true);
  });

  // the offline judge from the evidence alone; the model judge adds no randomness of its own (the fake
  // server gives the same replies to the same requests, as a model at temperature 0 with a seed would)
  it('is deterministic: the same evidence (and the same model replies) gives the same judgement', async () => {
    const judge = await family.make();
    for (const c of cases) expect(strip(await judge(c.evidence(), evidenceDir()))).toEqual(strip(await judge(c.evidence(), evidenceDir())));
  });
});
