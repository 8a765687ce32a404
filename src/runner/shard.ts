import crypto from 'node:crypto';
import { InputError } from '../errors.js';
import type { EvaluationTask } from '../types.js';

/** One shard of a run, 1-based: `{ current: 2, total: 4 }` is `--shard 2/4`. */
export interface ShardSpec {
  current: number;
  total: number;
}

/**
 * Parse `--shard i/n` (Playwright's and Vitest's spelling: 1 ≤ i ≤ n).
 * @throws InputError naming the flag and the fix when the value is not `i/n`
 */
export function parseShard(value: string, source = '--shard'): ShardSpec {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value);
  const current = m ? Number(m[1]) : NaN;
  const total = m ? Number(m[2]) : NaN;
  if (!m || total < 1 || current < 1 || current > total) throw new InputError(source, 'shard', `"${value}" is not a shard i/n with 1 ≤ i ≤ n`, 'pass e.g. --shard 1/4');
  return { current, total };
}

/**
 * The shard (1-based) an evaluation belongs to, from a hash of its query id and candidate name only, so a
 * shard's content never changes when other specs or candidates are added, removed or reordered
 * (Vitest and Playwright shard by position, which moves work between shards when the suite changes).
 * The hash is uniform, so every candidate kind — React builds weigh several single-file pages — spreads
 * evenly over the shards in expectation; {@link shardWeights} reports the balance actually reached.
 * @param task the evaluation (its query id and candidate name are the key)
 * @param total number of shards (≥ 1)
 */
export function shardOf(task: Pick<EvaluationTask, 'query' | 'candidate'>, total: number): number {
  const h = crypto.createHash('sha1').update(`${task.query.id}\0${task.candidate.name}`).digest();
  return (h.readUInt32BE(0) % total) + 1;
}

/** Relative cost of evaluating a candidate of this kind (a React project installs and builds first). */
export function taskWeight(task: Pick<EvaluationTask, 'candidate'>): number {
  return task.candidate.mode === 'react' ? 4 : 1;
}

/** The evaluations of one shard, in their original order. */
export function selectShard<T extends Pick<EvaluationTask, 'query' | 'candidate'>>(tasks: T[], shard: ShardSpec): T[] {
  return tasks.filter((t) => shardOf(t, shard.total) === shard.current);
}

/** Weight (see {@link taskWeight}) of every shard, index 0 = shard 1: how balanced the split is. */
export function shardWeights(tasks: Pick<EvaluationTask, 'query' | 'candidate'>[], total: number): number[] {
  const w = new Array<number>(total).fill(0);
  for (const t of tasks) w[shardOf(t, total) - 1]! += taskWeight(t);
  return w;
}
