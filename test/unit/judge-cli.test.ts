import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEvidence, rejudgeRun } from '../../src/cli/judge.js';
import type { Judge } from '../../src/plugins/api.js';
import { meetsThresholds } from '../../src/runner/thresholds.js';
import type { RunResults } from '../../src/types.js';
import { tmpDir, writeFiles } from '../helpers.js';

const evidence = (over: Record<string, unknown> = {}) =>
  JSON.stringify({ schemaVersion: 1, task: { id: 'q/a' }, environment: {}, deploy: {}, static: { controls: [] }, interaction: null, consoleErrors: [], pageErrors: [], failedRequests: [], dialogs: [], navigations: [], stageErrors: [], ...over });
const result = (id: string) => ({ id, queryId: 'q', candidate: id.split('/')[1], status: 'scored', scores: { functionality: 70, aesthetics: 70, total: 70 }, static8: null, final8: null, defects: [], rubric: [], reasons: [], thresholds: {}, passed: true, evidenceDir: `evidence/${id.replace('/', '__')}` });
const scores = { functionality: 40, aesthetics: 50, total: 45 };
const fakeJudge: Judge = { name: 'fake', judge: (ev: { static: unknown }) => { if ((ev.static as { boom?: boolean }).boom) throw new Error('boom'); return { judge: 'fake', static8: {} as never, final8: {} as never, scores, defects: [], rubric: [], reasons: [] }; } } as unknown as Judge;
const quiet = { out: () => {}, err: () => {} };

/** An output dir with two scored evaluations and the given evidence.json texts (undefined: none). */
function outputDir(a: string | undefined, b: string | undefined) {
  const dir = tmpDir();
  const run = { schemaVersion: 1, evaluations: [result('q/a'), result('q/b')] };
  writeFiles(dir, { 'results.json': JSON.stringify(run), ...(a !== undefined ? { 'evidence/q__a/evidence.json': a } : {}), ...(b !== undefined ? { 'evidence/q__b/evidence.json': b } : {}) });
  const read = () => JSON.parse(fs.readFileSync(path.join(dir, 'results.json'), 'utf8')) as RunResults;
  return { dir, run: read(), read };
}

describe('cookie judge: stored evidence is checked, failures keep the previous result', () => {
  it('names the file and field of malformed evidence', () => {
    const { dir } = outputDir(evidence({ static: 'garbage' }), '{,', );
    expect(() => readEvidence(path.join(dir, 'evidence/q__a/evidence.json'))).toThrow(/q__a\/evidence\.json: static: .*expected object.*Fix: re-run `cookie test`/);
    expect(() => readEvidence(path.join(dir, 'evidence/q__b/evidence.json'))).toThrow(/q__b\/evidence\.json: \(file\): invalid JSON/);
    expect(() => readEvidence(path.join(dir, 'evidence/q__c/evidence.json'))).toThrow(/q__c\/evidence\.json: \(file\): not found/);
    const nulls = outputDir(JSON.stringify({ schemaVersion: 1, task: null, environment: null, static: null }), undefined);
    expect(() => readEvidence(path.join(nulls.dir, 'evidence/q__a/evidence.json'))).toThrow(/evidence\.json: task: /);
    const v7 = outputDir(evidence({ schemaVersion: 7 }), undefined);
    expect(() => readEvidence(path.join(v7.dir, 'evidence/q__a/evidence.json'))).toThrow(/evidence\.json: schemaVersion: is 7, this Cookie reads 1\. Fix:/);
  });

  it('exit 2 and results.json unchanged when nothing could be re-judged (evidence deleted)', async () => {
    const d = outputDir(undefined, undefined);
    const before = fs.readFileSync(path.join(d.dir, 'results.json'), 'utf8');
    const errs: string[] = [];
    const o = await rejudgeRun(d.dir, d.run, fakeJudge, meetsThresholds, { out: () => {}, err: (l) => errs.push(l) });
    expect(o.exitCode).toBe(2);
    expect(o.failed.map((f) => f.id)).toEqual(['q/a', 'q/b']);
    expect(errs.join('\n')).toMatch(/q\/a: .*q__a\/evidence\.json: \(file\): not found.*previous result kept/);
    expect(errs.join('\n')).toMatch(/nothing re-judged/);
    expect(fs.readFileSync(path.join(d.dir, 'results.json'), 'utf8')).toBe(before);
  });

  it('a judge error or bad evidence keeps the previous score; the others are re-judged; exit 1', async () => {
    const d = outputDir(evidence({ static: { boom: true } }), evidence());
    const o = await rejudgeRun(d.dir, d.run, fakeJudge, meetsThresholds, quiet);
    expect(o.exitCode).toBe(1);
    expect(o.judged).toEqual(['q/b']);
    const after = d.read().evaluations;
    expect(after[0]).toMatchObject({ status: 'scored', scores: { total: 70 } });
    expect(after[1]).toMatchObject({ status: 'scored', scores: { total: 45 } });
    const g = outputDir(evidence({ static: 'garbage' }), evidence({ static: 'garbage' }));
    expect((await rejudgeRun(g.dir, g.run, fakeJudge, meetsThresholds, quiet)).exitCode).toBe(2);
    expect(g.read().evaluations.map((e) => e.status)).toEqual(['scored', 'scored']);
  });

  it('an evaluation not scored in the run without evidence is skipped, not a failure', async () => {
    const d = outputDir(evidence(), undefined);
    d.run.evaluations[1]!.status = 'build-failed';
    const o = await rejudgeRun(d.dir, d.run, fakeJudge, meetsThresholds, quiet);
    expect(o).toMatchObject({ exitCode: 0, judged: ['q/a'], skipped: ['q/b'], failed: [] });
  });

  it('a page the probe could not measure stays an error at perceive, as `cookie test` left it; the judge never sees it', async () => {
    const d = outputDir(evidence({ static: { controls: [], probeError: 'Array.prototype.filter threw' } }), evidence());
    Object.assign(d.run.evaluations[0]!, { status: 'error', scores: null, passed: false, error: { stage: 'perceive', message: "Cookie's in-page probe could not measure this page" } });
    const seen: unknown[] = [];
    const spy = { ...fakeJudge, judge: (ev: never, dir: string) => (seen.push(ev), fakeJudge.judge(ev, dir)) } as Judge;
    const lines: string[] = [];
    const o = await rejudgeRun(d.dir, d.run, spy, meetsThresholds, { out: (l) => lines.push(l), err: () => {} });
    expect(o).toMatchObject({ exitCode: 0, judged: ['q/b'], skipped: ['q/a'], failed: [] });
    expect(seen).toHaveLength(1);
    expect(lines.join('\n')).toMatch(/q\/a  skipped: Cookie's in-page probe could not measure this page .*Array\.prototype\.filter threw/);
    expect(d.read().evaluations[0]).toMatchObject({ status: 'error', error: { stage: 'perceive' } });
  });

  it('exit 0 when every evaluation was re-judged', async () => {
    const d = outputDir(evidence(), evidence());
    const o = await rejudgeRun(d.dir, d.run, fakeJudge, meetsThresholds, quiet);
    expect(o).toMatchObject({ exitCode: 0, judged: ['q/a', 'q/b'], failed: [] });
    expect(d.read().evaluations.map((e) => e.scores?.total)).toEqual([45, 45]);
  });
});
