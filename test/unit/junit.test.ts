import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { JunitReporter } from '../../reporters/junit.js';
import type { Defect, EvaluationResult, RunResults } from '../../src/types.js';
import { tmpDir } from '../helpers.js';

const XSD = path.resolve(import.meta.dirname, '../fixtures/junit.xsd');

const result = (over: Partial<EvaluationResult>): EvaluationResult => ({
  id: 'q/c', queryId: 'q', candidate: 'c', mode: 'html', suiteFile: '/s/todo.cookie.yaml', artifactPath: '/a.html', status: 'scored',
  scores: { functionality: 80, aesthetics: 60, total: 70 }, static8: null, final8: null, defects: [], rubric: [], reasons: [],
  thresholds: { total: 50 }, passed: true, timings: { total: 1500 }, evidenceDir: 'evidence/q/c',
  query: { prompt: 'x', language: 'en', kind: 'dynamic' }, finishedAt: '', ...over,
});
const defect = (over: Partial<Defect>): Defect => ({ code: 'clipped-text', severity: 'minor', dimension: 'aesthetics', title: 'Clipped text', detail: '2 text elements are cut off', rubricItem: '4', deduction: 0.5, phase: 'static', evidence: {}, ...over });

const run = (evaluations: EvaluationResult[], extra: Partial<RunResults> = {}): RunResults => ({
  schemaVersion: 1, cookieVersion: '0', browserVersion: '0', startedAt: '2026-12-01T15:00:00.000Z', finishedAt: '', config: {}, environment: null, evaluations, ...extra,
});

/** Validate against test/fixtures/junit.xsd with libxml2's xmllint (xmllint-wasm): the errors, empty when valid. */
async function xsdErrors(xml: string): Promise<string[]> {
  const r = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [{ fileName: 'junit.xsd', contents: fs.readFileSync(XSD, 'utf8') }] });
  return r.errors.map((e) => e.rawMessage);
}

describe('junit reporter', () => {
  it('writes one testcase per query × candidate; below threshold or not built is a failure, an error is an error, an expected status passes', () => {
    const xml = JunitReporter.build(run([
      result({ candidate: 'good' }),
      result({ candidate: 'weak', passed: false, scores: { functionality: 10, aesthetics: 20, total: 15 }, defects: [defect({}), defect({ severity: 'critical', dimension: 'functionality', title: 'Blank page', detail: 'nothing', rubricItem: '1', deduction: 8 })] }),
      result({ candidate: 'missing', status: 'error', passed: false, scores: null, error: { stage: 'load', message: 'artifact not found: /x.html' } }),
      result({ candidate: 'no-build', mode: 'react', status: 'build-failed', passed: false, scores: null, build: { step: 'build', cause: 'missing-icon', summary: 'imports a lucide-react icon that does not exist: RocketShip', logTail: 'error TS2305' } }),
      result({ candidate: 'meant-to-fail', mode: 'react', status: 'build-failed', expectStatus: 'build-failed', passed: true, scores: null, build: { step: 'build', cause: 'missing-icon', summary: 'imports a lucide-react icon that does not exist: Foo', logTail: '' } }),
    ]), { cwd: '/s' });
    expect(xml.match(/<testcase /g)).toHaveLength(5);
    expect(xml).toMatch(/<testsuite name="cookie: todo.cookie.yaml" timestamp="2026-12-01T\d\d:00:00" time="7.5" tests="5" failures="2" errors="1"/);
    expect(xml).toMatch(/<failure message="build failed: imports a lucide-react icon that does not exist: RocketShip" type="BuildFailed"/);
    expect(xml).toContain('build-failed as expected: imports a lucide-react icon that does not exist: Foo');
    // the failure message is the worst defect; its body lists every defect, worst first, with severities
    expect(xml).toMatch(/<failure message="critical: Blank page \(below threshold: total 15 &lt; 50\)" type="BelowThreshold"><!\[CDATA\[\[critical\/functionality\] Blank page \(−8\): nothing\n\[minor\/aesthetics\] Clipped text \(−0.5\): 2 text elements are cut off\]\]><\/failure>/);
    expect(xml).toMatch(/<error message="load: artifact not found: \/x.html" type="CookieError"/);
    // file paths are relative to the working directory (CI's checkout)
    expect(xml).toMatch(/classname="q" name="good" file="todo.cookie.yaml" time="1.5"/);
  });

  it('attaches the key screenshots and the video ([[ATTACHMENT|path]], relative) and makes a spec that failed to load an <error> testcase', () => {
    const cwd = tmpDir('cookie-junit-');
    const out = path.join(cwd, 'cookie-results');
    const ev = path.join(out, 'evidence', 'q', 'weak');
    fs.mkdirSync(path.join(ev, 'screenshots'), { recursive: true });
    for (const f of ['screenshots/viewport-1280.png', 'screenshots/step-03-after.png', 'video.mp4']) fs.writeFileSync(path.join(ev, f), 'x');
    const r = run(
      [result({ candidate: 'weak', suiteFile: path.join(cwd, 'specs', 'todo.cookie.yaml'), evidenceDir: 'evidence/q/weak', passed: false, scores: { functionality: 40, aesthetics: 60, total: 50 }, thresholds: { total: 70 }, defects: [defect({ severity: 'major', dimension: 'functionality', title: 'Error when using button "Add"', detail: 'TypeError: x is null', phase: 'interaction', evidence: { step: 3, screenshot: 'screenshots/step-03-after.png' } })] })],
      { specErrors: [{ file: path.join(cwd, 'specs', 'broken.cookie.yaml'), message: `${path.join(cwd, 'specs', 'broken.cookie.yaml')}: candidates.0.mode: Invalid option. Fix: use "html" or "react"` }] },
    );
    const xml = JunitReporter.build(r, { outputDir: out, cwd });
    expect(xml).toContain('[[ATTACHMENT|cookie-results/evidence/q/weak/screenshots/step-03-after.png]]');
    expect(xml).toContain('[[ATTACHMENT|cookie-results/evidence/q/weak/screenshots/viewport-1280.png]]');
    expect(xml).toContain('[[ATTACHMENT|cookie-results/evidence/q/weak/video.mp4]]');
    expect(xml).toContain('file="specs/todo.cookie.yaml"');
    expect(xml).toMatch(/<testsuite name="cookie: broken.cookie.yaml" timestamp="[^"]+" time="0" tests="1" failures="0" errors="1"/);
    expect(xml).toMatch(/<testcase classname="\(spec\)" name="broken.cookie.yaml could not be loaded" file="specs\/broken.cookie.yaml" time="0">\s*<error message="[^"]*candidates.0.mode: Invalid option/);
  });

  it('is valid against the JUnit schema Jenkins and GitLab read (XSD checked by libxml2 via xmllint-wasm), and the check catches a broken file', async () => {
    const cwd = tmpDir('cookie-junit-');
    const xml = JunitReporter.build(run(
      [
        result({ candidate: 'good', cached: true }),
        result({ candidate: 'weak <&> "quoted"', passed: false, scores: { functionality: 10, aesthetics: 20, total: 15 }, defects: [defect({ title: 'Text with ]]> inside', detail: 'CDATA end ]]> and <tags> & ünïcödé 中文' })] }),
        result({ candidate: 'missing', status: 'error', passed: false, scores: null, error: { stage: 'load', message: 'artifact not found' } }),
        result({ candidate: 'no-build', status: 'build-failed', passed: false, scores: null, build: { step: 'install', cause: 'npm', summary: 'E404', logTail: 'npm ERR! 404' } }),
      ],
      { specErrors: [{ file: '/s/broken.cookie.yaml', message: '/s/broken.cookie.yaml: (file): cannot be parsed' }] },
    ), { cwd, outputDir: cwd });
    expect(await xsdErrors(xml)).toEqual([]);
    // the validator is real: a suite without its required counts, or a text time, is rejected
    expect((await xsdErrors(xml.replace(/(<testsuite name[^>]*?) tests="\d+"/, '$1'))).join('\n')).toMatch(/tests.*required|required.*tests/i);
    expect((await xsdErrors(xml.replace(/ time="1.5"/, ' time="1.5s"'))).join('\n')).toMatch(/time/);
  });
});
