import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BIN, readResults, runCli, scaled, stopChild, tmpDir, writeFiles } from '../helpers.js';

/** Records the modules a Cookie process loads (test/fixtures/record-modules.mjs). */
const RECORD_MODULES = fileURLToPath(new URL('../fixtures/record-modules.mjs', import.meta.url));

const page = (title: string) => `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><style>body{font-family:sans-serif;padding:30px;background:#eef2ff}button{padding:8px 16px;border-radius:8px;border:0;background:#4f46e5;color:#fff}</style></head>
<body><h1>${title}</h1><p>A small page used to test caching and watch mode of the evaluator.</p><button onclick="this.textContent='Clicked'">Press me</button></body></html>`;

function project(n: number): string {
  const dir = tmpDir('cookie-cache-');
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) files[`p${i}.html`] = page(`Page ${i}`);
  files['s.cookie.yaml'] = `query:\n  id: q\n  prompt: A page with a button.\n  language: en\n  kind: dynamic\ncandidates:\n${Array.from({ length: n }, (_, i) => `  - { name: c${i}, mode: html, path: p${i}.html }`).join('\n')}\n`;
  // one step, one viewport, no recording: what is under test is which evaluations run, not what they find
  files['cookie.config.ts'] = `export default { agent: { steps: 1 }, recording: { video: false, audio: false }, viewports: [{ width: 1280, height: 800 }] };\n`;
  writeFiles(dir, files);
  return dir;
}

describe('result cache and resume', () => {
  it('reuses unchanged evaluations without a browser; only a changed candidate is evaluated again', async () => {
    // two candidates: the edited one is evaluated again, the other is not (a third would show nothing more)
    const dir = project(2);
    const first = await runCli(['test', '.'], { cwd: dir });
    expect(first.code).toBe(0);
    const out = path.join(dir, 'cookie-results');
    // no browser is launched (there is none), and none of what only an evaluation needs is even loaded
    const modules = path.join(tmpDir('cookie-modules-'), 'modules.txt');
    const second = await runCli(['test', '.'], { cwd: dir, env: { COOKIE_CHROMIUM: '/nonexistent-browser', NODE_OPTIONS: `--import ${pathToFileURL(RECORD_MODULES).href}`, COOKIE_TEST_MODULES_FILE: modules } });
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/2 cached/);
    expect(readResults(out).evaluations.every((e) => e.cached)).toBe(true);
    const loaded = fs.readFileSync(modules, 'utf8');
    expect(loaded).toMatch(/dist\/src\/runner\/run\.js/); // the recording saw the run
    for (const notLoaded of ['node_modules/playwright', 'runner/evaluate.js', 'perceive/perceive.js', 'interact/loop.js', 'judge/offline/judge.js', 'generate/spec.js', 'node_modules/franc', 'node_modules/chokidar']) expect(loaded).not.toContain(notLoaded);
    fs.writeFileSync(path.join(dir, 'p0.html'), page('Page zero, edited'));
    await runCli(['test', '.'], { cwd: dir });
    const third = readResults(out).evaluations;
    expect(third.map((e) => [e.candidate, !!e.cached])).toEqual([['c0', false], ['c1', true]]);
    // --no-cache evaluates a candidate whose evaluation is cached (one is enough to show it)
    const none = await runCli(['test', '.', '--no-cache', '-t', 'c1'], { cwd: dir });
    expect(none.stdout).toMatch(/Evaluations 1 · 1 passed/);
    expect(none.stdout).not.toMatch(/cached/);
    const cleared = await runCli(['cache', 'clear'], { cwd: dir });
    expect(cleared.stdout).toMatch(/cleared .*cache\.json/);
    expect(fs.existsSync(path.join(out, 'cache.json'))).toBe(false);
    expect((await runCli(['cache', 'clear'], { cwd: dir })).stdout).toMatch(/no cache in/);
  });

  it('after kill -9, the next run reuses every evaluation that finished', async () => {
    // killed while the second of two evaluations runs (one at a time): the first is kept, the second is not
    const dir = project(2);
    const child = spawn(process.execPath, [BIN, 'test', '.', '--concurrency', '1'], { cwd: dir, env: { ...process.env, NO_COLOR: '1' }, stdio: 'ignore' });
    const results = path.join(dir, 'cookie-results', 'results.json');
    const finished = () => (fs.existsSync(results) ? readResults(path.join(dir, 'cookie-results')).evaluations.length : 0);
    // bounded by the run itself (it ends after 2 evaluations), not by how fast this machine is
    while (finished() < 1 && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
    await stopChild(child, 'SIGKILL');
    const done = readResults(path.join(dir, 'cookie-results')).evaluations.map((e) => e.candidate);
    expect(done).toEqual(['c0']);
    const again = await runCli(['test', '.'], { cwd: dir });
    expect(again.code).toBe(0);
    const after = readResults(path.join(dir, 'cookie-results')).evaluations;
    expect(after).toHaveLength(2);
    for (const e of after) expect(!!e.cached).toBe(done.includes(e.candidate));
  });

  it('Ctrl-C in a terminal (SIGINT to the whole process group) keeps what finished and stores nothing cut short', async () => {
    const dir = project(3);
    const child = spawn(process.execPath, [BIN, 'test', '.', '--concurrency', '2'], { cwd: dir, env: { ...process.env, NO_COLOR: '1' }, stdio: 'ignore', detached: true });
    const out = path.join(dir, 'cookie-results');
    const finished = () => (fs.existsSync(path.join(out, 'results.json')) ? readResults(out).evaluations.length : 0);
    const t0 = Date.now();
    while (finished() < 1 && Date.now() - t0 < scaled(120_000)) await new Promise((r) => setTimeout(r, 100));
    const signalled = Date.now();
    process.kill(-child.pid!, 'SIGINT'); // what the terminal does: Cookie, Chromium, ffmpeg and servers all get it
    // (a child that already ended has fired its 'exit': read its code instead of waiting for the event)
    const code = child.exitCode !== null || child.signalCode !== null ? child.exitCode : await new Promise((r) => child.on('exit', (c) => r(c)));
    expect(code, `exit code; results: ${fs.existsSync(path.join(out, 'results.json')) ? JSON.stringify(readResults(out).evaluations.map((e) => [e.candidate, e.status, e.finishedAt])) : 'none'}`).toBe(130);
    const kept = readResults(out).evaluations;
    // what a failure needs to be understood: which evaluations were kept, when, against when Ctrl-C came
    const what = `kept ${JSON.stringify(kept.map((e) => [e.candidate, e.status, e.finishedAt]))}, Ctrl-C at ${new Date(signalled).toISOString()}`;
    expect(kept.length, what).toBeGreaterThanOrEqual(1);
    expect(kept.length, what).toBeLessThan(3);
    // cut short is what Ctrl-C can cut: the evidence (the browser and processes got the signal too). A kept
    // evaluation's evidence shows none of it — no stage error, a page that answered, an interaction that ended
    // normally — and its verdict equals a fresh one (below). (Its times are no test: the signal reaches Cookie
    // a few ms after it is sent, and an evaluation whose evidence was complete by then is judged and kept whole.)
    for (const e of kept) {
      const ev = JSON.parse(fs.readFileSync(path.join(out, e.evidenceDir, 'evidence.json'), 'utf8'));
      const whose = `${what}; ${e.candidate}'s evidence.json written at ${new Date(fs.statSync(path.join(out, e.evidenceDir, 'evidence.json')).mtimeMs).toISOString()}`;
      expect(ev.stageErrors, whose).toEqual([]);
      expect(ev.static?.unresponsive, whose).toBe(false);
      expect(ev.interaction?.endedBecause, whose).toMatch(/^(budget|finished)$/);
    }
    const again = await runCli(['test', '.'], { cwd: dir });
    expect(again.code).toBe(0);
    const after = readResults(out).evaluations;
    expect(after.filter((e) => e.cached).map((e) => e.candidate).sort()).toEqual(kept.map((e) => e.candidate).sort());
    // the three pages are the same page: what was kept from before the Ctrl-C matches what was evaluated after
    const verdicts = after.map((e) => JSON.stringify([e.status, e.scores, e.defects.map((d) => d.title)]));
    expect(new Set(verdicts).size, verdicts.join('\n')).toBe(1);
    expect(after[0]!.status).toBe('scored');
  });
});

describe('watch mode', () => {
  it('re-evaluates only the edited candidate, survives an invalid spec and a deleted candidate; says why it evaluates one at a time', async () => {
    const dir = project(2);
    const child = spawn(process.execPath, [BIN, 'test', '.', '--watch'], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const waitFor = async (re: RegExp, from: number) => {
      const t0 = Date.now();
      while (!re.test(out.slice(from)) && Date.now() - t0 < scaled(120_000)) await new Promise((r) => setTimeout(r, 100));
      expect(out.slice(from)).toMatch(re);
      return out.length;
    };
    try {
      let mark = await waitFor(/watching \d+ input/, 0);
      // two evaluations, one at a time: the config does not set `concurrency`, and the run says why
      expect(out).toContain(`note: evaluating one at a time: ${path.join(dir, 'cookie.config.ts')} does not set \`concurrency\`, and its default is 1. To go faster, set \`concurrency: 2\` in the config (or pass --concurrency 2)`);
      fs.writeFileSync(path.join(dir, 'p0.html'), page('Page zero, edited'));
      mark = await waitFor(/change: p0\.html — re-running[\s\S]*Evaluations 2 · 2 passed · 0 below threshold · 0 errors · mean total [\d.]+ · 1 cached[\s\S]*watching/, mark);
      const res = readResults(path.join(dir, 'cookie-results')).evaluations;
      expect(res.find((e) => e.candidate === 'c0')!.cached).toBeFalsy();
      expect(res.find((e) => e.candidate === 'c1')!.cached).toBe(true);
      // a spec saved half-way: reported, then the watcher waits
      fs.writeFileSync(path.join(dir, 's.cookie.yaml'), 'query:\n  id: q\n  kind: [unclosed\n');
      mark = await waitFor(/s\.cookie\.yaml:\d+:\d+: \(yaml\)[\s\S]*watching/, mark);
      // fixed again, with the other candidate deleted
      fs.rmSync(path.join(dir, 'p1.html'));
      fs.writeFileSync(path.join(dir, 's.cookie.yaml'), `query:\n  id: q\n  prompt: A page with a button.\n  language: en\n  kind: dynamic\ncandidates:\n  - { name: c0, mode: html, path: p0.html }\n  - { name: c1, mode: html, path: p1.html }\n`);
      await waitFor(/error \(load\)[\s\S]*watching/, mark);
      expect(readResults(path.join(dir, 'cookie-results')).evaluations.find((e) => e.candidate === 'c1')).toMatchObject({ status: 'error', error: { stage: 'load' } });
    } finally {
      await stopChild(child);
    }
  });

  it('reacts only to its inputs: not to its own output redirected into the project folder, nor to other files there', async () => {
    const dir = project(1);
    // `cookie test --watch > watch.log` in the project root: the log is written by the watched run itself
    const log = path.join(dir, 'watch.log');
    const fd = fs.openSync(log, 'w');
    const child = spawn(process.execPath, [BIN, 'test', '--watch'], { cwd: dir, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', fd, fd] });
    fs.closeSync(fd);
    const text = () => fs.readFileSync(log, 'utf8');
    const waitFor = async (re: RegExp) => {
      const t0 = Date.now();
      while (!re.test(text()) && Date.now() - t0 < scaled(120_000)) await new Promise((r) => setTimeout(r, 100));
      expect(text()).toMatch(re);
    };
    const quiet = () => new Promise((r) => setTimeout(r, 3000));
    try {
      await waitFor(/watching \d+ input/);
      // a file that is no input, written beside the specs
      fs.writeFileSync(path.join(dir, 'notes.txt'), 'not an input\n');
      await quiet();
      expect(text()).not.toMatch(/^change:/m);
      expect(text().match(/watching \d+ input/g)).toHaveLength(1);
      // an input still re-runs, once
      fs.writeFileSync(path.join(dir, 'p0.html'), page('Page zero, edited'));
      await waitFor(/change: p0\.html — re-running[\s\S]*watching \d+ input/);
      await quiet();
      expect(text().match(/^change: /gm)).toEqual(['change: ']);
      expect(text().match(/watching \d+ input/g)).toHaveLength(2);
    } finally {
      await stopChild(child);
    }
  });
});
