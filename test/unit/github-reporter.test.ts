import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GithubReporter } from '../../reporters/github.js';
import type { Defect, EvaluationResult, RunResults } from '../../src/types.js';
import { evidence, click } from '../fixtures/evidence.js';
import { tmpDir } from '../helpers.js';

const result = (over: Partial<EvaluationResult>): EvaluationResult => ({
  id: 'todo/c', queryId: 'todo', candidate: 'c', mode: 'html', suiteFile: '/s/todo.cookie.yaml', artifactPath: '/a.html', status: 'scored',
  scores: { functionality: 80, aesthetics: 60, total: 70 }, static8: null, final8: null, defects: [], rubric: [], reasons: [],
  thresholds: { total: 50 }, passed: true, timings: { total: 1500 }, evidenceDir: 'evidence/todo/c',
  query: { prompt: 'x', language: 'en', kind: 'dynamic' }, finishedAt: '', ...over,
});

describe('github reporter', () => {
  it('annotates candidates below threshold at the source line of their worst error, and writes a Markdown step summary', () => {
    const ws = tmpDir('cookie-gh-');
    const out = path.join(ws, 'cookie-results');
    const artifact = path.join(ws, 'answers', 'buggy.html');
    fs.mkdirSync(path.dirname(artifact), { recursive: true });
    fs.writeFileSync(artifact, '<!doctype html>');
    const thrown = { text: "TypeError: Cannot read properties of null (reading 'value')", origin: 'app' as const, atMs: 10, location: 'at HTMLButtonElement.<anonymous> (http://127.0.0.1:41234/buggy.html:24:40)', step: 0 };
    const ev = evidence({ deploy: { url: 'http://127.0.0.1:41234/buggy.html', port: 41234, root: ws, entry: 'buggy.html', mode: 'html' } }, [click('Add task', false, { pageErrors: [thrown] })]);
    fs.mkdirSync(path.join(out, 'evidence', 'todo', 'buggy'), { recursive: true });
    fs.writeFileSync(path.join(out, 'evidence', 'todo', 'buggy', 'evidence.json'), JSON.stringify(ev));
    const d: Defect = { code: 'error-on-use', severity: 'major', dimension: 'functionality', title: 'Error when using button "Add task"', detail: thrown.text, rubricItem: '3', deduction: 1, phase: 'interaction', evidence: { step: ev.interaction!.steps[0]!.index, excerpt: thrown.text } };
    const run: RunResults = {
      schemaVersion: 1, cookieVersion: '0', browserVersion: '0', startedAt: '', finishedAt: '', config: {}, environment: null,
      evaluations: [
        result({ candidate: 'good' }),
        result({ id: 'todo/buggy', candidate: 'buggy', artifactPath: artifact, evidenceDir: 'evidence/todo/buggy', passed: false, scores: { functionality: 40, aesthetics: 60, total: 50 }, thresholds: { total: 70 }, defects: [d] }),
      ],
      specErrors: [{ file: path.join(ws, 'specs', 'broken.cookie.yaml'), message: 'broken.cookie.yaml: candidates.0.mode: Invalid option' }],
    };
    const lines: string[] = [];
    const summary = path.join(ws, 'summary.md');
    new GithubReporter({ env: { GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: ws, GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'o/r', GITHUB_RUN_ID: '42' }, stream: { write: (s: string) => lines.push(s) } as unknown as NodeJS.WritableStream }).onRunEnd(run, out);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(`::error file=answers/buggy.html,line=24,col=40,title=Cookie%3A buggy on todo failed::below threshold: total 50 < 70%0Aworst defect: [major] Error when using button "Add task": ${thrown.text}%0Aat buggy.html:24:40\n`);
    expect(lines[1]).toMatch(/^::error file=specs\/broken.cookie.yaml,title=Cookie%3A spec could not be loaded::/);
    const md = fs.readFileSync(summary, 'utf8');
    expect(md).toMatch(/^## 🍪 Cookie: 1 passed, 1 failed, 0 errors \(2 evaluations\)/);
    expect(md).toContain('| ❌ | todo | buggy | 40.0 | 60.0 | 50.0 | **major** Error when using button "Add task" |');
    expect(md).toContain('| ✅ | todo | good | 80.0 | 60.0 | 70.0 | – |');
    expect(md).toContain('[this run](https://github.com/o/r/actions/runs/42)');
    expect(md).toContain('1 spec file(s) could not be loaded');
  });

  it('writes no summary without GITHUB_STEP_SUMMARY and no annotation when everything passed', () => {
    const lines: string[] = [];
    new GithubReporter({ env: {}, stream: { write: (s: string) => lines.push(s) } as unknown as NodeJS.WritableStream }).onRunEnd({ schemaVersion: 1, cookieVersion: '0', browserVersion: '0', startedAt: '', finishedAt: '', config: {}, environment: null, evaluations: [result({})] }, tmpDir());
    expect(lines).toEqual([]);
  });
});
