// Leaderboard aggregation, in plain JavaScript so the same code computes leaderboard.json (imported by
// reporters/leaderboard.ts) and the filtered leaderboard of the HTML report (inlined into the page).
// Conventions (paper §5.1, Table 2; METHOD.md §6, §9): scores are 0–100; an evaluation that was not scored
// (build-failed or error) counts 0 in the means — a failed install or start zeroes everything downstream —
// and 0 in the runnable rate; pairwise win rate compares candidates on the queries both answered, ties half.
// Repeated trials (`--repeat-each`) are averaged first, by trialMeans (src/runner/trials.ts): each entry is
// one query × candidate, so a query counts once in every mean, interval and win rate, whatever its trials.

/** @param {number[]} xs */
function mean(xs) {
  return xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10 : null;
}

// Student-t 97.5 % quantiles by degrees of freedom (two-sided 95 % interval); between the anchors above 30
// the quantile is interpolated linearly in 1/df, and it tends to 1.96.
const T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];
const T975_TAIL = [[30, 2.042], [40, 2.021], [60, 2.0], [120, 1.98], [Infinity, 1.96]];

/** Student-t 97.5 % quantile for `df` ≥ 1 degrees of freedom. @param {number} df */
export function t975(df) {
  if (df <= 30) return T975[df - 1];
  for (let i = 1; i < T975_TAIL.length; i++) {
    const [d0, t0] = T975_TAIL[i - 1];
    const [d1, t1] = T975_TAIL[i];
    if (df <= d1) return t0 + ((t1 - t0) * (1 / d0 - 1 / df)) / (1 / d0 - (d1 === Infinity ? 0 : 1 / d1));
  }
  return 1.96;
}

/**
 * Half-width of the 95 % confidence interval of the mean of `xs` (Student t, n − 1 degrees of freedom),
 * rounded to 0.1; null with fewer than two values.
 * @param {number[]} xs
 */
export function ci95(xs) {
  if (xs.length < 2) return null;
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1));
  return Math.round(((t975(xs.length - 1) * sd) / Math.sqrt(xs.length)) * 10) / 10;
}

/** @param {any[]} evs */
function means(evs) {
  const s = (k) => evs.map((e) => (e.scores ? e.scores[k] : 0));
  return { n: evs.length, functionality: mean(s('functionality')), aesthetics: mean(s('aesthetics')), total: mean(s('total')), ci95: ci95(s('total')) };
}

/** @param {any[]} evs @param {(e: any) => string | undefined} key */
function groupMeans(evs, key) {
  const out = {};
  for (const e of evs) {
    const k = key(e);
    if (!k) continue;
    (out[k] = out[k] || []).push(e);
  }
  for (const k of Object.keys(out)) out[k] = means(out[k]);
  return out;
}

/**
 * Aggregate evaluations into leaderboard rows, one per candidate × mode.
 * @param {any[]} evaluations one entry per query × candidate: EvaluationResult[] (results.json) of an
 *   unrepeated run, or the trial means of a repeated one (trialMeans in src/runner/trials.ts; an entry's
 *   `trialSummary` then says how many trials it stands for, how many were scored and whether they were unstable)
 * @returns {any[]} rows sorted by overall total, best first
 */
export function aggregate(evaluations) {
  const rows = new Map();
  for (const e of evaluations) {
    const k = `${e.candidate}\u0000${e.mode}`;
    if (!rows.has(k)) rows.set(k, []);
    rows.get(k).push(e);
  }
  // pairwise win rate over shared queries
  const totalOf = (e) => (e && e.scores ? e.scores.total : 0);
  const byKey = new Map([...rows.entries()].map(([k, evs]) => [k, new Map(evs.map((e) => [e.queryId, e]))]));
  const out = [];
  for (const [k, evs] of rows) {
    const [candidate, mode] = k.split('\u0000');
    let games = 0;
    let points = 0;
    for (const [k2, other] of byKey) {
      if (k2 === k) continue;
      for (const e of evs) {
        const o = other.get(e.queryId);
        if (!o) continue;
        games++;
        const d = totalOf(e) - totalOf(o);
        points += d > 0 ? 1 : d === 0 ? 0.5 : 0;
      }
    }
    const usage = evs.reduce(
      (u, e) => {
        for (const x of [e.usage, ...(e.judgeStages || []).map((s) => s.usage)]) {
          if (!x) continue;
          u.inputTokens += x.inputTokens;
          u.outputTokens += x.outputTokens;
          u.costUsd += x.costUsd;
        }
        return u;
      },
      { inputTokens: 0, outputTokens: 0, costUsd: 0 },
    );
    usage.costUsd = Math.round(usage.costUsd * 1e6) / 1e6;
    // generation (cookie generate / a spec's generate:) and judge cost apart, for cost per point side by side
    const r6 = (x) => Math.round(x * 1e6) / 1e6;
    const gens = evs.map((e) => e.generation).filter(Boolean);
    const generation = gens.reduce((g, x) => ({ inputTokens: g.inputTokens + x.inputTokens, outputTokens: g.outputTokens + x.outputTokens, cachedTokens: g.cachedTokens + x.cachedTokens, costUsd: r6(g.costUsd + x.costUsd) }), { inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: 0 });
    const judgeCostUsd = r6(evs.reduce((c, e) => c + (e.judgeStages || []).reduce((s, st) => s + (st.usage ? st.usage.costUsd : 0), 0), 0));
    const overall = means(evs);
    // share of runs that were scored: a repeated evaluation counts the share of its trials scored
    const runnable = evs.reduce((a, e) => a + (e.trialSummary ? e.trialSummary.scored / e.trialSummary.n : e.status === 'scored' ? 1 : 0), 0);
    out.push({
      candidate,
      mode,
      evaluations: evs.length,
      scored: evs.filter((e) => e.status === 'scored').length,
      runnableRate: Math.round((runnable / evs.length) * 1000) / 1000,
      trials: evs.reduce((n, e) => Math.max(n, e.trialSummary ? e.trialSummary.n : 1), 1),
      unstable: evs.filter((e) => e.unstable).length,
      overall,
      byPageType: groupMeans(evs, (e) => e.query && e.query.kind),
      byCategory: groupMeans(evs, (e) => e.query && e.query.category),
      byLanguage: groupMeans(evs, (e) => e.query && e.query.language),
      byDifficulty: groupMeans(evs, (e) => e.query && e.query.difficulty),
      winRate: games ? Math.round((points / games) * 1000) / 1000 : null,
      pairs: games,
      usage,
      costPerPoint: overall.total ? Math.round((usage.costUsd / overall.total) * 1e6) / 1e6 : null,
      generation: gens.length ? { ...generation, queries: gens.length, tokensPerQuery: Math.round((generation.inputTokens + generation.outputTokens) / gens.length) } : null,
      generationCostUsd: generation.costUsd,
      judgeCostUsd,
      totalCostPerPoint: overall.total ? r6((usage.costUsd + generation.costUsd) / overall.total) : null,
    });
  }
  return out.sort((a, b) => (b.overall.total ?? 0) - (a.overall.total ?? 0));
}
