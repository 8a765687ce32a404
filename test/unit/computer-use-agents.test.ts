import { afterEach, describe, expect, it } from 'vitest';
import type { ModelConfig } from '../../src/config/schema.js';
import type { Observation } from '../../src/interact/agent.js';
import { AnthropicComputerUseAgent } from '../../src/interact/agents/model-anthropic-cu.js';
import { OpenAIComputerUseAgent } from '../../src/interact/agents/model-openai-cu.js';
import { ModelClient, providerFor } from '../../src/providers/client.js';
import { anthropicComputer, computerCall, openaiResponse, startFakeLlm } from '../fixtures/fake-llm.js';

// The computer-use agents' edge cases (refusals, errors, policy, batching, budget end), driven directly without
// a browser against local servers speaking the real wire formats. No real model is reachable from our machines.
let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000500000003200806000000', 'hex');
const obs = (step: number): Observation => ({ step, budget: 5, url: 'http://127.0.0.1:1/', elements: [], screenshot: png, viewport: { width: 1280, height: 800 }, previous: null });
const task = { url: 'http://127.0.0.1:1/', prompt: 'A drawing app', budget: 5 };
function client(m: Partial<ModelConfig> & Pick<ModelConfig, 'provider' | 'model'>): ModelClient {
  const cfg: ModelConfig = { temperature: 0.2, maxTokens: 512, timeoutMs: 5000, retries: 0, backoffMs: 0, ...m };
  return new ModelClient(providerFor(cfg), cfg, {});
}

describe('Anthropic computer use: refusals, errors and the end of the budget', () => {
  it('a refusal (no tool call, stop_reason refusal) ends the exploration and its text is the report', async () => {
    const srv = await startFakeLlm(() => ({ body: { id: 'm', type: 'message', role: 'assistant', model: 'c', stop_reason: 'refusal', stop_sequence: null, content: [{ type: 'text', text: 'I cannot help with this page.' }], usage: { input_tokens: 10, output_tokens: 5 } } }));
    close = srv.close;
    const agent = new AnthropicComputerUseAgent(client({ provider: 'anthropic', model: 'c', baseURL: srv.url, apiKey: 'k', protocol: 'anthropic-computer-use', computerTool: 'computer_20250124' }), task, 'configured');
    const d = await agent.next(obs(0));
    expect(d.action.kind).toBe('finish');
    expect(String(srv.requests[0]!.headers['anthropic-beta'])).toContain('computer-use-2025-01-24');
    expect((srv.requests[0]!.body as { tools: { type: string }[] }).tools[0]!.type).toBe('computer_20250124');
    expect((await agent.report([], ['button "Save"'], [])).observation).toBe('I cannot help with this page.');
  });

  it('an API error (400) is thrown to the loop, which records it as agent-error; it is not retried', async () => {
    const srv = await startFakeLlm(() => ({ status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'computer_20251124 is not supported on this model' } } }));
    close = srv.close;
    const agent = new AnthropicComputerUseAgent(client({ provider: 'anthropic', model: 'c', baseURL: srv.url, apiKey: 'k', retries: 3 }), task, 'configured');
    await expect(agent.next(obs(0))).rejects.toThrow(/not supported on this model/);
    expect(srv.requests).toHaveLength(1);
  });

  it('answers parallel tool calls with one action per turn, and at the budget forces finish after answering the pending call', async () => {
    const srv = await startFakeLlm((req, n) => {
      if (n === 0) {
        const r = anthropicComputer('a', { action: 'left_click', coordinate: [10, 10] });
        (r.body as { content: unknown[] }).content.push({ type: 'tool_use', id: 'toolu_b', name: 'computer', input: { action: 'left_click', coordinate: [20, 20] } });
        return r;
      }
      return { body: { id: 'm', type: 'message', role: 'assistant', model: 'c', stop_reason: 'tool_use', stop_sequence: null, content: [{ type: 'tool_use', id: 'toolu_f', name: 'finish', input: { overall_observation: 'Drew a line.' } }], usage: { input_tokens: 1, output_tokens: 1 } } };
    });
    close = srv.close;
    const agent = new AnthropicComputerUseAgent(client({ provider: 'anthropic', model: 'c', baseURL: srv.url, apiKey: 'k' }), task, 'configured');
    const d = await agent.next(obs(0));
    expect(d.action).toEqual({ kind: 'click', x: 10, y: 10 });
    const r = await agent.report([], [], []);
    expect(r.observation).toBe('Drew a line.');
    const last = srv.requests[1]!.body as { tool_choice: unknown; messages: { role: string; content: { type: string; tool_use_id?: string; is_error?: boolean }[] }[] };
    expect(last.tool_choice).toEqual({ type: 'tool', name: 'finish' });
    const results = last.messages.at(-1)!.content;
    expect(results.filter((b) => b.type === 'tool_result').map((b) => [b.tool_use_id, !!b.is_error])).toEqual([['toolu_a', false], ['toolu_b', true]]);
  });
});

describe('OpenAI computer use: safety-check policy, batched actions', () => {
  it('policy "stop": a pending safety check ends the exploration, is recorded as not acknowledged, and no further request is made', async () => {
    const srv = await startFakeLlm((_, n) => openaiResponse(`resp_${n}`, [computerCall('c1', { type: 'click', button: 'left', x: 5, y: 5 }, [{ id: 'sc_9', code: 'irrelevant_domain', message: 'The page is not the task.' }])]));
    close = srv.close;
    const agent = new OpenAIComputerUseAgent(client({ provider: 'openai', model: 'computer-use-preview', baseURL: `${srv.url}/v1`, apiKey: 'k', safetyChecks: 'stop' }), task, 'auto');
    const d = await agent.next(obs(0));
    expect(d.action.kind).toBe('finish');
    expect(agent.protocolRecord().safetyChecks).toEqual([{ step: 0, id: 'sc_9', code: 'irrelevant_domain', message: 'The page is not the task.', acknowledged: false }]);
    expect((await agent.report([], [], [])).observation).toMatch(/^stopped by Cookie's safety-check policy \(stop\): irrelevant_domain/);
    expect(srv.requests).toHaveLength(1);
  });

  it('the GA `computer` tool: batched actions run one per step without new requests, then one screenshot answers the call', async () => {
    const srv = await startFakeLlm((_, n) =>
      n === 0
        ? openaiResponse('resp_0', [{ type: 'computer_call', id: 'cu', call_id: 'c1', pending_safety_checks: [], status: 'completed', actions: [{ type: 'click', button: 'left', x: 100, y: 200 }, { type: 'type', text: 'hello' }, { type: 'keypress', keys: ['ENTER'] }] }])
        : openaiResponse('resp_1', [{ type: 'message', id: 'msg', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Typed hello.', annotations: [] }] }]),
    );
    close = srv.close;
    const agent = new OpenAIComputerUseAgent(client({ provider: 'openai', model: 'computer-use', baseURL: `${srv.url}/v1`, apiKey: 'k', computerTool: 'computer' }), task, 'auto');
    const kinds = [];
    for (let i = 0; i < 4; i++) {
      const d = await agent.next(obs(i));
      kinds.push(`${d.action.kind}:${d.usage?.requests ?? 0}`);
      if (d.action.kind === 'finish') break;
    }
    expect(kinds).toEqual(['click:1', 'fill:0', 'press:0', 'finish:1']);
    expect((srv.requests[0]!.body as { tools: unknown[] }).tools[0]).toEqual({ type: 'computer' });
    const second = srv.requests[1]!.body as { input: { type: string; call_id: string }[]; previous_response_id: string };
    expect(second.previous_response_id).toBe('resp_0');
    expect(second.input[0]).toMatchObject({ type: 'computer_call_output', call_id: 'c1', output: { type: 'computer_screenshot' } });
    expect((await agent.report([], [], [])).observation).toBe('Typed hello.');
  });
});
