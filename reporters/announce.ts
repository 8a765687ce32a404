import path from 'node:path';
import type { RunResults } from '../src/types.js';

/**
 * Whether one of the run's reporters prints the whole run to stdout (`['json', { outputFile: '-' }]`), read
 * from the resolved config the run carries (`run.config.reporters`).
 */
export function stdoutCarriesRun(run: Pick<RunResults, 'config'>): boolean {
  const reporters = (run.config as { reporters?: unknown } | null)?.reporters;
  if (!Array.isArray(reporters)) return false;
  return reporters.some((r) => Array.isArray(r) && r[0] === 'json' && (r[1] as { outputFile?: unknown } | undefined)?.outputFile === '-');
}

/**
 * Tell the user where a reporter wrote its file, as `<label>: <path>` (the path relative to the working
 * directory when it lies below it), like Vitest's "JUNIT report written to" line: on stdout, or on stderr when
 * stdout carries the run as JSON ({@link stdoutCarriesRun}), so a pipe still reads one JSON document.
 * @param label e.g. `JUnit report`
 * @param file the file or folder written (absolute or relative to the working directory)
 * @param hint appended after two spaces (e.g. the command that opens the report)
 */
export function announce(run: Pick<RunResults, 'config'>, label: string, file: string, hint?: string): void {
  const rel = path.relative(process.cwd(), path.resolve(file));
  const shown = rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : path.resolve(file);
  (stdoutCarriesRun(run) ? process.stderr : process.stdout).write(`${label}: ${shown}${hint ? `  ${hint}` : ''}\n`);
}
