import { describe, expect, it } from 'vitest';
import { JunitReporter } from '../../reporters/junit.js';
import type { EvaluationResult, RunResults } from '../../src/types.js';

const result = (over: Partial<EvaluationResult>): EvaluationResult => ({
  id: 'q/c', queryId: 'q', candidate: 'c', mode: 'html', suiteFile: '/s/todo.cookie.yaml', artifactPath: '/a.html', status: 'scored',
  scores: { functionality: 80, aesthetics: 60, total: 70 }, static8: null, final8: null, defects: [], rubric: [], reasons: [],
  thresholds: { total: 50 }, passed: true, timings: { total: 1500 }, evidenceDir: 'evidence/q/c',
  query: { prompt: 'x', language: 'en', kind: 'dynamic' }, finishedAt: '', ...over,
});

describe('junit reporter', () => {
  it('writes one testcase per query × candidate; below threshold or not built is a failure, an error is an error, an expected status passes', () => {
    const run: RunResults = {
      schemaVersion: 1, cookieVersion: '0', browserVersion: '0', startedAt: '', finishedAt: '', config: {}, environment: null,
      evaluations: [
        result({ candidate: 'good' }),
        result({ candidate: 'weak', passed: false, scores: { functionality: 10, aesthetics: 20, total: 15 }, defects: [{ code: 'blank-page', severity: 'critical', dimension: 'functionality', title: 'Blank page', detail: 'nothing', rubricItem: '1', deduction: 8, phase: 'static', evidence: {} }] }),
        result({ candidate: 'missing', status: 'error', passed: false, scores: null, error: { stage: 'load', message: 'artifact not found: /x.html' } }),
        result({ candidate: 'no-build', mode: 'react', status: 'build-failed', passed: false, scores: null, build: { step: 'build', cause: 'missing-icon', summary: 'imports a lucide-react icon that does not exist: RocketShip', logTail: '' } }),
        result({ candidate: 'meant-to-fail', mode: 'react', status: 'build-failed', expectStatus: 'build-failed', passed: true, scores: null, build: { step: 'build', cause: 'missing-icon', summary: 'imports a lucide-react icon that does not exist: Foo', logTail: '' } }),
      ],
    };
    const xml = JunitReporter.build(run);
    expect(xml.match(/<testcase /g)).toHaveLength(5);
    expect(xml).toMatch(/<testsuite name="cookie: todo.cookie.yaml" tests="5" failures="2" errors="1"/);
    expect(xml).toMatch(/<failure message="build failed: imports a lucide-react icon that does not exist: RocketShip" type="BuildFailed"/);
    expect(xml).toContain('build-failed as expected: imports a lucide-react icon that does not exist: Foo');
    expect(xml).toMatch(/<failure message="below threshold: total 15 &lt; 50" type="BelowThreshold"/);
    expect(xml).toMatch(/<error message="load: artifact not found: \/x.html" type="CookieError"/);
    expect(xml).toContain('[critical/functionality] Blank page: nothing');
    expect(xml).toMatch(/classname="q" name="good" file="[^"]+" time="1.5"/);
  });
});
