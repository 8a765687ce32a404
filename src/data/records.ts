import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { InputError } from '../errors.js';

/** A benchmark record: the Cookie-Bench JSONL fields plus whatever else the file carries. */
export type BenchRow = Record<string, string>;

/**
 * Read a query file: Cookie-Bench JSONL (one object a line) or CSV with a header row (csv-parse).
 * Values are kept as strings. Label noise is kept as is (this is the data, not a judgement of it).
 * @throws InputError naming file:line for a line that is not JSON
 */
export function readRows(file: string): BenchRow[] {
  if (!fs.existsSync(file)) throw new InputError(file, '(file)', 'not found', 'check the path');
  const text = fs.readFileSync(file, 'utf8');
  if (/\.csv$/i.test(file)) return parse(text, { columns: true, skip_empty_lines: true, bom: true }) as BenchRow[];
  const rows: BenchRow[] = [];
  text.replace(/^\uFEFF/, '').split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return;
    try {
      const o = JSON.parse(line) as Record<string, unknown>;
      rows.push(Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v === null || v === undefined ? '' : String(v)])));
    } catch (e) {
      throw new InputError(`${file}:${i + 1}`, '(line)', `is not valid JSON (${(e as Error).message})`, 'write one JSON object per line');
    }
  });
  return rows;
}
