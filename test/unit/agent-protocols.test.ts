import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { parseJsonCall } from '../../src/interact/agents/model.js';
import { parseQwen, parseUiTars, scale, uiTarsPoint } from '../../src/interact/agents/model-grounded.js';
import { coordinateScale, playwrightKey, pngSize, screenDecision, smartResize } from '../../src/interact/agents/model-screen.js';
import { detectProtocol } from '../../src/interact/agents/model-select.js';
import { isRetryable, isToolRejection } from '../../src/providers/backoff.js';

// Pure parts of the agent protocols (issue 17). The wire formats themselves are tested end to end against
// local servers in test/e2e/agent-protocols.test.ts; no real model is reachable from our machines.

const base = { temperature: 0.2, maxTokens: 1024, timeoutMs: 1000, retries: 0, backoffMs: 0 };

describe('UI-TARS grammar', () => {
  it('reads every point notation UI-TARS versions emit', () => {
    expect(uiTarsPoint("(512,430)")).toEqual({ x: 512, y: 430 });
    expect(uiTarsPoint('<|box_start|>(512,430)<|box_end|>')).toEqual({ x: 512, y: 430 });
    expect(uiTarsPoint('[500, 400, 520, 440]')).toEqual({ x: 510, y: 420 });
    expect(uiTarsPoint('<point>77 88</point>')).toEqual({ x: 77, y: 88 });
    expect(uiTarsPoint('(abc)')).toBeNull();
  });

  it('parses actions with their thought, and says what is wrong with a malformed one', () => {
    expect(parseUiTars("Thought: open the menu\nAction: left_double(start_box='(10,20)')")).toEqual({ action: { type: 'click', at: { x: 10, y: 20 }, button: 'left', clicks: 2 }, thought: 'open the menu' });
    expect(parseUiTars("Thought: drag it\nAction: drag(start_box='(1,2)', end_box='(3,4)')")).toMatchObject({ action: { type: 'drag', from: { x: 1, y: 2 }, to: { x: 3, y: 4 } } });
    expect(parseUiTars("Action: hotkey(key='ctrl a')")).toMatchObject({ action: { type: 'key', key: 'Control+a' } });
    expect(parseUiTars("Action: type(content='it\\'s done\\n')")).toMatchObject({ action: { type: 'type', text: "it's done\n" } });
    expect(parseUiTars("Action: scroll(start_box='(5,5)', direction='up')")).toMatchObject({ action: { type: 'scroll', at: { x: 5, y: 5 }, dx: 0, dy: -400 } });
    expect(parseUiTars("Thought: done\nAction: finished(content='all good')")).toEqual({ finish: 'all good', thought: 'done' });
    expect(parseUiTars('Thought: hmm')).toMatchObject({ error: expect.stringContaining("no 'Action:' line") });
    expect(parseUiTars("Action: teleport(start_box='(1,1)')")).toEqual({ error: 'unknown action "teleport"' });
    expect(parseUiTars("Action: scroll(start_box='(1,1)', direction='sideways')")).toMatchObject({ error: expect.stringContaining('direction') });
  });
});

describe('Qwen-VL computer_use in text', () => {
  const call = (args: unknown) => `thinking…\n<tool_call>\n${JSON.stringify({ name: 'computer_use', arguments: args })}\n</tool_call>`;
  it('parses the function call, with left_click_drag starting at the pointer and scroll pixels positive = up', () => {
    expect(parseQwen(call({ action: 'left_click', coordinate: [100, 200] }), { x: 0, y: 0 })).toEqual({ action: { type: 'click', at: { x: 100, y: 200 }, button: 'left', clicks: 1 }, thought: 'thinking…' });
    expect(parseQwen(call({ action: 'left_click_drag', coordinate: [9, 9] }), { x: 1, y: 2 })).toMatchObject({ action: { type: 'drag', from: { x: 1, y: 2 }, to: { x: 9, y: 9 } } });
    expect(parseQwen(call({ action: 'scroll', pixels: 300 }), { x: 0, y: 0 })).toMatchObject({ action: { type: 'scroll', dy: -300, dx: 0 } });
    expect(parseQwen(call({ action: 'key', keys: ['ctrl', 'shift', 't'] }), { x: 0, y: 0 })).toMatchObject({ action: { type: 'key', key: 'Control+Shift+t' } });
    expect(parseQwen(call({ action: 'terminate', status: 'success' }), { x: 0, y: 0 })).toMatchObject({ finish: 'thinking…' });
  });
  it('rejects what it cannot use, with the reason', () => {
    expect(parseQwen('just text', { x: 0, y: 0 })).toEqual({ error: 'no <tool_call>…</tool_call> in the reply' });
    expect(parseQwen('<tool_call>{"name": "computer_use", "arguments": {</tool_call>', { x: 0, y: 0 })).toMatchObject({ error: expect.stringContaining('not valid JSON') });
    expect(parseQwen(call({ action: 'fly' }), { x: 0, y: 0 })).toMatchObject({ error: expect.stringContaining('invalid arguments: action') });
    expect(parseQwen(call({ action: 'left_click' }), { x: 0, y: 0 })).toEqual({ error: 'left_click needs coordinate [x, y]' });
  });
});

describe('coordinates and keys', () => {
  it('computes the Qwen2.5-VL smart_resize size (28-px grid, area bounds)', () => {
    expect(smartResize(1280, 800)).toEqual({ width: 1288, height: 812 });
    expect(smartResize(375, 667)).toEqual({ width: 364, height: 672 });
    const big = smartResize(8000, 6000);
    expect(big.width * big.height).toBeLessThanOrEqual(14 * 14 * 4 * 16384);
    expect(big.width % 28).toBe(0);
  });

  it('maps each convention to CSS px of the viewport, using the screenshot size (a 2x device screenshot halves pixels)', () => {
    const vp = { width: 1280, height: 800 };
    expect(coordinateScale('relative-1000', vp, { width: 2560, height: 1600 })).toEqual({ scaleX: 1.28, scaleY: 0.8 });
    expect(coordinateScale('pixels', vp, { width: 2560, height: 1600 })).toEqual({ scaleX: 0.5, scaleY: 0.5 });
    expect(coordinateScale('pixels', vp, null)).toEqual({ scaleX: 1, scaleY: 1 });
    expect(coordinateScale('smart-resize', vp, vp).scaleX).toBeCloseTo(1280 / 1288, 6);
    expect(scale({ type: 'click', at: { x: 500, y: 500 }, button: 'left', clicks: 1 }, 1.28, 0.8, vp)).toMatchObject({ at: { x: 640, y: 400 } });
    // aimed outside the screen: clamped inside the viewport
    expect(scale({ type: 'move', at: { x: 1100, y: -5 } }, 1.28, 0.8, vp)).toMatchObject({ at: { x: 1279, y: 0 } });
  });

  it('reads the PNG header size', () => {
    const png = Buffer.alloc(24);
    Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').copy(png);
    png.writeUInt32BE(1280, 16);
    png.writeUInt32BE(800, 20);
    expect(pngSize(png)).toEqual({ width: 1280, height: 800 });
    expect(pngSize(Buffer.from('not a png at all, really not'))).toBeNull();
  });

  it('maps xdotool, OpenAI and UI-TARS key names onto Playwright chords', () => {
    expect(playwrightKey('Return')).toBe('Enter');
    expect(playwrightKey('ctrl+s')).toBe('Control+s');
    expect(playwrightKey('Page_Down')).toBe('PageDown');
    expect(playwrightKey(['CTRL', 'A'])).toBe('Control+a');
    expect(playwrightKey(['ENTER'])).toBe('Enter');
    expect(playwrightKey('ctrl c')).toBe('Control+c');
    expect(playwrightKey('+')).toBe('+');
    expect(playwrightKey('F5')).toBe('F5');
  });

  it('turns screen actions into Cookie actions for human-like input', () => {
    expect(screenDecision({ type: 'click', at: { x: 10, y: 20 }, button: 'right', clicks: 1 }, 'r').action).toEqual({ kind: 'click', x: 10, y: 20, button: 'right' });
    expect(screenDecision({ type: 'type', text: 'hi' }, '').action).toEqual({ kind: 'fill', value: 'hi', append: true });
    expect(screenDecision({ type: 'hold', key: 'ArrowRight', ms: 90_000 }, '').action).toEqual({ kind: 'hold', key: 'ArrowRight', durationMs: 5000 });
    expect(screenDecision({ type: 'scroll', at: null, dx: 0, dy: 300 }, '').action).toEqual({ kind: 'scroll', deltaY: 300 });
    expect(screenDecision({ type: 'move', at: { x: 1, y: 2 } }, '').action).toEqual({ kind: 'hover', x: 1, y: 2 });
  });
});

describe('protocol selection and the JSON-in-text fallback', () => {
  it('auto-detects from the model name where it tells, and otherwise uses tools', () => {
    expect(detectProtocol({ ...base, provider: 'openai', model: 'computer-use-preview-2025-03-11' }).protocol).toBe('openai-computer-use');
    expect(detectProtocol({ ...base, provider: 'openai', model: 'ByteDance-Seed/UI-TARS-1.5-7B' }).protocol).toBe('ui-tars');
    expect(detectProtocol({ ...base, provider: 'openai', model: 'Qwen/Qwen2.5-VL-7B-Instruct' }).protocol).toBe('qwen-vl');
    expect(detectProtocol({ ...base, provider: 'openai', model: 'qwen3-vl:8b' }).protocol).toBe('qwen-vl');
    expect(detectProtocol({ ...base, provider: 'anthropic', model: 'claude-sonnet-4-5' })).toEqual({ protocol: 'tools', why: 'default (function calling; falls back to json when the server rejects tools)' });
    expect(detectProtocol({ ...base, provider: 'openai', model: 'ui-tars', protocol: 'json' })).toEqual({ protocol: 'json', why: 'configured (agent.model.protocol)' });
  });

  it('a protocol on the wrong provider is a config error naming the field and the fix', () => {
    const r = configSchema.safeParse({ agent: { kind: 'model', model: { provider: 'openai', model: 'm', protocol: 'anthropic-computer-use' } } });
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error!.issues)).toContain('needs provider \\"anthropic\\"');
  });

  it('recognises servers that refuse tools (Ollama, vLLM, llama.cpp) and does not retry them', () => {
    const err = (status: number, message: string) => Object.assign(new Error(`${status} ${message}`), { status });
    expect(isToolRejection(err(400, 'registry.ollama.ai/library/llava:13b does not support tools'))).toBe(true);
    expect(isToolRejection(err(400, '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'))).toBe(true);
    expect(isToolRejection(err(500, 'tools param requires --jinja flag'))).toBe(true);
    expect(isRetryable(err(500, 'tools param requires --jinja flag'))).toBe(false);
    expect(isToolRejection(err(400, 'image too large'))).toBe(false);
    expect(isToolRejection(err(429, 'tool rate limit'))).toBe(false);
  });

  it('reads one JSON tool call from text, also fenced, and says what is wrong otherwise', () => {
    expect(parseJsonCall('{"tool": "click", "arguments": {"element_id": 3}}')).toEqual({ call: { id: 'json-click', name: 'click', arguments: { element_id: 3 } } });
    expect(parseJsonCall('Sure:\n```json\n{"tool": "press", "arguments": {"key": "Enter"}}\n```')).toMatchObject({ call: { name: 'press' } });
    expect(parseJsonCall('I would click it.')).toEqual({ error: 'the reply holds no JSON object' });
    expect(parseJsonCall('{"tool": "click", "arguments": {')).toEqual({ error: 'the reply holds no JSON object' });
    expect(parseJsonCall('{"tool": click}')).toMatchObject({ error: expect.stringContaining('not valid JSON') });
    expect(parseJsonCall('{"arguments": {}}')).toEqual({ error: 'the JSON object has no "tool" field' });
  });
});
