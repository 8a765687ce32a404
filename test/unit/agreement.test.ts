import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agreementFlags, agreementFromFiles, pairwiseAgreement } from '../../src/analysis/agreement.js';
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

describe('agreement: bad input is an error naming the file or flag, never a silent wrong statistic', () => {
  const ev = (q: string, candidate: string, total: number, status = 'scored') => ({ id: `${q}/${candidate}`, queryId: q, candidate, artifactPath: `/data/${q}/${candidate}.html`, status, scores: { functionality: total, aesthetics: total, total } });
  const setup = (csv: string) => {
    const dir = tmpDir();
    writeFiles(dir, { 'results.json': JSON.stringify({ evaluations: [ev('q', 'a', 90), ev('q', 'b', 50), ev('q', 'c', 70)] }), 'human.csv': csv, 'sub/results.json': '{}' });
    return { dir, results: path.join(dir, 'results.json'), human: path.join(dir, 'human.csv') };
  };
  const opts = { join: 'name' as const, candidateColumn: 'candidate', queryColumn: 'query', dimensions: { total: 'score' }, humanTie: 0, machineTie: 0 };

  it('a result joined by two CSV rows is an error naming the CSV, the key and both lines', () => {
    const f = setup('query,candidate,score\nq,a,80\nq,b,10\nq,a,20\n');
    expect(() => agreementFromFiles(f.results, f.human, opts)).toThrow(/human\.csv: query\+candidate: "q\/a" on line 4 joins result q\/a, as "q\/a" on line 2 already did/);
  });

  it('counts rows dropped for an empty or non-numeric score; all dropped is an error', () => {
    const f = setup('query,candidate,score\nq,a,80\nq,b,\nq,c,n/a\n');
    const r = agreementFromFiles(f.results, f.human, opts);
    expect(r.joined).toBe(3);
    expect(r.dropped).toEqual([{ dimension: 'total', column: 'score', empty: 1, notNumeric: 1, examples: ['line 4: "n/a"'] }]);
    const g = setup('query,candidate,score\nq,a,x\nq,b,\n');
    expect(() => agreementFromFiles(g.results, g.human, opts)).toThrow(/human\.csv: score: no joined row has a numeric score \(1 empty, 1 not a number: line 2: "x"\)/);
  });

  it('a join or --query that matches nothing is an error listing values that exist', () => {
    const f = setup('query,candidate,score\nq,a,80\nq,b,10\n');
    expect(() => agreementFromFiles(f.results, f.human, { ...opts, queries: ['nope'] })).toThrow(/--query: nope matches no evaluation.*Fix: use a query id of the run: q/);
    const g = setup('query,candidate,score\nz,a,80\nz,b,10\n');
    expect(() => agreementFromFiles(g.results, g.human, opts)).toThrow(/human\.csv: query\+candidate: no row matches a scored evaluation .*CSV has z\/a, z\/b; results have q\/a, q\/b, q\/c/);
  });

  it('names the file and what was expected for a folder, a CSV given as results, or a broken CSV quote', () => {
    const f = setup('query,candidate,score\nq,"a,80\n');
    // an output dir is read through its results.json (so this reaches the CSV); a folder without one is named
    expect(() => agreementFromFiles(f.dir, f.human, opts)).toThrow(/human\.csv: line 2: not a valid CSV/);
    fs.mkdirSync(path.join(f.dir, 'empty'));
    expect(() => agreementFromFiles(path.join(f.dir, 'empty'), f.human, opts)).toThrow(/empty: \(file\): is a folder without a results\.json\. Fix: pass the results\.json of a `cookie test` run or its output dir/);
    expect(() => agreementFromFiles(f.human, f.human, opts)).toThrow(/human\.csv: \(file\): not JSON .*expected a Cookie results\.json \(this looks like the human CSV: that goes to --human\)/);
    expect(() => agreementFromFiles(path.join(f.dir, 'sub/results.json'), f.human, opts)).toThrow(/results\.json: evaluations: is missing or not a list/);
    expect(() => agreementFromFiles(f.results, f.human, opts)).toThrow(/human\.csv: line 2: not a valid CSV \(Quote Not Closed.*Fix: .*close the quote/);
  });

  it('checks the flags: --join, --tie 0–100, --human-tie ≥ 0, --dim once per machine dimension', () => {
    expect(agreementFlags({ join: 'path', tie: '5', humanTie: 1, dims: ['total=score', 'aesthetics=a=b'] })).toEqual({ join: 'path', machineTie: 5, humanTie: 1, dimensions: { total: 'score', aesthetics: 'a=b' } });
    expect(() => agreementFlags({ join: 'banana' })).toThrow(/--join: banana: is not a join. Fix: use --join name .* or --join path/);
    for (const t of ['abc', -5, 500]) expect(() => agreementFlags({ tie: t })).toThrow(new RegExp(`--tie: ${t}: is not a score difference from 0 to 100`));
    expect(() => agreementFlags({ humanTie: 'xyz' })).toThrow(/--human-tie: xyz: is not a score difference/);
    expect(() => agreementFlags({ dims: ['total=score', 'total=query'] })).toThrow(/--dim: total=query: dimension "total" given twice \(also --dim total=score\)/);
    expect(() => agreementFlags({ dims: ['speed=x'] })).toThrow(/--dim: speed=x: "speed" is not a machine dimension/);
  });
});
