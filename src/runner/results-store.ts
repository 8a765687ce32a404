import { checkSchemaVersion } from '../errors.js';
import fs from 'node:fs';
import path from 'node:path';
import type { EvaluationResult, RunResults } from '../types.js';
import { writeJsonAtomic } from '../util/atomic.js';

/** File name of the results file inside the output dir. */
export const RESULTS_FILE = 'results.json';

/**
 * The run's results file, `<outputDir>/results.json`, rewritten atomically after every evaluation so an
 * interrupted run keeps every finished evaluation. Evaluations are kept in task order; a re-run of the
 * same task id replaces its earlier entry.
 */
export class ResultsStore {
  readonly file: string;
  readonly run: RunResults;

  constructor(outputDir: string, header: Omit<RunResults, 'evaluations' | 'finishedAt'>, previous: EvaluationResult[] = []) {
    this.file = path.join(outputDir, RESULTS_FILE);
    this.run = { ...header, finishedAt: null, evaluations: [...previous] };
  }

  /** Add or replace one evaluation and write the file. */
  add(result: EvaluationResult): void {
    const i = this.run.evaluations.findIndex((e) => e.id === result.id);
    if (i >= 0) this.run.evaluations[i] = result;
    else this.run.evaluations.push(result);
    this.write();
  }

  /** Mark the run finished, order evaluations as the tasks were ordered, and write the file. */
  finish(order: string[]): RunResults {
    const rank = new Map(order.map((id, i) => [id, i]));
    this.run.evaluations.sort((a, b) => (rank.get(a.id) ?? 1e9) - (rank.get(b.id) ?? 1e9));
    this.run.finishedAt = new Date().toISOString();
    this.write();
    return this.run;
  }

  write(): void {
    writeJsonAtomic(this.file, this.run);
  }

  /**
   * Read a results file, or null when there is none or it is unreadable. Its `schemaVersion` is checked:
   * a file of another schema is null, or with `strict` a thrown error.
   * @throws SchemaVersionError (strict only) when the file's schemaVersion is not 1
   */
  static read(outputDir: string, opts: { strict?: boolean } = {}): RunResults | null {
    const file = path.join(outputDir, RESULTS_FILE);
    if (!fs.existsSync(file)) return null;
    let run: RunResults;
    try {
      run = JSON.parse(fs.readFileSync(file, 'utf8')) as RunResults;
    } catch {
      return null;
    }
    try {
      return checkSchemaVersion(run, file);
    } catch (e) {
      if (opts.strict) throw e;
      return null;
    }
  }
}
