import { checkLanguage } from '../common/language-check.js';
import { toIso6391, languageName } from '../spec/language.js';
import type { BenchRow } from './records.js';
import { DOMAINS, LEAVES } from './taxonomy.js';

/** Widely used languages a disagreement may point to (besides those the file itself uses). */
const MAJOR = ['en', 'zh', 'es', 'fr', 'de', 'pt', 'it', 'ja', 'ko', 'ru', 'ar', 'hi', 'nl', 'pl', 'tr', 'vi', 'id', 'th', 'sv', 'uk', 'cs', 'el', 'he', 'ro', 'hu'];

/** Counts by field and the label problems found (reported, never fatal). */
export interface BenchStats {
  total: number;
  counts: Record<'L1' | 'L2' | 'L3' | 'difficulty' | 'language', [string, number][]>;
  problems: { id: string; field: string; problem: string }[];
}

const count = (rows: BenchRow[], k: string): [string, number][] => {
  const m = new Map<string, number>();
  for (const r of rows) m.set(r[k] ?? '', (m.get(r[k] ?? '') ?? 0) + 1);
  return [...m.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
};

/**
 * `cookie bench stats`: counts by L1, L2, L3, difficulty and language, and the label problems a loader must
 * tolerate (METHOD.md §10): an L2 not in the taxonomy, an L3 filed under the wrong L2 or L1, an L3 not in the
 * taxonomy, and a language label that language detection (franc + script share) confidently disagrees with.
 */
export function benchStats(rows: BenchRow[], queryColumn = 'query', idColumn = 'data_id'): BenchStats {
  const problems: BenchStats['problems'] = [];
  // a disagreement counts only when detection lands on a language the file itself uses (franc's rare
  // neighbours — Scots for English, Catalan for Spanish — are noise on short queries)
  const known = new Set([...rows.map((r) => toIso6391(r.language ?? '')).filter(Boolean), ...MAJOR]);
  rows.forEach((r, i) => {
    const id = r[idColumn] || `row ${i + 1}`;
    const l2 = r.L2 ?? '';
    const l3 = r.L3 ?? '';
    if (l2 && !DOMAINS.includes(l2)) problems.push({ id, field: 'L2', problem: `"${l2}" is not one of the 11 domains${DOMAINS.some((d) => d.startsWith(l2)) ? ` (missing its Static/Dynamic suffix?)` : ''}` });
    const leaf = LEAVES.find((x) => x.l3 === l3);
    if (l3 && !leaf) problems.push({ id, field: 'L3', problem: `"${l3}" is not one of the 54 leaves` });
    if (leaf && l2 && DOMAINS.includes(l2) && leaf.l2 !== l2) problems.push({ id, field: 'L3', problem: `"${l3}" belongs under "${leaf.l2}", not "${l2}"` });
    if (leaf && r.L1 && leaf.l1 !== r.L1) problems.push({ id, field: 'L1', problem: `"${l3}" is a leaf of "${leaf.l1}", not "${r.L1}"` });
    const label = r.language ?? '';
    const code = toIso6391(label);
    const text = r[queryColumn] ?? '';
    if (label && !code) problems.push({ id, field: 'language', problem: `"${label}" is not a known language` });
    else if (code && text) {
      const c = checkLanguage(text, code);
      if (c.matches === false && known.has(c.detected) && c.sampleLength >= 40) problems.push({ id, field: 'language', problem: `labelled ${label} but reads as ${languageName(c.detected)} (${c.detected})` });
    }
  });
  return { total: rows.length, counts: { L1: count(rows, 'L1'), L2: count(rows, 'L2'), L3: count(rows, 'L3'), difficulty: count(rows, 'difficulty'), language: count(rows, 'language') }, problems };
}
