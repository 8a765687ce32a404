import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicProvider } from '../../src/providers/anthropic.js';
import { withBackoff } from '../../src/providers/backoff.js';
import { apiKeyOf, costOf, ModelClient } from '../../src/providers/client.js';
import { OpenAIProvider } from '../../src/providers/openai.js';
import { anthropicToolUse, openaiToolCall, startFakeLlm } from '../fixtures/fake-llm.js';

// No model is reachable from our machines: these talk to a local server speaking each provider's real wire format.
let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});
const tools = [{ name: 'click', description: 'click', parameters: { type: 'object', properties: { element_id: { type: 'integer' } }, required: ['element_id'] } }];
const png = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');
const modelCfg = { provider: 'openai' as const, model: 'test-model', temperature: 0.2, maxTokens: 256, timeoutMs: 5000, retries: 3, backoffMs: 10 };

describe('OpenAI-compatible wire format', () => {
  it('sends system, text + image parts and function tools; parses the tool call and usage', async () => {
    const srv = await startFakeLlm(() => openaiToolCall('click', '{"element_id": 3}', { prompt_tokens: 1234, completion_tokens: 56 }));
    close = srv.close;
    const p = new OpenAIProvider({ model: 'test-model', apiKey: 'sk-test', baseURL: `${srv.url}/v1` });
    const r = await p.complete({ system: 'be neutral', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image', mediaType: 'image/png', base64: png }] }], tools, toolChoice: 'required', temperature: 0.2 });
    expect(r.toolCalls).toEqual([{ id: 'call_click', name: 'click', arguments: { element_id: 3 } }]);
    expect(r.usage).toEqual({ inputTokens: 1234, outputTokens: 56 });
    const req = srv.requests[0]!;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-test');
    const body = req.body as { model: string; messages: { role: string; content: unknown }[]; tools: { type: string; function: { name: string } }[]; tool_choice: string; temperature: number };
    expect(body.model).toBe('test-model');
    expect(body.messages[0]).toEqual({ role: 'system', content: 'be neutral' });
    expect(body.messages[1]!.content).toEqual([{ type: 'text', text: 'hi' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } }]);
    expect(body.tools[0]).toMatchObject({ type: 'function', function: { name: 'click' } });
    expect(body.tool_choice).toBe('required');
    expect(body.temperature).toBe(0.2);
  });

  it('keeps malformed tool-call arguments as text with a parse error (so the agent can retry)', async () => {
    const srv = await startFakeLlm(() => openaiToolCall('click', '{"element_id": 3'));
    close = srv.close;
    const r = await new OpenAIProvider({ model: 'm', apiKey: 'k', baseURL: `${srv.url}/v1` }).complete({ system: 's', messages: [], tools });
    expect(r.toolCalls[0]!.parseError).toMatch(/not valid JSON/);
  });
});

describe('Anthropic Messages wire format', () => {
  it('sends system, image blocks and tools with input_schema; parses tool_use and usage', async () => {
    const srv = await startFakeLlm(() => anthropicToolUse('click', { element_id: 2 }, { input_tokens: 900, output_tokens: 40 }));
    close = srv.close;
    const p = new AnthropicProvider({ model: 'claude-test', apiKey: 'sk-ant-test', baseURL: srv.url });
    const r = await p.complete({ system: 'be neutral', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image', mediaType: 'image/png', base64: png }] }], tools, toolChoice: 'required', maxTokens: 300 });
    expect(r.toolCalls).toEqual([{ id: 'toolu_click', name: 'click', arguments: { element_id: 2 } }]);
    expect(r.text).toBe('Looking at the page.');
    expect(r.usage).toEqual({ inputTokens: 900, outputTokens: 40 });
    const req = srv.requests[0]!;
    expect(req.path).toBe('/v1/messages');
    // the official SDK sends the key as x-api-key (older versions) or as a bearer token (current ones)
    expect([req.headers['x-api-key'], req.headers.authorization]).toContain(req.headers['x-api-key'] ? 'sk-ant-test' : 'Bearer sk-ant-test');
    expect(req.headers['anthropic-version']).toBeTruthy();
    const body = req.body as { system: string; max_tokens: number; messages: { content: unknown[] }[]; tools: { input_schema: unknown }[]; tool_choice: unknown };
    expect(body.system).toBe('be neutral');
    expect(body.max_tokens).toBe(300);
    expect(body.messages[0]!.content[1]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } });
    expect(body.tools[0]!.input_schema).toEqual(tools[0]!.parameters);
    expect(body.tool_choice).toEqual({ type: 'any' });
  });
});

describe('retries and back-off', () => {
  it('backs off on 429 honouring retry-after, retries 5xx, and records usage and cost of the successful call', async () => {
    const srv = await startFakeLlm((_, n) =>
      n === 0 ? { status: 429, headers: { 'retry-after-ms': '300' }, body: { error: { message: 'rate limited' } } } : n === 1 ? { status: 503, body: { error: { message: 'overloaded' } } } : openaiToolCall('click', '{"element_id":1}'),
    );
    close = srv.close;
    const client = new ModelClient(new OpenAIProvider({ model: 'test-model', apiKey: 'k', baseURL: `${srv.url}/v1` }), modelCfg, { 'test-model': { input: 2, output: 10 } });
    const r = await client.complete({ system: 's', messages: [], tools });
    expect(r.toolCalls[0]!.name).toBe('click');
    expect(srv.requests).toHaveLength(3);
    expect(srv.requests[1]!.at - srv.requests[0]!.at).toBeGreaterThanOrEqual(280);
    expect(client.retries.map((x) => x.waitMs)[0]).toBe(300);
    expect(client.usage).toEqual({ requests: 3, inputTokens: 100, outputTokens: 20, costUsd: costOf('test-model', 100, 20, { 'test-model': { input: 2, output: 10 } }) });
    expect(client.usage.costUsd).toBeCloseTo((100 * 2 + 20 * 10) / 1e6, 9);
  });

  it('does not retry a 400 and gives up after the retry budget', async () => {
    const bad = await startFakeLlm(() => ({ status: 400, body: { error: { message: 'bad request' } } }));
    const client = new ModelClient(new OpenAIProvider({ model: 'm', apiKey: 'k', baseURL: `${bad.url}/v1` }), modelCfg, {});
    await expect(client.complete({ system: 's', messages: [] })).rejects.toThrow(/400/);
    expect(bad.requests).toHaveLength(1);
    await bad.close();
    let n = 0;
    await expect(withBackoff(async () => { n++; throw Object.assign(new Error('busy'), { status: 500 }); }, { retries: 2, baseMs: 1, maxMs: 5 })).rejects.toThrow('busy');
    expect(n).toBe(3);
  });
});

describe('other model requests through the same policies (computer-use APIs)', () => {
  it('ModelClient.call retries a 429, then adds the tokens and cost of the successful call', async () => {
    const srv = await startFakeLlm((_, n) => (n === 0 ? { status: 429, headers: { 'retry-after-ms': '20' }, body: { error: { message: 'slow down' } } } : { body: { id: 'resp_1', usage: { input_tokens: 1000, output_tokens: 50 } } }));
    close = srv.close;
    const client = new ModelClient(new OpenAIProvider({ model: 'test-model', apiKey: 'k', baseURL: `${srv.url}/v1` }), modelCfg, { 'test-model': { input: 2, output: 10 } });
    const { res, cost } = await client.call(
      async () => {
        const r = await fetch(`${srv.url}/v1/responses`, { method: 'POST', body: '{}' });
        if (!r.ok) throw Object.assign(new Error(`${r.status}`), { status: r.status, headers: r.headers });
        return (await r.json()) as { id: string; usage: { input_tokens: number; output_tokens: number } };
      },
      (r) => ({ inputTokens: r.usage.input_tokens, outputTokens: r.usage.output_tokens }),
    );
    expect(res.id).toBe('resp_1');
    expect(cost).toEqual({ requests: 1, inputTokens: 1000, outputTokens: 50, costUsd: (1000 * 2 + 50 * 10) / 1e6 });
    expect(client.usage).toEqual({ requests: 2, inputTokens: 1000, outputTokens: 50, costUsd: cost.costUsd });
    expect(client.retries).toHaveLength(1);
  });
});

describe('API keys', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'COOKIE_API_KEY', 'MY_KEY']) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });
  it('a hosted model with no key is a clear error naming the variable to set, not the SDK\'s "Missing credentials"', () => {
    for (const k of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'COOKIE_API_KEY']) delete process.env[k];
    expect(() => apiKeyOf({ provider: 'openai', model: 'gpt-x' } as never)).toThrow(/no API key for the openai model "gpt-x"\. Fix: set OPENAI_API_KEY \(or COOKIE_API_KEY\)/);
    expect(() => apiKeyOf({ provider: 'anthropic', model: 'claude-x', apiKeyEnv: 'MY_KEY' } as never)).toThrow(/Fix: set MY_KEY/);
    process.env.OPENAI_API_KEY = '';
    expect(() => apiKeyOf({ provider: 'openai', model: 'gpt-x' } as never)).toThrow(/no API key/);
  });
  it('the key comes from the config, its variable, the provider\'s variable or COOKIE_API_KEY; a local server needs none', () => {
    for (const k of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'COOKIE_API_KEY']) delete process.env[k];
    expect(apiKeyOf({ provider: 'openai', model: 'm', baseURL: 'http://127.0.0.1:9/v1' } as never)).toBe('not-needed');
    process.env.COOKIE_API_KEY = 'k-cookie';
    expect(apiKeyOf({ provider: 'anthropic', model: 'm' } as never)).toBe('k-cookie');
    process.env.MY_KEY = 'k-mine';
    expect(apiKeyOf({ provider: 'openai', model: 'm', apiKeyEnv: 'MY_KEY' } as never)).toBe('k-mine');
    expect(apiKeyOf({ provider: 'openai', model: 'm', apiKey: 'k-config' } as never)).toBe('k-config');
  });
});
