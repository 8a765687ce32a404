import { Rng } from '../common/random.js';
import { shuffle } from '../common/shuffle.js';
import { toIso6391 } from '../spec/language.js';
import type { BenchRow } from './records.js';

/** The benchmark's eight languages and their share (paper A.6): 30% zh, 30% en, 40% across six others. */
export const DEFAULT_SPLIT: { languages: string[]; share: number }[] = [
  { languages: ['zh'], share: 0.3 },
  { languages: ['en'], share: 0.3 },
  { languages: ['fr', 'es', 'ja', 'de', 'ko', 'pt'], share: 0.4 },
];

/** Apportion `total` over weights exactly: floors plus largest remainder (ties by order). */
export function apportion(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (total * w) / sum);
  const out = exact.map(Math.floor);
  const order = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  const missing = total - out.reduce((a, b) => a + b, 0);
  for (let k = 0; k < missing; k++) out[order[k]!.i]!++;
  return out;
}

/** Per-language targets for a pool of `n` queries from the default 30/30/40 split. */
export function defaultTargets(n: number): Record<string, number> {
  const groups = apportion(n, DEFAULT_SPLIT.map((g) => g.share));
  const out: Record<string, number> = {};
  DEFAULT_SPLIT.forEach((g, k) => apportion(groups[k]!, g.languages.map(() => 1)).forEach((c, i) => (out[g.languages[i]!] = c)));
  return out;
}

/** One audit row: what happened to a query. */
export interface AuditRow {
  data_id: string;
  original_language: string;
  final_language: string;
  action: 'kept' | 'translate' | 'dropped';
  stratum: string;
}

/** The outcome of a rebalancing. */
export interface RebalanceResult {
  retained: BenchRow[];
  /** Residual queries with their assigned target language (`target_language`), to be translated. */
  residual: BenchRow[];
  audit: AuditRow[];
  targets: Record<string, number>;
  /** Per language: count before, retained, translated into it, final. */
  summary: Record<string, { before: number; retained: number; translatedIn: number; final: number }>;
}

const stratumOf = (r: BenchRow) => `${r.L1 ?? ''} | ${r.L2 ?? ''} | ${r.difficulty ?? ''}`;

/**
 * Language rebalancing exactly as paper Appendix A.6: for each over-represented language, retention rate =
 * target / current count; strata = L1 × L2 × difficulty; per-stratum quota = floor(n × rate), then the
 * largest remainders get +1 until the language's target is hit exactly (ties by stratum key); the retained
 * queries of a stratum are a seeded uniform draw. Languages at or under target keep every query; queries in
 * languages outside the targets join the residual pool. The residual pool and a slot pool of target
 * languages (one slot per missing query of each language) are both shuffled under the same seed and matched
 * position by position. Every query gets an audit row (original language, final language, action).
 * Same seed, same output.
 */
export function rebalance(rows: BenchRow[], targets: Record<string, number>, seed: number, idColumn = 'data_id'): RebalanceResult {
  const lang = (r: BenchRow) => toIso6391(r.language ?? '') ?? 'other';
  const byLang = new Map<string, number[]>();
  rows.forEach((r, i) => byLang.set(lang(r), [...(byLang.get(lang(r)) ?? []), i]));
  const kept = new Set<number>();
  for (const [code, idx] of byLang) {
    const target = targets[code];
    if (target === undefined) continue; // outside the eight: redistributed
    if (idx.length <= target) {
      idx.forEach((i) => kept.add(i));
      continue;
    }
    const rate = target / idx.length;
    const strata = new Map<string, number[]>();
    for (const i of idx) strata.set(stratumOf(rows[i]!), [...(strata.get(stratumOf(rows[i]!)) ?? []), i]);
    const keys = [...strata.keys()].sort();
    const quota = new Map(keys.map((k) => [k, Math.floor(strata.get(k)!.length * rate)]));
    let deficit = target - [...quota.values()].reduce((a, b) => a + b, 0);
    const byRemainder = keys.map((k) => ({ k, r: strata.get(k)!.length * rate - quota.get(k)! })).sort((a, b) => b.r - a.r || (a.k < b.k ? -1 : 1));
    for (const { k } of byRemainder) {
      if (deficit <= 0) break;
      quota.set(k, quota.get(k)! + 1);
      deficit--;
    }
    const rng = new Rng(seed);
    for (const k of keys) for (const i of shuffle(strata.get(k)!, rng).slice(0, quota.get(k)!)) kept.add(i);
  }
  const residualIdx = rows.map((_, i) => i).filter((i) => !kept.has(i));
  const slots: string[] = [];
  for (const [code, t] of Object.entries(targets)) {
    const have = (byLang.get(code) ?? []).filter((i) => kept.has(i)).length;
    for (let k = have; k < t; k++) slots.push(code);
  }
  const pool = shuffle(residualIdx, new Rng(seed));
  const slotPool = shuffle(slots, new Rng(seed));
  const assigned = new Map<number, string>();
  pool.forEach((i, k) => {
    if (k < slotPool.length) assigned.set(i, slotPool[k]!);
  });
  const audit: AuditRow[] = rows.map((r, i) => ({
    data_id: r[idColumn] ?? String(i),
    original_language: lang(r),
    final_language: kept.has(i) ? lang(r) : assigned.get(i) ?? '',
    action: kept.has(i) ? 'kept' : assigned.has(i) ? 'translate' : 'dropped',
    stratum: stratumOf(r),
  }));
  const summary: RebalanceResult['summary'] = {};
  for (const code of new Set([...Object.keys(targets), ...byLang.keys()])) {
    const before = byLang.get(code)?.length ?? 0;
    const retained = audit.filter((a) => a.action === 'kept' && a.final_language === code).length;
    const translatedIn = audit.filter((a) => a.action === 'translate' && a.final_language === code).length;
    summary[code] = { before, retained, translatedIn, final: retained + translatedIn };
  }
  return {
    retained: rows.filter((_, i) => kept.has(i)),
    residual: pool.filter((i) => assigned.has(i)).sort((a, b) => a - b).map((i) => ({ ...rows[i]!, target_language: assigned.get(i)! })),
    audit,
    targets,
    summary,
  };
}
