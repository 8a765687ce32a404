import { stringify } from 'csv-stringify/sync';
import { writeTextAtomic } from '../util/atomic.js';

/** Write rows as CSV with a header (csv-stringify), atomically. */
export function writeCsv(file: string, rows: Record<string, unknown>[], columns?: string[]): void {
  const cols = columns ?? [...new Set(rows.flatMap((r) => Object.keys(r)))];
  writeTextAtomic(file, stringify(rows, { header: true, columns: cols }));
}

/** Write rows as JSONL, atomically. */
export function writeJsonl(file: string, rows: unknown[]): void {
  writeTextAtomic(file, rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : ''));
}
