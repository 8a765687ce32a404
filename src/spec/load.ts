import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml, YAMLParseError } from '../vendor/yaml.js';
import { combineInputErrors, InputError } from '../errors.js';
import type { CandidateMode, Query, SpecInput, Suite } from '../types.js';
import { defaultExport, freshImport } from '../util/fresh-import.js';
import { timebox } from '../util/timebox.js';
import { didYouMean } from '../util/did-you-mean.js';
import { zodToInputError } from '../util/zod-error.js';
import { toIso6391 } from './language.js';
import { isPlainId, loadBenchQueries } from './queries-jsonl.js';
import { describeLoadError } from '../util/load-error.js';
import { SPEC_HINTS, specSchema } from './schema.js';

const KNOWN = {
  '': ['query', 'queries', 'select', 'candidates', 'thresholds', 'fixtures'],
  query: ['id', 'prompt', 'language', 'kind', 'category', 'difficulty'],
  candidate: ['name', 'mode', 'path', 'generate', 'thresholds', 'expectStatus'],
  thresholds: ['functionality', 'aesthetics', 'total'],
};

/** Unknown keys that look like typos of known ones (warnings: extra keys are allowed). */
function typoWarnings(raw: Record<string, unknown>, _file: string): { path: string; key: string; suggestion: string }[] {
  const out: { path: string; key: string; suggestion: string }[] = [];
  const check = (obj: unknown, known: string[], at: string) => {
    if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return;
    for (const k of Object.keys(obj)) {
      if (known.includes(k)) continue;
      const s = didYouMean(k, known);
      if (s) out.push({ path: at, key: k, suggestion: s });
    }
  };
  check(raw, KNOWN[''], '');
  check(raw.query, KNOWN.query, 'query');
  check(raw.thresholds, KNOWN.thresholds, 'thresholds');
  if (Array.isArray(raw.candidates)) raw.candidates.forEach((c, i) => {
    check(c, KNOWN.candidate, `candidates.${i}`);
    check((c as Record<string, unknown>)?.thresholds, KNOWN.thresholds, `candidates.${i}.thresholds`);
  });
  return out;
}

/** How long a TypeScript spec may take to load and build its spec, ms. */
const SPEC_LOAD_MS = 10_000;

/** True for a file name Cookie treats as a spec. */
export function isSpecFile(file: string): boolean {
  return /\.cookie\.(ya?ml|spec\.[cm]?[tj]s)$/.test(file);
}

/**
 * Read a spec file's raw object: YAML is parsed, a `*.cookie.spec.ts` is imported and its default export
 * (or its `spec` export) taken.
 * @throws InputError for YAML syntax errors (with line:col) and import failures
 */
export async function readSpecObject(file: string): Promise<unknown> {
  // (a TS spec may also export an array of specs, or a function returning one)
  if (/\.ya?ml$/.test(file)) {
    const text = fs.readFileSync(file, 'utf8');
    try {
      return parseYaml(text, { prettyErrors: true });
    } catch (e) {
      if (e instanceof YAMLParseError) {
        const pos = e.linePos?.[0];
        const at = pos ? `${file}:${pos.line}:${pos.col}` : file;
        throw new InputError(at, '(yaml)', e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, ''), 'fix the YAML syntax (indentation, quotes, colons)');
      }
      // the yaml package refuses aliases that expand past its limit (a "billion laughs" file) with a ReferenceError
      if (e instanceof Error && /alias count/i.test(e.message)) {
        throw new InputError(file, '(yaml)', `its aliases (*name) expand to too much data (${e.message})`, 'write the values out, or use fewer aliases of aliases; a spec needs no alias expanding more than a few times');
      }
      throw e;
    }
  }
  let mod: Record<string, unknown>;
  try {
    mod = await timebox(freshImport(file), SPEC_LOAD_MS, 'loading the spec');
  } catch (e) {
    const { why, fix } = describeLoadError(e, 'defineSpec');
    throw new InputError(file, '(file)', `cannot be loaded: ${why}`, fix);
  }
  const value = defaultExport(mod, 'spec');
  if (value === undefined) throw new InputError(file, 'default export', 'is missing', 'add `export default defineSpec({ query, candidates })`');
  if (typeof value !== 'function') return value;
  try {
    return await timebox(Promise.resolve((value as () => unknown)()), SPEC_LOAD_MS, 'building the spec');
  } catch (e) {
    throw new InputError(file, 'default export', `(a function) failed: ${(e as Error).message.split('\n')[0]}`, 'make it return the spec object (or a promise of it) within 10 s');
  }
}

/**
 * Validate a spec object and resolve its queries.
 * @param raw the parsed YAML or the TS spec's export
 * @param file the spec's path (relative paths inside resolve against its folder)
 * @returns the suite plus label problems found in a query file (reported, not fatal)
 * @throws InputError naming file, field and fix
 */
export function resolveSpec(raw: unknown, file: string): { suite: Suite; problems: string[] } {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new InputError(file, '(top level)', 'is not a mapping', 'write `query:` (or `queries:`) and `candidates:` at the top level');
  }
  const typos = typoWarnings(raw as Record<string, unknown>, file);
  const typoLines = typos.map((t) => `${file}: ${t.path ? `${t.path}.` : ''}${t.key}: unknown key — did you mean "${t.suggestion}"? (extra keys are allowed, but this one looks like a typo and is ignored)`);
  try {
    const r = buildSuite(raw, file, typos);
    return { suite: r.suite, problems: [...r.problems, ...typoLines] };
  } catch (e) {
    // the file's warnings come with its error, not only once the error is fixed
    if (e instanceof InputError) e.warnings.push(...typoLines);
    throw e;
  }
}

/** {@link resolveSpec} after its top-level check: every problem it can find in one pass, thrown together. */
function buildSuite(raw: object, file: string, typos: { path: string; key: string; suggestion: string }[]): { suite: Suite; problems: string[] } {
  // reportInput: a missing key is told apart from a wrong value ("is missing", src/util/zod-error.ts)
  const parsed = specSchema.safeParse(raw, { reportInput: true });
  if (!parsed.success) {
    const e = zodToInputError(file, parsed.error, SPEC_HINTS);
    // a missing key next to a likely typo of it: say so
    const typo = typos.find((t) => t.suggestion === e.field.split('.').pop() && t.path === e.field.split('.').slice(0, -1).join('.'));
    if (typo && /missing/.test(e.problem)) throw new InputError(file, e.field, e.problem, `did you mean "${typo.suggestion}" where you wrote "${typo.key}"?`);
    throw e;
  }
  const spec = parsed.data as SpecInput & typeof parsed.data;
  if (!!spec.query === !!spec.queries) {
    throw new InputError(file, spec.query ? 'queries' : 'query', spec.query ? 'is given together with `query`' : 'is missing', SPEC_HINTS.query!);
  }
  const dir = path.dirname(file);
  // problems found past the schema, all reported together
  const errors: InputError[] = [];
  let queries: Query[] = [];
  let queriesFile: string | undefined;
  let problems: string[] = [];
  if (spec.query) {
    const q = spec.query;
    const language = toIso6391(q.language);
    if (!isPlainId(q.id)) errors.push(new InputError(file, 'query.id', `"${q.id}" contains a path separator or is "." / ".." (it is put into candidate paths as {data_id})`, 'use a plain id such as todo-app, without /, \\ or ..'));
    if (!language) errors.push(new InputError(file, 'query.language', `"${q.language}" is not a known language`, SPEC_HINTS.language!));
    else queries = [{ id: q.id, prompt: q.prompt, language, languageLabel: q.language, kind: q.kind, category: q.category, difficulty: q.difficulty }];
  } else {
    const qfile = path.resolve(dir, spec.queries!);
    queriesFile = qfile;
    if (!fs.existsSync(qfile)) errors.push(new InputError(file, 'queries', `file not found: ${qfile}`, SPEC_HINTS.queries!));
    else {
      ({ queries, problems } = loadBenchQueries(qfile));
      if (spec.select) {
        const byId = new Map(queries.map((q) => [q.id, q]));
        const missing = spec.select.filter((id) => !byId.has(id));
        if (missing.length) errors.push(new InputError(file, 'select', `ids not in ${spec.queries}: ${missing.slice(0, 5).join(', ')}`, 'list data_id values that exist in the query file'));
        queries = spec.select.filter((id) => byId.has(id)).map((id) => byId.get(id)!);
      }
    }
  }
  const names = new Set<string>();
  spec.candidates.forEach((c, i) => {
    if (names.has(c.name)) errors.push(new InputError(file, `candidates.${i}.name`, `"${c.name}" is used twice`, 'give every candidate a distinct name'));
    if (!!c.path === !!c.generate) errors.push(new InputError(file, `candidates.${i}.${c.path ? 'generate' : 'path'}`, c.path ? 'is given together with `path`' : 'is missing', c.path ? 'give the artifact as `path:`, or `generate: { model, mode, prompt }` to have Cookie generate it, not both' : `${SPEC_HINTS.path!}, or \`generate: { model, mode, prompt }\` to have Cookie generate it`));
    if (!c.mode && !c.generate) errors.push(new InputError(file, `candidates.${i}.mode`, 'is missing', 'use "html" (a file or a static folder) or "react" (a Vite project folder)'));
    if (c.mode && c.generate && c.mode !== c.generate.mode) errors.push(new InputError(file, `candidates.${i}.mode`, `is "${c.mode}" but generate.mode is "${c.generate.mode}"`, 'leave out `mode` (generate.mode gives it) or make them match'));
    names.add(c.name);
  });
  if (errors.length) throw combineInputErrors(errors, 8);
  return {
    suite: {
      file,
      queries,
      candidates: spec.candidates.map((c) => ({ name: c.name, mode: (c.mode ?? c.generate!.mode) as CandidateMode, ...(c.path ? { path: c.path } : {}), ...(c.generate ? { generate: { ...c.generate, ...(c.generate.prompt ? { prompt: path.resolve(dir, c.generate.prompt) } : {}) } } : {}), thresholds: c.thresholds, expectStatus: c.expectStatus })),
      thresholds: spec.thresholds ?? {},
      ...(spec.fixtures ? { fixtures: spec.fixtures } : {}),
      ...(queriesFile ? { queriesFile } : {}),
    },
    problems,
  };
}

/**
 * Load one spec file (YAML or TypeScript) into a suite.
 * @throws InputError naming the file, the field and the fix
 */
export async function loadSpec(file: string): Promise<{ suite: Suite; problems: string[] }> {
  const raw = await readSpecObject(file);
  if (Array.isArray(raw)) throw new InputError(file, '(top level)', 'holds several specs', 'use loadSpecs for spec files that export an array');
  return resolveSpec(raw, file);
}

/**
 * Load a spec file into one or more suites: a TypeScript spec may export an array of specs (e.g. one per
 * query of a folder it lists). Field paths in errors are prefixed with the array index.
 * @throws InputError naming the file, the field and the fix
 */
export async function loadSpecs(file: string): Promise<{ suites: Suite[]; problems: string[] }> {
  const raw = await readSpecObject(file);
  const list = Array.isArray(raw) ? raw : [raw];
  if (!list.length) throw new InputError(file, '(top level)', 'is an empty list of specs', 'export at least one spec');
  const suites: Suite[] = [];
  const problems: string[] = [];
  list.forEach((item, i) => {
    try {
      const r = resolveSpec(item, file);
      suites.push(r.suite);
      problems.push(...r.problems);
    } catch (e) {
      if (e instanceof InputError && Array.isArray(raw)) throw Object.assign(new InputError(e.file, `${i}.${e.field}`, e.problem, e.fix), { warnings: e.warnings });
      throw e;
    }
  });
  return { suites, problems };
}
