import { describe, expect, it } from 'vitest';
import { parseShard, selectShard, shardOf, shardWeights } from '../../src/runner/shard.js';
import { runConfigHash } from '../../src/runner/merge.js';
import type { EvaluationTask } from '../../src/types.js';

const task = (q: string, c: string, mode: 'html' | 'react' = 'html') => ({ query: { id: q }, candidate: { name: c, mode } }) as unknown as EvaluationTask;

describe('shards', () => {
  const tasks = Array.from({ length: 400 }, (_, i) => task(`webdev_${i % 100}`, `model-${Math.floor(i / 100)}`, i % 10 === 0 ? 'react' : 'html'));

  it('every evaluation is in exactly one shard, and the shards together are the whole run', () => {
    const parts = [1, 2, 3, 4].map((i) => selectShard(tasks, { current: i, total: 4 }));
    expect(parts.reduce((a, p) => a + p.length, 0)).toBe(tasks.length);
    expect(new Set(parts.flat()).size).toBe(tasks.length);
  });

  it("a shard's content does not change when other specs are added, removed or reordered", () => {
    type T = EvaluationTask;
    const id = (t: T) => `${t.query.id}/${t.candidate.name}`;
    const before = selectShard(tasks as T[], { current: 2, total: 4 }).map(id);
    const changed = [...(tasks as T[]).slice(50).reverse(), ...Array.from({ length: 80 }, (_, i) => task(`new_${i}`, 'model-9') as T)];
    const still = new Set(changed.map(id));
    const after = new Set(selectShard(changed, { current: 2, total: 4 }).map(id));
    const survivors = before.filter((x) => still.has(x));
    expect(survivors.length).toBeGreaterThan(50);
    for (const x of survivors) expect(after.has(x)).toBe(true);
    // and nothing that was in another shard moved into this one
    for (const x of after) if (!x.startsWith('new_')) expect(before.includes(x)).toBe(true);
  });

  it('spreads React builds and single pages evenly enough (weights within 30% of the mean on 400 evaluations)', () => {
    const w = shardWeights(tasks, 4);
    const mean = w.reduce((a, b) => a + b, 0) / 4;
    for (const x of w) expect(Math.abs(x - mean) / mean).toBeLessThan(0.3);
    const reactPerShard = [1, 2, 3, 4].map((i) => selectShard(tasks.filter((t: { candidate: { mode: string } }) => t.candidate.mode === 'react'), { current: i, total: 4 }).length);
    expect(Math.min(...reactPerShard)).toBeGreaterThan(0);
  });

  it('is a pure function of query id and candidate name', () => {
    expect(shardOf(task('webdev_7', 'gpt'), 8)).toBe(shardOf(task('webdev_7', 'gpt', 'react'), 8));
    expect(shardOf(task('webdev_7', 'gpt'), 1)).toBe(1);
  });

  it('parses i/n and rejects anything else with the fix', () => {
    expect(parseShard('3/4')).toEqual({ current: 3, total: 4 });
    for (const bad of ['0/4', '5/4', '1', 'a/b', '1/0']) expect(() => parseShard(bad)).toThrow(/--shard: shard: .*Fix: pass e.g. --shard 1\/4/);
  });

  it('config hash ignores where results go and how many run at once, not what is measured', () => {
    const base = { agent: { steps: 25 }, judge: { kind: 'offline' }, outputDir: 'a', concurrency: 2 };
    expect(runConfigHash({ ...base, outputDir: 'b', concurrency: 4 })).toBe(runConfigHash(base));
    expect(runConfigHash({ ...base, agent: { steps: 10 } })).not.toBe(runConfigHash(base));
    expect(runConfigHash({ ...base, judge: { kind: 'offline', model: { apiKey: 'x' } } })).toBe(runConfigHash({ ...base, judge: { kind: 'offline', model: { apiKey: 'y' } } }));
  });
});
