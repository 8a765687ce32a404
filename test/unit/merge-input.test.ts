import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkShardCoverage, mergeReports, readBlob } from '../../src/runner/merge.js';
import { tmpDir, writeFiles } from '../helpers.js';

const evaluation = (id: string, over: Record<string, unknown> = {}) => ({ id, queryId: id.split('/')[0], candidate: id.split('/')[1], status: 'scored', scores: { functionality: 80, aesthetics: 80, total: 80 }, passed: true, evidenceDir: `evidence/${id.replace('/', '__')}`, defects: [], rubric: [], reasons: [], thresholds: {}, ...over });
const results = (shard: { current: number; total: number } | undefined, evaluations: unknown[]) => JSON.stringify({ schemaVersion: 1, cookieVersion: '0.1.0', startedAt: '2026-01-01T00:00:00Z', finishedAt: '2026-01-01T00:01:00Z', config: {}, ...(shard ? { shard } : {}), evaluations });

/** A blob folder: results.json text and (unless noEvidence) an evidence folder per evaluation. */
function blob(root: string, name: string, text: string, noEvidence = false) {
  const dir = path.join(root, name);
  writeFiles(dir, { 'results.json': text });
  if (!noEvidence) for (const e of (JSON.parse(text) as { evaluations?: { evidenceDir?: string }[] }).evaluations ?? []) if (e.evidenceDir) writeFiles(dir, { [`${e.evidenceDir}/evidence.json`]: '{}' });
  return dir;
}

describe('merge-reports: bad blobs, missing shards and overwriting are refused', () => {
  it('says the real reason a blob cannot be read', () => {
    const root = tmpDir();
    const cases: [string, RegExp][] = [
      ['{,', /results\.json: \(file\): invalid JSON/],
      ['[]', /results\.json: \(top level\): expected an object .*found an array/],
      ['{}', /results\.json: schemaVersion: is missing/],
      ['', /results\.json: \(file\): is empty/],
      ['{"schemaVersion": 99}', /results\.json: schemaVersion: unsupported schema version 99/],
    ];
    cases.forEach(([text, re], i) => expect(() => readBlob(blob(root, `b${i}`, text, true))).toThrow(re));
    expect(() => readBlob(path.join(root, 'nope'))).toThrow(/nope\/results\.json: \(file\): not found \(the folder .*nope does not exist\)/);
    fs.mkdirSync(path.join(root, 'empty'));
    expect(() => readBlob(path.join(root, 'empty'))).toThrow(/empty\/results\.json: \(file\): not found/);
  });

  it('names the blob file and field of a malformed evaluation', () => {
    const root = tmpDir();
    expect(() => readBlob(blob(root, 'a', results(undefined, [evaluation('q/a', { scores: 'lots' })])))).toThrow(/a\/results\.json: evaluations\.0\.scores: /);
    expect(() => readBlob(blob(root, 'b', results(undefined, [evaluation('q/a', { status: 'weird' })])))).toThrow(/b\/results\.json: evaluations\.0\.status: /);
    expect(() => readBlob(blob(root, 'c', results(undefined, [evaluation('q/a', { queryId: undefined })])))).toThrow(/c\/results\.json: evaluations\.0\.queryId: is missing/);
  });

  it('a missing or duplicated shard is an error unless partial merges are allowed', async () => {
    expect(checkShardCoverage([{ dir: 's1', shard: { current: 1, total: 2 } }]).missing).toEqual(['shard 2/2 missing: have 1/2']);
    expect(checkShardCoverage([{ dir: 's1', shard: { current: 1, total: 2 } }, { dir: 's1b', shard: { current: 1, total: 2 } }]).errors[0]).toMatch(/shard 1\/2 given twice \(s1, s1b\)/);
    expect(checkShardCoverage([{ dir: 'x' }, { dir: 'y' }])).toEqual({ errors: [], missing: [] });
    const root = tmpDir();
    const s1 = blob(root, 's1', results({ current: 1, total: 2 }, [evaluation('q/a')]));
    const s2 = blob(root, 's2', results({ current: 2, total: 2 }, [evaluation('q/b')]), true);
    const out = path.join(root, 'm');
    await expect(mergeReports([s1], out, [])).rejects.toThrow(/shard 2\/2 missing: have 1\/2.*--allow-partial/);
    expect(fs.existsSync(path.join(out, 'results.json'))).toBe(false);
    await expect(mergeReports([s1, s1], out, [])).rejects.toThrow(/s1 given more than once/);
    fs.cpSync(s1, path.join(root, 's1-copy'), { recursive: true });
    await expect(mergeReports([s1, path.join(root, 's1-copy')], out, [])).rejects.toThrow(/\(blobs\): shard 1\/2 given twice .*Fix: merge the blobs of one sharded run/);
    const partial = await mergeReports([s1], out, [], { allowPartial: true });
    expect(partial.run.evaluations.map((e) => e.id)).toEqual(['q/a']);
    expect(partial.warnings).toEqual([expect.stringMatching(/shard 2\/2 missing: have 1\/2 \(--allow-partial/)]);
    const full = await mergeReports([s1, s2], path.join(root, 'm2'), []);
    expect(full.run.evaluations.map((e) => e.id)).toEqual(['q/a', 'q/b']);
    expect(full.warnings).toEqual([expect.stringMatching(/s2: no evidence\/ folder/)]);
  });

  it('refuses an output dir that is one of the blobs, and leaves it as it was', async () => {
    const root = tmpDir();
    const s1 = blob(root, 's1', results({ current: 1, total: 2 }, [evaluation('q/a')]));
    const s2 = blob(root, 's2', results({ current: 2, total: 2 }, [evaluation('q/b')]));
    const before = fs.readFileSync(path.join(s1, 'results.json'), 'utf8');
    await expect(mergeReports([s1, s2], s1, [])).rejects.toThrow(/--output-dir: .*s1 is one of the blobs being merged/);
    expect(fs.readFileSync(path.join(s1, 'results.json'), 'utf8')).toBe(before);
  });
});
