import fs from 'node:fs';
import path from 'node:path';
import { z } from '../vendor/zod.js';
import { checkSchemaVersion, InputError } from '../errors.js';
import type { Judge } from '../plugins/api.js';
import { unjudgeable, type meetsThresholds as MeetsThresholds } from '../runner/thresholds.js';
import type { EvaluationResult, Evidence, RunResults } from '../types.js';
import { writeJsonAtomic } from '../util/atomic.js';
import { zodToInputError } from '../util/zod-error.js';

const obj = z.looseObject({});
const list = z.array(z.unknown());
/** The parts of evidence.json a judge reads; anything else is passed through. */
const EvidenceShape = z.looseObject({
  schemaVersion: z.literal(1),
  task: obj,
  environment: obj.nullable(),
  deploy: obj.nullable(),
  static: obj.nullable(),
  interaction: obj.nullable(),
  consoleErrors: list,
  pageErrors: list,
  failedRequests: list,
  dialogs: list,
  navigations: list,
  stageErrors: list,
});

/**
 * Read and shape-check one evidence.json.
 * @returns the evidence
 * @throws InputError naming the file, the field (or `(file)`) and the fix: missing or unreadable file,
 *   invalid JSON, or a field of the wrong type; SchemaVersionError for a schemaVersion other than 1
 */
export function readEvidence(file: string): Evidence {
  const fix = 're-run `cookie test` to write the evidence anew';
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(file, '(file)', code === 'ENOENT' ? 'not found (the evidence was deleted or never written)' : `unreadable (${code ?? (e as Error).message})`, fix);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new InputError(file, '(file)', text.trim() ? `invalid JSON (${(e as Error).message})` : 'empty file', fix);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InputError(file, '(top level)', `expected an object, found ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}`, fix);
  checkSchemaVersion(value, file);
  const parsed = EvidenceShape.safeParse(value);
  if (!parsed.success) throw zodToInputError(file, parsed.error, Object.fromEntries(Object.keys(EvidenceShape.shape).map((k) => [k, fix])));
  return value as Evidence;
}

/** What {@link rejudgeRun} did. */
export interface RejudgeOutcome {
  /** Evaluations judged anew (their result in results.json replaced). */
  judged: string[];
  /** Evaluations that could not be re-judged (`evidence`: missing or malformed; `judge`: the judge threw): their previous result is kept. */
  failed: { id: string; kind: 'evidence' | 'judge'; message: string }[];
  /** Evaluations with nothing to judge (not scored in the run, and no evidence or no perception in it): left as they were. */
  skipped: string[];
  /** 0 when at least one evaluation was judged and none failed; 2 when some evidence was missing or malformed; 1 otherwise (a judge error, or nothing to judge). */
  exitCode: number;
}

/**
 * Re-run `judge` on the stored evidence of every evaluation of `run` (the output dir `outputDir` of a
 * previous run), update `run` in place and rewrite results.json when anything was judged. An evaluation
 * whose evidence is missing or malformed, or whose judging throws, keeps its previous result and is
 * reported (file, field and fix) and makes the exit code non-zero, as nothing judged does. An evaluation not
 * scored in the run whose evidence is absent or holds no perception (a build that failed) is skipped.
 * @param meetsThresholds the pass rule of `cookie test` (src/runner/thresholds.ts)
 * @param log where progress lines go (default console.log / console.error)
 */
export async function rejudgeRun(
  outputDir: string,
  run: RunResults,
  judge: Judge,
  meetsThresholds: typeof MeetsThresholds,
  log: { out: (line: string) => void; err: (line: string) => void } = { out: console.log, err: console.error },
): Promise<RejudgeOutcome> {
  const o: RejudgeOutcome = { judged: [], failed: [], skipped: [], exitCode: 0 };
  const fail = (r: EvaluationResult, kind: 'evidence' | 'judge', message: string) => {
    o.failed.push({ id: r.id, kind, message });
    log.err(`✗ ${r.id}: ${message} (previous result kept)`);
  };
  for (const r of run.evaluations) {
    const evDir = path.join(outputDir, r.evidenceDir);
    const file = path.join(evDir, 'evidence.json');
    if (r.status !== 'scored' && !fs.existsSync(file)) {
      o.skipped.push(r.id);
      log.out(`${r.id}  skipped: no evidence.json (status ${r.status})`);
      continue;
    }
    let ev: Evidence;
    try {
      ev = readEvidence(file);
    } catch (e) {
      fail(r, 'evidence', (e as Error).message.split('\n').join('; '));
      continue;
    }
    if (!ev.static) {
      if (r.status === 'scored') fail(r, 'evidence', `${file}: static: is null, but results.json has this evaluation scored. Fix: re-run \`cookie test\` to write the evidence anew`);
      else {
        o.skipped.push(r.id);
        log.out(`${r.id}  skipped: no perception in its evidence (status ${r.status})`);
      }
      continue;
    }
    // what `cookie test` does not judge, neither does `cookie judge` (the probe could not measure the page)
    const notJudged = unjudgeable(ev);
    if (notJudged) {
      if (r.status === 'scored') fail(r, 'evidence', `${file}: static.probeError: is set, but results.json has this evaluation scored. Fix: re-run \`cookie test\` to write the evidence anew`);
      else {
        o.skipped.push(r.id);
        log.out(`${r.id}  skipped: ${notJudged.message} (status ${r.status})`);
      }
      continue;
    }
    let j: Awaited<ReturnType<Judge['judge']>>;
    try {
      j = await judge.judge(ev, evDir);
    } catch (e) {
      fail(r, 'judge', `judge error: ${(e as Error).message.split('\n')[0]} (evidence ${file})`);
      continue;
    }
    writeJsonAtomic(path.join(evDir, 'judgement.json'), j);
    Object.assign(r, { defects: j.defects, rubric: j.rubric, reasons: j.reasons, judgeStages: j.stages, ablation: j.ablation });
    if (j.unscorable) Object.assign(r, { status: 'error', scores: null, static8: null, final8: null, passed: false, error: { stage: 'deploy', message: `environment: ${j.unscorable}` } });
    else Object.assign(r, { status: 'scored', error: undefined, scores: j.scores, static8: j.static8, final8: j.final8, passed: meetsThresholds({ status: 'scored', scores: j.scores, thresholds: r.thresholds, expectStatus: r.expectStatus }) });
    o.judged.push(r.id);
    log.out(`${r.id}  F ${j.scores.functionality}  A ${j.scores.aesthetics}  T ${j.scores.total}  (${j.defects.length} defects)`);
  }
  if (o.judged.length) writeJsonAtomic(path.join(outputDir, 'results.json'), run);
  if (!o.judged.length) log.err(`✗ nothing re-judged (${run.evaluations.length} evaluation${run.evaluations.length === 1 ? '' : 's'} in results.json${o.failed.length ? `, ${o.failed.length} failed` : ''}${o.skipped.length ? `, ${o.skipped.length} without perception` : ''}); results.json left unchanged`);
  else if (o.failed.length) log.err(`✗ ${o.failed.length} of ${run.evaluations.length} evaluations could not be re-judged (listed above); their previous results are kept`);
  o.exitCode = o.failed.some((f) => f.kind === 'evidence') ? 2 : o.judged.length && !o.failed.length ? 0 : 1;
  return o;
}
