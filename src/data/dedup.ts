import crypto from 'node:crypto';
import type { BenchRow } from './records.js';

/** Options of {@link dedup} (paper Appendix A.1 defaults). */
export interface DedupOptions {
  /** Column holding the query text. */
  column: string;
  /** Character n-gram size of SimHash (default 2). */
  n: number;
  /** Pairs with Hamming distance below this are linked (default 3). */
  hamming: number;
  /** Character n-gram size of TF-IDF (default 2). */
  tfidfN: number;
  /** Pairs with cosine ≥ this are linked (default 0.85). */
  cosine: number;
}

/** The paper's defaults: SimHash n = 2 with Hamming < 3; TF-IDF n = 2 with cosine ≥ 0.85. */
export const DEDUP_DEFAULTS: Omit<DedupOptions, 'column'> = { n: 2, hamming: 3, tfidfN: 2, cosine: 0.85 };

/** Stage 1, normalisation: lower-case, whitespace collapsed, edge punctuation stripped (Unicode-aware, for every language). */
export function normalise(q: string): string {
  return q
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/gu, ' ')
    .trim()
    .replace(/^[\p{P}\p{S}\s]+|[\p{P}\p{S}\s]+$/gu, '');
}

/** Character n-grams of a string (code points, so CJK and emoji count as one character each). */
export function charNgrams(s: string, n: number): string[] {
  const cs = [...s];
  if (cs.length <= n) return cs.length ? [cs.join('')] : [];
  const out: string[] = [];
  for (let i = 0; i + n <= cs.length; i++) out.push(cs.slice(i, i + n).join(''));
  return out;
}

/** 64-bit SimHash (as a bigint) of a string over character n-grams, each weighted by its count (md5 feature hashes). */
export function simhash(s: string, n: number): bigint {
  const v = new Array<number>(64).fill(0);
  const counts = new Map<string, number>();
  for (const g of charNgrams(s, n)) counts.set(g, (counts.get(g) ?? 0) + 1);
  for (const [g, w] of counts) {
    const h = crypto.createHash('md5').update(g).digest();
    const x = h.readBigUInt64BE(0);
    for (let b = 0; b < 64; b++) v[b]! += (x >> BigInt(b)) & 1n ? w : -w;
  }
  let out = 0n;
  for (let b = 0; b < 64; b++) if (v[b]! > 0) out |= 1n << BigInt(b);
  return out;
}

/** Hamming distance of two 64-bit fingerprints. */
export function hamming(a: bigint, b: bigint): number {
  let x = a ^ b;
  let c = 0;
  while (x) {
    x &= x - 1n;
    c++;
  }
  return c;
}

/** Character n-gram TF-IDF vectors (L2-normalised, as sparse maps) of a list of strings. */
export function tfidf(texts: string[], n: number): Map<string, number>[] {
  const tfs = texts.map((t) => {
    const m = new Map<string, number>();
    for (const g of charNgrams(t, n)) m.set(g, (m.get(g) ?? 0) + 1);
    return m;
  });
  const df = new Map<string, number>();
  for (const m of tfs) for (const g of m.keys()) df.set(g, (df.get(g) ?? 0) + 1);
  const N = texts.length;
  return tfs.map((m) => {
    const v = new Map<string, number>();
    let norm = 0;
    for (const [g, tf] of m) {
      const w = tf * (Math.log((1 + N) / (1 + df.get(g)!)) + 1); // smoothed idf (scikit-learn's default)
      v.set(g, w);
      norm += w * w;
    }
    norm = Math.sqrt(norm) || 1;
    for (const [g, w] of v) v.set(g, w / norm);
    return v;
  });
}

/** Cosine of two L2-normalised sparse vectors. */
export function cosine(a: Map<string, number>, b: Map<string, number>): number {
  const [s, l] = a.size < b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [g, w] of s) {
    const x = l.get(g);
    if (x !== undefined) dot += w * x;
  }
  return dot;
}

/** Connected components over links (union-find). @returns the component root index of every item */
function components(n: number, linked: (i: number, j: number) => boolean): number[] {
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (find(i) !== find(j) && linked(i, j)) parent[find(j)] = find(i);
  return parent.map((_, i) => find(i));
}

/** A cluster: its representative and every member, as row indices into the input. */
export interface Cluster {
  representative: number;
  members: number[];
}

/** The result of the five stages. */
export interface DedupResult {
  normalised: string[];
  /** After exact dedup and SimHash: lexical clusters (representative = earliest member). */
  lexical: Cluster[];
  /** After TF-IDF over the lexical representatives: semantic clusters (members are original rows). */
  semantic: Cluster[];
  counts: { input: number; afterExact: number; afterSimhash: number; afterTfidf: number };
}

/**
 * The five deterministic stages of the deduplication tool (paper Appendix A.1): (1) normalise;
 * (2) exact dedup of normalised text; (3) SimHash over character n-grams, pairs with Hamming distance below
 * the threshold linked and clustered by connected components; (4) character n-gram TF-IDF cosine over the
 * survivors, pairs at or above the threshold linked and clustered; (5) one representative per cluster (its
 * earliest row). Works on every language: n-grams are over characters, so unspaced CJK text is handled.
 */
export function dedup(rows: BenchRow[], o: DedupOptions): DedupResult {
  const texts = rows.map((r) => normalise(r[o.column] ?? ''));
  // (2) exact
  const firstOf = new Map<string, number>();
  const exactRep = texts.map((t, i) => {
    if (!firstOf.has(t)) firstOf.set(t, i);
    return firstOf.get(t)!;
  });
  const uniq = [...firstOf.values()];
  // (3) SimHash over the unique texts
  const fps = uniq.map((i) => simhash(texts[i]!, o.n));
  const lexRoot = components(uniq.length, (a, b) => hamming(fps[a]!, fps[b]!) < o.hamming);
  const lexByRoot = new Map<number, number[]>();
  const posOf = new Map(uniq.map((row, k) => [row, k]));
  rows.forEach((_, i) => {
    const u = posOf.get(exactRep[i]!)!;
    const root = uniq[lexRoot[u]!]!;
    lexByRoot.set(root, [...(lexByRoot.get(root) ?? []), i]);
  });
  const lexical: Cluster[] = [...lexByRoot.values()].map((m) => ({ representative: Math.min(...m), members: m })).sort((a, b) => a.representative - b.representative);
  // (4) TF-IDF over lexical representatives
  const reps = lexical.map((c) => c.representative);
  const vecs = tfidf(reps.map((i) => texts[i]!), o.tfidfN);
  const semRoot = components(reps.length, (a, b) => cosine(vecs[a]!, vecs[b]!) >= o.cosine);
  const semByRoot = new Map<number, number[]>();
  lexical.forEach((c, k) => semByRoot.set(semRoot[k]!, [...(semByRoot.get(semRoot[k]!) ?? []), ...c.members]));
  const semantic: Cluster[] = [...semByRoot.values()].map((m) => ({ representative: Math.min(...m), members: m.sort((a, b) => a - b) })).sort((a, b) => a.representative - b.representative);
  return { normalised: texts, lexical, semantic, counts: { input: rows.length, afterExact: uniq.length, afterSimhash: lexical.length, afterTfidf: semantic.length } };
}
