import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { multiplex } from '../../reporters/index.js';
import { HtmlReporter } from '../../reporters/html/index.js';
import { JsonReporter } from '../../reporters/json.js';
import { JunitReporter } from '../../reporters/junit.js';
import { LeaderboardReporter } from '../../reporters/leaderboard.js';
import type { RunResults } from '../../src/types.js';
import { trialRun } from '../fixtures/trials.js';
import { tmpDir } from '../helpers.js';

// A new user's trial (2026-12-07): the HTML reporter said where its report went, the JUnit reporter did not.
// Every reporter that writes a file now says where, on stdout, or on stderr when stdout carries the run as JSON.

/** What the reporters wrote to stdout and stderr while `work` ran. */
async function captured(work: () => unknown): Promise<{ stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
  try {
    await work();
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
  return { stdout: out.join(''), stderr: err.join('') };
}

const withReporters = (reporters: unknown[]): RunResults => ({ ...trialRun(), config: { outputDir: 'cookie-results', reporters } });

afterEach(() => vi.restoreAllMocks());

describe('reporters that write a file say where', () => {
  it('JUnit, leaderboard, JSON and HTML each print "<report>: <path>" on stdout, the path relative to the working directory', async () => {
    const dir = tmpDir('cookie-announce-');
    vi.spyOn(process, 'cwd').mockReturnValue(dir);
    const out = path.join(dir, 'cookie-results');
    const run = withReporters(['console', ['junit', { outputFile: 'ci/junit.xml' }], 'leaderboard', 'json', 'html']);
    const all = multiplex([new JunitReporter({ outputFile: 'ci/junit.xml' }), new LeaderboardReporter(), new JsonReporter(), new HtmlReporter()]);
    const { stdout, stderr } = await captured(() => all.onRunEnd(run, out));
    expect(stderr).toBe('');
    expect(stdout.split('\n').filter(Boolean)).toEqual([
      `JUnit report: ${path.join('cookie-results', 'ci', 'junit.xml')}`,
      `Leaderboard: ${path.join('cookie-results', 'leaderboard.json')}`,
      `JSON report: ${path.join('cookie-results', 'report.json')}`,
      `HTML report: ${path.join('cookie-results', 'report', 'index.html')}  (cookie show-report cookie-results)`,
    ]);
    // each names a file that is there
    for (const f of ['ci/junit.xml', 'leaderboard.json', 'report.json', 'report/index.html']) expect(fs.existsSync(path.join(out, f))).toBe(true);
  });

  it('a file outside the working directory is named by its absolute path', async () => {
    const dir = tmpDir('cookie-announce-');
    const elsewhere = path.join(tmpDir('cookie-announce-ci-'), 'junit.xml');
    vi.spyOn(process, 'cwd').mockReturnValue(dir);
    const { stdout } = await captured(async () => new JunitReporter({ outputFile: elsewhere }).onRunEnd(withReporters([['junit', { outputFile: elsewhere }]]), path.join(dir, 'out')));
    expect(stdout).toBe(`JUnit report: ${elsewhere}\n`);
  });

  it('when the JSON reporter prints the run to stdout, stdout is that one JSON document and the other reporters say where on stderr', async () => {
    const dir = tmpDir('cookie-announce-');
    vi.spyOn(process, 'cwd').mockReturnValue(dir);
    const run = withReporters([['json', { outputFile: '-' }], 'junit', 'html']);
    const all = multiplex([new JsonReporter({ outputFile: '-' }), new JunitReporter(), new HtmlReporter()]);
    const { stdout, stderr } = await captured(() => all.onRunEnd(run, path.join(dir, 'cookie-results')));
    expect((JSON.parse(stdout) as RunResults).evaluations).toHaveLength(run.evaluations.length);
    expect(stderr).toContain(`JUnit report: ${path.join('cookie-results', 'junit.xml')}\n`);
    expect(stderr).toContain(`HTML report: ${path.join('cookie-results', 'report', 'index.html')}`);
  });
});
