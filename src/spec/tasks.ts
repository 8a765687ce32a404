import path from 'node:path';
import { InputError } from '../errors.js';
import type { EvaluationTask, Suite, Thresholds } from '../types.js';
import { candidateProblem } from './artifacts.js';

/** File-system-safe slug of a name (`GPT-4.1 mini` → `GPT-4.1-mini`). */
export function slug(s: string): string {
  return s.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'x';
}

/**
 * Expand suites into evaluation tasks (query × candidate). `{data_id}` in a candidate path is replaced
 * by the query id; relative paths resolve against the spec's folder. Thresholds: config < spec < candidate.
 * Task ids are unique across the run (a suffix is added on collision). A candidate whose artifact cannot be
 * evaluated ({@link candidateProblem}) gets `inputProblem` (spec file, `candidates.N.path` or `.mode`, fix):
 * a problem of that evaluation alone, never of the run.
 */
export function expandTasks(suites: Suite[], base: Thresholds): EvaluationTask[] {
  const tasks: EvaluationTask[] = [];
  const ids = new Set<string>();
  for (const suite of suites) {
    const dir = path.dirname(suite.file);
    for (const query of suite.queries) {
      suite.candidates.forEach((c, i) => {
        // a generated candidate's path is set when it is generated (src/generate/spec.ts)
        const written = c.path?.replaceAll('{data_id}', query.id);
        const artifactPath = written ? path.resolve(dir, written) : '';
        const problem = written ? candidateProblem(written, artifactPath, c.mode) : null;
        let id = `${slug(query.id)}/${slug(c.name)}`;
        for (let n = 2; ids.has(id); n++) id = `${slug(query.id)}/${slug(c.name)}-${n}`;
        ids.add(id);
        tasks.push({
          id,
          suiteFile: suite.file,
          query,
          candidate: { name: c.name, mode: c.mode, artifactPath, ...(c.generate ? { generate: c.generate } : {}) },
          thresholds: { ...base, ...suite.thresholds, ...c.thresholds },
          ...(c.expectStatus ? { expectStatus: c.expectStatus } : {}),
          ...(problem ? { inputProblem: new InputError(suite.file, `candidates.${i}.${problem.field}`, problem.problem, problem.fix).message } : {}),
        });
        // fixtures are functions: attached without being enumerable, so results and evidence JSON leave them out
        if (suite.fixtures) Object.defineProperty(tasks[tasks.length - 1]!, 'fixtures', { value: suite.fixtures, enumerable: false });
      });
    }
  }
  return tasks;
}
