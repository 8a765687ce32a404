import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunResults } from '../../src/types.js';
import { readResults, ROOT, runCli, tmpDir, writeFiles } from '../helpers.js';

// The careful-tester explorer and the invariant oracles end to end (issues 11 and 18), through the real CLI,
// on two pairs of precision pages: a planted defect must be found with its code, its clean twin must get no
// major or critical defect. (The full precision suite runs every case file in test/e2e/precision.test.ts.)
const CASES = ['invariants/todo-delete-offbyone', 'invariants/todo-delete-offbyone-ok', 'careful/checkout-card-paste', 'careful/checkout-card-paste-ok'];
type Case = { query: { prompt: string; language: string }; expect: 'clean' | { code: string; severity: string } };

let run: RunResults;
const cases = new Map<string, Case>();

beforeAll(async () => {
  const dir = tmpDir('cookie-careful-');
  const files: Record<string, string> = {};
  for (const c of CASES) {
    const name = path.basename(c);
    const spec = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/precision', `${c}.case.json`), 'utf8')) as Case;
    cases.set(name, spec);
    files[`${name}.html`] = fs.readFileSync(path.join(ROOT, 'test/precision', `${c}.html`), 'utf8');
    files[`${name}.cookie.yaml`] = `query:\n  id: ${name}\n  prompt: ${JSON.stringify(spec.query.prompt)}\n  language: ${spec.query.language}\n  kind: dynamic\nthresholds:\n  total: 0\ncandidates:\n  - name: c\n    mode: html\n    path: ${name}.html\n`;
  }
  writeFiles(path.join(dir, 'in'), files);
  await runCli(['test', path.join(dir, 'in'), '--output-dir', path.join(dir, 'out'), '--concurrency', '2', '--no-cache'], { timeoutMs: 900_000 });
  run = readResults(path.join(dir, 'out'));
}, 920_000);

describe('careful-tester explorer and invariants (end to end)', () => {
  it.each(CASES.map((c) => path.basename(c)))('%s: planted defect found at its severity, twin clean', (name) => {
    const ev = run.evaluations.find((e) => e.id === `${name}/c`)!;
    expect(ev.status).toBe('scored');
    const want = cases.get(name)!.expect;
    if (want === 'clean') expect(ev.defects.filter((d) => d.severity !== 'minor').map((d) => d.title)).toEqual([]);
    else expect(ev.defects.map((d) => `${(d as { code?: string }).code}:${d.severity}`)).toContain(`${want.code}:${want.severity}`);
  });
});
