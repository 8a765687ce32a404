import path from 'node:path';
import type { Reporter, RunResults } from '../src/types.js';
import { writeJsonAtomic } from '../src/util/atomic.js';
import { aggregate, type LeaderboardRow } from './html/aggregate.js';

/** The leaderboard.json document (schema in README "Leaderboard JSON"). */
export interface Leaderboard {
  schemaVersion: 1;
  generatedAt: string;
  cookieVersion: string;
  evaluations: number;
  rows: LeaderboardRow[];
}

/** Build the leaderboard of a run. */
export function buildLeaderboard(run: RunResults): Leaderboard {
  return { schemaVersion: 1, generatedAt: new Date().toISOString(), cookieVersion: run.cookieVersion, evaluations: run.evaluations.length, rows: aggregate(run.evaluations) };
}

/** Options of the leaderboard reporter. */
export interface LeaderboardReporterOptions {
  /** File, relative to the output dir (default leaderboard.json). */
  outputFile?: string;
}

/**
 * `--reporter leaderboard`: writes leaderboard.json — per candidate and mode, mean functionality,
 * aesthetics and total overall and per page type (L1), L2 category, language and difficulty; runnable rate;
 * pairwise win rate over shared queries (ties half); tokens, cost and cost per point (paper §5.1, Table 2).
 */
export class LeaderboardReporter implements Reporter {
  constructor(private readonly opts: LeaderboardReporterOptions = {}) {}

  onRunEnd(run: RunResults, outputDir: string): void {
    writeJsonAtomic(path.resolve(outputDir, this.opts.outputFile ?? 'leaderboard.json'), buildLeaderboard(run));
  }
}
