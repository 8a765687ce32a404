import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../src/browser/launch.js';
import type { InteractionTrace } from '../../src/types.js';
import { anthropicComputer, anthropicToolUse, computerCall, elementId, openaiResponse, openaiText, startFakeLlm, type SeenRequest } from '../fixtures/fake-llm.js';
import { readResults, ROOT, runCli, tmpDir, writeFiles, scaled } from '../helpers.js';
import { defaultChromium } from '../../src/util/chromium.js';

// No model is reachable from our machines. Each protocol is driven end to end through the real CLI, browser
// and agent loop against a local HTTP server that speaks that protocol's real wire format (Anthropic Messages
// with the beta computer tool, OpenAI Responses with computer_use_preview, OpenAI-compatible chat completions
// for UI-TARS, Qwen-VL and JSON-in-text) and answers from a script. What a real model would choose is not
// tested here; the wire format, the action mapping, the coordinates and the evidence are.

type Box = { x: number; y: number; width: number; height: number };
const boxes: Record<string, Box> = {};
const closers: (() => Promise<void>)[] = [];
const VIEWPORT = { width: 1280, height: 800 };

beforeAll(async () => {
  // where the controls are at the agent's viewport (what a screenshot-grounded model would read off the screen)
  const browser = await launchBrowser(defaultChromium());
  try {
    const page = await browser.newPage({ viewport: VIEWPORT });
    await page.goto(pathToFileURL(path.join(ROOT, 'examples/counter-zh/good-zh.html')).href);
    boxes.inc = (await page.locator('#inc').boundingBox())!;
    await page.goto(pathToFileURL(path.join(ROOT, 'examples/todo/good.html')).href);
    boxes.input = (await page.locator('#new-task').boundingBox())!;
  } finally {
    await browser.close();
  }
}, scaled(120_000));
afterAll(async () => {
  for (const c of closers) await c();
});

const centre = (b: Box) => ({ x: Math.round(b.x + b.width / 2), y: Math.round(b.y + b.height / 2) });
const inside = (b: Box, x: number | undefined, y: number | undefined) => x !== undefined && y !== undefined && x >= b.x && x <= b.x + b.width && y >= b.y && y <= b.y + b.height;

function project(model: string, page: string, prompt: string, language = 'en', steps = 6): string {
  const dir = tmpDir('cookie-proto-');
  writeFiles(dir, {
    'cookie.config.ts': `export default { agent: { kind: 'model', steps: ${steps}, model: ${model} }, recording: { video: false, audio: false }, pricing: { 'priced-model': { input: 3, output: 15 } }, reporters: ['json'] };\n`,
    'q.cookie.yaml': `query:\n  id: q\n  prompt: ${JSON.stringify(prompt)}\n  language: ${language}\n  kind: dynamic\ncandidates:\n  - { name: c, mode: html, path: ${JSON.stringify(path.join(ROOT, page))} }\n`,
  });
  return dir;
}
async function run(dir: string): Promise<InteractionTrace> {
  const r = await runCli(['test', '.'], { cwd: dir, timeoutMs: 600_000 });
  expect(r.stderr).toBe('');
  const e = readResults(path.join(dir, 'cookie-results')).evaluations[0]!;
  expect(e.status).toBe('scored');
  return JSON.parse(fs.readFileSync(path.join(dir, 'cookie-results/evidence/q/c/trace.json'), 'utf8'));
}
const body = (r: SeenRequest) => r.body as Record<string, any>;

describe('Anthropic computer use (Messages API, computer_20251124)', () => {
  it('sends the computer tool at the viewport size with its beta header, maps click/type/key onto human input, answers screenshot at once, corrects a malformed action, and takes the report from finish', async () => {
    const c = centre(boxes.input!);
    const srv = await startFakeLlm((_, n) =>
      [
        anthropicComputer('shot', { action: 'screenshot' }, 'Let me look first.'),
        anthropicComputer('bad', { action: 'left_click', coordinate: ['left', 10] }),
        { ...anthropicComputer('click', { action: 'left_click', coordinate: [c.x, c.y] }, 'Click into the task field.'), delayMs: 1500 },
        anthropicComputer('type', { action: 'type', text: 'Buy milk' }),
        anthropicComputer('key', { action: 'key', text: 'Return' }),
        anthropicToolUse('finish', { overall_observation: 'Typing a task and pressing Enter adds it to the list.', features_tested: ['add a task'] }),
      ][Math.min(n, 5)]!,
    );
    closers.push(srv.close);
    const t = await run(project(`{ provider: 'anthropic', model: 'priced-model', baseURL: '${srv.url}', apiKey: 'sk-ant-test', protocol: 'anthropic-computer-use' }`, 'examples/todo/good.html', 'A todo list app: add, complete and delete tasks.'));
    expect(t.agent).toBe('anthropic-computer-use (priced-model)');
    expect(t.endedBecause).toBe('finished');
    // the wire: beta endpoint and header, the computer tool at the viewport size plus finish, screenshots as base64 PNG
    expect(srv.requests).toHaveLength(6);
    const first = srv.requests[0]!;
    expect(first.path).toMatch(/^\/v1\/messages/);
    expect(String(first.headers['anthropic-beta'])).toContain('computer-use-2025-11-24');
    expect(body(first).tools[0]).toEqual({ type: 'computer_20251124', name: 'computer', display_width_px: 1280, display_height_px: 800 });
    expect(body(first).tools[1].name).toBe('finish');
    expect(body(first).messages[0].content[1]).toMatchObject({ type: 'image', source: { type: 'base64', media_type: 'image/png' } });
    expect(Buffer.from(body(first).messages[0].content[1].source.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
    // screenshot answered at once with a tool_result image; the malformed action with an error tool_result
    const lastUser = (r: SeenRequest) => body(r).messages.at(-1).content as any[];
    expect(lastUser(srv.requests[1]!)[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_shot', content: [{ type: 'image' }] });
    expect(lastUser(srv.requests[2]!)[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_bad', is_error: true });
    expect(JSON.stringify(lastUser(srv.requests[2]!))).toContain('coordinate');
    // the next step answers the click with the new screen
    expect(lastUser(srv.requests[3]!)[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_click' });
    expect(JSON.stringify(lastUser(srv.requests[3]!))).toContain('"type":"image"');
    // the actions, on Cookie's human-like input, with a visible effect at the end
    expect(t.steps.map((s) => s.action.kind)).toEqual(['click', 'fill', 'press']);
    expect(inside(boxes.input!, t.steps[0]!.action.x, t.steps[0]!.action.y)).toBe(true);
    expect(t.steps[1]!.action).toMatchObject({ value: 'Buy milk', append: true });
    expect(t.steps[2]!.action.key).toBe('Enter');
    expect(t.steps.every((s) => s.outcome === 'ok')).toBe(true);
    expect(t.steps[2]!.effect!.screenChanged).toBe(true);
    // the app was frozen while the model thought (1.5 s on the click's reply), and that time is recorded
    expect(t.recording!.freeze).toBe(true);
    expect(t.steps[0]!.thinkMs).toBeGreaterThanOrEqual(1500);
    expect(t.report!.observation).toBe('Typing a task and pressing Enter adds it to the list.');
    expect(t.protocol).toMatchObject({ requested: 'anthropic-computer-use', used: 'anthropic-computer-use', tool: 'computer_20251124 (beta computer-use-2025-11-24)' });
    expect(t.protocol!.corrections).toHaveLength(1);
    // cost and tokens per step: step 0 took 3 requests (screenshot, malformed, click)
    expect(t.steps[0]!.usage).toEqual({ requests: 3, inputTokens: 4500, outputTokens: 180, costUsd: (4500 * 3 + 180 * 15) / 1e6 });
    expect(t.steps[1]!.usage!.requests).toBe(1);
    expect(t.usage).toMatchObject({ requests: 6, inputTokens: 5 * 1500 + 100 });
  }, scaled(600_000));
});

describe('OpenAI computer use (Responses API, computer_use_preview)', () => {
  it('chains previous_response_id, acknowledges safety checks per policy and records them, corrects a malformed action, and takes the report from finish', async () => {
    const c = centre(boxes.inc!);
    const srv = await startFakeLlm((_, n) => {
      const id = `resp_${n}`;
      switch (n) {
        case 0:
          return openaiResponse(id, [
            { type: 'reasoning', id: 'rs_0', summary: [{ type: 'summary_text', text: 'Click 加一 to count up.' }] },
            computerCall('c1', { type: 'click', button: 'left', x: c.x, y: c.y }, [{ id: 'sc_1', code: 'malicious_instructions', message: 'The page may hold instructions for the agent.' }]),
          ]);
        case 1:
          return openaiResponse(id, [computerCall('c2', { type: 'click', button: 'left', x: c.x })]);
        case 2:
          return openaiResponse(id, [computerCall('c3', { type: 'click', button: 'left', x: c.x, y: c.y })]);
        default:
          return openaiResponse(id, [{ type: 'function_call', id: 'fc_1', call_id: 'f1', name: 'finish', arguments: JSON.stringify({ overall_observation: '加一 counts up by one.', features_tested: ['加一'] }), status: 'completed' }]);
      }
    });
    closers.push(srv.close);
    const t = await run(project(`{ provider: 'openai', model: 'computer-use-preview', baseURL: '${srv.url}/v1', apiKey: 'sk-test' }`, 'examples/counter-zh/good-zh.html', '做一个计数器', 'zh'));
    expect(t.agent).toBe('openai-computer-use (computer-use-preview)');
    expect(t.endedBecause).toBe('finished');
    expect(srv.requests.map((r) => r.path)).toEqual(Array(4).fill('/v1/responses'));
    const [r0, r1, r2, r3] = srv.requests.map(body);
    expect(r0!.tools[0]).toEqual({ type: 'computer_use_preview', display_width: 1280, display_height: 800, environment: 'browser' });
    expect(r0!.tools[1]).toMatchObject({ type: 'function', name: 'finish' });
    expect(r0!.truncation).toBe('auto');
    expect(r0!.previous_response_id).toBeUndefined();
    expect(r0!.input[0].content[1].image_url).toMatch(/^data:image\/png;base64,iVBOR/);
    // chaining: each request sends only the new items, with the previous response's id
    expect([r1!.previous_response_id, r2!.previous_response_id, r3!.previous_response_id]).toEqual(['resp_0', 'resp_1', 'resp_2']);
    expect(r1!.input[0]).toMatchObject({ type: 'computer_call_output', call_id: 'c1', output: { type: 'computer_screenshot' }, acknowledged_safety_checks: [{ id: 'sc_1', code: 'malicious_instructions' }] });
    expect(r1!.input[0].output.image_url).toMatch(/^data:image\/png;base64,/);
    // the malformed call (no y) is answered with the unchanged screen and a correction
    expect(r2!.input[0]).toMatchObject({ type: 'computer_call_output', call_id: 'c2' });
    expect(r2!.input[1].content).toMatch(/error: invalid computer action: y/);
    expect(t.steps.map((s) => s.action.kind)).toEqual(['click', 'click']);
    expect(t.steps.every((s) => inside(boxes.inc!, s.action.x, s.action.y) && s.effect!.screenChanged)).toBe(true);
    expect(t.steps[0]!.reasoning).toBe('Click 加一 to count up.');
    expect(t.report!.observation).toBe('加一 counts up by one.');
    expect(t.protocol).toMatchObject({ requested: 'auto', used: 'openai-computer-use', why: 'auto-detected from the model name "computer-use-preview"' });
    expect(t.protocol!.safetyChecks).toEqual([{ step: 0, id: 'sc_1', code: 'malicious_instructions', message: 'The page may hold instructions for the agent.', acknowledged: true }]);
    expect(t.steps[1]!.usage).toEqual({ requests: 2, inputTokens: 4000, outputTokens: 160, costUsd: 0 });
  }, scaled(600_000));
});

describe('UI-TARS text actions (chat completions, relative 0–1000 coordinates)', () => {
  it('parses Thought/Action, scales relative coordinates to the viewport, answers a malformed action with a correction, and ends on finished()', async () => {
    const c = centre(boxes.inc!);
    const rx = Math.round((c.x / 1280) * 1000);
    const ry = Math.round((c.y / 800) * 1000);
    const srv = await startFakeLlm((_, n) =>
      [
        openaiText("Thought: 我要点击加一。\nAction: click(start_box='(abc)')"),
        openaiText(`Thought: 点击"加一"按钮，看计数是否增加。\nAction: click(start_box='<|box_start|>(${rx},${ry})<|box_end|>')`),
        openaiText("Thought: 计数增加了。\nAction: finished(content='加一按钮每次把计数加一。')"),
      ][Math.min(n, 2)]!,
    );
    closers.push(srv.close);
    const t = await run(project(`{ provider: 'openai', model: 'ui-tars-1.0-7b', baseURL: '${srv.url}/v1', apiKey: 'k' }`, 'examples/counter-zh/good-zh.html', '做一个计数器', 'zh'));
    expect(t.agent).toBe('ui-tars (openai:ui-tars-1.0-7b)');
    expect(t.endedBecause).toBe('finished');
    const [b0, b1] = srv.requests.map(body);
    expect(b0!.tools).toBeUndefined();
    expect(b0!.messages[0].role).toBe('system');
    expect(b0!.messages[0].content).toContain("click(start_box='(x,y)')");
    expect(b0!.messages[0].content).toContain('relative, x and y from 0 to 1000');
    expect(b0!.messages[1].content[1].image_url.url).toMatch(/^data:image\/png;base64,iVBOR/);
    expect(JSON.stringify(b1!.messages.at(-1))).toContain('could not be used: click needs start_box');
    expect(t.steps).toHaveLength(1);
    const s = t.steps[0]!;
    expect(s.action.kind).toBe('click');
    expect(Math.abs(s.action.x! - (rx * 1280) / 1000)).toBeLessThan(0.1);
    expect(Math.abs(s.action.y! - (ry * 800) / 1000)).toBeLessThan(0.1);
    expect(inside(boxes.inc!, s.action.x, s.action.y)).toBe(true);
    expect(s.effect!.screenChanged).toBe(true);
    expect(s.reasoning).toBe('点击"加一"按钮，看计数是否增加。');
    expect(t.report!.observation).toBe('加一按钮每次把计数加一。');
    expect(t.protocol).toMatchObject({ used: 'ui-tars', coordinates: { convention: 'relative-1000', scaleX: 1.28, scaleY: 0.8 } });
    expect(t.protocol!.corrections).toEqual([{ step: 0, error: "click needs start_box='(x,y)' with two numbers" }]);
    expect(s.usage).toEqual({ requests: 2, inputTokens: 2400, outputTokens: 80, costUsd: 0 });
  }, scaled(600_000));
});

describe('Qwen-VL computer_use in text (chat completions, smart-resize coordinates)', () => {
  it('parses <tool_call> JSON, maps smart-resized pixels to the viewport, types and submits a task, corrects invalid arguments, and ends on answer', async () => {
    const c = centre(boxes.input!);
    // Qwen2.5-VL sees a 1280x800 screenshot resized to 1288x812 (28-px grid): its coordinates are in that space
    const q = { x: Math.round((c.x * 1288) / 1280), y: Math.round((c.y * 812) / 800) };
    const call = (args: unknown) => `<tool_call>\n${JSON.stringify({ name: 'computer_use', arguments: args })}\n</tool_call>`;
    const srv = await startFakeLlm((_, n) =>
      [
        openaiText(`I will click into the task field.\n${call({ action: 'left_click', coordinate: [q.x, q.y] })}`),
        openaiText(call({ action: 'type', text: 'Buy milk' })),
        openaiText(call({ action: 'key' })),
        openaiText(call({ action: 'key', keys: ['enter'] })),
        openaiText(call({ action: 'answer', text: 'Adding a task with Enter works; the list shows it.' })),
      ][Math.min(n, 4)]!,
    );
    closers.push(srv.close);
    const t = await run(project(`{ provider: 'openai', model: 'my-vision-model', baseURL: '${srv.url}/v1', apiKey: 'k', protocol: 'qwen-vl', coordinates: 'smart-resize' }`, 'examples/todo/good.html', 'A todo list app: add, complete and delete tasks.'));
    expect(t.agent).toBe('qwen-vl (openai:my-vision-model)');
    expect(t.endedBecause).toBe('finished');
    const b0 = body(srv.requests[0]!);
    expect(b0.tools).toBeUndefined();
    expect(b0.messages[0].content).toContain('<tools>');
    expect(b0.messages[0].content).toContain("The screen's resolution is 1288x812.");
    expect(t.steps.map((s) => `${s.action.kind}:${s.action.value ?? s.action.key ?? ''}`)).toEqual(['click:', 'fill:Buy milk', 'press:Enter']);
    expect(inside(boxes.input!, t.steps[0]!.action.x, t.steps[0]!.action.y)).toBe(true);
    expect(Math.abs(t.steps[0]!.action.x! - c.x)).toBeLessThan(1);
    expect(t.steps[2]!.effect!.screenChanged).toBe(true);
    expect(JSON.stringify(body(srv.requests[3]!).messages.at(-1))).toContain('key needs keys');
    expect(t.protocol).toMatchObject({ requested: 'qwen-vl', used: 'qwen-vl', why: 'configured (agent.model.protocol)', coordinates: { convention: 'smart-resize', scaleX: 0.9938, scaleY: 0.9852 } });
    expect(t.report!.observation).toBe('Adding a task with Enter works; the list shows it.');
    expect(t.steps[2]!.usage).toEqual({ requests: 2, inputTokens: 2400, outputTokens: 80, costUsd: 0 });
  }, scaled(600_000));
});

describe('a server without tool calling (JSON-in-text fallback)', () => {
  it('falls back to strict JSON in text when the server refuses tools, validates it with the same schema, corrects a reply with no JSON, and records the choice', async () => {
    let texts = 0;
    const srv = await startFakeLlm((req) => {
      if (body(req).tools) return { status: 400, body: { error: { message: 'registry.ollama.ai/library/llava:13b does not support tools', type: 'api_error', param: null, code: null } } };
      switch (texts++) {
        case 0:
          return openaiText(JSON.stringify({ tool: 'click', arguments: { element_id: elementId(req, 'button', '增加'), reasoning: '加一' } }));
        case 1:
          return openaiText('I will click the button again.');
        case 2:
          return openaiText('```json\n' + JSON.stringify({ tool: 'click', arguments: { element_id: elementId(req, 'button', '增加') } }) + '\n```');
        default:
          return openaiText(JSON.stringify({ tool: 'finish', arguments: { overall_observation: 'The counter counts up.' } }));
      }
    });
    closers.push(srv.close);
    const t = await run(project(`{ provider: 'openai', model: 'llava:13b', baseURL: '${srv.url}/v1', apiKey: 'k' }`, 'examples/counter-zh/good-zh.html', '做一个计数器', 'zh'));
    expect(t.endedBecause).toBe('finished');
    expect(body(srv.requests[0]!).tools).toHaveLength(9);
    expect(srv.requests.slice(1).every((r) => body(r).tools === undefined)).toBe(true);
    expect(body(srv.requests[1]!).messages[0].content).toContain('This server has no tool calling');
    expect(t.protocol).toMatchObject({ requested: 'auto', used: 'json' });
    expect(t.protocol!.why).toMatch(/^fell back at step 0: the server rejected tool calling \(400 .*does not support tools/);
    expect(t.protocol!.corrections).toEqual([{ step: 1, error: 'the reply holds no JSON object' }]);
    expect(t.steps.map((s) => s.action.target?.name)).toEqual(['增加', '增加']);
    expect(t.steps.every((s) => s.effect!.screenChanged)).toBe(true);
    expect(t.report!.observation).toBe('The counter counts up.');
    // the refused request counts as a request, without tokens
    expect(t.steps[0]!.usage).toMatchObject({ requests: 1, inputTokens: 1200 });
    expect(t.usage!.requests).toBe(5);
  }, scaled(600_000));
});
