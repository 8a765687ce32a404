import fs from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { ConsoleReporter } from '../../reporters/console.js';
import { GithubReporter } from '../../reporters/github.js';
import { aggregate, ci95, t975 } from '../../reporters/html/aggregate.js';
import { writeHtmlReport } from '../../reporters/html/index.js';
import { JsonReporter } from '../../reporters/json.js';
import { JunitReporter } from '../../reporters/junit.js';
import { buildLeaderboard } from '../../reporters/leaderboard.js';
import type { EvaluationTask, RunResults } from '../../src/types.js';
import { trialResult, trialRun } from '../fixtures/trials.js';
import { tmpDir } from '../helpers.js';

const XSD = path.resolve(import.meta.dirname, '../fixtures/junit.xsd');

/** A sink stream for the console and github reporters (colours stripped). */
function sink() {
  const chunks: string[] = [];
  return { chunks, stream: { isTTY: false, columns: 200, write: (s: string) => (chunks.push(stripVTControlCharacters(s)), true) } as unknown as NodeJS.WritableStream & { isTTY: boolean } };
}

const row = (run: RunResults, candidate: string) => buildLeaderboard(run).rows.find((r) => r.candidate === candidate)!;

describe('leaderboard from trial means (--repeat-each)', () => {
  it('win rates compare trial means: model-b wins todo (75 vs 70) although model-a has the highest single trial (80)', () => {
    const run = trialRun();
    const a = row(run, 'model-a');
    const b = row(run, 'model-b');
    // by hand (test/fixtures/trials.ts): a wins landing only, b wins todo and notes; 3 shared queries each
    expect([a.winRate, a.pairs]).toEqual([0.333, 3]);
    expect([b.winRate, b.pairs]).toEqual([0.667, 3]);
    // counting each trial as a query gives another answer (the check can fail)
    expect(aggregate(run.evaluations).find((r) => r.candidate === 'model-a')!.winRate).toBe(0.5);
  });

  it('means and their 95 % interval are taken across queries, one trial mean per query', () => {
    const lb = buildLeaderboard(trialRun());
    const a = lb.rows.find((r) => r.candidate === 'model-a')!;
    const b = lb.rows.find((r) => r.candidate === 'model-b')!;
    expect(lb.rows.map((r) => r.candidate)).toEqual(['model-a', 'model-b']);
    // model-a: query means 70, 89, 67 → 75.3; sd 11.93 over 3 queries, t(2) = 4.303 → ± 4.303 × 11.93 / √3 = 29.6
    expect(a.overall).toEqual({ n: 3, functionality: 80.3, aesthetics: 70.3, total: 75.3, ci95: 29.6 });
    // model-b: 75, 52, 71 → 66.0; sd 12.29 → ± 4.303 × 12.29 / √3 = 30.5
    expect(b.overall).toEqual({ n: 3, functionality: 71, aesthetics: 61, total: 66, ci95: 30.5 });
    // productivity = todo 70 and notes 67: 68.5; sd 2.12 over 2 queries, t(1) = 12.706 → ± 12.706 × 2.12 / √2 = 19.1
    expect(a.byCategory.productivity).toEqual({ n: 2, functionality: 73.5, aesthetics: 63.5, total: 68.5, ci95: 19.1 });
    expect(a.byLanguage.zh).toEqual({ n: 1, functionality: 72, aesthetics: 62, total: 67, ci95: null });
    expect(a).toMatchObject({ evaluations: 3, scored: 3, runnableRate: 1, trials: 2, unstable: 1 });
    expect(b).toMatchObject({ trials: 2, unstable: 0 });
    expect(lb.evaluations).toBe(12);
    expect(lb.trials).toEqual({ perEvaluation: 2, margin: 10, unstable: [{ id: 'todo/model-a', queryId: 'todo', candidate: 'model-a', n: 2, scored: 2, total: { mean: 70, sd: 14.1, min: 60, max: 80 } }] });
  });

  it('an unscored trial counts 0 in its query mean and half in the runnable rate; agent and judge cost add up over the trials', () => {
    const usage = { requests: 1, inputTokens: 100, outputTokens: 10, costUsd: 0.01 };
    const run = trialRun();
    run.evaluations.push(trialResult('todo', 'model-c', 1, 2, 90, { usage }), trialResult('todo', 'model-c', 2, 2, null, { usage }));
    delete run.trials; // computed from the results
    const c = row(run, 'model-c');
    expect(c.overall).toMatchObject({ n: 1, total: 45 });
    expect(c).toMatchObject({ evaluations: 1, scored: 1, runnableRate: 0.5, unstable: 1, trials: 2 });
    expect(c.usage).toEqual({ inputTokens: 200, outputTokens: 20, costUsd: 0.02 });
    // on todo, c (45) loses to a (70) and b (75)
    expect([c.winRate, c.pairs]).toEqual([0, 2]);
    expect(buildLeaderboard(run).trials!.unstable.map((u) => [u.id, u.scored, u.n])).toEqual([['todo/model-a', 2, 2], ['todo/model-c', 1, 2]]);
  });

  it('an unrepeated run is unchanged: no trials, one row entry per result', () => {
    const run = trialRun();
    run.evaluations = run.evaluations.filter((e) => e.trial!.index === 1).map(({ trial: _t, unstable: _u, ...e }) => ({ ...e, id: e.id.replace(/@1$/, '') }));
    delete run.trials;
    const lb = buildLeaderboard(run);
    expect(lb.trials).toBeNull();
    // first trials only: todo 60 vs 75, landing 90 vs 50, notes 66 vs 70
    expect(lb.rows.find((r) => r.candidate === 'model-a')).toMatchObject({ trials: 1, unstable: 0, winRate: 0.333, overall: { total: 72 } });
  });

  it('the Student-t quantiles behind the interval', () => {
    expect([t975(1), t975(2), t975(30), t975(60), t975(1e9)].map((t) => Math.round(t * 1000) / 1000)).toEqual([12.706, 4.303, 2.042, 2, 1.96]);
    expect(t975(45)).toBeGreaterThan(2.0);
    expect(t975(45)).toBeLessThan(2.021);
    expect(ci95([50])).toBeNull();
    // two values 60, 80: sd 14.14, t(1) 12.706 → 12.706 × 14.14 / √2 = 127.1
    expect(ci95([60, 80])).toBe(127.1);
  });
});

describe('console reporter with trials', () => {
  it('marks the line of a trial once its evaluation is unstable, and the summary shows mean ± sd, range, passed and ⚠ unstable per candidate × query', () => {
    const run = trialRun();
    const { chunks, stream } = sink();
    const r = new ConsoleReporter({ stream });
    const tasks = run.evaluations.map((e) => ({ id: e.id, suiteFile: e.suiteFile, query: { id: e.queryId }, candidate: { name: e.candidate, mode: 'html', artifactPath: e.artifactPath }, thresholds: e.thresholds, trial: e.trial }) as unknown as EvaluationTask);
    r.onRunStart({ tasks, outputDir: '/o', config: { concurrency: 1, trials: { repeatEach: 2, unstableMargin: 10 } } });
    const lines: Record<string, string> = {};
    for (const e of run.evaluations) {
      const { unstable: _u, ...fresh } = e; // as a trial ends, the run does not know yet
      r.onEvaluationEnd(fresh);
      lines[e.id] = chunks.at(-1)!;
    }
    expect(lines['todo/model-a@1']).not.toContain('unstable');
    expect(lines['todo/model-a@2']).toMatch(/^\[2\/12\] todo\/model-a@2 .* T  80\.0 .*⚠ unstable: totals range 60\.0–80\.0 \(20\.0 points > margin 10\)\n$/);
    for (const id of ['landing/model-a@2', 'todo/model-b@2', 'landing/model-b@2', 'notes/model-b@2']) expect(lines[id]).not.toContain('unstable');
    const before = chunks.length;
    r.onRunEnd(run);
    const summary = chunks.slice(before).join('');
    expect(summary).toContain('Total ± sd');
    expect(summary).toMatch(/model-a\s+todo\s+75\.0\s+65\.0\s+70\.0 ± 14\.1\s+60\.0–80\.0\s+1\/2\s+⚠ unstable: totals range 60\.0–80\.0 \(20\.0 points > margin 10\)\n/);
    expect(summary).toMatch(/model-b\s+todo\s+80\.0\s+70\.0\s+75\.0 ± 0\.0\s+75\.0–75\.0\s+2\/2\s+stable\n/);
    expect(summary).toMatch(/model-b\s+landing\s+57\.0\s+47\.0\s+52\.0 ± 2\.8\s+50\.0–54\.0\s+0\/2\s+stable\n/);
    // one row per candidate × query, not per trial
    expect(summary.match(/^model-/gm)).toHaveLength(6);
    expect(summary).toMatch(/Evaluations 12 \(6 candidate × query × 2 trials\) · 9 passed · 3 below threshold · 0 errors · mean total 70\.7 · 1 unstable \(margin 10\)/);
  });
});

describe('junit reporter with trials', () => {
  it('names each trial, gives every trial testcase its spread as properties, and marks the unstable evaluation (property and system-out), valid against the schema', async () => {
    const xml = JunitReporter.build(trialRun(), { cwd: '/s' });
    expect(xml.match(/<testcase /g)).toHaveLength(12);
    const tc = (name: string, cls: string) => xml.match(new RegExp(`<testcase classname="${cls}" name="${name.replace(/[[\]]/g, '\\$&')}"[\\s\\S]*?</testcase>`))![0];
    const a1 = tc('model-a [trial 1/2]', 'todo');
    expect(a1).toContain('<property name="trial" value="1/2"/>');
    expect(a1).toContain('<property name="trials.total" value="70.0 ± 14.1 (min 60.0, max 80.0, 2 of 2 trials scored)"/>');
    expect(a1).toContain('<property name="unstable" value="totals range 60.0–80.0 (20.0 points > margin 10)"/>');
    expect(a1).toContain('<system-out><![CDATA[unstable: total 70.0 ± 14.1 over 2 trials, range 60.0–80.0 (20.0 points > margin 10) (this is trial 1/2)\nscores (0-100): functionality 65, aesthetics 55, total 60');
    expect(a1).toMatch(/<failure message="below threshold: total 60 &lt; 65" type="BelowThreshold"/);
    // the passing trial of the same evaluation carries the same mark
    const a2 = tc('model-a [trial 2/2]', 'todo');
    expect(a2).toContain('<property name="unstable" value="totals range 60.0–80.0 (20.0 points > margin 10)"/>');
    expect(a2).not.toContain('<failure');
    const b1 = tc('model-b [trial 1/2]', 'todo');
    expect(b1).toContain('<property name="trials.total" value="75.0 ± 0.0 (min 75.0, max 75.0, 2 of 2 trials scored)"/>');
    expect(b1).not.toContain('name="unstable"');
    expect(b1).toContain('stable: total 75.0 ± 0.0 over 2 trials, range 75.0–75.0 (this is trial 1/2)');
    expect(xml.match(/name="unstable"/g)).toHaveLength(2);
    const r = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [{ fileName: 'junit.xsd', contents: fs.readFileSync(XSD, 'utf8') }] });
    expect(r.errors.map((e) => e.rawMessage)).toEqual([]);
  });
});

describe('github reporter with trials', () => {
  it('warns once per unstable evaluation with its spread and trials, and the step summary has a Trials table and marks the unstable trials', () => {
    const ws = tmpDir('cookie-gh-trials-');
    const lines: string[] = [];
    const summary = path.join(ws, 'summary.md');
    new GithubReporter({ env: { GITHUB_STEP_SUMMARY: summary }, cwd: '/s', stream: { write: (s: string) => lines.push(s) } as unknown as NodeJS.WritableStream }).onRunEnd(trialRun(), path.join(ws, 'out'));
    const warnings = lines.filter((l) => l.startsWith('::warning'));
    expect(warnings).toEqual([
      '::warning file=answers/model-a/todo.html,title=Cookie%3A model-a on todo is unstable::unstable: total 70.0 ± 14.1 over 2 trials, range 60.0–80.0 (20.0 points > margin 10)%0Atrials: 1: 60.0, 2: 80.0\n',
    ]);
    const errors = lines.filter((l) => l.startsWith('::error'));
    expect(errors).toHaveLength(3);
    expect(errors[0]).toBe('::error file=answers/model-a/todo.html,title=Cookie%3A model-a on todo (trial 1/2%2C unstable) failed::below threshold: total 60 < 65\n');
    expect(errors[1]).toMatch(/title=Cookie%3A model-b on landing \(trial 1\/2\) failed::/);
    const md = fs.readFileSync(summary, 'utf8');
    expect(md).toMatch(/^## 🍪 Cookie: 9 passed, 3 failed, 0 errors \(12 evaluations; 6 candidate × query, 1 unstable\)/);
    expect(md).toContain('| ❌ | todo | model-a (trial 1/2) ⚠️ unstable | 65.0 | 55.0 | 60.0 | – |');
    expect(md).toContain('| ✅ | todo | model-a (trial 2/2) ⚠️ unstable | 85.0 | 75.0 | 80.0 | – |');
    expect(md).toContain('| ✅ | todo | model-b (trial 1/2) | 80.0 | 70.0 | 75.0 | – |');
    expect(md).toContain('### Trials (margin 10 points)');
    expect(md).toContain('| todo | model-a | 2 | 70.0 ± 14.1 | 60.0–80.0 | 1/2 | ⚠️ **unstable**: totals range 60.0–80.0 (20.0 points > margin 10) |');
    expect(md).toContain('| todo | model-b | 2 | 75.0 ± 0.0 | 75.0–75.0 | 2/2 | stable |');
  });
});

describe('json reporter with trials', () => {
  it('writes every trial with its unstable flag and trials[] with mean, sd, range and the margin', () => {
    const dir = tmpDir('cookie-json-trials-');
    new JsonReporter().onRunEnd(trialRun(), dir);
    const j = JSON.parse(fs.readFileSync(path.join(dir, 'report.json'), 'utf8')) as RunResults;
    expect(j.evaluations.filter((e) => e.unstable).map((e) => e.id)).toEqual(['todo/model-a@1', 'todo/model-a@2']);
    expect(j.trials!.find((t) => t.id === 'todo/model-a')).toEqual({
      id: 'todo/model-a', queryId: 'todo', candidate: 'model-a', n: 2, scored: 2,
      functionality: { mean: 75, sd: 14.1, min: 65, max: 85 }, aesthetics: { mean: 65, sd: 14.1, min: 55, max: 75 }, total: { mean: 70, sd: 14.1, min: 60, max: 80 },
      unstable: true, margin: 10, trials: ['todo/model-a@1', 'todo/model-a@2'],
    });
    expect(j.trials!.filter((t) => t.unstable)).toHaveLength(1);
  });
});

/**
 * Render the HTML report's page as the browser would (its inlined aggregate.js and app.js run against a
 * minimal DOM: the app element's innerHTML is the page), at `hash`. Evaluation details load from
 * data/<n>/eval.js as the page's script tags would.
 */
function renderReport(index: string, hash: string): string {
  const html = fs.readFileSync(index, 'utf8');
  const data = html.match(/<script id="cookie-data" type="application\/json">([\s\S]*?)<\/script>/)![1]!;
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  const app = { innerHTML: '', querySelectorAll: () => [] };
  const requested: string[] = [];
  const document = {
    getElementById: (id: string) => (id === 'cookie-data' ? { textContent: data } : id === 'app' ? app : null),
    querySelector: () => null,
    createElement: () => ({ dataset: {} as Record<string, string> }),
    body: { appendChild: (s: { src: string }) => requested.push(s.src) },
  };
  const ctx = vm.createContext({ document, window: { addEventListener() {}, scrollTo() {} }, location: { hash } });
  for (const s of scripts) vm.runInContext(s, ctx);
  for (const src of requested) vm.runInContext(fs.readFileSync(path.join(path.dirname(index), src), 'utf8'), ctx);
  return app.innerHTML;
}

describe('html report with trials', () => {
  const run = trialRun();
  const out = tmpDir('cookie-html-trials-');
  const index = writeHtmlReport(run, out);

  it('the leaderboard shows mean ± 95 % interval, win rates from trial means, trials and unstable counts', () => {
    const page = renderReport(index, '');
    const boardRow = (candidate: string) => page.match(new RegExp(`<tr data-testid="board-row"><td>\\d</td><td>${candidate}</td>[\\s\\S]*?</tr>`))![0];
    expect(boardRow('model-a')).toContain('<td data-testid="total-ci" title="mean total ± half-width of its 95 % interval across 3 queries">75.3 <span class="muted">± 29.6</span></td>');
    expect(boardRow('model-a')).toContain('<td data-testid="win-rate">33%</td><td>2</td><td data-testid="board-unstable"><span class="vt-fail">1</span></td>');
    expect(boardRow('model-b')).toContain('<td data-testid="win-rate">67%</td><td>2</td><td data-testid="board-unstable">0</td>');
    expect(page).toContain('<th>Total ± 95% CI</th>');
  });

  it('the Trials table gives each candidate × query its mean ± sd, range, trials passed and the unstable tag with the reason', () => {
    const page = renderReport(index, '');
    const rows = page.match(/<tr data-testid="trial-row"[\s\S]*?<\/tr>/g)!;
    expect(rows).toHaveLength(6);
    const a = rows.find((r) => r.includes('<td>todo</td><td>model-a</td>'))!;
    expect(a).toBe('<tr data-testid="trial-row" class="row-unstable"><td>todo</td><td>model-a</td><td>2</td><td>75.0</td><td>65.0</td><td data-testid="trial-spread">70.0 ± 14.1</td><td>60.0–80.0</td><td>1/2</td><td><span class="tag unstable" data-testid="unstable-tag" title="totals range 60.0–80.0 (20.0 points &gt; margin 10)">unstable</span> <span class="small">totals range 60.0–80.0 (20.0 points &gt; margin 10)</span></td></tr>');
    const b = rows.find((r) => r.includes('<td>todo</td><td>model-b</td>'))!;
    expect(b).toContain('<td data-testid="trial-spread">75.0 ± 0.0</td><td>75.0–75.0</td><td>2/2</td><td><span class="muted">stable</span></td>');
    // evaluations table: each trial names its trial; only the two trials of todo/model-a carry the tag
    const evalRows = page.match(/<tr data-testid="eval-row"[\s\S]*?<\/tr>/g)!;
    expect(evalRows).toHaveLength(12);
    expect(evalRows.filter((r) => r.includes('data-testid="unstable-tag"')).map((r) => r.match(/data-testid="trial-tag">(trial \d\/2)/)![1] + ' ' + r.match(/<td>(\w+)<\/td><td><a [^>]*>([\w-]+)</)!.slice(1).join('/'))).toEqual(['trial 1/2 todo/model-a', 'trial 2/2 todo/model-a']);
  });

  it("an unstable trial's page says which trial it is, the spread of its evaluation and links the other trial", () => {
    const n = run.evaluations.findIndex((e) => e.id === 'todo/model-a@1');
    const other = run.evaluations.findIndex((e) => e.id === 'todo/model-a@2');
    const page = renderReport(index, `#/eval/${n}`);
    const info = page.match(/<section class="trial-info"[\s\S]*?<\/section>/)![0];
    expect(info).toContain('<b>Trial 1 of 2</b> <span class="tag unstable" data-testid="unstable-tag"');
    expect(info).toContain('unstable: total 70.0 ± 14.1 over 2 trials, range 60.0–80.0 (20.0 points &gt; margin 10)');
    expect(info).toContain(`<b>trial 1: 60.0</b> · <a href="#/eval/${other}">trial 2: 80.0</a>`);
  });

  it('the leaderboard filters still count one trial mean per query', () => {
    const summary = JSON.parse(fs.readFileSync(index, 'utf8').match(/<script id="cookie-data" type="application\/json">([\s\S]*?)<\/script>/)![1]!) as { board: { candidate: string; queryId: string; scores: { total: number } }[] };
    expect(summary.board.map((b) => `${b.queryId}/${b.candidate} ${b.scores.total}`).sort()).toEqual(['landing/model-a 89', 'landing/model-b 52', 'notes/model-a 67', 'notes/model-b 71', 'todo/model-a 70', 'todo/model-b 75']);
  });
});
