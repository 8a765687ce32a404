import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EvaluationResult, RunResults } from '../../src/types.js';
import { readResults, ROOT, runCli, scaled, tmpDir } from '../helpers.js';

/**
 * The judge-precision suite (issues 11 and 18): every `test/precision/<group>/<case>.case.json` beside its
 * candidate (`<case>.html` or `<case>/index.html`), evaluated in ONE `cookie test` run (concurrency 2,
 * a small step budget, video and audio off). Asserts: a clean case has no major or critical defect; a
 * planted case has its defect code at the expected severity; a clean twin scores above its broken twin.
 */
interface PrecisionCase {
  id: string;
  file: string;
  query: { prompt: string; language: string; kind: 'static' | 'dynamic' };
  expect: 'clean' | { code: string; severity: 'critical' | 'major' | 'minor' };
  twin?: string;
  why: string;
}

const DIR = path.join(ROOT, 'test', 'precision');

/** Find every case; a malformed sidecar fails loudly naming its file and field. */
function discover(): PrecisionCase[] {
  const out: PrecisionCase[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.case.json')) {
        const raw = JSON.parse(fs.readFileSync(p, 'utf8')) as Omit<PrecisionCase, 'id' | 'file'>;
        const base = p.slice(0, -'.case.json'.length);
        const file = fs.existsSync(`${base}.html`) ? `${base}.html` : path.join(base, 'index.html');
        if (!fs.existsSync(file)) throw new Error(`${p}: no candidate beside it. Fix: add ${path.basename(base)}.html or ${path.basename(base)}/index.html`);
        if (!raw.query?.prompt || !raw.query.language) throw new Error(`${p}: field "query" needs prompt and language`);
        if (raw.expect !== 'clean' && !(raw.expect && typeof raw.expect === 'object' && raw.expect.code && raw.expect.severity)) throw new Error(`${p}: field "expect" must be "clean" or { code, severity }`);
        const id = path.relative(DIR, base).split(path.sep).join('-');
        out.push({ ...raw, id, file });
      }
    }
  };
  walk(DIR);
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

const cases = discover();
let run: RunResults;
let cli: { code: number | null; stdout: string; stderr: string };
const result = (c: PrecisionCase): EvaluationResult => {
  const r = run.evaluations.find((e) => e.queryId === c.id);
  if (!r) throw new Error(`no result for ${c.id}`);
  return r;
};
const summary = (r: EvaluationResult) => `${r.status} ${r.scores?.total ?? '–'}: ${r.defects.map((d) => `${d.severity}/${d.code} ${d.title}`).join('; ') || 'no defects'}${r.error ? ` (error: ${r.error.message})` : ''}`;

beforeAll(async () => {
  const dir = tmpDir('cookie-precision-');
  for (const c of cases) {
    const spec = { query: { id: c.id, prompt: c.query.prompt, language: c.query.language, kind: c.query.kind }, thresholds: { total: 0 }, candidates: [{ name: 'page', mode: 'html', path: c.file }] };
    fs.writeFileSync(path.join(dir, `${c.id}.cookie.yaml`), JSON.stringify(spec, null, 2)); // JSON is YAML
  }
  fs.writeFileSync(
    path.join(dir, 'cookie.config.ts'),
    `import { defineConfig } from ${JSON.stringify(path.join(ROOT, 'src', 'index.ts'))};\nexport default defineConfig({ concurrency: 2, agent: { kind: 'offline', steps: 16, seed: 1 }, recording: { video: false, audio: false }, timeouts: { perceive: 180_000 }, reporters: ['console'] });\n`,
  );
  cli = await runCli(['test', dir, '--config', path.join(dir, 'cookie.config.ts'), '--output-dir', path.join(dir, 'out'), '--no-cache'], { cwd: dir, timeoutMs: scaled(3_400_000) });
  run = readResults(path.join(dir, 'out'));
}, scaled(3_500_000));

describe('judge-precision suite (test/precision)', () => {
  it('has at least 20 clean and 20 planted cases, and every twin names a case', () => {
    expect(cases.filter((c) => c.expect === 'clean').length).toBeGreaterThanOrEqual(20);
    expect(cases.filter((c) => c.expect !== 'clean').length).toBeGreaterThanOrEqual(20);
    for (const c of cases) if (c.twin) expect(cases.map((x) => x.id), `${c.id} twin`).toContain(`${c.id.split('-')[0]}-${c.twin}`);
    expect(cli.stderr).toBe('');
  });

  it('clean pages get no major or critical defect', () => {
    const bad = cases.filter((c) => c.expect === 'clean').map((c) => ({ c, r: result(c) })).filter(({ r }) => r.status !== 'scored' || r.defects.some((d) => d.severity !== 'minor'));
    expect(bad.map(({ c, r }) => `${c.id}: ${summary(r)}`)).toEqual([]);
  });

  it('every planted defect is found with its code at the right severity', () => {
    const missed = cases
      .filter((c) => c.expect !== 'clean')
      .map((c) => ({ c, r: result(c), want: c.expect as { code: string; severity: string } }))
      .filter(({ r, want }) => !r.defects.some((d) => d.code === want.code && d.severity === want.severity));
    expect(missed.map(({ c, r, want }) => `${c.id} wants ${want.severity}/${want.code}; got ${summary(r)}`)).toEqual([]);
  });

  it('every clean twin scores above its broken twin', () => {
    const wrong = cases
      .filter((c) => c.twin)
      .map((c) => ({ c, broken: result(c), clean: result(cases.find((x) => x.id === `${c.id.split('-')[0]}-${c.twin}`)!) }))
      .filter(({ broken, clean }) => !(clean.scores && (!broken.scores || clean.scores.total > broken.scores.total)));
    expect(wrong.map(({ c, broken, clean }) => `${c.id}: clean ${clean.scores?.total} vs broken ${broken.scores?.total}`)).toEqual([]);
  });
});
