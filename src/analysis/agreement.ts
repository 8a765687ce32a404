import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { InputError } from '../errors.js';
import type { EvaluationResult } from '../types.js';

/** One candidate of one query with a human and a machine score on one dimension. */
export interface ScoredPair {
  query: string;
  candidate: string;
  human: number;
  machine: number;
}

/** Pairwise agreement on one dimension (paper §5.2, Table 3). */
export interface Agreement {
  dimension: string;
  pairs: number;
  matches: number;
  /** matches / pairs, 0–1 (null with no pairs). */
  rate: number | null;
}

/** -1, 0 or 1: which side a score difference prefers; |diff| ≤ tie is a tie. */
const side = (diff: number, tie: number) => (Math.abs(diff) <= tie ? 0 : Math.sign(diff));

/**
 * Expand pointwise scores into pairwise preferences between candidates of the same query and count the
 * pairs where human and machine agree: both prefer the same side, or both call it a tie (paper §5.2).
 * @param humanTie largest human score difference that is a tie (human units)
 * @param machineTie largest machine score difference that is a tie (0–100)
 */
export function pairwiseAgreement(items: ScoredPair[], dimension: string, humanTie = 0, machineTie = 0): Agreement {
  const byQuery = new Map<string, ScoredPair[]>();
  for (const it of items) byQuery.set(it.query, [...(byQuery.get(it.query) ?? []), it]);
  let pairs = 0;
  let matches = 0;
  for (const group of byQuery.values()) {
    for (let i = 0; i < group.length; i++) {
      for (let j = i + 1; j < group.length; j++) {
        const a = group[i]!, b = group[j]!;
        pairs++;
        if (side(a.human - b.human, humanTie) === side(a.machine - b.machine, machineTie)) matches++;
      }
    }
  }
  return { dimension, pairs, matches, rate: pairs ? matches / pairs : null };
}

/** Options of {@link agreementFromFiles}. */
export interface AgreementOptions {
  /** How CSV rows find their result: by (query, candidate) names, or by the candidate column holding the artifact's path. */
  join: 'name' | 'path';
  candidateColumn: string;
  /** Needed for join 'name'. */
  queryColumn?: string;
  /** Machine dimension → human CSV column, e.g. { total: 'human_final_score' }. */
  dimensions: Record<string, string>;
  humanTie: number;
  machineTie: number;
  /** Only these query ids (default: all). */
  queries?: string[];
}

/** CSV rows left out of one dimension because their human score is not a number. */
export interface DroppedRows {
  dimension: string;
  column: string;
  /** Rows whose cell is empty. */
  empty: number;
  /** Rows whose cell is not a number (up to 3 examples as `line N: "cell"`). */
  notNumeric: number;
  examples: string[];
}

const MACHINE_DIMENSIONS = ['functionality', 'aesthetics', 'total'];

/**
 * The `cookie agreement` flags, checked: `--join` name|path, `--tie` 0–100 (machine scale), `--human-tie`
 * ≥ 0, each `--dim dimension=column` once per dimension and naming a machine dimension.
 * @throws InputError naming the flag, the value and the allowed values or range
 */
export function agreementFlags(f: { join?: unknown; tie?: unknown; humanTie?: unknown; dims?: string[] }): Pick<AgreementOptions, 'join' | 'machineTie' | 'humanTie' | 'dimensions'> {
  const join = String(f.join ?? 'name');
  if (join !== 'name' && join !== 'path') throw new InputError('--join', join, 'is not a join', 'use --join name (query + candidate columns) or --join path (candidate column holds the artifact path)');
  const tie = (flag: string, v: unknown, max: number) => {
    const n = v === undefined || v === '' || v === true ? NaN : Number(v);
    if (!Number.isFinite(n) || n < 0 || n > max) throw new InputError(flag, String(v), `is not a score difference ${max === Infinity ? '≥ 0' : `from 0 to ${max}`}`, `pass e.g. ${flag} 5${max === 100 ? ' (machine scores are 0–100)' : ' (in the units of the human scores)'}`);
    return n;
  };
  const dimensions: Record<string, string> = {};
  for (const d of f.dims ?? ['total=score']) {
    const k = d.slice(0, Math.max(0, d.indexOf('=')));
    const v = d.slice(d.indexOf('=') + 1);
    if (!k || !v) throw new InputError('--dim', d, 'expected dimension=column', 'e.g. --dim total=human_final_score');
    if (!MACHINE_DIMENSIONS.includes(k)) throw new InputError('--dim', d, `"${k}" is not a machine dimension`, `use ${MACHINE_DIMENSIONS.join(', ')}`);
    if (dimensions[k] !== undefined) throw new InputError('--dim', d, `dimension "${k}" given twice (also --dim ${k}=${dimensions[k]})`, 'pass one --dim per dimension');
    dimensions[k] = v;
  }
  return { join, machineTie: tie('--tie', f.tie ?? 0, 100), humanTie: tie('--human-tie', f.humanTie ?? 0, Infinity), dimensions };
}

/** A few values of a list for an error message: `a, b, c, … (12 in all)`. */
const some = (xs: string[], n = 5) => `${xs.slice(0, n).join(', ')}${xs.length > n ? `, … (${xs.length} in all)` : ''}`;

/** The evaluations of a results.json, or of the results.json inside an output dir. @throws InputError naming the file and what was expected */
function readResults(given: string): EvaluationResult[] {
  const fix = 'pass the results.json of a `cookie test` run or its output dir, e.g. --results cookie-results';
  let file = given;
  if (fs.statSync(file).isDirectory()) {
    file = path.join(given, 'results.json');
    if (!fs.existsSync(file)) throw new InputError(given, '(file)', 'is a folder without a results.json', fix);
  }
  let v: unknown;
  try {
    v = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new InputError(file, '(file)', `not JSON (${(e as Error).message.split('\n')[0]}); expected a Cookie results.json${/\.csv$/i.test(file) ? ' (this looks like the human CSV: that goes to --human)' : ''}`, fix);
  }
  const evaluations = (v as { evaluations?: unknown } | null)?.evaluations;
  if (!Array.isArray(evaluations)) throw new InputError(file, 'evaluations', 'is missing or not a list; expected a Cookie results.json', fix);
  return evaluations as EvaluationResult[];
}

/**
 * Read a results.json and a human CSV, join them, and compute pairwise agreement per dimension.
 * Results not scored are left out; rows whose score cell is empty or not a number are left out of that
 * dimension and counted in `dropped` (all of them dropped is an error).
 * @throws InputError naming the file, the column or key and the fix: unreadable files, a CSV row joined to
 *   a result another row already joined (both lines named), nothing joined (with values that exist)
 */
export function agreementFromFiles(resultsFile: string, humanFile: string, o: AgreementOptions): { agreements: Agreement[]; joined: number; unmatched: string[]; items: Record<string, ScoredPair[]>; dropped: DroppedRows[] } {
  for (const f of [resultsFile, humanFile]) if (!fs.existsSync(f)) throw new InputError(f, '(file)', 'not found', 'check the path');
  const all = readResults(resultsFile);
  const results = all.filter((e) => !o.queries?.length || o.queries.includes(e.queryId));
  const queryIds = [...new Set(all.map((e) => String(e.queryId)))];
  if (o.queries?.length && !results.length) throw new InputError(resultsFile, '--query', `${o.queries.join(', ')} matches no evaluation`, `use a query id of the run: ${some(queryIds)}`);
  if (fs.statSync(humanFile).isDirectory()) throw new InputError(humanFile, '(file)', 'is a folder; expected a CSV file of human scores', 'pass the CSV with --human');
  let parsed: { record: Record<string, string>; info: { lines: number } }[];
  try {
    parsed = parse(fs.readFileSync(humanFile, 'utf8'), { columns: true, skip_empty_lines: true, trim: true, bom: true, info: true }) as typeof parsed;
  } catch (e) {
    const line = (e as { lines?: number }).lines;
    throw new InputError(humanFile, line ? `line ${line}` : '(file)', `not a valid CSV (${(e as Error).message.split('\n')[0]})`, 'expected a CSV with a header row; close the quote or quote the field (a " inside a quoted field is written "")');
  }
  const rows = parsed.map((p) => p.record);
  const cols = rows.length ? Object.keys(rows[0]!) : [];
  const need = [o.candidateColumn, ...Object.values(o.dimensions), ...(o.join === 'name' ? [o.queryColumn ?? ''] : [])];
  for (const c of need) if (!cols.includes(c)) throw new InputError(humanFile, c || '--human-query', `column is not in the CSV (columns: ${cols.join(', ')})`, 'pass the right column name');
  for (const d of Object.keys(o.dimensions)) if (!MACHINE_DIMENSIONS.includes(d)) throw new InputError('--dim', d, 'is not a machine dimension', 'use functionality, aesthetics or total');
  const norm = (p: string) => p.replace(/\\/g, '/').replace(/^\.\//, '');
  const items: Record<string, ScoredPair[]> = Object.fromEntries(Object.keys(o.dimensions).map((d) => [d, []]));
  const dropped: Record<string, DroppedRows> = Object.fromEntries(Object.entries(o.dimensions).map(([d, c]) => [d, { dimension: d, column: c, empty: 0, notNumeric: 0, examples: [] }]));
  const unmatched: string[] = [];
  const joinedBy = new Map<string, { line: number; key: string }>();
  let joined = 0;
  parsed.forEach(({ record: row, info }) => {
    const cand = row[o.candidateColumn] ?? '';
    if (!cand) return;
    const key = o.join === 'path' ? cand : `${row[o.queryColumn!]}/${cand}`;
    const r =
      o.join === 'path'
        ? results.find((e) => norm(e.artifactPath).endsWith(`/${norm(cand)}`) || norm(e.artifactPath) === norm(cand))
        : results.find((e) => e.candidate === cand && e.queryId === row[o.queryColumn!]);
    if (!r) {
      if (!o.queries?.length) unmatched.push(cand);
      return;
    }
    const before = joinedBy.get(r.id);
    if (before) throw new InputError(humanFile, o.join === 'path' ? o.candidateColumn : `${o.queryColumn}+${o.candidateColumn}`, `"${key}" on line ${info.lines} joins result ${r.id}, as "${before.key}" on line ${before.line} already did (its scores would count twice)`, 'keep one row per evaluation');
    joinedBy.set(r.id, { line: info.lines, key });
    if (r.status !== 'scored' || !r.scores) return;
    joined++;
    for (const [dim, col] of Object.entries(o.dimensions)) {
      const h = row[col];
      const dr = dropped[dim]!;
      if (h === undefined || h === '') {
        dr.empty++;
        continue;
      }
      if (!Number.isFinite(Number(h))) {
        dr.notNumeric++;
        if (dr.examples.length < 3) dr.examples.push(`line ${info.lines}: "${h}"`);
        continue;
      }
      items[dim]!.push({ query: r.queryId, candidate: r.candidate, human: Number(h), machine: r.scores[dim as 'total'] });
    }
  });
  if (!joined) {
    const values = o.join === 'path' ? results.map((e) => norm(e.artifactPath)) : results.map((e) => `${e.queryId}/${e.candidate}`);
    const csvValues = [...new Set(rows.map((row) => (o.join === 'path' ? row[o.candidateColumn] ?? '' : `${row[o.queryColumn!]}/${row[o.candidateColumn]}`)).filter(Boolean))];
    const scored = results.filter((e) => e.status === 'scored').length;
    throw new InputError(humanFile, o.join === 'path' ? o.candidateColumn : `${o.queryColumn}+${o.candidateColumn}`, joinedBy.size ? `matched ${joinedBy.size} result(s), none of them scored` : `no row matches a ${scored ? 'scored ' : ''}evaluation of ${resultsFile} (--join ${o.join}; CSV has ${some(csvValues, 3) || 'no values'}; results have ${some(values, 3) || 'none'})`, o.join === 'path' ? 'the candidate column must hold the end of each artifact path; or use --join name' : 'the query and candidate columns must hold the query ids and candidate names of the run; or use --join path');
  }
  for (const d of Object.values(dropped)) if (d.empty + d.notNumeric === joined) throw new InputError(humanFile, d.column, `no joined row has a numeric score (${d.empty} empty, ${d.notNumeric} not a number${d.examples.length ? `: ${d.examples.join(', ')}` : ''})`, 'pass the column holding the human scores with --dim');
  return { agreements: Object.entries(items).map(([d, it]) => pairwiseAgreement(it, d, o.humanTie, o.machineTie)), joined, unmatched, items, dropped: Object.values(dropped).filter((d) => d.empty + d.notNumeric) };
}

/** Resolve a path against the working directory (for the CLI). */
export const resolveFrom = (cwd: string, p: string) => path.resolve(cwd, p);
