import fs from 'node:fs';
import { combineInputErrors, InputError } from '../errors.js';
import type { Query, QueryKind } from '../types.js';
import { toIso6391 } from './language.js';

/** One raw record of the Cookie-Bench JSONL format (METHOD.md §10). */
export interface BenchRecord {
  data_id: string;
  query: string;
  L1?: string;
  L2?: string;
  L3?: string;
  difficulty?: string;
  language?: string;
}

/** Page type from an L1 label ("Static web pages" | "Dynamic web pages"), null when unrecognised. */
export function kindFromL1(l1: string | undefined): QueryKind | null {
  if (!l1) return null;
  if (/^static/i.test(l1)) return 'static';
  if (/^dynamic/i.test(l1)) return 'dynamic';
  return null;
}

/** True for a data_id that is safe as a file name in a `{data_id}` path: no `/`, `\\` or NUL, not `.` or `..`. */
export function isPlainId(id: string): boolean {
  return !/[/\\\0]/.test(id) && id !== '.' && id !== '..';
}

/**
 * Load a Cookie-Bench JSONL file into queries. Tolerates label noise (unknown L1 → dynamic, unknown
 * language → `und`) and reports it in `problems`, never crashing on it (METHOD.md §10).
 * A UTF-8 byte-order mark and CRLF line ends are accepted.
 * @throws InputError listing every line that is not JSON, lacks `data_id` / `query`, has a data_id with a path separator or `..`, or repeats a `data_id` (file:line named, one line each)
 */
export function loadBenchQueries(file: string): { queries: Query[]; problems: string[] } {
  if (!fs.existsSync(file)) throw new InputError(file, 'queries', 'query file not found', 'check the path (relative to the spec file)');
  const text = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, ''); // a byte-order mark is not JSON
  const queries: Query[] = [];
  const problems: string[] = [];
  const errors: InputError[] = [];
  const seen = new Map<string, number>(); // data_id → line
  text.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return;
    const where = `${file}:${i + 1}`;
    let rec: BenchRecord;
    try {
      rec = JSON.parse(line);
    } catch (e) {
      errors.push(new InputError(where, '(line)', `is not valid JSON (${(e as Error).message})`, 'write one JSON object per line'));
      return;
    }
    if (!rec || typeof rec !== 'object') return void errors.push(new InputError(where, '(line)', 'is not a JSON object', 'write one JSON object per line'));
    if (rec.data_id === undefined || rec.data_id === null || String(rec.data_id).trim() === '') return void errors.push(new InputError(where, 'data_id', 'is missing', 'give every record a unique data_id'));
    if (typeof rec.query !== 'string' || !rec.query.trim()) return void errors.push(new InputError(where, 'query', 'is missing or empty', "put the user's brief in `query`"));
    const id = String(rec.data_id);
    // {data_id} is put into candidate paths: an id that is not a plain file name would reach outside the answers folder
    if (!isPlainId(id)) return void errors.push(new InputError(where, 'data_id', `"${id}" contains a path separator or is "." / ".." (it is put into candidate paths as {data_id})`, 'use a plain id such as webdev_1, without /, \\ or ..'));
    const first = seen.get(id);
    if (first !== undefined) return void errors.push(new InputError(where, 'data_id', `"${id}" is also the data_id of line ${first} (${file}:${first} and ${file}:${i + 1})`, 'give every record a unique data_id'));
    seen.set(id, i + 1);
    let kind = kindFromL1(rec.L1);
    if (!kind) {
      problems.push(`${where}: L1 "${rec.L1 ?? ''}" is not Static/Dynamic web pages; treated as dynamic`);
      kind = 'dynamic';
    }
    const label = rec.language ?? '';
    const language = toIso6391(label);
    if (!language) problems.push(`${where}: language "${label}" is not a known language; language check skipped`);
    queries.push({
      id,
      prompt: rec.query,
      language: language ?? 'und',
      languageLabel: label,
      kind,
      category: rec.L2,
      leaf: rec.L3,
      difficulty: rec.difficulty,
    });
  });
  if (errors.length) throw combineInputErrors(errors, 20); // every bad line at once, one line each
  return { queries, problems };
}
