import path from 'node:path';
import { combineInputErrors, InputError } from '../errors.js';
import type { EvaluationTask, Query, Suite, Thresholds } from '../types.js';
import { candidateProblem } from './artifacts.js';

/**
 * Attach a TS spec's fixtures to a task without making them enumerable, so results and evidence JSON (and
 * object spreads) leave the functions out; a copy of a task must attach them again. No-op without fixtures.
 */
export function attachFixtures(task: EvaluationTask, fixtures: EvaluationTask['fixtures']): void {
  if (fixtures) Object.defineProperty(task, 'fixtures', { value: fixtures, enumerable: false });
}

/** File-system-safe slug of a name (`GPT-4.1 mini` → `GPT-4.1-mini`). */
export function slug(s: string): string {
  return s.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'x';
}

/**
 * Expand suites into evaluation tasks (query × candidate). `{data_id}` in a candidate path is replaced
 * by the query id; relative paths resolve against the spec's folder. Thresholds: config < spec < candidate.
 * A candidate whose artifact cannot be evaluated ({@link candidateProblem}) gets `inputProblem` (spec file,
 * `candidates.N.path` or `.mode`, fix): a problem of that evaluation alone, never of the run.
 * The same query id may appear in several specs (e.g. candidates split across spec files) only with the
 * same brief (prompt, language, kind), and each (query id, candidate name) only once.
 * @throws InputError naming both places when a query id has two briefs, a (query, candidate) pair is given
 * twice, or two ids or names become the same task id once made file-system safe ({@link slug})
 */
export function expandTasks(suites: Suite[], base: Thresholds): EvaluationTask[] {
  const tasks: EvaluationTask[] = [];
  const errors: InputError[] = [];
  // task id → where it came from; query id → its first brief
  const ids = new Map<string, { place: string; queryId: string; name: string }>();
  const briefs = new Map<string, { place: string; query: Query }>();
  suites.forEach((suite, si) => {
    const dir = path.dirname(suite.file);
    // a TS spec exporting an array gives several suites of one file: name the entry
    const several = suites.filter((s) => s.file === suite.file).length > 1;
    const spec = several ? `${suite.file} (spec ${suites.slice(0, si).filter((s) => s.file === suite.file).length})` : suite.file;
    for (const query of suite.queries) {
      const qPlace = suite.queriesFile ? `${suite.queriesFile} (via ${spec})` : spec;
      const before = briefs.get(query.id);
      if (!before) briefs.set(query.id, { place: qPlace, query });
      else if (before.query.prompt !== query.prompt || before.query.language !== query.language || before.query.kind !== query.kind) {
        const diff = (['prompt', 'language', 'kind'] as const).filter((k) => before.query[k] !== query[k]);
        const what = `${diff.join(', ')} ${diff.length > 1 ? 'differ' : 'differs'}`;
        errors.push(new InputError(qPlace, suite.queriesFile ? `data_id ${query.id}` : 'query.id', `"${query.id}" is also the id of a different query (${what}) in ${before.place}`, 'give every query its own id; the same id in two specs must have the same prompt, language and kind'));
        continue;
      }
      suite.candidates.forEach((c, ci) => {
        // a generated candidate's path is set when it is generated (src/generate/spec.ts)
        const written = c.path?.replaceAll('{data_id}', query.id);
        const artifactPath = written ? path.resolve(dir, written) : '';
        const problem = written ? candidateProblem(written, artifactPath, c.mode) : null;
        const id = `${slug(query.id)}/${slug(c.name)}`;
        const other = ids.get(id);
        if (other) {
          if (other.queryId === query.id && other.name === c.name) errors.push(new InputError(spec, `candidates.${ci}.name`, `candidate "${c.name}" of query "${query.id}" is also given in ${other.place}`, 'evaluate each candidate of a query once: rename one candidate or remove the duplicate'));
          else errors.push(new InputError(spec, `candidates.${ci}.name`, `query "${query.id}" × candidate "${c.name}" has the same task id "${id}" as query "${other.queryId}" × candidate "${other.name}" in ${other.place} (ids and names are made file-system safe: characters other than letters, digits, . _ - become -)`, 'rename one so they differ in letters or digits'));
          return;
        }
        ids.set(id, { place: spec, queryId: query.id, name: c.name });
        tasks.push({
          id,
          suiteFile: suite.file,
          query,
          candidate: { name: c.name, mode: c.mode, artifactPath, ...(c.generate ? { generate: c.generate } : {}) },
          thresholds: { ...base, ...suite.thresholds, ...c.thresholds },
          ...(c.expectStatus ? { expectStatus: c.expectStatus } : {}),
          ...(problem ? { inputProblem: new InputError(spec, `candidates.${ci}.${problem.field}`, problem.problem, problem.fix).message } : {}),
        });
        // fixtures are functions: attached without being enumerable, so results and evidence JSON leave them out
        attachFixtures(tasks[tasks.length - 1]!, suite.fixtures);
      });
    }
  });
  if (errors.length) throw combineInputErrors(errors, 8);
  return tasks;
}
