import path from 'node:path';
import { announce } from './announce.js';
import { runTrials, trialMeans } from '../src/runner/trials.js';
import type { Reporter, RunResults, Spread } from '../src/types.js';
import { writeJsonAtomic } from '../src/util/atomic.js';
import { aggregate, type LeaderboardRow } from './html/aggregate.js';

/** One repeated evaluation whose trials were unstable, as leaderboard.json lists it. */
export interface UnstableEntry {
  /** `<query>/<candidate>` without the trial suffix. */
  id: string;
  queryId: string;
  candidate: string;
  /** Trials run and trials scored. */
  n: number;
  scored: number;
  /** Mean, standard deviation, min and max of the total over the scored trials (0–100); null when none was scored. */
  total: Spread | null;
}

/** The leaderboard.json document (schema in README "Leaderboard JSON"). */
export interface Leaderboard {
  schemaVersion: 1;
  generatedAt: string;
  cookieVersion: string;
  /** Results in the run (with `--repeat-each n`, every trial counts). */
  evaluations: number;
  /**
   * Repeated trials: null when nothing was repeated; else trials per evaluation, the margin (max − min of
   * the totals, points) above which an evaluation is unstable, and the unstable evaluations.
   */
  trials: { perEvaluation: number; margin: number; unstable: UnstableEntry[] } | null;
  rows: LeaderboardRow[];
}

/**
 * Build the leaderboard of a run. A repeated run (`--repeat-each n`) is first reduced to one trial mean
 * per query × candidate ({@link trialMeans}), so every mean, 95 % interval and pairwise win rate counts a
 * query once, never once per trial.
 */
export function buildLeaderboard(run: RunResults): Leaderboard {
  const summaries = runTrials(run, (run.config as { trials?: { unstableMargin?: number } } | null)?.trials?.unstableMargin);
  const trials = summaries.length
    ? {
        perEvaluation: Math.max(...summaries.map((s) => s.n)),
        margin: summaries[0]!.margin,
        unstable: summaries.filter((s) => s.unstable).map((s) => ({ id: s.id, queryId: s.queryId, candidate: s.candidate, n: s.n, scored: s.scored, total: s.total })),
      }
    : null;
  return { schemaVersion: 1, generatedAt: new Date().toISOString(), cookieVersion: run.cookieVersion, evaluations: run.evaluations.length, trials, rows: aggregate(trialMeans(run.evaluations, summaries)) };
}

/** Options of the leaderboard reporter. */
export interface LeaderboardReporterOptions {
  /** File, relative to the output dir (default leaderboard.json). */
  outputFile?: string;
}

/**
 * `--reporter leaderboard`: writes leaderboard.json — per candidate and mode, mean functionality,
 * aesthetics and total (0–100) with the 95 % interval of the mean total across queries, overall and per
 * page type (L1), L2 category, language and difficulty; runnable rate; pairwise win rate over shared
 * queries (ties half); with `--repeat-each`, all of it from trial means, plus trials per evaluation and the
 * unstable evaluations; tokens, cost and cost per point (paper §5.1, Table 2).
 */
export class LeaderboardReporter implements Reporter {
  constructor(private readonly opts: LeaderboardReporterOptions = {}) {}

  onRunEnd(run: RunResults, outputDir: string): void {
    const file = path.resolve(outputDir, this.opts.outputFile ?? 'leaderboard.json');
    writeJsonAtomic(file, buildLeaderboard(run));
    announce(run, 'Leaderboard', file);
  }
}
