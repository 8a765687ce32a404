import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agreementFromFiles, pairwiseAgreement } from '../../src/analysis/agreement.js';
import { tmpDir, writeFiles } from '../helpers.js';

describe('pairwise agreement (paper §5.2)', () => {
  // hand-computed: one query, candidates A B C D
  // human:   A 90, B 70, C 70, D 10     machine: A 80, B 85, C 60, D 20
  // pairs (human side / machine side): AB (+/-) ✗, AC (+/+) ✓, AD (+/+) ✓, BC (tie/+) ✗, BD (+/+) ✓, CD (+/+) ✓  → 4 of 6
  const items = [
    { query: 'q', candidate: 'A', human: 90, machine: 80 },
    { query: 'q', candidate: 'B', human: 70, machine: 85 },
    { query: 'q', candidate: 'C', human: 70, machine: 60 },
    { query: 'q', candidate: 'D', human: 10, machine: 20 },
    // another query: X Y, both prefer X → 1 of 1; pairs never cross queries
    { query: 'r', candidate: 'X', human: 5, machine: 50 },
    { query: 'r', candidate: 'Y', human: 1, machine: 40 },
  ];
  it('counts matches over pairs of the same query', () => {
    expect(pairwiseAgreement(items, 'total')).toEqual({ dimension: 'total', pairs: 7, matches: 5, rate: 5 / 7 });
  });
  it('a tie matches only a tie; the tolerance widens ties', () => {
    // machine tie tolerance 30: AB (+ / tie) ✗, AC (+/+ 20 ≤ 30 → tie) ✗ ... recomputed by hand:
    // diffs machine: AB -5 tie, AC 20 tie, AD 60 +, BC 25 tie, BD 65 +, CD 40 +, XY 10 tie
    // human sides:   AB +,     AC +,      AD +,    BC tie,    BD +,    CD +,    XY +
    // matches: AD, BC, BD, CD → 4 of 7
    expect(pairwiseAgreement(items, 'total', 0, 30).matches).toBe(4);
  });
});

describe('agreement from files', () => {
  it('joins a human CSV to results by artifact path and reports per dimension', () => {
    const dir = tmpDir();
    const ev = (candidate: string, file: string, total: number) => ({ id: `q/${candidate}`, queryId: 'q', candidate, artifactPath: `/data/src/${file}`, status: 'scored', scores: { functionality: total, aesthetics: total, total } });
    writeFiles(dir, {
      'results.json': JSON.stringify({ evaluations: [ev('a', 'a.html', 90), ev('b', 'b.html', 50), ev('c', 'c.html', 70)] }),
      'human.csv': 'model,file,final\nA,src/a.html,80\nB,src/b.html,0\nC,src/c.html,60\nZ,src/z.html,10\nE,,5\n',
    });
    const r = agreementFromFiles(path.join(dir, 'results.json'), path.join(dir, 'human.csv'), { join: 'path', candidateColumn: 'file', dimensions: { total: 'final' }, humanTie: 0, machineTie: 0 });
    expect(r.joined).toBe(3);
    expect(r.unmatched).toEqual(['src/z.html']);
    expect(r.agreements).toEqual([{ dimension: 'total', pairs: 3, matches: 3, rate: 1 }]);
    expect(() => agreementFromFiles(path.join(dir, 'results.json'), path.join(dir, 'human.csv'), { join: 'path', candidateColumn: 'nope', dimensions: { total: 'final' }, humanTie: 0, machineTie: 0 })).toThrow(/human\.csv: nope: column is not in the CSV/);
  });
});
