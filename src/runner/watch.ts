import path from 'node:path';
import chokidar from 'chokidar';
import pc from 'picocolors';
import { runCookie, type RunOptions } from './run.js';
import { formatScoreChanges, scoreChanges } from '../generate/compare.js';
import type { EvaluationResult } from '../types.js';

/** Quiet time after the last change before re-running, ms. */
export const DEBOUNCE_MS = 300;

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
  const watcher = chokidar.watch([], {
    ignoreInitial: true,
    ignored: (p: string) => /(^|[/\\])(node_modules|\.git|dist|\.vite)([/\\]|$)/.test(p) || p.startsWith(outputDir),
    awaitWriteFinish: { stabilityThreshold: 150, pollInterval: 50 },
  });
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
      if (fresh.length) watcher.add(fresh);
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
    if (file.startsWith(outputDir)) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      process.stdout.write(pc.cyan(`\n${event}: ${path.relative(o.cwd, file)} — re-running\n`));
      void runOnce();
    }, DEBOUNCE_MS);
  };
  watcher.on('all', (event, file) => schedule(event, file));
  await runOnce();
  const stop = async () => {
    if (timer) clearTimeout(timer);
    await watcher.close();
  };
  process.once('SIGINT', () => void stop().then(() => process.exit(0)));
  return stop;
}
