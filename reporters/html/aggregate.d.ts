import type { EvaluationResult } from '../../src/types.js';

/** Means of functionality, aesthetics and total (0–100; unscored evaluations count 0) over `n` evaluations. */
export interface Means {
  n: number;
  functionality: number | null;
  aesthetics: number | null;
  total: number | null;
}

/** One leaderboard row: a candidate in one generation mode. See README "Leaderboard JSON". */
export interface LeaderboardRow {
  candidate: string;
  mode: 'html' | 'react';
  evaluations: number;
  scored: number;
  /** Share of evaluations that deployed and were scored (0–1). */
  runnableRate: number;
  overall: Means;
  /** By page type (L1): `static` | `dynamic`. */
  byPageType: Record<string, Means>;
  /** By L2 category. */
  byCategory: Record<string, Means>;
  /** By query language (ISO 639-1). */
  byLanguage: Record<string, Means>;
  byDifficulty: Record<string, Means>;
  /** Pairwise win rate over queries shared with every other row (ties count half), 0–1. */
  winRate: number | null;
  /** Number of pairwise comparisons behind the win rate. */
  pairs: number;
  /** Tokens and cost of the agent and judge (USD). */
  usage: { inputTokens: number; outputTokens: number; costUsd: number };
  /** USD per point of mean total; null when the mean is 0. */
  costPerPoint: number | null;
}

/** Aggregate evaluations into leaderboard rows (best overall total first). */
export function aggregate(evaluations: EvaluationResult[]): LeaderboardRow[];
