import { describe, expect, it } from 'vitest';
import { charNgrams, cosine, dedup, DEDUP_DEFAULTS, hamming, normalise, simhash, tfidf } from '../../src/data/dedup.js';
import { apportion, defaultTargets, rebalance } from '../../src/data/rebalance.js';
import { benchStats } from '../../src/data/stats.js';
import { DOMAINS, LEAVES, deriveLabels } from '../../src/data/taxonomy.js';

describe('taxonomy', () => {
  it('has 2 page types, 11 domains and 54 leaves; L2 and L1 derive from a leaf', () => {
    expect(new Set(LEAVES.map((l) => l.l1)).size).toBe(2);
    expect(DOMAINS).toHaveLength(11);
    expect(LEAVES).toHaveLength(54);
    expect(deriveLabels('Action & Reflex')).toEqual({ l1: 'Dynamic web pages', l2: 'Browser Games', l3: 'Action & Reflex' });
    expect(deriveLabels('No such leaf')).toBeNull();
  });
});

describe('dedup building blocks', () => {
  it('normalises case, whitespace and edge punctuation in any script', () => {
    expect(normalise('  Build  a TODO app!!! ')).toBe('build a todo app');
    expect(normalise('「做一个计数器」。')).toBe('做一个计数器');
  });
  it('character n-grams handle unspaced CJK', () => {
    expect(charNgrams('计数器', 2)).toEqual(['计数', '数器']);
  });
  it('SimHash: near-duplicates are close, different queries are far', () => {
    const a = simhash(normalise('Build a todo list app with dark mode and local storage'), 2);
    const b = simhash(normalise('Build a todo-list app with dark mode and local storage'), 2);
    const c = simhash(normalise('Make a 3D solar system with orbiting planets'), 2);
    expect(hamming(a, b)).toBeLessThan(hamming(a, c));
    expect(hamming(a, a)).toBe(0);
  });
  it('TF-IDF cosine: a reordered paraphrase is similar, an unrelated query is not', () => {
    const v = tfidf(['weather dashboard with hourly forecast and radar map', 'hourly forecast and radar map weather dashboard', 'pomodoro timer with statistics'], 2);
    expect(cosine(v[0]!, v[1]!)).toBeGreaterThan(0.85);
    expect(cosine(v[0]!, v[2]!)).toBeLessThan(0.3);
  });
});

describe('dedup pipeline on hand-made near-duplicates in several languages', () => {
  const queries = [
    'Build a todo list app with dark mode', // 0
    'build a todo list app with dark mode!', // 1 exact after normalisation
    'Build a todo-list app with dark mode', // 2 SimHash near-duplicate of 0
    '做一个待办事项应用，支持暗色模式和本地存储', // 3
    '做一个待办事项应用，支持暗黑模式和本地存储', // 4 one character changed
    'Crea una calculadora científica con historial de operaciones', // 5
    'Crea una calculadora científica con el historial de operaciones', // 6
    'タスク管理ツールを作ってください。締め切りと優先度を設定できるように', // 7
    'タスク管理ツールを作って下さい。締め切りと優先度を設定できるように', // 8 synonym spelling
    'Erstelle ein Memory-Spiel mit Karten und Punktestand', // 9
    'Make a 3D solar system with orbiting planets', // 10 distinct
    '制作一个贪吃蛇游戏', // 11 distinct
  ];
  const rows = queries.map((q, i) => ({ data_id: `q${i}`, query: q }));
  const r = dedup(rows, { column: 'query', ...DEDUP_DEFAULTS });
  const groupOf = (clusters: { members: number[] }[], i: number) => clusters.find((c) => c.members.includes(i))!.members;

  it('merges the exact duplicate and keeps distinct queries apart', () => {
    expect(r.counts.afterExact).toBe(11);
    expect(groupOf(r.semantic, 10)).toEqual([10]);
    expect(groupOf(r.semantic, 11)).toEqual([11]);
    expect(groupOf(r.semantic, 9)).toEqual([9]);
  });
  it('finds the near-duplicates in English, Chinese, Spanish and Japanese, with the earliest row as representative', () => {
    expect(groupOf(r.semantic, 2)).toEqual([0, 1, 2]);
    expect(groupOf(r.semantic, 4)).toEqual([3, 4]);
    expect(groupOf(r.semantic, 6)).toEqual([5, 6]);
    expect(groupOf(r.semantic, 8)).toEqual([7, 8]);
    expect(r.semantic.find((c) => c.members.includes(4))!.representative).toBe(3);
    expect(r.counts.afterTfidf).toBe(7);
    expect(r.counts.afterSimhash).toBeGreaterThanOrEqual(r.counts.afterTfidf);
  });
});

describe('language rebalancing (paper A.6) on a synthetic pool', () => {
  // 20 queries: zh 12 (strata A 5, B 4, C 3), en 6, ja 1, it 1
  const mk = (lang: string, l1: string, l2: string, diff: string, n: number, from: number) => Array.from({ length: n }, (_, k) => ({ data_id: `${lang}${from + k}`, query: 'q', language: lang, L1: l1, L2: l2, difficulty: diff }));
  const rows = [
    ...mk('Chinese', 'Static web pages', 'Display & Content', 'Easy', 5, 0), // A
    ...mk('Chinese', 'Dynamic web pages', 'Browser Games', 'Hard', 4, 5), // B
    ...mk('Chinese', 'Dynamic web pages', 'Simulation', 'Medium', 3, 9), // C
    ...mk('English', 'Dynamic web pages', 'Browser Games', 'Easy', 6, 0),
    ...mk('Japanese', 'Static web pages', 'Display & Content', 'Easy', 1, 0),
    ...mk('Italian', 'Dynamic web pages', 'Simulation', 'Hard', 1, 0),
  ];
  it('targets: 30/30/40 split exactly by floors and largest remainder', () => {
    expect(apportion(8, [1, 1, 1, 1, 1, 1])).toEqual([2, 2, 1, 1, 1, 1]);
    expect(defaultTargets(20)).toEqual({ zh: 6, en: 6, fr: 2, es: 2, ja: 1, de: 1, ko: 1, pt: 1 });
    expect(defaultTargets(1000)).toEqual({ zh: 300, en: 300, fr: 67, es: 67, ja: 67, de: 67, ko: 66, pt: 66 });
  });
  it('keeps per-stratum quotas (floor + largest remainder), fills the slots, and audits every query', () => {
    const r = rebalance(rows, defaultTargets(20), 7);
    const keptZh = r.audit.filter((a) => a.original_language === 'zh' && a.action === 'kept');
    // rate 6/12 = 0.5: A 2.5 → 2, B 2, C 1.5 → 1 (floors: 5); the one missing goes to the largest remainder,
    // A and C tie at .5 and C's key ("Dynamic web pages | …") sorts first: A 2, B 2, C 2
    const byStratum = (s: string) => keptZh.filter((a) => a.stratum.includes(s)).length;
    expect([byStratum('Display & Content'), byStratum('Browser Games'), byStratum('Simulation')]).toEqual([2, 2, 2]);
    expect(r.retained).toHaveLength(13);
    expect(r.residual).toHaveLength(7);
    const assigned = Object.fromEntries(['fr', 'es', 'de', 'ko', 'pt'].map((l) => [l, r.residual.filter((x) => x.target_language === l).length]));
    expect(assigned).toEqual({ fr: 2, es: 2, de: 1, ko: 1, pt: 1 });
    expect(r.audit).toHaveLength(20);
    expect(r.audit.find((a) => a.original_language === 'it')!.action).toBe('translate');
    expect(Object.values(r.summary).filter((s) => s.final > 0).reduce((a, s) => a + s.final, 0)).toBe(20);
    expect(r.summary.zh).toEqual({ before: 12, retained: 6, translatedIn: 0, final: 6 });
  });
  it('the same seed gives the same output; another seed draws differently', () => {
    expect(rebalance(rows, defaultTargets(20), 7)).toEqual(rebalance(rows, defaultTargets(20), 7));
    const a = rebalance(rows, defaultTargets(20), 7).retained.map((x) => x.data_id);
    const b = rebalance(rows, defaultTargets(20), 8).retained.map((x) => x.data_id);
    expect(a).not.toEqual(b);
  });
});

describe('bench stats', () => {
  it('reports label problems instead of crashing', () => {
    const s = benchStats([
      { data_id: 'a', query: 'Make a counter with a reset button for my kids', L1: 'Dynamic web pages', L2: 'Tools & Productivity', L3: 'Task & Efficiency Tool', difficulty: 'Easy', language: 'English' },
      { data_id: 'b', query: 'Haz una calculadora científica con historial de operaciones y modo oscuro', L1: 'Static web pages', L2: 'Tools & Productivity (Static)', L3: 'Formula Calculator', difficulty: 'Easy', language: 'French' },
      { data_id: 'c', query: 'x', L1: 'Static web pages', L2: 'Display & Content', L3: 'Pomodoro', difficulty: 'Easy', language: 'English' },
    ]);
    expect(s.problems.map((p) => `${p.id}:${p.field}`)).toEqual(['a:L2', 'b:language', 'c:L3']);
    expect(s.problems[0]!.problem).toMatch(/missing its Static\/Dynamic suffix/);
    expect(s.counts.language).toEqual([['English', 2], ['French', 1]]);
  });
});
