import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { extractHtml } from '../../src/generate/extract.js';
import { generationCost, generationPaths, isDone, readRecord, UsageMeter, writeLedger } from '../../src/generate/ledger.js';
import { generateAll, parseModelFlag, REACT_TEMPLATE } from '../../src/generate/run.js';
import { isRegistrySpec, ProjectTools, type BuildOutcome, type ToolHost } from '../../src/generate/react/tools.js';
import { RateLimiter } from '../../src/providers/rate-limit.js';
import type { Query } from '../../src/types.js';
import { startFakeLlm } from '../fixtures/fake-llm.js';
import { anthropicText, anthropicTools, openaiText, openaiTools, POMODORO_PAGE } from '../fixtures/generate-llm.js';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'cookie-gen-unit-'));
const q = (id: string, prompt: string, language = 'en'): Query => ({ id, prompt, language, languageLabel: language, kind: 'dynamic' });
const host = { npmCache: path.join(os.tmpdir(), 'cookie-gen-npm'), installTimeoutMs: 60_000, buildTimeoutMs: 60_000, serveTimeoutMs: 10_000 };

describe('extractHtml', () => {
  it('takes the document from one fenced block and drops the prose around it', () => {
    const x = extractHtml(`Here is your Pomodoro timer:\n\n\`\`\`html\n${POMODORO_PAGE}\n\`\`\`\n\nOpen it in a browser. Enjoy!`);
    expect(x.html).toBe(`${POMODORO_PAGE}\n`);
    expect(x).toMatchObject({ method: 'fenced', truncated: false, blocks: 1 });
  });

  it('with several blocks, a whole document beats the snippets around it', () => {
    const reply = `First the markup idea:\n\`\`\`html\n<button id="start">开始</button>\n\`\`\`\nThe full file:\n\`\`\`html\n${POMODORO_PAGE}\n\`\`\`\nAnd to change the colour:\n\`\`\`css\n:root { --accent: #2e86e4; }\n\`\`\``;
    const x = extractHtml(reply);
    expect(x.html).toContain('<title>番茄钟</title>');
    expect(x).toMatchObject({ method: 'fenced', blocks: 3 });
    const two = extractHtml(`\`\`\`html\n<!DOCTYPE html><html><body><p>short draft</p></body></html>\n\`\`\`\nBetter:\n\`\`\`html\n${POMODORO_PAGE}\n\`\`\``);
    expect(two).toMatchObject({ method: 'fenced-largest' });
    expect(two.html).toContain('番茄钟');
  });

  it('combines separate HTML, CSS and JavaScript blocks into one page', () => {
    const reply = 'index.html:\n```html\n<div id="app"><h1>Daftar Belanja</h1><ul id="list"></ul><button id="add">Tambah</button></div>\n```\nstyle.css:\n```css\nbody { background: #f0fdf4; }\n```\nscript.js:\n```javascript\ndocument.getElementById("add").onclick = () => { const li = document.createElement("li"); li.textContent = "Beras"; document.getElementById("list").append(li); };\n```';
    const x = extractHtml(reply);
    expect(x).toMatchObject({ method: 'fenced-combined', truncated: false });
    expect(x.html).toMatch(/<!DOCTYPE html>[\s\S]*<style>\nbody \{ background: #f0fdf4; \}\n<\/style>[\s\S]*<div id="app">[\s\S]*<script>\ndocument\.getElementById\("add"\)[\s\S]*<\/script>\n<\/body>\n<\/html>/);
  });

  it('finds a bare document in prose (no fences)', () => {
    const x = extractHtml(`Sure! ${POMODORO_PAGE}\nLet me know if you want changes.`);
    expect(x).toMatchObject({ method: 'bare', truncated: false });
    expect(x.html!.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(x.html).not.toContain('Let me know');
  });

  it('keeps a reply cut off inside a <script>, closing what was left open', () => {
    const cutAt = POMODORO_PAGE.indexOf("document.getElementById('reset')");
    const x = extractHtml(`\`\`\`html\n${POMODORO_PAGE.slice(0, cutAt)}`);
    expect(x).toMatchObject({ method: 'fenced', truncated: true });
    expect(x.html).toMatch(/start\.onclick[\s\S]*\n<\/script>\n<\/body>\n<\/html>\n$/);
  });

  it('a reply without HTML is no document, with the reason', () => {
    const prose = extractHtml('I am sorry, but I cannot help with building that website.');
    expect(prose).toEqual({ html: null, reason: 'no HTML document in the reply (prose only)', blocks: 0 });
    const code = extractHtml('Use this Flask app:\n```python\nfrom flask import Flask\napp = Flask(__name__)\n```');
    expect(code.html).toBeNull();
    expect(code).toMatchObject({ reason: 'no HTML document in the reply (1 code block(s): python)' });
    expect(extractHtml('  ')).toMatchObject({ html: null, reason: 'the reply is empty' });
  });
});

describe('ledger', () => {
  it('prices input, cached input and output per million tokens; unpriced models cost 0', () => {
    const prices = { m: { input: 3, output: 15, cachedInput: 0.3 }, n: { input: 2, output: 8 } };
    expect(generationCost('m', 1_000_000, 100_000, 400_000, prices)).toBe(0.6 * 3 + 0.4 * 0.3 + 1.5);
    expect(generationCost('n', 1_000_000, 0, 400_000, prices)).toBe(2);
    expect(generationCost('other', 1_000_000, 1_000_000, 0, prices)).toBe(0);
  });

  it('counts Anthropic cache reads as input (they are reported apart); OpenAI cached tokens are already in the input', () => {
    const a = new UsageMeter('anthropic', 'c', {});
    a.add({ inputTokens: 100, outputTokens: 10, cachedInputTokens: 900 });
    const o = new UsageMeter('openai', 'g', {});
    o.add({ inputTokens: 1000, outputTokens: 10, cachedInputTokens: 900 });
    expect(a.finish()).toMatchObject({ calls: 1, inputTokens: 1000, cachedTokens: 900 });
    expect(o.finish()).toMatchObject({ calls: 1, inputTokens: 1000, cachedTokens: 900 });
  });
});

describe('rate limit', () => {
  it('spaces request starts of one endpoint by 60 000 / rpm ms, across callers', async () => {
    const l = new RateLimiter(1200); // 50 ms apart
    const t0 = Date.now();
    const starts: number[] = [];
    await Promise.all([0, 1, 2, 3].map(() => l.acquire().then(() => starts.push(Date.now() - t0))));
    starts.sort((a, b) => a - b);
    expect(starts[3]!).toBeGreaterThanOrEqual(145);
    const free = new RateLimiter(Infinity);
    const t1 = Date.now();
    for (let i = 0; i < 50; i++) await free.acquire();
    expect(Date.now() - t1).toBeLessThan(starts[3]!);
  });
});

describe('model flag', () => {
  it('parses PROVIDER:MODEL with generation defaults and names the fix when malformed', () => {
    expect(parseModelFlag('anthropic:claude-sonnet-4-5')).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-4-5', maxTokens: 16_384 });
    expect(parseModelFlag('openai:qwen2.5-coder:32b', { baseURL: 'http://127.0.0.1:8000/v1' })).toMatchObject({ model: 'qwen2.5-coder:32b', baseURL: 'http://127.0.0.1:8000/v1' });
    expect(() => parseModelFlag('gpt-4.1')).toThrow(/--model: model: "gpt-4.1" is not PROVIDER:MODEL\. Fix: write e\.g\. openai:gpt-4\.1/);
  });
});

describe('React tools', () => {
  let root: string;
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));
  const noHost: ToolHost = { build: async () => ({ ok: true, log: '' }), npmInstall: async () => ({ ok: true, text: 'added' }) };

  it('refuse paths outside the project: absolute, .., symlinks out, and writes under node_modules', async () => {
    root = tmp();
    const outside = tmp();
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'token');
    fs.symlinkSync(outside, path.join(root, 'link'));
    const t = new ProjectTools(root, noHost);
    for (const [tool, args] of [
      ['read_file', { path: '/etc/passwd' }],
      ['read_file', { path: '../../etc/passwd' }],
      ['create_file', { path: 'src/../../escape.txt', content: 'x' }],
      ['read_file', { path: 'link/secret.txt' }],
      ['create_file', { path: 'link/new.txt', content: 'x' }],
      ['glob', { pattern: '../**' }],
      ['create_file', { path: 'node_modules/react/index.js', content: 'x' }],
    ] as const) {
      const r = await t.run(tool, args);
      expect(r.ok, `${tool} ${JSON.stringify(args)}`).toBe(false);
      expect(r.text).toMatch(/outside the project|leads outside|not editable/);
    }
    expect(fs.existsSync(path.join(outside, 'new.txt'))).toBe(false);
    expect(fs.existsSync(path.join(path.dirname(root), 'escape.txt'))).toBe(false);
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('create, read, edit, patch, grep, glob, list and delete files; declare web and image tools unavailable', async () => {
    root = tmp();
    const t = new ProjectTools(root, noHost);
    expect((await t.run('create_file', { path: 'src/App.tsx', content: 'export default function App() {\n  return <h1>Hello</h1>;\n}\n' })).text).toBe('created src/App.tsx (4 lines)');
    expect(t.dirty).toBe(true);
    expect((await t.run('edit_file', { path: 'src/App.tsx', old_string: 'Hello', new_string: 'Bonjour' })).ok).toBe(true);
    expect((await t.run('read_file', { path: 'src/App.tsx' })).text).toContain('2\t  return <h1>Bonjour</h1>;');
    expect((await t.run('edit_file', { path: 'src/App.tsx', old_string: 'Hola', new_string: 'x' })).text).toBe('error: old_string not found in src/App.tsx');
    const patch = '--- a/src/App.tsx\n+++ b/src/App.tsx\n@@ -1,3 +1,3 @@\n export default function App() {\n-  return <h1>Bonjour</h1>;\n+  return <h1 className="text-3xl">Bonjour</h1>;\n }\n';
    expect(await t.run('apply_patch', { patch })).toEqual({ ok: true, text: 'patched src/App.tsx' });
    expect(fs.readFileSync(path.join(root, 'src/App.tsx'), 'utf8')).toContain('className="text-3xl"');
    expect((await t.run('apply_patch', { patch })).text).toMatch(/does not apply to src\/App\.tsx/);
    expect((await t.run('grep', { pattern: 'text-\\dxl' })).text).toBe('src/App.tsx:2:   return <h1 className="text-3xl">Bonjour</h1>;');
    expect((await t.run('glob', { pattern: 'src/**/*.tsx' })).text).toBe('src/App.tsx');
    expect((await t.run('list_files', {})).text).toBe('src/');
    expect((await t.run('delete_file', { path: 'src/App.tsx' })).ok).toBe(true);
    expect((await t.run('web_search', { query: 'pomodoro' })).text).toMatch(/not available in this environment/);
    expect((await t.run('generate_image', { prompt: 'a tomato' })).ok).toBe(false);
    expect((await t.run('npm_install', { packages: ['git+https://example.com/x.git', 'zustand@^5'] })).text).toMatch(/only packages from the npm registry.*refused: git\+https/);
  });

  it('accepts registry package specs only', () => {
    for (const ok of ['zustand', 'zustand@^5.0.0', '@tanstack/react-query@5', 'date-fns@latest']) expect(isRegistrySpec(ok), ok).toBe(true);
    for (const bad of ['file:../x', 'git+ssh://x', 'https://evil/x.tgz', '../local', 'alias@npm:react', 'a/b/c']) expect(isRegistrySpec(bad), bad).toBe(false);
  });
});

describe('generation sessions against local wire-format servers', () => {
  it('HTML over the OpenAI wire: a fenced reply becomes the candidate, with its ledger row; a second run skips it; a prompt edit regenerates', async () => {
    const server = await startFakeLlm(() => openaiText(`Voici la page :\n\`\`\`html\n${POMODORO_PAGE}\n\`\`\``, { prompt_tokens: 1200, completion_tokens: 2600, cached: 1000 }));
    const out = tmp();
    const promptFile = path.join(out, 'system.md');
    fs.writeFileSync(promptFile, 'Return one HTML file.');
    const model = parseModelFlag('openai:gen-model', { baseURL: `${server.url}/v1` });
    const run = () => generateAll({ queries: [q('pomodoro', '做一个番茄钟', 'zh')], outDir: out, settings: { model, mode: 'html', promptFile }, prices: { 'gen-model': { input: 2, output: 8, cachedInput: 0.5 } }, host });
    try {
      const first = await run();
      expect(first.records).toHaveLength(1);
      const p = generationPaths(out, 'gen-model', 'pomodoro', 'html');
      expect(fs.readFileSync(p.artifact, 'utf8')).toBe(`${POMODORO_PAGE}\n`);
      const row = readRecord(p.meta)!;
      expect(row).toMatchObject({ status: 'done', calls: 1, inputTokens: 1200, outputTokens: 2600, cachedTokens: 1000, mode: 'html', model: 'gen-model', provider: 'openai', extraction: { method: 'fenced', truncated: false } });
      expect(row.costUsd).toBe((200 * 2 + 1000 * 0.5 + 2600 * 8) / 1e6);
      expect(row.promptHash).toMatch(/^[0-9a-f]{12}$/);
      const body = server.requests[0]!.body as { messages: { role: string; content: unknown }[] };
      expect(body.messages[0]).toEqual({ role: 'system', content: 'Return one HTML file.' });
      expect(JSON.stringify(body.messages[1])).toContain('做一个番茄钟');
      expect(await run()).toEqual({ records: [], skipped: ['pomodoro'] });
      expect(server.requests).toHaveLength(1);
      fs.writeFileSync(promptFile, 'Return one HTML file. Use a dark theme.');
      const third = await run();
      expect(third.records).toHaveLength(1);
      expect(third.records[0]!.promptHash).not.toBe(row.promptHash);
      expect(server.requests).toHaveLength(2);
      expect(writeLedger(out).totals).toEqual([expect.objectContaining({ model: 'gen-model', mode: 'html', queries: 1, done: 1, calls: 1 })]);
    } finally {
      await server.close();
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('HTML over the Anthropic wire: a reply without HTML is a recorded generation failure with the reply kept, never an empty candidate', async () => {
    const reply = 'I can describe the design: a dashboard with three cards showing sales, users and revenue, and a line chart below.';
    const server = await startFakeLlm(() => anthropicText(reply, { input_tokens: 700, output_tokens: 40 }));
    const out = tmp();
    try {
      const model = parseModelFlag('anthropic:claude-gen', { baseURL: server.url });
      const { records } = await generateAll({ queries: [q('dash', 'Build a sales dashboard')], outDir: out, settings: { model, mode: 'html' }, prices: {}, host });
      const p = generationPaths(out, 'claude-gen', 'dash', 'html');
      expect(records[0]).toMatchObject({ status: 'generation-failed', reason: 'no HTML document in the reply (prose only)', calls: 1, inputTokens: 700, outputTokens: 40, costUsd: 0 });
      expect(fs.existsSync(p.artifact)).toBe(false);
      expect(fs.readFileSync(p.reply, 'utf8')).toBe(reply);
      expect(server.requests[0]!.path).toBe('/v1/messages');
      expect((server.requests[0]!.body as { system: string }).system).toBe(fs.readFileSync(path.join(REACT_TEMPLATE, '..', '..', 'prompts', 'generate-html.md'), 'utf8'));
      expect(isDone(p, records[0]!.settingsHash)).toBe(true); // a failure is final: not asked again with the same settings
    } finally {
      await server.close();
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('a model that cannot be reached is an error row, retried by the next run', async () => {
    const server = await startFakeLlm(() => ({ status: 401, body: { error: { message: 'invalid api key', type: 'auth' } } }));
    const out = tmp();
    try {
      const model = parseModelFlag('openai:gen-model', { baseURL: `${server.url}/v1` });
      const { records } = await generateAll({ queries: [q('a', 'A todo list')], outDir: out, settings: { model, mode: 'html' }, prices: {}, host });
      expect(records[0]).toMatchObject({ status: 'error', reason: expect.stringMatching(/^model call failed: 401/) });
      expect(isDone(generationPaths(out, 'gen-model', 'a', 'html'), records[0]!.settingsHash)).toBe(false);
    } finally {
      await server.close();
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('React loop over the Anthropic wire (build stubbed): plans, writes, hits a build error, fixes it, finishes; transcript and build log kept', async () => {
    const builds: string[] = [];
    const fakeHost: ToolHost = {
      build: async (root): Promise<BuildOutcome> => {
        const app = fs.readFileSync(path.join(root, 'src/App.tsx'), 'utf8');
        builds.push(app);
        return app.includes('TomatoIcon') ? { ok: false, cause: 'missing-icon', log: 'build failed: imports a lucide-react icon that does not exist: TomatoIcon' } : { ok: true, log: 'build: npm run build → exit 0' };
      },
      npmInstall: async () => ({ ok: true, text: 'added' }),
    };
    const broken = 'import { TomatoIcon } from "lucide-react";\nexport default function App() { return <main className="p-8"><TomatoIcon /><h1>Pomodoro</h1></main>; }\n';
    const script = [
      anthropicTools([{ name: 'update_plan', args: { steps: [{ step: 'write App', status: 'in_progress' }, { step: 'build', status: 'pending' }] } }, { name: 'create_file', args: { path: 'src/App.tsx', content: broken } }]),
      anthropicTools([{ name: 'build', args: {} }]),
      anthropicTools([{ name: 'edit_file', args: { path: 'src/App.tsx', old_string: 'TomatoIcon', new_string: 'Timer', replace_all: true } }, { name: 'build', args: {} }]),
      anthropicTools([{ name: 'finish', args: { summary: 'Pomodoro timer' } }]),
    ];
    const server = await startFakeLlm((_r, n) => script[n]!);
    const out = tmp();
    try {
      const model = parseModelFlag('anthropic:claude-gen', { baseURL: server.url });
      const { records } = await generateAll({ queries: [q('pomo', 'A Pomodoro timer')], outDir: out, settings: { model, mode: 'react' }, prices: { 'claude-gen': { input: 3, output: 15 } }, host, toolHost: fakeHost });
      const p = generationPaths(out, 'claude-gen', 'pomo', 'react');
      expect(records[0]).toMatchObject({ status: 'done', calls: 4, inputTokens: 6000, outputTokens: 1600, react: { steps: 6, endedBecause: 'finished', builds: 2, lastBuildOk: true, plan: [{ step: 'write App', status: 'in_progress' }, { step: 'build', status: 'pending' }] } });
      expect(records[0]!.costUsd).toBe((6000 * 3 + 1600 * 15) / 1e6);
      expect(fs.readFileSync(path.join(p.artifact, 'src/App.tsx'), 'utf8')).toContain('import { Timer } from "lucide-react"');
      expect(fs.existsSync(path.join(p.artifact, 'package.json'))).toBe(true);
      expect(fs.readdirSync(p.dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
      const transcript = JSON.parse(fs.readFileSync(p.transcript, 'utf8')) as { steps: { tool: string; ok: boolean; result: string }[] };
      expect(transcript.steps.map((s) => [s.tool, s.ok])).toEqual([['update_plan', true], ['create_file', true], ['build', false], ['edit_file', true], ['build', true], ['finish', true]]);
      expect(fs.readFileSync(p.buildLog, 'utf8')).toMatch(/build 1: failed \(missing-icon\)[\s\S]*TomatoIcon[\s\S]*build 2: ok/);
      // the model was told what it cannot do, and got the build error back
      const req0 = server.requests[0]!.body as { system: string; tools: { name: string }[] };
      expect(req0.system).toMatch(/web search, web fetch and image generation are unavailable/);
      expect(req0.tools.map((t) => t.name)).not.toContain('web_search');
      expect(JSON.stringify(server.requests[2]!.body)).toContain('TomatoIcon');
    } finally {
      await server.close();
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('React over the OpenAI wire: a project that never builds within the step budget is kept as build-failed', async () => {
    const fakeHost: ToolHost = { build: async () => ({ ok: false, cause: 'syntax-error', log: 'src/App.tsx:1:10: ERROR: Expected ";"' }), npmInstall: async () => ({ ok: true, text: 'added' }) };
    const server = await startFakeLlm(() => openaiTools([{ name: 'create_file', args: { path: 'src/App.tsx', content: 'export default function App( { return <div/> }' } }, { name: 'build', args: {} }]));
    const out = tmp();
    try {
      const model = parseModelFlag('openai:gen-model', { baseURL: `${server.url}/v1` });
      const { records } = await generateAll({ queries: [q('broken', 'A calculator')], outDir: out, settings: { model, mode: 'react', steps: 5 }, prices: {}, host, toolHost: fakeHost });
      expect(records[0]).toMatchObject({ status: 'build-failed', reason: 'the project does not build (syntax-error)', react: { steps: 5, endedBecause: 'step-budget', lastBuildOk: false } });
      expect(server.requests).toHaveLength(3);
      expect(fs.readFileSync(path.join(generationPaths(out, 'gen-model', 'broken', 'react').artifact, 'src/App.tsx'), 'utf8')).toContain('function App(');
    } finally {
      await server.close();
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('spec generate: and score changes', () => {
  it('a candidate may declare generate instead of path; both, neither or a bad model is a clear error', async () => {
    const { resolveSpec } = await import('../../src/spec/load.js');
    const query = { id: 'q', prompt: 'A todo list', language: 'en', kind: 'dynamic' };
    const { suite } = resolveSpec({ query, candidates: [{ name: 'gen', generate: { model: 'openai:gen-model', mode: 'react', prompt: 'p.md' } }] }, '/specs/s.cookie.yaml');
    expect(suite.candidates[0]).toMatchObject({ name: 'gen', mode: 'react', generate: { model: 'openai:gen-model', mode: 'react', prompt: '/specs/p.md' } });
    expect(() => resolveSpec({ query, candidates: [{ name: 'x', mode: 'html', path: 'a.html', generate: { model: 'openai:m', mode: 'html' } }] }, '/specs/s.cookie.yaml')).toThrow('/specs/s.cookie.yaml: candidates.0.generate: is given together with `path`. Fix: give the artifact as `path:`, or `generate: { model, mode, prompt }` to have Cookie generate it, not both');
    expect(() => resolveSpec({ query, candidates: [{ name: 'x', mode: 'html' }] }, '/specs/s.cookie.yaml')).toThrow(/candidates\.0\.path: is missing/);
    expect(() => resolveSpec({ query, candidates: [{ name: 'x', generate: { model: 'gpt-4.1', mode: 'html' } }] }, '/specs/s.cookie.yaml')).toThrow(/candidates\.0\.generate\.model/);
  });

  it('score changes: per candidate and query, only what was evaluated again, unscored counted 0', async () => {
    const { scoreChanges, formatScoreChanges } = await import('../../src/generate/compare.js');
    const ev = (id: string, total: number | null, extra: object = {}) => ({ id, queryId: id.split('/')[0], candidate: id.split('/')[1], status: total === null ? 'generation-failed' : 'scored', scores: total === null ? null : { functionality: total, aesthetics: total, total }, ...extra }) as never;
    const prev = [ev('a/gen', 50, { generation: { promptHash: 'h1' } }), ev('b/gen', null, { generation: { promptHash: 'h1' } }), ev('c/gen', 70)];
    const next = [ev('a/gen', 62.5, { generation: { promptHash: 'h2' } }), ev('b/gen', 40, { generation: { promptHash: 'h2' } }), ev('c/gen', 70, { cached: true })];
    const ch = scoreChanges(prev, next);
    expect(ch.map((c) => [c.queryId, c.delta, c.regenerated])).toEqual([['a', 12.5, true], ['b', 40, true]]);
    expect(formatScoreChanges(ch)).toEqual([
      'score change: a × gen: total 50 → 62.5 (+12.5), F 50 → 62.5, A 50 → 62.5 [regenerated: generation prompt or settings changed]',
      'score change: b × gen: total generation-failed → 40 (+40) [regenerated: generation prompt or settings changed]',
    ]);
  });
});

describe('React host and harness failures', () => {
  it('finds dependencies that are not from the registry', async () => {
    const { nonRegistryDependencies } = await import('../../src/generate/react/host.js');
    expect(nonRegistryDependencies({ dependencies: { react: '^19.3.1', zustand: 'latest', evil: 'git+https://example.com/e.git', local: 'file:../x' }, devDependencies: { vite: '~7.3.8', alias: 'npm:react@18' } })).toEqual(['evil: git+https://example.com/e.git', 'local: file:../x', 'alias: npm:react@18']);
  });

  it('a build the sandbox cannot run ends the session as an error (retried later), not as the model’s build failure', async () => {
    const sandboxDown: ToolHost = { build: async () => ({ ok: false, log: 'the build could not run', harnessError: 'bubblewrap is not usable here' }), npmInstall: async () => ({ ok: true, text: 'added' }) };
    const server = await startFakeLlm(() => openaiTools([{ name: 'create_file', args: { path: 'src/App.tsx', content: 'export default function App() { return <h1>Hi</h1>; }' } }, { name: 'build', args: {} }]));
    const out = tmp();
    try {
      const model = parseModelFlag('openai:gen-model', { baseURL: `${server.url}/v1` });
      const { records } = await generateAll({ queries: [q('x', 'Hello page')], outDir: out, settings: { model, mode: 'react' }, prices: {}, host, toolHost: sandboxDown });
      expect(records[0]).toMatchObject({ status: 'error', reason: 'harness-error: bubblewrap is not usable here' });
      expect(server.requests).toHaveLength(1);
      const p = generationPaths(out, 'gen-model', 'x', 'react');
      expect(fs.existsSync(p.artifact)).toBe(false);
      expect(isDone(p, records[0]!.settingsHash)).toBe(false);
    } finally {
      await server.close();
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});
