import path from 'node:path';
import chokidar, { type FSWatcher } from 'chokidar';
import pc from 'picocolors';
import { runCookie, type RunOptions } from './run.js';
import { formatScoreChanges, scoreChanges } from '../generate/compare.js';
import type { EvaluationResult } from '../types.js';
import { isSpecFile } from '../spec/load.js';

/** Quiet time after the last change before re-running, ms. */
export const DEBOUNCE_MS = 300;

/** True when `file` is `dir` or below it. */
function within(file: string, dir: string): boolean {
  const rel = path.relative(dir, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Whether a changed path is an input of the run, so watch mode re-runs for it: one of the inputs the run
 * read (config, spec, query or prompt file, candidate file), a file inside a candidate folder, or a spec
 * file appearing, changing or going in a searched folder. Anything else in a searched folder — a log the
 * shell redirects Cookie's output into, an editor's backup, the output folder — is not: re-running for it
 * would loop forever when the run itself writes it.
 * @param file the changed path (absolute)
 * @param inputs what the last runs read (absolute)
 * @param searched the folders searched for spec files (absolute): watched for spec files only
 * @param outputDir the run's output folder: never an input
 */
export function isWatchedInput(file: string, inputs: ReadonlySet<string>, searched: ReadonlySet<string>, outputDir: string): boolean {
  if (within(file, outputDir)) return false;
  if (inputs.has(file)) return true;
  for (const p of inputs) if (!searched.has(p) && within(file, p)) return true;
  return isSpecFile(file);
}

/**
 * `cookie test --watch`: run once, then watch every input of the run — config, spec files, the folders
 * searched, query files and each candidate's files (candidates are data read from disk, not imports, so
 * a module-graph watcher would miss them) — and re-run after changes settle (debounced). The result cache
 * makes a re-run evaluate only the candidates whose files changed and reuse the rest; the summary is
 * printed again. A candidate deleted or half-written is just a result (error at stage load, or whatever
 * the half-written page does); a spec edited into an invalid state is reported and the watcher waits for
 * the next save.
 * @param onRun called after each run (tests)
 * @returns a function that stops watching
 */
export async function watchCookie(o: RunOptions, onRun?: (n: number) => void): Promise<() => Promise<void>> {
  let runs = 0;
  let previous: EvaluationResult[] | null = null;
  let running = false;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let outputDir = path.resolve(o.cwd, o.outputDir ?? 'cookie-results');
  // the folders searched for specs (the paths given, or the working directory): only their spec files count
  const searched = new Set((o.paths.length ? o.paths : ['.']).map((p) => path.resolve(o.cwd, p)));
  // one watcher per batch of new inputs, so its 'ready' says when that batch is armed: "watching" is printed
  // only then (on a busy machine a save made right after the line would otherwise be missed)
  const watchers: FSWatcher[] = [];
  const arm = async (paths: string[]): Promise<void> => {
    const w = chokidar.watch(paths, {
      ignoreInitial: true,
      ignored: (p: string) => /(^|[/\\])(node_modules|\.git|dist|\.vite)([/\\]|$)/.test(p) || within(p, outputDir),
      awaitWriteFinish: { stabilityThreshold: 150, pollInterval: 50 },
    });
    watchers.push(w);
    w.on('all', (event, file) => schedule(event, file));
    await new Promise<void>((resolve) => {
      w.once('ready', resolve);
      w.once('error', () => resolve());
    });
  };
  const watched = new Set<string>();
  const runOnce = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      const outcome = await runCookie({ ...o, cache: o.cache !== false });
      if (outcome.outputDir) outputDir = outcome.outputDir;
      // per candidate and query: what the re-run changed against the previous run
      if (outcome.run && previous) for (const line of formatScoreChanges(scoreChanges(previous, outcome.run.evaluations))) process.stdout.write(`${pc.cyan(line)}\n`);
      if (outcome.run) previous = outcome.run.evaluations;
      // the console reporter has listed them already when it ran
      if (!outcome.reported) for (const e of outcome.specErrors.flatMap((m) => m.split('\n'))) process.stdout.write(`${pc.red('✗')} ${e}\n`);
      const fresh = outcome.inputs.filter((p) => !watched.has(p));
      for (const p of fresh) watched.add(p);
      if (fresh.length) await arm(fresh);
    } catch (e) {
      process.stdout.write(`${pc.red('✗')} ${(e as Error).message}\n`);
    } finally {
      running = false;
      runs++;
      onRun?.(runs);
      process.stdout.write(pc.dim(`\nwatching ${watched.size} input(s) for changes… (Ctrl-C to stop)\n`));
    }
    if (again) {
      again = false;
      await runOnce();
    }
  };
  const schedule = (event: string, file: string) => {
    if (!isWatchedInput(path.resolve(file), watched, searched, outputDir)) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      process.stdout.write(pc.cyan(`\n${event}: ${path.relative(o.cwd, file)} — re-running\n`));
      void runOnce();
    }, DEBOUNCE_MS);
  };
  await runOnce();
  const stop = async () => {
    if (timer) clearTimeout(timer);
    await Promise.all(watchers.map((w) => w.close()));
  };
  process.once('SIGINT', () => void stop().then(() => process.exit(0)));
  return stop;
}
