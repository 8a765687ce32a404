import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readResults, runCli, tmpDir, writeFiles } from '../helpers.js';

// Four small pages of different kinds, evaluated once unsharded and once as 2 shards merged back.
const page = (title: string, body: string, script = '') => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>body{font-family:system-ui;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1f2937}button{padding:.5rem 1rem;border-radius:8px;border:1px solid #6366f1;background:#eef2ff}</style></head>
<body>${body}<script>${script}</script></body></html>`;
const files = {
  'article.html': page('Tea notes', '<h1>Tea notes</h1><p>Green, black, oolong and white tea all come from Camellia sinensis; what differs is how the leaves are processed after picking.</p><p>Steep green tea at about 80 °C for two minutes.</p>'),
  'counter.html': page('Counter', '<h1>Counter</h1><p id="n">0</p><button id="a">Add one</button> <button id="r">Reset</button>', "let n=0;a.onclick=()=>{n++;document.getElementById('n').textContent=n};r.onclick=()=>{n=0;document.getElementById('n').textContent=n};"),
  'dead.html': page('Counter', '<h1>Counter</h1><p id="n">0</p><button id="a">Add one</button> <button id="r">Reset</button>'),
  'greeting.html': page('Greeting', '<h1>Say hello</h1><label for="nm">Your name</label> <input id="nm"> <button id="go">Greet</button><p id="out"></p>', "go.onclick=()=>{out.textContent='Hello, '+nm.value+'!'};"),
  'counter.cookie.yaml': `query: { id: counter, prompt: "A counter page with an add-one button and a reset button.", language: en, kind: dynamic }
candidates:
  - { name: good, mode: html, path: counter.html }
  - { name: dead, mode: html, path: dead.html }
`,
  'tea.cookie.yaml': 'query: { id: tea, prompt: "A short article page about kinds of tea.", language: en, kind: static }\ncandidates: [ { name: article, mode: html, path: article.html } ]\n',
  'greet.cookie.yaml': 'query: { id: greet, prompt: "A page that asks for your name and greets you.", language: en, kind: dynamic }\ncandidates: [ { name: greeting, mode: html, path: greeting.html } ]\n',
  'cookie.config.ts': 'export default { recording: { video: false, audio: false }, concurrency: 2 };\n',
};

describe('shards and merge-reports', () => {
  let dir: string;
  beforeAll(() => {
    dir = tmpDir('cookie-shard-');
    writeFiles(dir, files);
  });

  it('two shards merged give the same evaluations, statuses and scores as one unsharded run, and one set of reports', async () => {
    const whole = await runCli(['test', dir, '--output-dir', path.join(dir, 'whole'), '--steps', '3', '--silent'], { cwd: dir });
    expect(whole.stderr).not.toMatch(/Error|✗/);
    expect(readResults(path.join(dir, 'whole')).evaluations).toHaveLength(4);
    const s1 = await runCli(['test', dir, '--output-dir', path.join(dir, 's1'), '--steps', '3', '--silent', '--shard', '1/2'], { cwd: dir });
    const s2 = await runCli(['test', dir, '--output-dir', path.join(dir, 's2'), '--steps', '3', '--silent', '--shard', '2/2'], { cwd: dir });
    const a = readResults(path.join(dir, 's1'));
    const b = readResults(path.join(dir, 's2'));
    expect(a.shard).toEqual({ current: 1, total: 2 });
    expect(a.evaluations.length + b.evaluations.length).toBe(4);
    expect(a.evaluations.filter((e) => b.evaluations.some((x) => x.id === e.id))).toEqual([]);

    const merged = await runCli(['merge-reports', path.join(dir, 's1'), path.join(dir, 's2'), '--output-dir', path.join(dir, 'merged')], { cwd: dir });
    expect(merged.stdout).toMatch(/merged 4 evaluations from 2 blobs/);
    expect(merged.code).toBe(whole.code);
    const m = readResults(path.join(dir, 'merged'));
    const w = readResults(path.join(dir, 'whole'));
    const view = (r: typeof m) => r.evaluations.map((e) => ({ id: e.id, status: e.status, scores: e.scores, defects: e.defects.map((d) => d.title).sort() })).sort((x, y) => x.id.localeCompare(y.id));
    expect(view(m)).toEqual(view(w));
    expect(m.mergedFrom?.map((x) => x.shard)).toEqual([{ current: 1, total: 2 }, { current: 2, total: 2 }]);
    // one report of each kind, whose evidence links resolve inside the merged folder
    for (const f of ['report/index.html', 'junit.xml', 'leaderboard.json', 'cache.json']) expect(fs.existsSync(path.join(dir, 'merged', f))).toBe(true);
    for (const e of m.evaluations) expect(fs.existsSync(path.join(dir, 'merged', e.evidenceDir, 'evidence.json'))).toBe(true);
    expect((fs.readFileSync(path.join(dir, 'merged', 'junit.xml'), 'utf8').match(/<testcase /g) ?? []).length).toBe(4);

    // the merged cache makes the next unsharded run in the merged folder a pure re-use
    const again = await runCli(['test', dir, '--output-dir', path.join(dir, 'merged'), '--steps', '3', '--silent'], { cwd: dir });
    expect(again.code).toBe(whole.code);
    expect(readResults(path.join(dir, 'merged')).evaluations.every((e) => e.cached)).toBe(true);
  });

  it('refuses blobs from runs with different settings, naming both and the fix', async () => {
    const other = await runCli(['test', path.join(dir, 'counter.cookie.yaml'), '--output-dir', path.join(dir, 'other'), '--steps', '1', '--silent', '--shard', '1/2'], { cwd: dir });
    expect([0, 1]).toContain(other.code);
    const r = await runCli(['merge-reports', path.join(dir, 's1'), path.join(dir, 'other'), '--output-dir', path.join(dir, 'bad')], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/other\/results\.json: config: the shard ran with other settings .* Fix: run every shard with the same cookie\.config\.ts/);
    const none = await runCli(['merge-reports', path.join(dir, 'nope')], { cwd: dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/nope\/results\.json: \(file\): not found/);
    const badShard = await runCli(['test', dir, '--shard', '3/2'], { cwd: dir });
    expect(badShard.code).toBe(2);
    expect(badShard.stderr).toMatch(/--shard: shard: "3\/2" is not a shard i\/n/);
  });
});
