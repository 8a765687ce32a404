/** Levenshtein edit distance (small strings: config and spec keys). */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length]![b.length]!;
}

/** The known key an unknown one is probably a typo of (edit distance ≤ 2, or differing by a plural s), else null. */
export function didYouMean(key: string, known: readonly string[]): string | null {
  const k = key.toLowerCase();
  let best: string | null = null;
  let bestD = 3;
  for (const c of known) {
    const d = editDistance(k, c.toLowerCase());
    if (d < bestD && d <= Math.max(1, Math.floor(c.length / 3))) (best = c), (bestD = d);
  }
  return best;
}

/**
 * Like {@link didYouMean}, but also catches two swapped neighbouring letters (`junti` → `junit`,
 * `--bial` → `bail`), the commonest typo in short names such as flags and reporter names.
 */
export function didYouMeanName(name: string, known: readonly string[]): string | null {
  const swapped = (a: string, b: string) => {
    if (a.length !== b.length) return false;
    const diff = [...a].flatMap((c, i) => (c === b[i] ? [] : [i]));
    return diff.length === 2 && diff[1] === diff[0]! + 1 && a[diff[0]!] === b[diff[1]!] && a[diff[1]!] === b[diff[0]!];
  };
  return didYouMean(name, known) ?? known.find((k) => swapped(name.toLowerCase(), k.toLowerCase())) ?? null;
}
