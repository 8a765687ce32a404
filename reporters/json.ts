import path from 'node:path';
import type { Reporter, RunResults } from '../src/types.js';
import { announce } from './announce.js';
import { writeJsonAtomic } from '../src/util/atomic.js';

/** Options of the json reporter. */
export interface JsonReporterOptions {
  /** File to write, relative to the output dir (default `report.json`); `-` prints to stdout. */
  outputFile?: string;
}

/**
 * Writes the whole run (the results.json contract: schemaVersion, versions, resolved config, evaluations)
 * to a file of the user's choosing, or to stdout with `outputFile: '-'`, when the run ends. With repeated
 * trials (`--repeat-each n`) that includes every trial (`trial: { index, of, baseId }`, `unstable`) and
 * `trials[]`: per candidate × query the mean, sd, min and max of each score (0–100), `unstable` and the
 * `margin` it was judged against.
 */
export class JsonReporter implements Reporter {
  constructor(private readonly opts: JsonReporterOptions = {}) {}

  onRunEnd(run: RunResults, outputDir: string): void {
    if (this.opts.outputFile === '-') {
      process.stdout.write(JSON.stringify(run, null, 2) + '\n');
      return;
    }
    const file = path.resolve(outputDir, this.opts.outputFile ?? 'report.json');
    writeJsonAtomic(file, run);
    announce(run, 'JSON report', file);
  }
}
