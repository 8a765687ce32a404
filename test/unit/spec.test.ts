import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { discoverSpecs } from '../../src/spec/discover.js';
import { loadSpec, loadSpecs, resolveSpec } from '../../src/spec/load.js';
import { loadBenchQueries } from '../../src/spec/queries-jsonl.js';
import { expandTasks } from '../../src/spec/tasks.js';
import { ROOT, SHARED, tmpDir, writeFiles, scaled } from '../helpers.js';

const good = {
  query: { id: 'q1', prompt: 'Make a clock', language: 'Chinese', kind: 'dynamic' },
  candidates: [{ name: 'm1', mode: 'html', path: 'a.html' }],
};

function errorOf(raw: unknown, file = '/x/spec.cookie.yaml'): InputError {
  try {
    resolveSpec(raw, file);
  } catch (e) {
    return e as InputError;
  }
  throw new Error('expected an InputError');
}

describe('spec validation', () => {
  it('accepts a valid inline query, normalises the language and keeps unknown keys', () => {
    const { suite } = resolveSpec({ ...good, notes: 'extra keys are allowed' }, '/x/s.cookie.yaml');
    expect(suite.queries[0]).toMatchObject({ id: 'q1', language: 'zh', languageLabel: 'Chinese', kind: 'dynamic' });
    expect(suite.candidates[0]).toMatchObject({ name: 'm1', mode: 'html', path: 'a.html' });
  });

  it.each([
    [{ ...good, query: { ...good.query, kind: 'interactive' } }, 'query.kind', 'static'],
    [{ ...good, query: { ...good.query, language: 'Klingon' } }, 'query.language', 'ISO 639-1'],
    [{ ...good, candidates: [{ name: 'm1', mode: 'vue', path: 'a.html' }] }, 'candidates.0.mode', '"html"'],
    [{ ...good, candidates: [{ name: 'm1', mode: 'html' }] }, 'candidates.0.path', 'file or folder'],
    [{ ...good, candidates: [] }, 'candidates', 'at least one candidate'],
    [{ candidates: good.candidates }, 'query', '`queries:`'],
    [{ ...good, queries: 'q.jsonl' }, 'queries', '`queries:`'],
    [{ ...good, candidates: [good.candidates[0], good.candidates[0]] }, 'candidates.1.name', 'distinct'],
    ['just a string', '(top level)', 'candidates:'],
  ])('rejects %j with one line naming file, field and fix', (raw, field, fix) => {
    const e = errorOf(raw);
    expect(e).toBeInstanceOf(InputError);
    expect(e.field).toBe(field);
    expect(e.message).toContain('/x/spec.cookie.yaml');
    expect(e.message).toContain(`: ${field}: `);
    expect(e.message).toContain('Fix: ');
    expect(e.fix).toContain(fix);
    expect(e.message.split('\n')[0]).toContain(`: ${field}: `);
  });

  it('warns about keys that look like typos, and points at them when the real key is missing', () => {
    const { problems } = resolveSpec({ ...good, treshold: { total: 50 }, query: { ...good.query, dificulty: 'Easy' } }, '/x/s.cookie.yaml');
    expect(problems).toEqual([
      '/x/s.cookie.yaml: treshold: unknown key — did you mean "thresholds"? (extra keys are allowed, but this one looks like a typo and is ignored)',
      '/x/s.cookie.yaml: query.dificulty: unknown key — did you mean "difficulty"? (extra keys are allowed, but this one looks like a typo and is ignored)',
    ]);
    const { prompt: _p, ...noPrompt } = good.query;
    const e = errorOf({ ...good, query: { ...noPrompt, promt: 'Make a clock' } });
    expect(e.message).toBe('/x/spec.cookie.yaml: query.prompt: is missing. Fix: did you mean "prompt" where you wrote "promt"?');
  });

  it('lists every problem of a file at once, one line each', () => {
    const e = errorOf({ query: { ...good.query, kind: 'x', language: 5 }, candidates: [{ name: 'a', mode: 'vue', path: 'a.html' }] });
    const lines = e.message.split('\n');
    expect(lines.length).toBe(3);
    for (const l of lines) expect(l).toMatch(/^\/x\/spec\.cookie\.yaml: [\w.]+: .*Fix: /);
  });

  it('reports YAML syntax errors with line and column', async () => {
    const dir = tmpDir();
    writeFiles(dir, { 'bad.cookie.yaml': 'query:\n  id: x\n  prompt: "unclosed\ncandidates: [\n' });
    await expect(loadSpec(path.join(dir, 'bad.cookie.yaml'))).rejects.toThrow(/bad\.cookie\.yaml:\d+:\d+: \(yaml\): .* Fix: fix the YAML syntax/);
  });

  it('loads a TypeScript spec through defineSpec', async () => {
    const { suite } = await loadSpec(path.join(ROOT, 'examples/landing/landing.cookie.spec.ts'));
    expect(suite.queries[0]!.id).toBe('coffee-landing');
    expect(suite.candidates[0]!.thresholds).toEqual({ total: 70 });
  });

  it('expands {data_id} paths against the spec folder and layers thresholds', () => {
    const dir = tmpDir();
    writeFiles(dir, {
      'q.jsonl': [
        JSON.stringify({ data_id: 'webdev_1', query: 'a page', L1: 'Static web pages', L2: 'Display & Content', L3: 'Static Data Display', difficulty: 'Easy', language: 'English' }),
        JSON.stringify({ data_id: 'webdev_2', query: '一个页面', L1: 'Dynamic web pages', L2: 'Browser Games', difficulty: 'Hard', language: 'Chinese' }),
      ].join('\n'),
    });
    const { suite } = resolveSpec({ queries: 'q.jsonl', thresholds: { total: 40 }, candidates: [{ name: 'gpt x', mode: 'html', path: 'out/{data_id}/index.html', thresholds: { functionality: 50 } }] }, path.join(dir, 's.cookie.yaml'));
    const tasks = expandTasks([suite], { aesthetics: 10 });
    expect(tasks.map((t) => t.id)).toEqual(['webdev_1/gpt-x', 'webdev_2/gpt-x']);
    expect(tasks[1]!.candidate.artifactPath).toBe(path.join(dir, 'out/webdev_2/index.html'));
    expect(tasks[1]!.query).toMatchObject({ kind: 'dynamic', language: 'zh', category: 'Browser Games' });
    expect(tasks[0]!.thresholds).toEqual({ aesthetics: 10, total: 40, functionality: 50 });
  });

  it('select restricts a query file and names ids that do not exist', () => {
    const dir = tmpDir();
    writeFiles(dir, { 'q.jsonl': JSON.stringify({ data_id: 'a', query: 'x', L1: 'Static web pages', language: 'en' }) + '\n' });
    const e = errorOf({ queries: 'q.jsonl', select: ['a', 'zzz'], candidates: good.candidates }, path.join(dir, 's.cookie.yaml'));
    expect(e.field).toBe('select');
    expect(e.message).toContain('zzz');
  });
});

describe('Cookie-Bench JSONL', () => {
  it('loads the 1,000 queries and reports label noise instead of crashing', () => {
    const { queries, problems } = loadBenchQueries(path.join(SHARED, 'cookie-bench/cookie_bench_1000q.jsonl'));
    expect(queries).toHaveLength(1000);
    expect(queries.filter((q) => q.kind === 'dynamic')).toHaveLength(772);
    expect(queries.filter((q) => q.language === 'zh')).toHaveLength(300);
    expect(queries.every((q) => q.language !== 'und')).toBe(true);
    expect(problems).toEqual([]);
  });

  it('names the file and line of a malformed record', () => {
    const dir = tmpDir();
    const f = path.join(dir, 'q.jsonl');
    fs.writeFileSync(f, `${JSON.stringify({ data_id: 'a', query: 'x' })}\n{not json}\n`);
    expect(() => loadBenchQueries(f)).toThrow(new RegExp(`q\\.jsonl:2: \\(line\\): is not valid JSON`));
    fs.writeFileSync(f, `${JSON.stringify({ data_id: 'a', query: 'x', L1: 'Web pages', language: 'Elvish' })}\n`);
    const { queries, problems } = loadBenchQueries(f);
    expect(queries[0]).toMatchObject({ kind: 'dynamic', language: 'und' });
    expect(problems.join('\n')).toMatch(/L1 "Web pages".*\n.*language "Elvish"/);
  });

  it('lists every bad line at once; accepts a byte-order mark and CRLF line ends', () => {
    const dir = tmpDir();
    const f = path.join(dir, 'q.jsonl');
    fs.writeFileSync(f, `\uFEFF${JSON.stringify({ data_id: 'a', query: 'x', language: 'English' })}\r\n{not json}\r\n${JSON.stringify({ data_id: 'c', query: '' })}\r\n${JSON.stringify({ query: 'y' })}\r\n`);
    const message = (() => {
      try {
        loadBenchQueries(f);
        return '';
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(message.split('\n')).toEqual([
      expect.stringMatching(/q\.jsonl:2: \(line\): is not valid JSON .*Fix:/),
      expect.stringMatching(/q\.jsonl:3: query: is missing or empty\. Fix:/),
      expect.stringMatching(/q\.jsonl:4: data_id: is missing\. Fix:/),
    ]);
    fs.writeFileSync(f, `\uFEFF${JSON.stringify({ data_id: 'a', query: 'x', language: 'English' })}\r\n`);
    expect(loadBenchQueries(f).queries[0]).toMatchObject({ id: 'a', prompt: 'x', language: 'en' });
  });
});

describe('spec discovery', () => {
  it('finds YAML and TS specs in folders and rejects non-spec files', async () => {
    const files = await discoverSpecs(['examples'], ROOT, ['**/*.cookie.{yaml,yml}', '**/*.cookie.spec.ts'], ['**/node_modules/**']);
    expect(files.map((f) => path.relative(ROOT, f))).toEqual(['examples/counter-zh/counter.cookie.yaml', 'examples/fixtures/reading-list.cookie.spec.ts', 'examples/game/game.cookie.yaml', 'examples/landing/landing.cookie.spec.ts', 'examples/react/react.cookie.yaml', 'examples/todo/todo.cookie.yaml']);
    await expect(discoverSpecs(['package.json'], ROOT, ['**/*'], [])).rejects.toThrow(/is not a spec file/);
    await expect(discoverSpecs(['nope'], ROOT, ['**/*'], [])).rejects.toThrow(/does not exist/);
  });
});

describe('TypeScript specs that misbehave', () => {
  it('a spec that never finishes loading is an error naming the file, not a silent exit', async () => {
    const dir = tmpDir();
    writeFiles(dir, { 'never.cookie.spec.ts': 'export default () => new Promise(() => {});\n' });
    await expect(loadSpec(path.join(dir, 'never.cookie.spec.ts'))).rejects.toThrow(/never\.cookie\.spec\.ts: default export: \(a function\) failed: building the spec timed out after 10000 ms/);
  }, scaled(20_000));
  it('a spec calling process.exit(0) is an error naming the file, not a silent exit 0 that CI reads as a pass', async () => {
    const dir = tmpDir();
    writeFiles(dir, {
      'quit.cookie.spec.ts': 'process.exit(0);\nexport default {};\n',
      // an ES module project file too (its stack shows the file URL, the CommonJS one a data: URL naming it)
      'esm/package.json': '{ "type": "module" }\n',
      'esm/quit.cookie.spec.ts': 'process.exit(3);\nexport default {};\n',
    });
    await expect(loadSpec(path.join(dir, 'quit.cookie.spec.ts'))).rejects.toThrow(/quit\.cookie\.spec\.ts: \(file\): cannot be loaded: .*quit\.cookie\.spec\.ts called process\.exit\(0\): a spec, config or plugin must not end Cookie's run/);
    await expect(loadSpec(path.join(dir, 'esm', 'quit.cookie.spec.ts'))).rejects.toThrow(/esm\/quit\.cookie\.spec\.ts called process\.exit\(3\)/);
  });
  it('a YAML alias bomb is refused with the file, the cause and a fix, without expanding it', async () => {
    const dir = tmpDir();
    const rows = ['a: &a [x, x, x, x, x, x, x, x, x]', ...'bcdefghi'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(', ')}]`)];
    writeFiles(dir, { 'bomb.cookie.yaml': `${rows.join('\n')}\nquery: { id: q, prompt: hi, language: en }\ncandidates: [ { name: c, mode: html, path: c.html } ]\n` });
    await expect(loadSpec(path.join(dir, 'bomb.cookie.yaml'))).rejects.toThrow(/bomb\.cookie\.yaml: \(yaml\): its aliases \(\*name\) expand to too much data .*Fix: write the values out/);
  });
  it('a syntax error names its cause', async () => {
    const dir = tmpDir();
    writeFiles(dir, { 'bad.cookie.spec.ts': 'export default { query: { id: "x", prompt: "y" ;\n' });
    await expect(loadSpec(path.join(dir, 'bad.cookie.spec.ts'))).rejects.toThrow(/bad\.cookie\.spec\.ts: \(file\): cannot be loaded: .*(Expected|Transform failed).*Fix: fix the syntax error/);
  });
  it('a missing import and a throwing spec get their own fix, not "a syntax error"', async () => {
    const dir = tmpDir();
    writeFiles(dir, {
      'imp.cookie.spec.ts': "import { defineSpec } from 'cookie-eval';\nexport default defineSpec({} as never);\n",
      'other.cookie.spec.ts': "import x from 'no-such-package-xyz';\nexport default x;\n",
      'throws.cookie.spec.ts': "throw new Error('boom');\n",
    });
    const outside = fs.mkdtempSync('/tmp/cookie-outside-'); // no node_modules above it
    fs.copyFileSync(path.join(dir, 'imp.cookie.spec.ts'), path.join(outside, 'imp.cookie.spec.ts'));
    await expect(loadSpec(path.join(outside, 'imp.cookie.spec.ts'))).rejects.toThrow(/cannot be loaded: .*cookie-eval.*Fix: cookie-eval is not installed where this file is.*export default \{ \.\.\. \}/);
    await expect(loadSpec(path.join(dir, 'other.cookie.spec.ts'))).rejects.toThrow(/Fix: install no-such-package-xyz next to this file/);
    await expect(loadSpec(path.join(dir, 'throws.cookie.spec.ts'))).rejects.toThrow(/cannot be loaded: boom\. Fix: fix the error the file throws when it loads/);
    fs.rmSync(outside, { recursive: true, force: true }); // outside the run's temporary folder: nobody else removes it
  });
  it('in a CommonJS project, a package that exports only to import() is named as the cause (not "the error the file throws")', async () => {
    // what `npm init -y` makes ("type": "commonjs"): tsx loads a .ts spec there with require() conditions
    const dir = fs.mkdtempSync('/tmp/cookie-cjs-');
    writeFiles(dir, {
      'package.json': JSON.stringify({ name: 'p', type: 'commonjs' }),
      'node_modules/esm-only/package.json': JSON.stringify({ name: 'esm-only', type: 'module', exports: { '.': { import: './index.js' }, './config': { import: './index.js' } } }),
      'node_modules/esm-only/index.js': 'export const defineSpec = (s) => s;\n',
      'main.cookie.spec.ts': "import { defineSpec } from 'esm-only';\nexport default defineSpec({});\n",
      'sub.cookie.spec.ts': "import { defineSpec } from 'esm-only/config';\nexport default defineSpec({});\n",
    });
    for (const [f, sub] of [['main', '.'], ['sub', './config']] as const) {
      const e = await loadSpec(path.join(dir, `${f}.cookie.spec.ts`)).then(() => null, (x: Error) => x);
      expect(e?.message).toMatch(/cannot be loaded: .*"exports"/);
      expect(e?.message).toContain(`Fix: esm-only (${dir}/node_modules/esm-only/) does not export "${sub}" to this file, which is loaded with require() when the nearest package.json has no "type": "module"`);
      expect(e?.message).not.toMatch(/the error the file throws/);
    }
    fs.rmSync(dir, { recursive: true, force: true }); // outside the run's temporary folder: nobody else removes it
  });
});

describe('every problem of a spec file at once', () => {
  it('a spec error comes with the file\'s typo warnings and every candidate problem, not one per round', async () => {
    const dir = tmpDir();
    writeFiles(dir, { 'a.cookie.yaml': 'query:\n  id: q\n  prompt: p\n  language: en\n  kind: dynamic\n  dificulty: Easy\ncandidates:\n  - { name: c, mode: html, path: a.html }\n  - { name: c, path: b.html }\n' });
    const e = await loadSpecs(path.join(dir, 'a.cookie.yaml')).then(() => null, (x: InputError) => x);
    expect(e).toBeInstanceOf(InputError);
    expect(e!.message.split('\n').map((l) => l.replace(`${dir}/`, ''))).toEqual([
      'a.cookie.yaml: candidates.1.name: "c" is used twice. Fix: give every candidate a distinct name',
      'a.cookie.yaml: candidates.1.mode: is missing. Fix: use "html" (a file or a static folder) or "react" (a Vite project folder)',
    ]);
    expect(e!.warnings).toEqual([`${path.join(dir, 'a.cookie.yaml')}: query.dificulty: unknown key — did you mean "difficulty"? (extra keys are allowed, but this one looks like a typo and is ignored)`]);
  });
});

describe('the same query or candidate in two places', () => {
  const spec = (id: string, prompt: string, names: string[], file: string) => resolveSpec({ query: { id, prompt, language: 'en', kind: 'dynamic' }, candidates: names.map((name) => ({ name, mode: 'html', path: 'a.html' })) }, file).suite;

  it('one query id with two different briefs is an error naming both files', () => {
    expect(() => expandTasks([spec('same', 'Make a calculator', ['m1'], '/d/a.cookie.yaml'), spec('same', 'Make a weather dashboard', ['m1'], '/d/b.cookie.yaml')], {})).toThrow(
      '/d/b.cookie.yaml: query.id: "same" is also the id of a different query (prompt differs) in /d/a.cookie.yaml. Fix: give every query its own id',
    );
  });

  it('the same brief in two specs splits its candidates across them; a candidate given twice is an error naming both places', () => {
    const tasks = expandTasks([spec('same', 'Make a calculator', ['m1'], '/d/a.cookie.yaml'), spec('same', 'Make a calculator', ['m2'], '/d/b.cookie.yaml')], {});
    expect(tasks.map((t) => t.id)).toEqual(['same/m1', 'same/m2']);
    expect(() => expandTasks([spec('same', 'Make a calculator', ['m1'], '/d/a.cookie.yaml'), spec('same', 'Make a calculator', ['m1'], '/d/b.cookie.yaml')], {})).toThrow(
      '/d/b.cookie.yaml: candidates.0.name: candidate "m1" of query "same" is also given in /d/a.cookie.yaml. Fix:',
    );
    // two entries of one TS spec array
    expect(() => expandTasks([spec('same', 'P', ['m1'], '/d/t.cookie.spec.ts'), spec('same', 'Q', ['m1'], '/d/t.cookie.spec.ts')], {})).toThrow('/d/t.cookie.spec.ts (spec 1): query.id: "same" is also the id of a different query (prompt differs) in /d/t.cookie.spec.ts (spec 0)');
  });

  it('names that become the same task id once made file-system safe are an error naming both', () => {
    expect(() => expandTasks([spec('q', 'P', ['a/b', 'a-b'], '/d/a.cookie.yaml')], {})).toThrow(
      '/d/a.cookie.yaml: candidates.1.name: query "q" × candidate "a-b" has the same task id "q/a-b" as query "q" × candidate "a/b" in /d/a.cookie.yaml',
    );
  });

  it('a data_id twice in a JSONL file is an error naming the file and both lines', () => {
    const dir = tmpDir();
    writeFiles(dir, { 'q.jsonl': [{ data_id: 'w1', query: 'a' }, { data_id: 'w2', query: 'b' }, { data_id: 'w1', query: 'c' }].map((r) => JSON.stringify({ ...r, L1: 'Static web pages', language: 'English' })).join('\n') });
    const file = path.join(dir, 'q.jsonl');
    expect(() => loadBenchQueries(file)).toThrow(`${file}:3: data_id: "w1" is also the data_id of line 1 (${file}:1 and ${file}:3). Fix: give every record a unique data_id`);
  });
});

describe('blank ids, names and briefs', () => {
  it('a blank query id, prompt or candidate name is an error naming file and field', () => {
    const q = good.query;
    expect(errorOf({ ...good, query: { ...q, id: '  ' } }).message).toBe('/x/spec.cookie.yaml: query.id: is empty or blank. Fix: give the query a unique id such as "todo-app"');
    expect(errorOf({ ...good, query: { ...q, prompt: '   ' } }).message).toBe("/x/spec.cookie.yaml: query.prompt: is empty or blank. Fix: give the user's brief as `prompt:`");
    expect(errorOf({ ...good, candidates: [{ name: '  ', mode: 'html', path: 'a.html' }, { name: '\t', mode: 'html', path: 'b.html' }] }).message).toBe(
      ['/x/spec.cookie.yaml: candidates.0.name: is empty or blank. Fix: name the candidate, usually after the model', '/x/spec.cookie.yaml: candidates.1.name: is empty or blank. Fix: name the candidate, usually after the model'].join('\n'),
    );
  });

  it('a blank data_id in JSONL is missing', () => {
    const dir = tmpDir();
    writeFiles(dir, { 'q.jsonl': JSON.stringify({ data_id: '  ', query: 'a', L1: 'Static web pages', language: 'English' }) });
    expect(() => loadBenchQueries(path.join(dir, 'q.jsonl'))).toThrow(`${path.join(dir, 'q.jsonl')}:1: data_id: is missing`);
  });
});

describe('missing query keys', () => {
  it('a missing id (string or number) and a missing kind (enum) say "is missing"', () => {
    const { id: _id, kind: _kind, ...rest } = good.query;
    expect(errorOf({ ...good, query: rest }).message).toBe(
      ['/x/spec.cookie.yaml: query.id: is missing. Fix: give the query a unique id such as "todo-app"', '/x/spec.cookie.yaml: query.kind: is missing. Fix: use "static" or "dynamic"'].join('\n'),
    );
    // a wrong kind is still a wrong value
    expect(errorOf({ ...good, query: { ...good.query, kind: 'x' } }).message).toMatch(/query\.kind: Invalid option/);
  });
});
