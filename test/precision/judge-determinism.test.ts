import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EvaluationResult, RunResults } from '../../src/types.js';
import { readResults, ROOT, runCli, tmpDir } from '../helpers.js';

/**
 * Determinism (issue 11 point 6): the same page evaluated 3 times gives the same offline scores. Ten clean
 * pages of the precision suite, each entered as three candidates of one query, run in ONE `cookie test`
 * (concurrency 2, 8 steps, video and audio off, no cache). When scores differ the failure names the rubric
 * items whose verdicts differ between the runs.
 */
const DIR = path.join(ROOT, 'test', 'precision');
const PAGES = ['games/snake-keys', 'games/dvd-logo', 'games/sketchpad', 'pages/budget-chart', 'pages/flip-card', 'pages/pricing-landing', 'tools/todo-good', 'tools/calculator-card', 'lang/counter-zh-good', 'lang/pomodoro-fr'];
let run: RunResults;

beforeAll(async () => {
  const dir = tmpDir('cookie-determinism-');
  for (const p of PAGES) {
    const c = JSON.parse(fs.readFileSync(path.join(DIR, `${p}.case.json`), 'utf8')) as { query: { prompt: string; language: string; kind: string } };
    const id = p.replace('/', '-');
    const spec = { query: { id, ...c.query }, thresholds: { total: 0 }, candidates: [1, 2, 3].map((n) => ({ name: `run${n}`, mode: 'html', path: path.join(DIR, `${p}.html`) })) };
    fs.writeFileSync(path.join(dir, `${id}.cookie.yaml`), JSON.stringify(spec, null, 2));
  }
  fs.writeFileSync(path.join(dir, 'cookie.config.ts'), `import { defineConfig } from ${JSON.stringify(path.join(ROOT, 'src', 'index.ts'))};\nexport default defineConfig({ concurrency: 2, agent: { kind: 'offline', steps: 8, seed: 1 }, recording: { video: false, audio: false }, timeouts: { perceive: 180_000 }, reporters: ['console'] });\n`);
  await runCli(['test', dir, '--config', path.join(dir, 'cookie.config.ts'), '--output-dir', path.join(dir, 'out'), '--no-cache'], { cwd: dir, timeoutMs: 1_700_000 });
  run = readResults(path.join(dir, 'out'));
}, 1_800_000);

describe('the same page evaluated 3 times', () => {
  it('gets the same offline scores (10 pages × 3 runs); a difference names the rubric items that varied', () => {
    const varied: string[] = [];
    for (const p of PAGES) {
      const runs = run.evaluations.filter((e) => e.queryId === p.replace('/', '-')) as EvaluationResult[];
      expect(runs).toHaveLength(3);
      const totals = runs.map((r) => r.scores?.total);
      if (new Set(totals).size > 1) {
        const items = runs[0]!.rubric.filter((v) => runs.some((r) => r.rubric.find((x) => x.id === v.id)?.verdict !== v.verdict)).map((v) => `${v.id} ${v.name}: ${runs.map((r) => r.rubric.find((x) => x.id === v.id)?.verdict).join('/')}`);
        varied.push(`${p}: totals ${totals.join(' / ')}; varied: ${items.join('; ') || runs.map((r) => r.defects.map((d) => d.code).join(',')).join(' | ')}`);
      }
    }
    expect(varied).toEqual([]);
  });
});
