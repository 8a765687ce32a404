import fs from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { ConsoleReporter } from '../../reporters/console.js';
import { runnerFlags } from '../../src/cli/main.js';
import { runCookie } from '../../src/runner/run.js';
import { readResults, ROOT, runCli, tmpDir, writeFiles, scaled } from '../helpers.js';

// Runner conventions people type without thinking (Vitest/Playwright spelling). The runner is driven in
// process (a busy machine takes seconds to start each CLI); the CLI itself where only it can show the behaviour.
const todo = (dir: string) =>
  writeFiles(dir, {
    'todo.cookie.yaml': `query:\n  id: todo-list\n  prompt: Build a todo list app.\n  language: en\n  kind: dynamic\ncandidates:\n${['good', 'dead-button', 'throws'].map((c) => `  - { name: ${c}, mode: html, path: "${path.join(ROOT, 'examples', 'todo', `${c}.html`)}" }`).join('\n')}\n`,
    'counter.cookie.yaml': `query:\n  id: counter-zh\n  prompt: 做一个计数器网页\n  language: zh\n  kind: dynamic\ncandidates:\n  - { name: good, mode: html, path: "${path.join(ROOT, 'examples', 'counter-zh', 'good-zh.html')}" }\n`,
  });
const list = async (cwd: string, o: Partial<Parameters<typeof runCookie>[0]> = {}) => {
  const r = await runCookie({ paths: ['.'], cwd, silent: true, list: true, ...o });
  return { ...r, ids: (r.listed ?? []).map((t) => t.id).sort() };
};

afterEach(() => {
  process.exitCode = undefined;
  vi.restoreAllMocks();
});

describe('cookie test: runner flags', () => {
  it('--list lists the evaluations without running them; -t/--grep filters on query id and candidate name; no match fails unless --pass-with-no-tests', async () => {
    const dir = tmpDir('cookie-flags-');
    todo(dir);
    expect((await list(dir)).ids).toEqual(['counter-zh/good', 'todo-list/dead-button', 'todo-list/good', 'todo-list/throws']);
    expect(fs.existsSync(path.join(dir, 'cookie-results', 'results.json'))).toBe(false); // nothing ran
    expect((await list(dir, { grep: 'counter' })).ids).toEqual(['counter-zh/good']);
    expect((await list(dir, { grep: '^(good|throws)$' })).ids).toEqual(['counter-zh/good', 'todo-list/good', 'todo-list/throws']);
    const none = await list(dir, { grep: 'nothing-matches' });
    expect([none.exitCode, none.specErrors]).toEqual([1, ['no evaluations match --grep nothing-matches (4 in 2 specs)']]);
    expect((await list(dir, { grep: 'nothing-matches', passWithNoTests: true })).exitCode).toBe(0);
  });

  it('--pass-with-no-tests turns "no spec files found" into exit 0', async () => {
    const empty = tmpDir('cookie-flags-');
    expect((await list(empty, { list: false })).exitCode).toBe(2);
    const r = await list(empty, { list: false, passWithNoTests: true });
    expect([r.exitCode, r.note]).toEqual([0, expect.stringMatching(/no spec files found.*exit code 0 \(--pass-with-no-tests\)/)]);
  });

  it('--bail 1 stops after the first failure; --last-failed then selects what failed or did not run; --outputFile.junit writes a valid JUnit file where asked, with the broken spec as an <error>', async () => {
    const dir = tmpDir('cookie-flags-');
    writeFiles(dir, {
      'missing.cookie.yaml': 'query:\n  id: gallery\n  prompt: A photo gallery with a lightbox.\n  language: en\n  kind: dynamic\ncandidates:\n  - { name: one, mode: html, path: one.html }\n  - { name: two, mode: html, path: two.html }\n  - { name: three, mode: html, path: three.html }\n',
      'broken.cookie.yaml': 'query:\n  id: broken\n  prompt: x\n  language: en\n  kind: dynamic\ncandidates:\n  - { name: a, mode: htm, path: a.html }\n',
    });
    const text: string[] = [];
    const stream = { isTTY: false, write: (s: string) => text.push(s) } as unknown as NodeJS.WritableStream;
    const r = await runCookie({ paths: ['.'], cwd: dir, silent: true, bail: 1, concurrency: 1, outputFiles: { junit: 'ci/junit.xml' }, extraReporters: [new ConsoleReporter({ stream })] });
    expect(r.exitCode).toBe(1);
    expect(text.join('')).toContain('stopped early (--bail 1: 1 evaluation did not pass): 2 evaluations not run');
    const run = readResults(path.join(dir, 'cookie-results'));
    expect(run.evaluations.map((e) => e.id)).toEqual(['gallery/one']);
    expect(run.stoppedEarly).toEqual({ reason: '--bail 1: 1 evaluation did not pass', notRun: 2 });
    // Playwright's .last-run.json: what failed and what did not run
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'cookie-results', '.last-run.json'), 'utf8'))).toEqual({ status: 'failed', failedTests: ['gallery/one', 'gallery/two', 'gallery/three'] });
    expect((await list(dir, { lastFailed: true, grep: 'one|three' })).ids).toEqual(['gallery/one', 'gallery/three']);
    // the JUnit file went where --outputFile.junit said (relative to the working directory), and is valid
    const xml = fs.readFileSync(path.join(dir, 'ci', 'junit.xml'), 'utf8');
    expect(xml).toMatch(/<testcase classname="\(spec\)" name="broken.cookie.yaml could not be loaded" file="broken.cookie.yaml"/);
    expect(xml).toMatch(/<testcase classname="gallery" name="one" file="missing.cookie.yaml"[^>]*>\s*<error message="load: artifact not found/);
    const v = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [{ fileName: 'junit.xsd', contents: fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'junit.xsd'), 'utf8') }] });
    expect(v.errors).toEqual([]);
  }, scaled(300_000));

  it('--output-file.json=- prints the run as one JSON document on stdout; the console summary and where the JUnit file went are on stderr', async () => {
    const dir = tmpDir('cookie-flags-');
    writeFiles(dir, { 'missing.cookie.yaml': 'query:\n  id: gallery\n  prompt: A photo gallery with a lightbox.\n  language: en\n  kind: dynamic\ncandidates:\n  - { name: one, mode: html, path: one.html }\n' });
    const r = await runCli(['test', '.', '--output-file.json=-', '--reporter', 'junit'], { cwd: dir });
    expect(r.code).toBe(1);
    const run = JSON.parse(r.stdout) as ReturnType<typeof readResults>;
    expect(run.evaluations.map((e) => [e.id, e.status])).toEqual([['gallery/one', 'error']]);
    expect(fs.existsSync(path.join(dir, '-'))).toBe(false);
    const err = stripVTControlCharacters(r.stderr);
    expect(err).toContain(`JUnit report: ${path.join('cookie-results', 'junit.xml')}\n`);
    expect(err).toMatch(/Evaluations 1 · 0 passed/);
    // without it, the console and the JUnit line are on stdout as usual
    const plain = await runCli(['test', '.', '--reporter', 'junit'], { cwd: dir });
    expect(stripVTControlCharacters(plain.stdout)).toContain(`JUnit report: ${path.join('cookie-results', 'junit.xml')}\n`);
    expect(plain.stderr).toBe('');
    // only the json reporter prints to stdout
    const junit = await runCli(['test', '.', '--output-file.junit=-'], { cwd: dir });
    expect([junit.code, stripVTControlCharacters(junit.stdout + junit.stderr).trim()]).toEqual([2, expect.stringMatching(/--output-file\.junit: "-": only the json reporter prints to stdout\. Fix: name a file, e\.g\. --output-file\.junit=junit\.xml$/)]);
  }, scaled(120_000));

  it('a bad or conflicting flag is one clear line naming the flag and the fix (exit 2)', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ bail: 1, maxFailures: 2 }, /^✗ --bail 1 and --max-failures 2 conflict/],
      [{ list: true, watch: true }, /^✗ --list and --watch conflict/],
      [{ list: true, bail: 2 }, /^✗ --list and --bail conflict/],
      [{ lastFailed: true, watch: true }, /^✗ --last-failed and --watch conflict/],
      [{ silent: true, reporter: 'console' }, /^✗ --silent and --reporter console conflict/],
      [{ outputFile: 'x.xml', reporter: ['junit', 'json'] }, /^✗ --output-file x\.xml: 2 reporters write files \(junit, json\)\. Fix: name the reporter, e\.g\. --output-file\.junit=x\.xml/],
      [{ outputFile: { junit: true } }, /^✗ --output-file\.junit: needs a path/],
      [{ grep: '(' }, /^✗ -t\/--grep: "\(" is not a valid regular expression/],
      [{ bail: 0 }, /^✗ --bail: "0" is not a whole number ≥ 1/],
    ];
    for (const [flags, line] of cases) {
      const err = vi.spyOn(console, 'error').mockImplementation(() => {});
      expect(runnerFlags(flags), JSON.stringify(flags)).toBeNull();
      // without colour codes (picocolors colours output when CI=true, as CI logs are read in colour)
      expect(err.mock.calls.map((c) => stripVTControlCharacters(String(c[0]))), JSON.stringify(flags)).toEqual([expect.stringMatching(line)]);
      expect(process.exitCode).toBe(2);
      err.mockRestore();
    }
    // a bare --output-file with exactly one file-writing reporter is that reporter's
    expect(runnerFlags({ outputFile: 'ci/j.xml', reporter: 'junit' })!.outputFiles).toEqual({ junit: 'ci/j.xml' });
    expect(runnerFlags({ outputFile: { junit: 'a.xml', html: 'rep' }, maxFailures: 3 })).toMatchObject({ outputFiles: { junit: 'a.xml', html: 'rep' }, bail: 3 });
  });

  it('an unknown flag on the real CLI is one line with the flag it was probably meant to be', async () => {
    const r = await runCli(['test', '.', '--list', '--bial', '2'], { cwd: tmpDir('cookie-flags-') });
    expect([r.code, r.stderr.trim()]).toEqual([2, '✗ unknown option --bial for `cookie test`. Fix: did you mean --bail? see `cookie test --help`']);
  });

  it('--list names a generated candidate by its model and mode (it has no file before it is generated), and launches nothing', async () => {
    const cwd = tmpDir('cookie-flags-');
    writeFiles(cwd, { 'g.cookie.yaml': 'query:\n  id: camping\n  prompt: A camping checklist.\n  language: en\n  kind: dynamic\ncandidates:\n  - name: gen\n    generate: { model: "openai:gpt-4.1", mode: html }\n  - { name: file, mode: html, path: page.html }\n', 'page.html': '<p>hi</p>' });
    const r = await runCli(['test', '.', '--list'], { cwd, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/camping\/gen {2}g\.cookie\.yaml → generated by openai:gpt-4\.1 \(html\)\n/);
    expect(r.stdout).toMatch(/camping\/file {2}g\.cookie\.yaml → page\.html\n/);
  });

  it('a count flag is held to the bound its config field has (--repeat-each 100000 would run for weeks), before any spec is read', async () => {
    const cwd = tmpDir('cookie-flags-');
    const cases: [string[], string][] = [
      [['--repeat-each', '100000'], '✗ --repeat-each 100000: must be a whole number from 1 to 100 (as the config\'s `trials.repeatEach`). Fix: pass e.g. --repeat-each 2'],
      [['--steps', '201'], '✗ --steps 201: must be a whole number from 1 to 200 (as the config\'s `agent.steps`). Fix: pass e.g. --steps 2'],
      [['--concurrency', '65'], '✗ --concurrency 65: must be a whole number from 1 to 64 (as the config\'s `concurrency`). Fix: pass e.g. --concurrency 2'],
    ];
    for (const [flags, line] of cases) {
      const r = await runCli(['test', '.', ...flags], { cwd });
      expect([r.code, r.stderr.trim()]).toEqual([2, line]);
    }
    expect((await runCli(['test', '.', '--steps', '200', '--concurrency', '64', '--repeat-each', '100', '--list', '--pass-with-no-tests'], { cwd })).code).toBe(0);
  });
});

describe('config and data fixes', () => {
  it('a config naming an unknown reporter blames the config file (not --reporter); an unknown key gets a "did you mean"', async () => {
    const dir = tmpDir('cookie-flags-');
    todo(dir);
    fs.writeFileSync(path.join(dir, 'cookie.config.mjs'), "export default { reporters: ['console', 'junnit'] };\n");
    const r = await list(dir);
    expect([r.exitCode, r.specErrors]).toEqual([2, [`${path.join(dir, 'cookie.config.mjs')}: reporters.1: unknown reporter "junnit". Fix: did you mean "junit"? use one of console, json, junit, html, leaderboard, github`]]);
    const cli = await list(dir, { reporters: ['jsno'], configFile: path.join(ROOT, 'cookie.config.ts') });
    expect(cli.specErrors[0]).toMatch(/^--reporter: "jsno": unknown reporter "jsno"\. Fix: did you mean "json"\?/);
    fs.writeFileSync(path.join(dir, 'cookie.config.mjs'), 'export default { agent: { step: 10 } };\n');
    expect((await list(dir)).specErrors).toEqual([`${path.join(dir, 'cookie.config.mjs')}: agent: unknown key "step". Fix: did you mean "steps" instead of "step"?`]);
  });

  it('the data and generation commands load only when they may be needed, and are still listed, helped and suggested', async () => {
    const cwd = tmpDir('cookie-help-');
    const help = await runCli(['--help'], { cwd });
    expect(help.code).toBe(0);
    for (const c of [/test \[\.\.\.paths\]/, /bench <action> <file>/, /\bgenerate\b/, /merge-reports/]) expect(help.stdout).toMatch(c);
    // `cookie test` does not register them (issue 13: start-up), and its own help and options are intact
    const testHelp = await runCli(['test', '--help'], { cwd });
    expect(testHelp.code).toBe(0);
    expect(testHelp.stdout).toMatch(/--output-dir/);
    const bench = await runCli(['bench', '--help'], { cwd });
    expect(bench.stdout).toMatch(/cookie bench <action> <file>[^]*--ngram/);
    const typo = await runCli(['generat'], { cwd });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/unknown command "generat"/);
  });

  it('cookie bench dedup writes to the current folder by default, not beside its input', async () => {
    const data = tmpDir('cookie-data-');
    const work = tmpDir('cookie-work-');
    fs.writeFileSync(path.join(data, 'q.jsonl'), ['Build a todo list app with due dates.', 'Build a todo list app with due dates!', '做一个太阳系三维模拟页面'].map((q, i) => JSON.stringify({ data_id: `q${i}`, query: q, language: 'English' })).join('\n') + '\n');
    const r = await runCli(['bench', 'dedup', path.join(data, 'q.jsonl')], { cwd: work });
    expect(r.code).toBe(0);
    expect(fs.existsSync(path.join(work, 'q-dedup', 'deduped_queries.csv'))).toBe(true);
    expect(fs.readdirSync(data)).toEqual(['q.jsonl']);
  });
});
