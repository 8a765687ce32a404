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

/**
 * Read a results.json and a human CSV, join them, and compute pairwise agreement per dimension.
 * Rows whose score cell is empty, and results not scored, are left out (and counted).
 * @throws InputError naming the file, the column and the fix
 */
export function agreementFromFiles(resultsFile: string, humanFile: string, o: AgreementOptions): { agreements: Agreement[]; joined: number; unmatched: string[]; items: Record<string, ScoredPair[]> } {
  for (const f of [resultsFile, humanFile]) if (!fs.existsSync(f)) throw new InputError(f, '(file)', 'not found', 'check the path');
  const results = (JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as { evaluations: EvaluationResult[] }).evaluations.filter((e) => !o.queries?.length || o.queries.includes(e.queryId));
  const rows = parse(fs.readFileSync(humanFile, 'utf8'), { columns: true, skip_empty_lines: true, trim: true, bom: true }) as Record<string, string>[];
  const cols = rows.length ? Object.keys(rows[0]!) : [];
  const need = [o.candidateColumn, ...Object.values(o.dimensions), ...(o.join === 'name' ? [o.queryColumn ?? ''] : [])];
  for (const c of need) if (!cols.includes(c)) throw new InputError(humanFile, c || '--human-query', `column is not in the CSV (columns: ${cols.join(', ')})`, 'pass the right column name');
  for (const d of Object.keys(o.dimensions)) if (!['functionality', 'aesthetics', 'total'].includes(d)) throw new InputError('--dim', d, 'is not a machine dimension', 'use functionality, aesthetics or total');
  const norm = (p: string) => p.replace(/\\/g, '/').replace(/^\.\//, '');
  const items: Record<string, ScoredPair[]> = Object.fromEntries(Object.keys(o.dimensions).map((d) => [d, []]));
  const unmatched: string[] = [];
  let joined = 0;
  for (const row of rows) {
    const cand = row[o.candidateColumn] ?? '';
    if (!cand) continue;
    const r =
      o.join === 'path'
        ? results.find((e) => norm(e.artifactPath).endsWith(`/${norm(cand)}`) || norm(e.artifactPath) === norm(cand))
        : results.find((e) => e.candidate === cand && e.queryId === row[o.queryColumn!]);
    if (!r) {
      if (!o.queries?.length) unmatched.push(cand);
      continue;
    }
    if (r.status !== 'scored' || !r.scores) continue;
    joined++;
    for (const [dim, col] of Object.entries(o.dimensions)) {
      const h = row[col];
      if (h === undefined || h === '' || Number.isNaN(Number(h))) continue;
      items[dim]!.push({ query: r.queryId, candidate: r.candidate, human: Number(h), machine: r.scores[dim as 'total'] });
    }
  }
  return { agreements: Object.entries(items).map(([d, it]) => pairwiseAgreement(it, d, o.humanTie, o.machineTie)), joined, unmatched, items };
}

/** Resolve a path against the working directory (for the CLI). */
export const resolveFrom = (cwd: string, p: string) => path.resolve(cwd, p);
