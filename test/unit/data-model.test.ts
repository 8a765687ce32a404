import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { classifyQuery, filterDecision, filterQuery, precision, protect, restore, translateRows } from '../../src/data/model-tools.js';
import { ModelClient } from '../../src/providers/client.js';
import { OpenAIProvider } from '../../src/providers/openai.js';
import { startFakeLlm, type Reply, type SeenRequest } from '../fixtures/fake-llm.js';
import { tmpDir } from '../helpers.js';

// No model is reachable from our machines: these run against a local server speaking the OpenAI wire format.
let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});
const chat = (content: string): Reply => ({ body: { id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }], usage: { prompt_tokens: 50, completion_tokens: 10 } } });
const client = (url: string) => new ModelClient(new OpenAIProvider({ model: 'm', apiKey: 'k', baseURL: `${url}/v1` }), { provider: 'openai', model: 'm', temperature: 0.2, maxTokens: 200, timeoutMs: 5000, retries: 1, backoffMs: 1 }, {});
const userText = (req: SeenRequest) => JSON.stringify((req.body.messages as unknown[]).slice(1));

describe('admissibility filter (A.2)', () => {
  const all = (pass: boolean) => Object.fromEntries(['safety', 'privacy', 'task_direction', 'intent_clarity', 'executability', 'dependency_minimality', 'logical_completeness'].map((a) => [a, { pass }])) as Parameters<typeof filterDecision>[0];
  it('auto-rejects on safety, privacy, executability or logical completeness; accepts when all pass; else routes to a human', () => {
    expect(filterDecision(all(true))).toBe('accept');
    for (const a of ['safety', 'privacy', 'executability', 'logical_completeness'] as const) expect(filterDecision({ ...all(true), [a]: { pass: false } })).toBe('reject');
    for (const a of ['task_direction', 'intent_clarity', 'dependency_minimality'] as const) expect(filterDecision({ ...all(true), [a]: { pass: false } })).toBe('human');
  });
  it('returns structured per-axis verdicts from the model', async () => {
    const srv = await startFakeLlm(() => chat(JSON.stringify(Object.fromEntries(['safety', 'privacy', 'task_direction', 'intent_clarity', 'executability', 'dependency_minimality', 'logical_completeness'].map((a) => [a, { pass: a !== 'intent_clarity', rationale: `${a} ok` }])))));
    close = srv.close;
    const r = await filterQuery(client(srv.url), 'make something nice');
    expect(r.decision).toBe('human');
    expect(r.verdicts.intent_clarity).toEqual({ pass: false, rationale: 'intent_clarity ok' });
  });
});

describe('classifier (A.7)', () => {
  it('inlines the 54 leaves with the sharpened definitions, retries a reply that is not a leaf, derives L2 and L1', async () => {
    let n = 0;
    const srv = await startFakeLlm(() => chat(n++ === 0 ? '{"task_scenario": "Game"}' : '{"task_scenario": "Action & Reflex"}'));
    close = srv.close;
    const r = await classifyQuery(client(srv.url), 'A dodge-the-asteroids game');
    expect(r).toEqual({ l1: 'Dynamic web pages', l2: 'Browser Games', l3: 'Action & Reflex', retries: 1 });
    const system = JSON.stringify((srv.requests[0]!.body.messages as { content: string }[])[0]);
    expect(system).toContain('Static Report Page needs an explicit recurrence period');
    expect((system.match(/\(Dynamic web pages\)|; Dynamic web pages\)|Dynamic web pages\)/g) ?? []).length).toBeGreaterThanOrEqual(34);
    expect(srv.requests[0]!.body.temperature).toBe(0.2);
  });
  it('precision counts correct over predicted', () => {
    expect(precision(new Map([['a', 'X'], ['b', 'Y'], ['c', 'Z']]), new Map([['a', 'X'], ['b', 'X'], ['c', 'Z'], ['d', 'Q']]))).toEqual({ correct: 2, predicted: 3, precision: 2 / 3 });
  });
});

describe('translator (A.6)', () => {
  it('protects code, paths and URLs and restores them; a reply that drops a placeholder is retried', () => {
    const q = 'Build a page like https://example.com/x that loads `data.json` from src/data/items.json:\n```js\nconst a = 1;\n```';
    const { masked, pieces } = protect(q);
    expect(pieces).toEqual(['https://example.com/x', '`data.json`', 'src/data/items.json', '```js\nconst a = 1;\n```']);
    expect(masked).not.toContain('example.com');
    expect(restore(masked.replace('Build a page like', 'Crea una página como'), pieces)).toBe(q.replace('Build a page like', 'Crea una página como'));
    expect(() => restore('sin marcadores', pieces)).toThrow(/⟦0⟧ appears 0 times/);
  });
  it('caches in batches of ten and resumes without calling the model again for translated rows', async () => {
    let fail = false;
    const srv = await startFakeLlm((req) => {
      if (fail) return { status: 400, body: { error: { message: 'stop here' } } };
      const text = userText(req).match(/"text":"(q\d+)/)![1];
      return chat(JSON.stringify({ translation: `${text} (es)` }));
    });
    close = srv.close;
    const dir = tmpDir();
    const rows = Array.from({ length: 25 }, (_, i) => ({ data_id: `id${i}`, query: `q${i}`, language: 'Chinese', target_language: 'es' }));
    const cacheFile = path.join(dir, 'cache.jsonl');
    let batches = 0;
    await expect(
      translateRows(client(srv.url), rows, { column: 'query', id: 'data_id', cacheFile, onBatch: () => { if (++batches === 2) fail = true; } }),
    ).rejects.toThrow();
    expect(fs.readFileSync(cacheFile, 'utf8').trim().split('\n')).toHaveLength(20);
    fail = false;
    const before = srv.requests.length;
    const out = await translateRows(client(srv.url), rows, { column: 'query', id: 'data_id', cacheFile });
    expect(srv.requests.length - before).toBe(5);
    expect(out[3]).toMatchObject({ query: 'q3 (es)', original_query: 'q3', original_language: 'Chinese', language: 'Spanish' });
  });
});
