import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { InteractionTrace } from '../../src/types.js';
import { anthropicToolUse, elementId, openaiToolCall, startFakeLlm } from '../fixtures/fake-llm.js';
import { readResults, ROOT, runCli, tmpDir, writeFiles } from '../helpers.js';

// No model is reachable from our machines. These runs drive the real CLI, browser and agent loop against
// local HTTP servers that speak the OpenAI chat-completions and Anthropic Messages wire formats and answer
// with scripted tool calls.
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closers) await c();
});

function project(config: string, page: string, prompt: string, language = 'en'): string {
  const dir = tmpDir('cookie-model-');
  writeFiles(dir, {
    'cookie.config.ts': config,
    'q.cookie.yaml': `query:\n  id: q\n  prompt: ${JSON.stringify(prompt)}\n  language: ${language}\n  kind: dynamic\ncandidates:\n  - { name: c, mode: html, path: ${JSON.stringify(path.join(ROOT, page))} }\n`,
  });
  return dir;
}
const trace = (out: string): InteractionTrace => JSON.parse(fs.readFileSync(path.join(out, 'evidence/q/c/trace.json'), 'utf8'));

describe('model-backed agent over an OpenAI-compatible endpoint', () => {
  it('runs observe → think → act with one tool call per step, retries malformed calls and 429s, and records usage and cost', async () => {
    const srv = await startFakeLlm((req, n) => {
      switch (n) {
        case 0:
          return openaiToolCall('click', '{"element_id": '); // malformed: retried
        case 1:
          return openaiToolCall('type', JSON.stringify({ element_id: elementId(req, 'textbox', 'New task'), text: 'Buy milk', reasoning: 'add a task' }));
        case 2:
          return { status: 429, headers: { 'retry-after-ms': '150' }, body: { error: { message: 'slow down' } } };
        case 3:
          return openaiToolCall('click', JSON.stringify({ element_id: elementId(req, 'button', 'Add task'), reasoning: 'submit it' }));
        default:
          return openaiToolCall('finish', JSON.stringify({ overall_observation: 'Adding a task works.', features_tested: ['add a task'], issues_found: [] }));
      }
    });
    closers.push(srv.close);
    const dir = project(
      `export default { agent: { kind: 'model', steps: 8, model: { provider: 'openai', model: 'test-model', baseURL: '${srv.url}/v1', apiKey: 'sk-test-secret', backoffMs: 10 } }, pricing: { 'test-model': { input: 3, output: 15 } }, recording: { video: false }, reporters: ['json'] };\n`,
      'examples/todo/good.html',
      'A todo list app: add, complete and delete tasks.',
    );
    const out = path.join(dir, 'cookie-results');
    const r = await runCli(['test', '.'], { cwd: dir });
    expect(r.stderr).toBe('');
    const run = readResults(out);
    const e = run.evaluations[0]!;
    expect(e.status).toBe('scored');
    const t = trace(out);
    expect(t.agent).toBe('model-agent (openai:test-model)');
    expect(t.endedBecause).toBe('finished');
    expect(t.steps.map((s) => `${s.action.kind}:${s.action.target?.name}`)).toEqual(['fill:New task', 'click:Add task']);
    expect(t.steps[0]!.action.value).toBe('Buy milk');
    expect(t.steps[0]!.reasoning).toBe('add a task');
    expect(t.steps[1]!.effect!.screenChanged).toBe(true);
    expect(t.report!.observation).toBe('Adding a task works.');
    // 5 requests: malformed + good, 429 + good, finish; tokens only from the 4 answered ones
    expect(srv.requests).toHaveLength(5);
    expect(t.usage).toEqual({ requests: 5, inputTokens: 400, outputTokens: 80, costUsd: (400 * 3 + 80 * 15) / 1e6 });
    expect(e.usage).toEqual(t.usage);
    expect(t.steps[0]!.usage!.requests).toBe(2);
    // the wire: key as bearer, screenshot as an image part, the brief in the system prompt, tools offered
    const first = srv.requests[1]!.body as { messages: { role: string; content: unknown }[]; tools: { function: { name: string } }[] };
    expect(srv.requests[1]!.headers.authorization).toBe('Bearer sk-test-secret');
    expect(JSON.stringify(first.messages[0])).toContain('A todo list app: add, complete and delete tasks.');
    expect(JSON.stringify(first.messages)).toContain('data:image/png;base64,');
    expect(JSON.stringify(first.messages)).toContain('invalid arguments'.slice(0, 0) + 'not valid JSON');
    expect(first.tools.map((x) => x.function.name).sort()).toEqual(['back', 'click', 'drag', 'finish', 'hold', 'press', 'scroll', 'type', 'wait']);
    // the key never reaches results, evidence or logs
    for (const f of fs.readdirSync(out, { recursive: true }) as string[]) {
      if (/\.(json|xml)$/.test(f)) expect(fs.readFileSync(path.join(out, f), 'utf8')).not.toContain('sk-test-secret');
    }
    expect(r.stdout).not.toContain('sk-test-secret');
  });
});

describe('model-backed agent over the Anthropic Messages API', () => {
  it('stops at the step budget and asks for the report with a forced finish call', async () => {
    const srv = await startFakeLlm((req) => {
      const body = req.body as { tool_choice?: { type: string; name?: string } };
      if (body.tool_choice?.type === 'tool' && body.tool_choice.name === 'finish') return anthropicToolUse('finish', { overall_observation: 'The counter counts up.', issues_found: [{ feature: '清零', action: 'not tried', expected: '-', actual: '-' }] });
      return anthropicToolUse('click', { element_id: elementId(req, 'button', '增加') });
    });
    closers.push(srv.close);
    const dir = project(
      `export default { agent: { kind: 'model', steps: 3, model: { provider: 'anthropic', model: 'claude-test', baseURL: '${srv.url}', apiKeyEnv: 'MY_ANTHROPIC_KEY' } }, recording: { video: false }, reporters: ['json'] };\n`,
      'examples/counter-zh/good-zh.html',
      '做一个计数器',
      'zh',
    );
    const r = await runCli(['test', '.'], { cwd: dir, env: { MY_ANTHROPIC_KEY: 'sk-ant-env-key' } });
    expect(r.stderr).toBe('');
    const t = trace(path.join(dir, 'cookie-results'));
    expect(t.agent).toBe('model-agent (anthropic:claude-test)');
    expect(t.steps).toHaveLength(3);
    expect(t.endedBecause).toBe('budget');
    expect(t.steps.every((s) => s.action.target?.name === '增加' && s.effect!.screenChanged)).toBe(true);
    expect(t.report!.observation).toBe('The counter counts up.');
    expect(srv.requests).toHaveLength(4);
    const auth = srv.requests[0]!.headers;
    expect([auth['x-api-key'], auth.authorization]).toContain(auth['x-api-key'] ? 'sk-ant-env-key' : 'Bearer sk-ant-env-key');
    expect(t.usage).toMatchObject({ requests: 4, inputTokens: 400, outputTokens: 80, costUsd: 0 });
  });
});

describe('model-backed judge through the CLI', () => {
  it('a judge that never returns valid JSON gives the evaluation a judge error, not a crash; the run goes on', async () => {
    const srv = await startFakeLlm(() => ({ body: { id: 'x', object: 'chat.completion', created: 0, model: 'j', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'The page looks fine to me.' } }], usage: { prompt_tokens: 10, completion_tokens: 5 } } }));
    closers.push(srv.close);
    const dir = project(`export default { agent: { steps: 4 }, judge: { kind: 'model', model: { provider: 'openai', model: 'j', baseURL: '${srv.url}/v1', apiKey: 'k' } }, recording: { video: false }, reporters: ['json'] };\n`, 'examples/counter-zh/good-zh.html', '做一个计数器', 'zh');
    const r = await runCli(['test', '.'], { cwd: dir });
    expect(r.code).toBe(1);
    const e = readResults(path.join(dir, 'cookie-results')).evaluations[0]!;
    expect(e).toMatchObject({ status: 'error', error: { stage: 'judge' }, scores: null });
    expect(e.error!.message).toMatch(/static: no valid reply after 4 attempts \(the reply holds no JSON object\)/);
    expect(srv.requests).toHaveLength(4);
  });
});
