// `cookie judge DIR` re-scores finished evidence: it works when the candidate's folder is gone (the
// evidence is self-contained) and refuses files of another schemaVersion with the file, field and fix.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunResults } from '../../src/types.js';
import { click, evidence } from '../fixtures/evidence.js';
import { readResults, runCli, tmpDir } from '../helpers.js';

/** A finished run's output folder: results.json and one evaluation's evidence.json, the candidate long gone. */
function outputDir(over: { resultsVersion?: number; evidenceVersion?: number } = {}): string {
  const out = tmpDir('cookie-readback-');
  const ev = evidence({ defaultViewport: { width: 1280, height: 800 }, sources: { dir: 'source', entry: 'x.html', files: ['x.html'], bytes: 20, truncated: false } }, [click('Add', true), click('Clear', true)]);
  ev.task.candidate.artifactPath = path.join(out, 'deleted-candidate', 'x.html'); // never existed here
  (ev as { schemaVersion: number }).schemaVersion = over.evidenceVersion ?? 1;
  const dir = path.join(out, 'evidence', 'q', 'c');
  fs.mkdirSync(path.join(dir, 'source'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'source', 'x.html'), '<button>Add</button>');
  fs.writeFileSync(path.join(dir, 'evidence.json'), JSON.stringify(ev));
  const run = { schemaVersion: over.resultsVersion ?? 1, cookieVersion: '0.1.0', browserVersion: '1', startedAt: '', finishedAt: '', config: {}, environment: null, evaluations: [{ id: 'q/c', queryId: 'q', candidate: 'c', mode: 'html', suiteFile: 's', artifactPath: ev.task.candidate.artifactPath, status: 'error', scores: null, static8: null, final8: null, defects: [], rubric: [], reasons: [], thresholds: {}, passed: false, timings: {}, evidenceDir: path.join('evidence', 'q', 'c'), query: { prompt: 'todo app', language: 'en', kind: 'dynamic' }, finishedAt: '' }] };
  fs.writeFileSync(path.join(out, 'results.json'), JSON.stringify(run));
  return out;
}

describe('cookie judge DIR reads results and evidence back', () => {
  it('re-scores evidence whose candidate folder no longer exists', async () => {
    const out = outputDir();
    const r = await runCli(['judge', out], { cwd: out });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^q\/c\s+F \d/m);
    const run: RunResults = readResults(out);
    expect(run.evaluations[0]!.status).toBe('scored');
    expect(fs.existsSync(path.join(out, 'evidence', 'q', 'c', 'judgement.json'))).toBe(true);
  });

  it('refuses results.json and evidence.json of another schemaVersion, naming file, field and fix', async () => {
    const badResults = outputDir({ resultsVersion: 3 });
    const r1 = await runCli(['judge', badResults], { cwd: badResults });
    expect(r1.code).toBe(2);
    expect(r1.stderr).toContain(`${path.join(badResults, 'results.json')}: schemaVersion: is 3, this Cookie reads 1. Fix:`);
    const badEvidence = outputDir({ evidenceVersion: 7 });
    const r2 = await runCli(['judge', badEvidence], { cwd: badEvidence });
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain('evidence.json: schemaVersion: is 7, this Cookie reads 1. Fix:');
    expect(readResults(badEvidence).evaluations[0]!.status).toBe('error'); // not re-scored
  });
});
