import fs from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConsoleReporter } from '../../reporters/console.js';
import type { Leaderboard } from '../../reporters/leaderboard.js';
import { runCookie } from '../../src/runner/run.js';
import { ROOT, tmpDir, writeFiles } from '../helpers.js';

describe('cookie test --repeat-each', () => {
  it('runs each evaluation twice and every reporter shows the trials: console table, JUnit trial testcases, leaderboard from trial means', async () => {
    const dir = tmpDir('cookie-trials-');
    writeFiles(dir, {
      // what is under test is how the reporters show trials, not what a long exploration finds
      'cookie.config.mjs': 'export default { agent: { steps: 8 }, recording: { video: false, audio: false } };\n',
      'counter.cookie.yaml': `query:\n  id: counter-zh\n  prompt: 做一个计数器网页\n  language: zh\n  kind: dynamic\ncandidates:\n  - { name: good, mode: html, path: "${path.join(ROOT, 'examples', 'counter-zh', 'good-zh.html')}" }\n`,
    });
    const chunks: string[] = [];
    const stream = { isTTY: false, columns: 200, write: (s: string) => (chunks.push(stripVTControlCharacters(s)), true) } as unknown as NodeJS.WritableStream;
    const r = await runCookie({ paths: ['.'], cwd: dir, silent: true, concurrency: 1, repeatEach: 2, reporters: ['junit', 'leaderboard'], extraReporters: [new ConsoleReporter({ stream })] });
    const run = r.run!;
    expect(run.evaluations.map((e) => e.id).sort()).toEqual(['counter-zh/good@1', 'counter-zh/good@2']);
    expect(run.trials).toHaveLength(1);
    const t = run.trials![0]!;
    expect(t).toMatchObject({ id: 'counter-zh/good', n: 2, margin: 10 });
    const out = path.join(dir, 'cookie-results');
    // console: one summary row for the evaluation, with its spread and its stability
    const text = chunks.join('');
    expect(text).toContain('Total ± sd');
    expect(text).toMatch(new RegExp(`good\\s+counter-zh\\s+.*${t.total!.mean.toFixed(1)} ± ${t.total!.sd.toFixed(1)}\\s+${t.total!.min.toFixed(1)}–${t.total!.max.toFixed(1)}\\s+\\d/2\\s+${t.unstable ? '⚠ unstable' : 'stable'}`));
    // junit: a testcase per trial, with the trial and the spread as properties
    const xml = fs.readFileSync(path.join(out, 'junit.xml'), 'utf8');
    expect(xml).toContain('name="good [trial 1/2]"');
    expect(xml).toContain('name="good [trial 2/2]"');
    expect(xml.match(/<property name="trials.total" value="[^"]+"\/>/g)).toHaveLength(2);
    expect(xml.includes('<property name="unstable"')).toBe(t.unstable);
    // leaderboard: one query, two trials, the mean of the trials
    const lb = JSON.parse(fs.readFileSync(path.join(out, 'leaderboard.json'), 'utf8')) as Leaderboard;
    expect(lb.trials).toMatchObject({ perEvaluation: 2, margin: 10 });
    expect(lb.rows[0]).toMatchObject({ candidate: 'good', evaluations: 1, trials: 2, unstable: t.unstable ? 1 : 0, overall: { n: 1, ci95: null } });
    const totals = run.evaluations.map((e) => e.scores?.total ?? 0);
    expect(lb.rows[0]!.overall.total).toBe(Math.round(((totals[0]! + totals[1]!) / 2) * 10) / 10);
  });
});
