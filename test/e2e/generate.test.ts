import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRecord, generationPaths } from '../../src/generate/ledger.js';
import { startFakeLlm } from '../fixtures/fake-llm.js';
import { anthropicText, anthropicTools, openaiText } from '../fixtures/generate-llm.js';
import { BIN, readResults, runCli, SHARED, tmpDir, writeFiles, scaled, stopChild } from '../helpers.js';

// No model is reachable from our machines. These runs drive the real CLI against local HTTP servers that
// speak the OpenAI chat-completions and Anthropic Messages wire formats; the "model" answers with real
// LLM-written pages from ../shared/real-inputs (GPT-5 and GPT-5.2's camping checklists, PROVENANCE.md §3).
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closers) await c();
});

// ../shared beside the repo (CI); from a git worktree under /work/wt/<name>, two levels up
const REAL = fs.existsSync(SHARED) ? SHARED : path.resolve(SHARED, '..', '..', 'shared');
const GPT5 = path.join(REAL, 'real-inputs/openai__gpt-5-coding-examples');
const campingPrompt = 'Create a single-page app in a single HTML file with the following requirements:\n- Name: Camping Gear Checklist\n- Goal: Track gear for camping trips.\n- Features: Checklist items, weight calculator, save lists.\n- The UI should be outdoor-themed.';
const campingV1 = () => fs.readFileSync(path.join(GPT5, 'apps/camping-gear-checklist/index.html'), 'utf8');
const campingV2 = () => fs.readFileSync(path.join(GPT5, 'apps/camping-gear-checklist-5.2/index.html'), 'utf8');
const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const QUERIES = jsonl([
  { data_id: 'camping', query: campingPrompt, L1: 'Dynamic web pages', L2: 'Tools & Productivity (Dynamic)', difficulty: 'Medium', language: 'English' },
  { data_id: 'haiku', query: '写一个展示俳句的网页，带淡入动画。', L1: 'Static web pages', L2: 'Content & Display (Static)', difficulty: 'Easy', language: 'Chinese' },
]);
const FAST = `export default { agent: { steps: 5 }, recording: { video: false, audio: false }, pricing: { 'gen-model': { input: 2, output: 8, cachedInput: 0.5 }, 'claude-gen': { input: 3, output: 15 } } };\n`;

describe('cookie generate → cookie test → leaderboard (HTML mode)', () => {
  it('generates from a query file, records a reply without HTML as generation-failed, and the leaderboard shows generation cost beside judge cost', async () => {
    const srv = await startFakeLlm((req) => {
      const user = JSON.stringify((req.body as { messages: unknown[] }).messages[1]);
      // one query is answered with a fenced page, the other with prose only
      return user.includes('Camping Gear') ? openaiText(`Here is the app.\n\n\`\`\`html\n${campingV1()}\n\`\`\`\n`, { prompt_tokens: 1400, completion_tokens: 7200, cached: 1024 }) : openaiText('这是一首俳句：古池や蛙飛びこむ水の音。希望你喜欢！', { prompt_tokens: 300, completion_tokens: 40, cached: 0 });
    });
    closers.push(srv.close);
    const dir = tmpDir('cookie-gen-e2e-');
    writeFiles(dir, {
      'queries.jsonl': QUERIES,
      'cookie.config.ts': FAST,
      'bench.cookie.yaml': 'queries: queries.jsonl\ncandidates:\n  - name: gen-model\n    mode: html\n    path: answers/gen-model/{data_id}.html\n',
    });
    const gen = await runCli(['generate', '--queries', 'queries.jsonl', '--model', 'openai:gen-model', '--base-url', `${srv.url}/v1`, '--mode', 'html', '--out', 'answers'], { cwd: dir });
    expect(gen.stderr).toBe('');
    expect(gen.code, gen.stdout).toBe(0);
    expect(gen.stdout).toMatch(/done camping {2}1 call\(s\) · 1400\+7200 tok/);
    expect(gen.stdout).toMatch(/generation-failed haiku .*\(no HTML document in the reply \(prose only\)\)/);
    // the ledger's totals: 2 queries, 1 done, 1 without HTML, 2 calls, tokens and cost from the pricing table
    const cost = ((1400 - 1024) * 2 + 1024 * 0.5 + 7200 * 8 + 300 * 2 + 40 * 8) / 1e6;
    expect(gen.stdout).toMatch(new RegExp(`gen-model +html +2 +1 +1 +0 +0 +2 +1700 +7240 +1024 +4470 +[\\d.]+ +${cost.toFixed(6)}`));
    expect(fs.readFileSync(path.join(dir, 'answers/gen-model/haiku.reply.md'), 'utf8')).toContain('古池や');
    expect(fs.existsSync(path.join(dir, 'answers/gen-model/haiku.html'))).toBe(false);
    const ledger = JSON.parse(fs.readFileSync(path.join(dir, 'answers/ledger.json'), 'utf8')) as { rows: { queryId: string; status: string; costUsd: number }[] };
    expect(ledger.rows.map((r) => [r.queryId, r.status])).toEqual([['camping', 'done'], ['haiku', 'generation-failed']]);

    // a second run skips both (no request sent)
    const again = await runCli(['generate', '--queries', 'queries.jsonl', '--model', 'openai:gen-model', '--base-url', `${srv.url}/v1`, '--out', 'answers'], { cwd: dir });
    expect(again.stdout).toMatch(/\[2\/2\] 0 running · 0 generated · 2 already done/);
    expect(srv.requests).toHaveLength(2);

    const test = await runCli(['test', '.', '--reporter', 'leaderboard', '--reporter', 'html', '--reporter', 'junit'], { cwd: dir });
    expect(test.stdout).toMatch(/generation-failed/);
    const evs = readResults(path.join(dir, 'cookie-results')).evaluations;
    const camping = evs.find((e) => e.queryId === 'camping')!;
    const haiku = evs.find((e) => e.queryId === 'haiku')!;
    expect(camping.status).toBe('scored');
    expect(camping.generation).toMatchObject({ status: 'done', model: 'gen-model', calls: 1, inputTokens: 1400, outputTokens: 7200, cachedTokens: 1024 });
    expect(haiku).toMatchObject({ status: 'generation-failed', scores: null, passed: false, error: { stage: 'generate', message: expect.stringMatching(/^generation failed: no HTML document in the reply/) } });
    const board = JSON.parse(fs.readFileSync(path.join(dir, 'cookie-results/leaderboard.json'), 'utf8')) as { rows: { candidate: string; generationCostUsd: number; judgeCostUsd: number; totalCostPerPoint: number; generation: { tokensPerQuery: number }; overall: { total: number } }[] };
    const row = board.rows[0]!;
    expect(row.generationCostUsd).toBe(Math.round(cost * 1e6) / 1e6);
    expect(row.judgeCostUsd).toBe(0); // the offline judge costs nothing
    expect(row.generation.tokensPerQuery).toBe(Math.round((1700 + 7240) / 2));
    expect(row.totalCostPerPoint).toBeCloseTo(row.generationCostUsd / row.overall.total, 6);
    const report = fs.readFileSync(path.join(dir, 'cookie-results/report/index.html'), 'utf8');
    expect(report).toContain('Generation (USD)');
    expect(fs.readFileSync(path.join(dir, 'cookie-results/junit.xml'), 'utf8')).toMatch(/GenerationFailed/);
  });
});

describe('resume', () => {
  it('after kill -9 mid-run, the next run skips finished generations and redoes the rest, including a half-written one', async () => {
    // a server that answers two queries and never answers the others (the run is killed while it waits)
    let hold = true;
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      let data = '';
      req.on('data', (d) => (data += d));
      req.on('end', () => {
        const body = JSON.parse(data) as { messages: { content: string | { text: string }[] }[] };
        const user = JSON.stringify(body.messages[1]);
        const id = /Page (\w+)/.exec(user)![1]!;
        seen.push(id);
        if (hold && (id === 'c' || id === 'd')) return; // never answered
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(openaiText(`\`\`\`html\n<!DOCTYPE html><html lang="en"><head><title>${id}</title></head><body><h1>Page ${id}</h1><canvas id="c"></canvas><script>const g=document.getElementById('c').getContext('2d');let t=0;(function f(){g.clearRect(0,0,300,150);g.fillRect(150+Math.sin(t+=.05)*100,60,30,30);requestAnimationFrame(f)})()</script></body></html>\n\`\`\``).body));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    closers.push(() => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const dir = tmpDir('cookie-gen-resume-');
    writeFiles(dir, { 'q.jsonl': jsonl(['a', 'b', 'c', 'd'].map((id) => ({ data_id: id, query: `Page ${id}: an animated canvas`, L1: 'Dynamic web pages', language: 'English' }))) });
    const args = ['generate', '--queries', 'q.jsonl', '--model', 'openai:gen-model', '--base-url', url, '--out', 'out', '--concurrency', '2'];
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env: { ...process.env, NO_COLOR: '1' }, stdio: 'ignore' });
    const p = (id: string) => generationPaths(path.join(dir, 'out'), 'gen-model', id, 'html');
    const t0 = Date.now();
    while (!(readRecord(p('a').meta) && readRecord(p('b').meta) && seen.includes('c') && seen.includes('d')) && Date.now() - t0 < scaled(120_000) && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
    await stopChild(child, 'SIGKILL');
    expect(readRecord(p('a').meta)!.status).toBe('done');
    expect(fs.existsSync(p('c').meta)).toBe(false);
    // as if a run had died between writing a candidate and its ledger row: a candidate without a row is redone
    fs.writeFileSync(p('d').artifact, '<!DOCTYPE html><html><body><h1>Page d (half');
    hold = false;
    seen.length = 0;
    const again = await runCli(args, { cwd: dir });
    expect(again.code).toBe(0);
    expect(seen.sort()).toEqual(['c', 'd']);
    expect(again.stdout).toMatch(/\[4\/4\] 0 running · 2 generated · 2 already done/);
    for (const id of ['a', 'b', 'c', 'd']) expect(readRecord(p(id).meta)).toMatchObject({ status: 'done', queryId: id });
    expect(fs.readFileSync(p('d').artifact, 'utf8')).toContain('requestAnimationFrame');
  });

  it('Ctrl-C (SIGINT) mid-run: exits 130 at once, keeps the finished generations and the ledger, and leaves nothing half-written', async () => {
    // answers a and b; c and d are never answered, so the run is waiting on the model when it is interrupted
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      let data = '';
      req.on('data', (d) => (data += d));
      req.on('end', () => {
        const id = /Page (\w+)/.exec(JSON.stringify((JSON.parse(data) as { messages: unknown[] }).messages[1]))![1]!;
        seen.push(id);
        if (id === 'c' || id === 'd') return;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(openaiText(`\`\`\`html\n<!DOCTYPE html><html lang="en"><head><title>${id}</title></head><body><h1>Page ${id}</h1><button onclick="this.textContent='Done'">Go</button></body></html>\n\`\`\``).body));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    closers.push(() => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const dir = tmpDir('cookie-gen-sigint-');
    writeFiles(dir, { 'q.jsonl': jsonl(['a', 'b', 'c', 'd'].map((id) => ({ data_id: id, query: `Page ${id}: a button`, L1: 'Dynamic web pages', language: 'English' }))) });
    const child = spawn(process.execPath, [BIN, 'generate', '--queries', 'q.jsonl', '--model', 'openai:gen-model', '--base-url', url, '--out', 'out', '--concurrency', '2'], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const p = (id: string) => generationPaths(path.join(dir, 'out'), 'gen-model', id, 'html');
    // wait (bounded by the test's own limit) until a and b are written and c and d are in flight
    while (!(readRecord(p('a').meta) && readRecord(p('b').meta) && seen.includes('c') && seen.includes('d'))) await new Promise((r) => setTimeout(r, 100));
    child.kill('SIGINT');
    // the model never answers c and d: only the interrupt can end this run
    expect(await exited).toBe(130);
    expect(stdout).toMatch(/interrupted: 2 generated this run, 0 already done/);
    const ledger = JSON.parse(fs.readFileSync(path.join(dir, 'out', 'ledger.json'), 'utf8')) as { rows: { queryId: string; status: string }[] };
    expect(ledger.rows.map((r) => [r.queryId, r.status]).sort()).toEqual([['a', 'done'], ['b', 'done']]);
    for (const id of ['c', 'd']) {
      expect(fs.existsSync(p(id).meta), id).toBe(false);
      expect(fs.existsSync(p(id).artifact), id).toBe(false);
    }
    expect(fs.readFileSync(p('a').artifact, 'utf8')).toContain('Page a');
  });
});

describe('React mode with the real candidate-build sandbox', () => {
  it('a scripted session over the Anthropic wire creates files, builds, hits a build error, fixes it and finishes; transcript and build log are kept', async () => {
    const broken = `import { useState } from 'react';
import { Tent, Backpack, MarshmallowStick } from 'lucide-react';

const items = [
  { name: 'Tente', kg: 2.4, Icon: Tent },
  { name: 'Sac à dos', kg: 1.6, Icon: Backpack },
  { name: 'Réchaud', kg: 0.4, Icon: MarshmallowStick },
];

export default function App() {
  const [packed, setPacked] = useState<string[]>([]);
  const weight = items.filter((i) => packed.includes(i.name)).reduce((s, i) => s + i.kg, 0);
  return (
    <main className="min-h-screen bg-emerald-50 p-8 text-emerald-950">
      <h1 className="text-3xl font-bold">Liste de camping</h1>
      <p className="mt-2">Poids emporté : {weight.toFixed(1)} kg</p>
      <ul className="mt-6 grid gap-3 sm:grid-cols-3">
        {items.map(({ name, kg, Icon }) => (
          <li key={name}>
            <button className="flex w-full items-center gap-2 rounded-xl bg-white p-4 shadow" aria-pressed={packed.includes(name)} onClick={() => setPacked((p) => (p.includes(name) ? p.filter((x) => x !== name) : [...p, name]))}>
              <Icon className="h-5 w-5" /> {name} · {kg} kg {packed.includes(name) ? '✓' : ''}
            </button>
          </li>
        ))}
      </ul>
    </main>
  );
}
`;
    const script = (n: number) => {
      switch (n) {
        case 0:
          return anthropicTools([{ name: 'update_plan', args: { steps: [{ step: 'Write the checklist in src/App.tsx', status: 'in_progress' }, { step: 'Build and fix', status: 'pending' }] } }, { name: 'list_files', args: { path: 'src' } }]);
        case 1:
          return anthropicTools([
            { name: 'npm_install', args: { packages: ['github:someone/camp-icons'] } }, // refused: not from the registry
            { name: 'npm_install', args: { packages: ['zustand@^5'] } },
            { name: 'create_file', args: { path: 'src/App.tsx', content: broken } },
            { name: 'build', args: {} },
          ]);
        case 2:
          // the build failed on an icon lucide-react does not have: swap it for one it has
          return anthropicTools([{ name: 'grep', args: { pattern: 'MarshmallowStick' } }, { name: 'edit_file', args: { path: 'src/App.tsx', old_string: 'MarshmallowStick', new_string: 'Flame', replace_all: true } }, { name: 'build', args: {} }]);
        default:
          return anthropicTools([{ name: 'finish', args: { summary: 'Camping checklist with a weight counter' } }]);
      }
    };
    const srv = await startFakeLlm((_req, n) => script(n));
    closers.push(srv.close);
    const dir = tmpDir('cookie-gen-react-');
    writeFiles(dir, { 'q.jsonl': jsonl([{ data_id: 'camp', query: 'Une liste de matériel de camping avec le poids total.', L1: 'Dynamic web pages', language: 'French' }]), 'cookie.config.ts': FAST });
    const r = await runCli(['generate', '--queries', 'q.jsonl', '--model', 'anthropic:claude-gen', '--base-url', srv.url, '--mode', 'react', '--out', 'out', '--steps', '20'], { cwd: dir, timeoutMs: 2_400_000 });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const p = generationPaths(path.join(dir, 'out'), 'claude-gen', 'camp', 'react');
    const row = readRecord(p.meta)!;
    expect(row).toMatchObject({ status: 'done', calls: 4, react: { endedBecause: 'finished', builds: 2, lastBuildOk: true } });
    expect(row.costUsd).toBe((4 * 1500 * 3 + 4 * 400 * 15) / 1e6);
    const transcript = JSON.parse(fs.readFileSync(p.transcript, 'utf8')) as { steps: { tool: string; ok: boolean; result: string }[] };
    expect(transcript.steps.map((s) => `${s.tool}:${s.ok}`)).toEqual(['update_plan:true', 'list_files:true', 'npm_install:false', 'npm_install:true', 'create_file:true', 'build:false', 'grep:true', 'edit_file:true', 'build:true', 'finish:true']);
    expect(transcript.steps[2]!.result).toMatch(/only packages from the npm registry/);
    expect(transcript.steps[5]!.result).toMatch(/missing-icon[\s\S]*MarshmallowStick/);
    const pkg = JSON.parse(fs.readFileSync(path.join(p.artifact, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies.zustand).toMatch(/^\^5\./);
    expect(fs.readFileSync(path.join(p.artifact, 'package-lock.json'), 'utf8')).toContain('node_modules/zustand');
    const log = fs.readFileSync(p.buildLog, 'utf8');
    expect(log).toMatch(/── build 1: failed \(missing-icon\)[\s\S]*── build 2: ok[\s\S]*build: npm run build → exit 0/);
    expect(fs.readFileSync(path.join(p.artifact, 'src/App.tsx'), 'utf8')).toContain("import { Tent, Backpack, Flame } from 'lucide-react'");
    // the project is the template plus the model's edits, without build output or node_modules
    expect(fs.existsSync(path.join(p.artifact, 'node_modules'))).toBe(false);
    expect(fs.existsSync(path.join(p.artifact, 'package-lock.json'))).toBe(true);
    expect(JSON.stringify(srv.requests[2]!.body)).toContain('MarshmallowStick');
    expect(r.stdout).toMatch(/claude-gen +react +1 +1 +0 +0 +0 +4 +6000 +1600/);
  }, scaled(2_500_000)); // two real installs and builds (npm ci, tsc, vite): minutes on a shared 2-core machine
});

describe('cookie test --watch with a generated candidate', () => {
  it('generates what is missing, then regenerates and re-evaluates after a prompt edit and prints the score change', async () => {
    const srv = await startFakeLlm((req) => {
      const system = JSON.stringify((req.body as { messages: { role: string; content: unknown }[] }).messages[0]);
      return system.includes('GPT-5.2 style') ? openaiText(`\`\`\`html\n${campingV2()}\n\`\`\``) : openaiText(`\`\`\`html\n${campingV1()}\n\`\`\``);
    });
    closers.push(srv.close);
    const dir = tmpDir('cookie-gen-watch-');
    writeFiles(dir, {
      'cookie.config.ts': FAST,
      'gen-prompt.md': 'You write one self-contained HTML file in a fenced html block.\n',
      'camping.cookie.yaml': `query:\n  id: camping\n  prompt: ${JSON.stringify(campingPrompt)}\n  language: en\n  kind: dynamic\ncandidates:\n  - name: gen\n    generate: { model: { provider: openai, model: gen-model, baseURL: "${srv.url}/v1" }, mode: html, prompt: gen-prompt.md }\n`,
    });
    const child = spawn(process.execPath, [BIN, 'test', '.', '--watch'], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const waitFor = async (re: RegExp, from: number) => {
      const t0 = Date.now();
      while (!re.test(out.slice(from)) && Date.now() - t0 < scaled(600_000) && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
      expect(out.slice(from)).toMatch(re);
      return out.length;
    };
    try {
      let mark = await waitFor(/generated camping × gen \(openai:gen-model, html\): done[\s\S]*watching \d+ input/, 0);
      const results = () => readResults(path.join(dir, 'cookie-results')).evaluations[0]!;
      const first = results();
      expect(first.status).toBe('scored');
      expect(srv.requests).toHaveLength(1);
      fs.writeFileSync(path.join(dir, 'gen-prompt.md'), 'You write one self-contained HTML file in a fenced html block, GPT-5.2 style.\n');
      mark = await waitFor(/change: gen-prompt\.md — re-running[\s\S]*generated camping × gen[\s\S]*score change: camping × gen: total [\d.]+ → [\d.]+ \([+-]?[\d.]+\).*\[regenerated: generation prompt or settings changed\][\s\S]*watching/, mark);
      const second = results();
      expect(second.cached).toBeFalsy();
      expect(second.generation!.promptHash).not.toBe(first.generation!.promptHash);
      expect(srv.requests).toHaveLength(2);
      const line = /score change: camping × gen: total ([\d.]+) → ([\d.]+) \(([+-]?[\d.]+)\)/.exec(out)!;
      expect([Number(line[1]), Number(line[2])]).toEqual([first.scores!.total, second.scores!.total]);
      expect(Number(line[3])).toBeCloseTo(second.scores!.total - first.scores!.total, 1);
      expect(fs.readFileSync(path.join(dir, 'cookie-results/generated/gen/gen-model/camping.html'), 'utf8')).toBe(`${campingV2().replace(/\s+$/, '')}\n`);
    } finally {
      await stopChild(child);
    }
  });
});
