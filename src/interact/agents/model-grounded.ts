import { z } from '../../vendor/zod.js';
import type { ChatMessage, ChatPart } from '../../providers/chat.js';
import type { ModelClient } from '../../providers/client.js';
import type { AgentProtocolRecord, AgentReport, TraceStep } from '../../types.js';
import type { Decision, Observation } from '../agent.js';
import {
  addUsage,
  budgetSpentNote,
  coordinateScale,
  inViewport,
  invalidDecision,
  MAX_REPLIES_PER_STEP,
  noUsage,
  playwrightKey,
  pngSize,
  reportFromText,
  resultText,
  ScreenAgent,
  screenDecision,
  screenPrompt,
  smartResize,
  type CoordinateConvention,
  type Point,
  type ScreenAction,
} from './model-screen.js';

/** The two text-action grammars of screenshot-grounded open models. */
export type GroundedGrammar = 'ui-tars' | 'qwen-vl';

/** What one reply means: an action, the end (with the model's own words), or an error for the correction. */
type Parsed = { action: ScreenAction; thought: string } | { finish: string; thought: string } | { error: string };

/** Earlier turns kept (with their screenshots dropped but the newest). */
const HISTORY_TURNS = 4;
/** Pixels scrolled by a UI-TARS `scroll` (it names a direction, not an amount). */
const UITARS_SCROLL_PX = 400;

/**
 * UI-TARS's action space (ByteDance UI-TARS computer-use prompt): the model answers `Thought: …` then
 * `Action: click(start_box='(x,y)')`. Coordinates follow `agent.model.coordinates`.
 */
function uiTarsNotes(space: string): string {
  return `## Output format
Reply with exactly two parts:
Thought: (a short plan, then your next action and its target in one sentence)
Action: (exactly one action from the action space)

## Action space
click(start_box='(x,y)')
left_double(start_box='(x,y)')
right_single(start_box='(x,y)')
drag(start_box='(x1,y1)', end_box='(x2,y2)')
hotkey(key='ctrl c')  # keys separated by spaces, lowercase
type(content='text')  # end content with \\n to submit
scroll(start_box='(x,y)', direction='down or up or right or left')
wait()  # let the application run for 5 s
finished(content='your report')  # end the exploration; the content is your neutral report

Coordinates: ${space}. Escape ' and \\n inside content as in a Python string.`;
}

/** Qwen2.5-VL / Qwen3-VL's `computer_use` function (Qwen-Agent style), offered in the system prompt as `<tools>`. */
function qwenNotes(resolution: string): string {
  const fn = {
    type: 'function',
    function: {
      name: 'computer_use',
      description: `Use a mouse and keyboard to interact with the browser showing the application, and see screenshots.\n* The screen's resolution is ${resolution}.\n* Click on the centre of buttons, links and fields, never on their edges.`,
      parameters: {
        type: 'object',
        required: ['action'],
        properties: {
          action: {
            type: 'string',
            enum: ['key', 'type', 'mouse_move', 'left_click', 'left_click_drag', 'right_click', 'middle_click', 'double_click', 'triple_click', 'scroll', 'hscroll', 'wait', 'terminate', 'answer'],
            description: 'key: press the keys together; type: type text; mouse_move / left_click / right_click / middle_click / double_click / triple_click at coordinate; left_click_drag: drag from the cursor to coordinate; scroll / hscroll by pixels (positive: up / right); wait: seconds; terminate: end with a status; answer: your final report as text.',
          },
          keys: { type: 'array', description: 'Required only by action=key.' },
          text: { type: 'string', description: 'Required only by action=type and action=answer.' },
          coordinate: { type: 'array', description: '(x, y) on the screen.' },
          pixels: { type: 'number', description: 'Required only by action=scroll and action=hscroll.' },
          time: { type: 'number', description: 'Seconds; required only by action=wait.' },
          status: { type: 'string', enum: ['success', 'failure'], description: 'Required only by action=terminate.' },
        },
      },
    },
  };
  return `# Tools

You may call one function per reply to act on the application. Function signature within <tools></tools> XML tags:
<tools>
${JSON.stringify(fn)}
</tools>

First think briefly in plain text, then give the call as a JSON object within <tool_call></tool_call> XML tags:
<tool_call>
{"name": "computer_use", "arguments": <args-json-object>}
</tool_call>
When you are done, use action=answer with your neutral report as text (what you did, what worked, what did not).`;
}

/** Unescape a Python-style quoted string value. */
function unescape(s: string): string {
  return s.replace(/\\(n|t|'|"|\\)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
}

/** The numbers of a UI-TARS box or point value: `(x,y)`, `<|box_start|>(x,y)<|box_end|>`, `[x1,y1,x2,y2]` (centre), `<point>x y</point>`. */
export function uiTarsPoint(v: string | undefined): Point | null {
  if (!v) return null;
  const n = v.replace(/<\|box_(start|end)\|>|<\/?(point|bbox)>/g, ' ').match(/-?\d+(\.\d+)?/g)?.map(Number) ?? [];
  if (n.length === 2) return { x: n[0]!, y: n[1]! };
  if (n.length === 4) return { x: (n[0]! + n[2]!) / 2, y: (n[1]! + n[3]!) / 2 };
  return null;
}

/**
 * Parse one UI-TARS reply (`Thought: … Action: name(arg='value', …)`) into a screen action in the model's
 * own coordinate space (scaled by the caller). Exported for unit tests.
 */
export function parseUiTars(reply: string): Parsed {
  const m = reply.match(/Action\s*:\s*([\s\S]+)$/);
  const thought = (reply.match(/Thought\s*:\s*([\s\S]*?)(?=\n\s*Action\s*:|$)/)?.[1] ?? '').trim();
  if (!m) return { error: "no 'Action:' line; reply as 'Thought: …' then 'Action: click(start_box='(x,y)')'" };
  const call = m[1]!.trim().split('\n')[0]!.trim().replace(/^`+|`+$/g, '');
  const c = call.match(/^([a-z_]+)\s*\(([\s\S]*)\)$/i);
  if (!c) return { error: `cannot read the action "${call.slice(0, 80)}"; write one call such as click(start_box='(x,y)')` };
  const name = c[1]!.toLowerCase();
  const args: Record<string, string> = {};
  for (const a of c[2]!.matchAll(/(\w+)\s*=\s*(?:'((?:\\.|[^'\\])*)'|"((?:\\.|[^"\\])*)")/g)) args[a[1]!] = unescape(a[2] ?? a[3] ?? '');
  const start = uiTarsPoint(args.start_box ?? args.point ?? args.start_point);
  const needStart = (): Point | { error: string } => start ?? { error: `${name} needs start_box='(x,y)' with two numbers` };
  switch (name) {
    case 'click':
    case 'left_single':
    case 'left_double':
    case 'right_single': {
      const at = needStart();
      if ('error' in at) return at;
      return { action: { type: 'click', at, button: name === 'right_single' ? 'right' : 'left', clicks: name === 'left_double' ? 2 : 1 }, thought };
    }
    case 'drag':
    case 'select': {
      const from = needStart();
      if ('error' in from) return from;
      const to = uiTarsPoint(args.end_box ?? args.end_point);
      if (!to) return { error: `${name} needs end_box='(x,y)'` };
      return { action: { type: 'drag', from, to }, thought };
    }
    case 'hotkey':
    case 'press':
      return args.key ? { action: { type: 'key', key: playwrightKey(args.key) }, thought } : { error: `${name} needs key='…'` };
    case 'type':
      return args.content !== undefined ? { action: { type: 'type', text: args.content }, thought } : { error: "type needs content='…'" };
    case 'scroll': {
      const d = (args.direction ?? '').toLowerCase();
      if (!['up', 'down', 'left', 'right'].includes(d)) return { error: "scroll needs direction='up', 'down', 'left' or 'right'" };
      const px = UITARS_SCROLL_PX;
      return { action: { type: 'scroll', at: start, dx: d === 'left' ? -px : d === 'right' ? px : 0, dy: d === 'up' ? -px : d === 'down' ? px : 0 }, thought };
    }
    case 'wait':
      return { action: { type: 'wait', ms: 5000 }, thought };
    case 'finished':
      return { finish: args.content ?? thought, thought };
    case 'call_user':
      return { finish: `The model asked for the user's help and stopped. ${thought}`.trim(), thought };
    default:
      return { error: `unknown action "${name}"` };
  }
}

const qwenArgs = z.object({
  action: z.enum(['key', 'type', 'mouse_move', 'left_click', 'left_click_drag', 'right_click', 'middle_click', 'double_click', 'triple_click', 'scroll', 'hscroll', 'wait', 'terminate', 'answer']),
  keys: z.array(z.string()).optional(),
  text: z.string().optional(),
  coordinate: z.tuple([z.number(), z.number()]).optional(),
  pixels: z.number().optional(),
  time: z.number().optional(),
  status: z.string().optional(),
});

/**
 * Parse one Qwen-VL reply (`<tool_call>{"name": "computer_use", "arguments": {…}}</tool_call>`) into a
 * screen action in the model's coordinate space; `pointer` is where the cursor is (left_click_drag starts
 * there). Exported for unit tests.
 */
export function parseQwen(reply: string, pointer: Point): Parsed {
  const thought = reply.replace(/<tool_call>[\s\S]*?(<\/tool_call>|$)/g, '').trim();
  const m = reply.match(/<tool_call>\s*([\s\S]*?)\s*(<\/tool_call>|$)/);
  if (!m) return { error: 'no <tool_call>…</tool_call> in the reply' };
  let call: unknown;
  try {
    call = JSON.parse(m[1]!);
  } catch (e) {
    return { error: `the tool call is not valid JSON: ${(e as Error).message}` };
  }
  const c = call as { name?: unknown; arguments?: unknown };
  if (c.name !== 'computer_use') return { error: `unknown function "${String(c.name)}"; call computer_use` };
  const p = qwenArgs.safeParse(typeof c.arguments === 'string' ? JSON.parse(c.arguments) : c.arguments);
  if (!p.success) return { error: `invalid arguments: ${p.error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`).join('; ')}` };
  const a = p.data;
  const at = a.coordinate ? { x: a.coordinate[0], y: a.coordinate[1] } : null;
  const need = (): Point | { error: string } => at ?? { error: `${a.action} needs coordinate [x, y]` };
  switch (a.action) {
    case 'left_click':
    case 'right_click':
    case 'middle_click':
    case 'double_click':
    case 'triple_click': {
      const pt = need();
      if ('error' in pt) return pt;
      return { action: { type: 'click', at: pt, button: a.action === 'right_click' ? 'right' : a.action === 'middle_click' ? 'middle' : 'left', clicks: a.action === 'double_click' ? 2 : a.action === 'triple_click' ? 3 : 1 }, thought };
    }
    case 'mouse_move': {
      const pt = need();
      return 'error' in pt ? pt : { action: { type: 'move', at: pt }, thought };
    }
    case 'left_click_drag': {
      const pt = need();
      return 'error' in pt ? pt : { action: { type: 'drag', from: pointer, to: pt }, thought };
    }
    case 'key':
      return a.keys?.length ? { action: { type: 'key', key: playwrightKey(a.keys) }, thought } : { error: 'key needs keys, e.g. ["ctrl", "a"]' };
    case 'type':
      return a.text !== undefined ? { action: { type: 'type', text: a.text }, thought } : { error: 'type needs text' };
    case 'scroll':
    case 'hscroll':
      if (a.pixels === undefined) return { error: `${a.action} needs pixels` };
      return { action: { type: 'scroll', at, dx: a.action === 'hscroll' ? a.pixels : 0, dy: a.action === 'scroll' ? -a.pixels : 0 }, thought };
    case 'wait':
      return { action: { type: 'wait', ms: (a.time ?? 2) * 1000 }, thought };
    case 'terminate':
      return { finish: thought || `The model ended the task (${a.status ?? 'no status'}).`, thought };
    case 'answer':
      return { finish: a.text ?? thought, thought };
  }
}

/**
 * The screenshot-grounded open-model agent (issue 17 §3; the paper's reference verifier drives a UI-TARS-style
 * model that sees only screenshots): plain chat completions on an OpenAI-compatible server (vLLM, SGLang,
 * Ollama, llama.cpp), no tool calling needed. The model reads the screenshot and answers in its own text
 * grammar — UI-TARS `Thought/Action` or Qwen-VL `<tool_call>` — with coordinates in its convention
 * (`relative-1000`, screenshot `pixels`, or Qwen `smart-resize` px), mapped to CSS px of the viewport with the
 * screenshot's own size (so a 2× device screenshot maps correctly). A malformed reply is answered with the
 * parse error and retried, up to {@link MAX_REPLIES_PER_STEP} replies a step.
 */
export class GroundedAgent extends ScreenAgent {
  readonly name: string;
  private readonly history: ChatMessage[] = [];
  private readonly convention: CoordinateConvention;
  protected readonly record: AgentProtocolRecord;
  private pointer: Point = { x: 640, y: 400 };
  private lastSpace = '';

  constructor(
    protected readonly client: ModelClient,
    private readonly task: { url: string; prompt: string; budget: number },
    private readonly grammar: GroundedGrammar,
    why: string,
  ) {
    super();
    this.convention = client.modelConfig.coordinates ?? 'relative-1000';
    this.name = `${grammar} (${client.provider.provider}:${client.model})`;
    this.record = { requested: client.modelConfig.protocol ?? 'auto', used: grammar, why, corrections: [] };
  }

  /** The coordinate space the model is told about, for the prompt. */
  private space(viewport: { width: number; height: number }, shot: { width: number; height: number } | null): string {
    const s = shot ?? viewport;
    if (this.convention === 'relative-1000') return this.grammar === 'qwen-vl' ? '1000x1000' : 'relative, x and y from 0 to 1000 across the screenshot';
    const px = this.convention === 'smart-resize' ? smartResize(s.width, s.height) : s;
    return this.grammar === 'qwen-vl' ? `${px.width}x${px.height}` : `pixels of the ${px.width}x${px.height} screenshot`;
  }

  private system(space: string): string {
    return screenPrompt(this.task, this.grammar === 'ui-tars' ? uiTarsNotes(space) : qwenNotes(space));
  }

  async next(obs: Observation): Promise<Decision> {
    const shot = pngSize(obs.screenshot);
    const { scaleX, scaleY } = coordinateScale(this.convention, obs.viewport, shot);
    this.record.coordinates = { convention: this.convention, scaleX: Math.round(scaleX * 1e4) / 1e4, scaleY: Math.round(scaleY * 1e4) / 1e4 };
    this.lastSpace = this.space(obs.viewport, shot);
    const usage = noUsage();
    const parts: ChatPart[] = [{ type: 'text', text: `Step ${obs.step + 1} of ${obs.budget}. ${resultText(obs.previous)}` }];
    if (obs.screenshot) parts.push({ type: 'image', mediaType: 'image/png', base64: obs.screenshot.toString('base64') });
    const turn: ChatMessage[] = [{ role: 'user', content: parts }];
    let lastError = '';
    for (let reply = 0; reply < MAX_REPLIES_PER_STEP; reply++) {
      const res = await this.client.complete({ system: this.system(this.lastSpace), messages: [...this.trimmed(), ...turn] });
      addUsage(usage, res.cost);
      turn.push({ role: 'assistant', text: res.text, toolCalls: [] });
      const p = this.grammar === 'ui-tars' ? parseUiTars(res.text) : parseQwen(res.text, { x: this.pointer.x / scaleX, y: this.pointer.y / scaleY });
      if ('error' in p) {
        lastError = p.error;
        this.record.corrections.push({ step: obs.step, error: p.error });
        turn.push({ role: 'user', content: [{ type: 'text', text: `Your reply could not be used: ${p.error}. Nothing was done. Reply again in exactly the format described.` }] });
        continue;
      }
      this.history.push(...turn);
      if ('finish' in p) {
        this.finalText = p.finish;
        return { action: { kind: 'finish' }, reasoning: p.thought.slice(0, 500), usage };
      }
      const scaled = scale(p.action, scaleX, scaleY, obs.viewport);
      if ('at' in scaled && scaled.at) this.pointer = scaled.at;
      if (scaled.type === 'drag') this.pointer = scaled.to;
      return { ...screenDecision(scaled, p.thought.slice(0, 500)), usage };
    }
    this.history.push(turn[0]!, { role: 'assistant', text: `(gave up after ${MAX_REPLIES_PER_STEP} unusable replies)`, toolCalls: [] });
    return invalidDecision(lastError, MAX_REPLIES_PER_STEP, usage);
  }

  /** The last turns, with every screenshot but the current one replaced by a placeholder. */
  private trimmed(): ChatMessage[] {
    let turns = 0;
    let start = 0;
    for (let i = this.history.length - 1; i >= 0; i--) {
      const m = this.history[i]!;
      if (m.role === 'user' && m.content.some((p) => p.type === 'image') && ++turns === HISTORY_TURNS) {
        start = i;
        break;
      }
    }
    return this.history.slice(start).map((m) => (m.role === 'user' ? { ...m, content: m.content.map((p) => (p.type === 'image' ? { type: 'text' as const, text: '[earlier screenshot omitted]' } : p)) } : m));
  }

  /** The budget ran out: ask for the report in the grammar's own way of ending. */
  protected async askReport(steps: TraceStep[], untested: string[], consoleErrors: string[]): Promise<AgentReport | null> {
    const ask = this.grammar === 'ui-tars' ? "The action budget is spent. Reply with Thought: … and Action: finished(content='your neutral report')." : 'The action budget is spent. Call computer_use with action=answer and your neutral report as text.';
    const res = await this.client.complete({ system: this.system(this.lastSpace), messages: [...this.trimmed(), { role: 'user', content: [{ type: 'text', text: budgetSpentNote(ask, consoleErrors) }] }] });
    const p = this.grammar === 'ui-tars' ? parseUiTars(res.text) : parseQwen(res.text, this.pointer);
    return 'finish' in p ? reportFromText(p.finish, steps, untested, consoleErrors) : null;
  }
}

/** Scale a screen action from the model's coordinate space to CSS px of the viewport (clamped inside it). */
export function scale(a: ScreenAction, sx: number, sy: number, viewport: { width: number; height: number }): ScreenAction {
  const f = (p: Point): Point => inViewport({ x: p.x * sx, y: p.y * sy }, viewport);
  switch (a.type) {
    case 'click':
    case 'move':
      return { ...a, at: f(a.at) };
    case 'drag':
      return { ...a, from: f(a.from), to: f(a.to) };
    case 'scroll':
      return { ...a, at: a.at ? f(a.at) : null };
    default:
      return a;
  }
}
