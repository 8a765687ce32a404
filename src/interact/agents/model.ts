import { z } from '../../vendor/zod.js';
import { loadPrompt, renderPrompt, type PromptTemplate } from '../../prompts.js';
import type { ChatMessage, ToolCall, ToolDef } from '../../providers/chat.js';
import { isToolRejection } from '../../providers/backoff.js';
import type { ModelClient } from '../../providers/client.js';
import type { Action, AgentProtocolRecord, AgentReport, TraceStep, Usage } from '../../types.js';
import { errorMessage } from '../../util/timebox.js';
import type { Agent, Decision, Observation, ObservedElement } from '../agent.js';

/** Tries for a well-formed tool call before the step is recorded as failed. */
export const MAX_TOOL_RETRIES = 3;
/** Earlier turns kept in the conversation (older screenshots are dropped to bound tokens). */
const HISTORY_TURNS = 4;

const id = z.number().int().min(0);
const reportSchema = z.object({
  actions_performed: z.array(z.string()).default([]),
  issues_found: z.array(z.object({ feature: z.string(), action: z.string(), expected: z.string(), actual: z.string() })).default([]),
  features_tested: z.array(z.string()).default([]),
  features_not_tested: z.array(z.string()).default([]),
  console_errors: z.array(z.string()).default([]),
  overall_observation: z.string().default(''),
});

/** The agent's tools: arguments are validated with zod; JSON Schemas are what the model sees. */
const TOOLS: Record<string, { schema: z.ZodType; def: ToolDef }> = {
  click: {
    schema: z.object({ element_id: id.optional(), x: z.number().optional(), y: z.number().optional(), reasoning: z.string().optional() }).refine((a) => a.element_id !== undefined || (a.x !== undefined && a.y !== undefined), 'give element_id, or both x and y'),
    def: { name: 'click', description: 'Click an element by its id from the list, or a point (x, y) in CSS px (e.g. on a canvas).', parameters: obj({ element_id: int('element id from the list'), x: num('x in px'), y: num('y in px'), reasoning: str('why') }) },
  },
  type: {
    schema: z.object({ text: z.string(), element_id: id.optional(), reasoning: z.string().optional() }),
    def: { name: 'type', description: 'Type text, into the element (replacing its content) when element_id is given, else into the focused element.', parameters: obj({ text: str('the text'), element_id: int('element id'), reasoning: str('why') }, ['text']) },
  },
  press: {
    schema: z.object({ key: z.string().min(1), reasoning: z.string().optional() }),
    def: { name: 'press', description: 'Tap a key (Enter, Escape, Tab, ArrowLeft, a, Space, ...).', parameters: obj({ key: str('key name'), reasoning: str('why') }, ['key']) },
  },
  hold: {
    schema: z.object({ key: z.string().min(1), duration_ms: z.number().int().min(50).max(5000), reasoning: z.string().optional() }),
    def: { name: 'hold', description: 'Hold a key down for a duration (games read held keys; use 500-1000 ms to move).', parameters: obj({ key: str('key name'), duration_ms: int('how long, ms'), reasoning: str('why') }, ['key', 'duration_ms']) },
  },
  scroll: {
    schema: z.object({ delta_y: z.number(), reasoning: z.string().optional() }),
    def: { name: 'scroll', description: 'Scroll by delta_y px (positive: down).', parameters: obj({ delta_y: num('px'), reasoning: str('why') }, ['delta_y']) },
  },
  drag: {
    schema: z.object({ from_x: z.number(), from_y: z.number(), to_x: z.number(), to_y: z.number(), reasoning: z.string().optional() }),
    def: { name: 'drag', description: 'Drag with the mouse from one point to another (px).', parameters: obj({ from_x: num('px'), from_y: num('px'), to_x: num('px'), to_y: num('px'), reasoning: str('why') }, ['from_x', 'from_y', 'to_x', 'to_y']) },
  },
  wait: {
    schema: z.object({ ms: z.number().int().min(0).max(10_000), reasoning: z.string().optional() }),
    def: { name: 'wait', description: 'Let the application run for a while (ms) without input.', parameters: obj({ ms: int('ms'), reasoning: str('why') }, ['ms']) },
  },
  back: {
    schema: z.object({ reasoning: z.string().optional() }),
    def: { name: 'back', description: 'Go back to the previous page of the application.', parameters: obj({ reasoning: str('why') }) },
  },
  finish: {
    schema: reportSchema,
    def: {
      name: 'finish',
      description: 'End the exploration with your neutral report (no scores).',
      parameters: obj(
        {
          actions_performed: { type: 'array', items: { type: 'string' } },
          issues_found: { type: 'array', items: { type: 'object', properties: { feature: { type: 'string' }, action: { type: 'string' }, expected: { type: 'string' }, actual: { type: 'string' } }, required: ['feature', 'action', 'expected', 'actual'] } },
          features_tested: { type: 'array', items: { type: 'string' } },
          features_not_tested: { type: 'array', items: { type: 'string' } },
          console_errors: { type: 'array', items: { type: 'string' } },
          overall_observation: { type: 'string' },
        },
        ['overall_observation'],
      ),
    },
  },
};

function obj(properties: Record<string, unknown>, required: string[] = []) {
  return { type: 'object', properties, required, additionalProperties: false };
}
function str(description: string) {
  return { type: 'string', description };
}
function num(description: string) {
  return { type: 'number', description };
}
function int(description: string) {
  return { type: 'integer', description };
}

/** The compact numbered element list the model sees: `[id] role "name"` (Stagehand style). */
export function elementList(els: ObservedElement[]): string {
  if (!els.length) return '(no interactive elements found; use x,y on the screenshot)';
  return els
    .slice(0, 150)
    .map((e) => `[${e.ref}] ${e.role} "${e.name.slice(0, 60)}"${e.type && e.tag === 'input' ? ` (${e.type})` : ''}${e.disabled ? ' disabled' : ''}${e.inViewport ? '' : ' (off-screen)'}`)
    .join('\n');
}

/**
 * The model-backed computer-use agent (paper §4.1, Appendix B.2; METHOD.md §9): each step sends the
 * brief, the screenshot and the numbered element list, and receives exactly one tool call (click, type,
 * press, hold, scroll, drag, wait, back, finish). Malformed tool calls are answered with the validation
 * error and retried up to {@link MAX_TOOL_RETRIES} times, then the step is recorded as failed. Rate limits
 * and server errors are retried with back-off by the {@link ModelClient}. It documents, never scores: its
 * `finish` call carries the report. Its prompt is `prompts/agent.md` with the variables url, task and budget.
 *
 * Servers without tool calling (issue 17 §4): in `json` mode the same tools are described in the prompt and
 * the model answers with one JSON object `{"tool", "arguments"}` in text, validated with the same zod schemas
 * and corrected the same way. `tools` mode switches to `json` by itself when the server refuses tools
 * ({@link isToolRejection}); the choice and the refusal are in {@link ModelAgent.protocolRecord}.
 */
export class ModelAgent implements Agent {
  readonly name: string;
  readonly wantsScreenshot = true;
  readonly prompt: PromptTemplate;
  private readonly history: ChatMessage[] = [];
  private finalReport: AgentReport | null = null;
  /** `tools`: function calling; `json`: the same tools as strict JSON in text (servers without tool calling). */
  private mode: 'tools' | 'json';
  private readonly record: AgentProtocolRecord;

  /**
   * @param protocol `tools` (falls back to `json` when the server rejects tools) or `json` from the start
   * @param why why this protocol was chosen, for the trace
   */
  constructor(
    private readonly client: ModelClient,
    private readonly task: { url: string; prompt: string; budget: number },
    protocol: 'tools' | 'json' = 'tools',
    why = 'default',
  ) {
    this.name = `model-agent (${client.provider.provider}:${client.model})`;
    this.prompt = loadPrompt('agent');
    this.mode = protocol;
    this.record = { requested: client.modelConfig?.protocol ?? 'auto', used: protocol, why, corrections: [] };
  }

  private system(): string {
    const base = renderPrompt(this.prompt, { url: this.task.url, task: this.task.prompt, budget: this.task.budget });
    return this.mode === 'tools' ? base : `${base}\n${jsonProtocolNotes()}`;
  }

  /** One model call in the current mode; a refusal of tools switches to JSON-in-text once and repeats the call. */
  private async ask(messages: ChatMessage[], step: number, force?: string): Promise<Awaited<ReturnType<ModelClient['complete']>>> {
    if (this.mode === 'tools') {
      try {
        return await this.client.complete({ system: this.system(), messages, tools: force ? [TOOLS[force]!.def] : Object.values(TOOLS).map((t) => t.def), toolChoice: force ? { name: force } : 'required' });
      } catch (e) {
        if (!isToolRejection(e)) throw e;
        this.mode = 'json';
        this.record.used = 'json';
        this.record.why = `fell back at step ${step}: the server rejected tool calling (${errorMessage(e).slice(0, 200)})`;
      }
    }
    const res = await this.client.complete({ system: this.system(), messages });
    const parsed = parseJsonCall(res.text);
    return { ...res, toolCalls: 'call' in parsed ? [parsed.call] : [{ id: 'json', name: '(none)', arguments: null, parseError: parsed.error }] };
  }

  protocolRecord(): AgentProtocolRecord {
    return this.record;
  }

  async next(obs: Observation): Promise<Decision> {
    const prev = obs.previous;
    const lines = [
      `Step ${obs.step + 1} of ${obs.budget}. URL: ${obs.url}. Viewport ${obs.viewport.width}x${obs.viewport.height} px.`,
      prev ? `Result of your last action: ${describeResult(prev)}` : 'This is the first step.',
      'Interactive elements:',
      elementList(obs.elements),
    ];
    const user: ChatMessage = {
      role: 'user',
      content: [{ type: 'text', text: lines.join('\n') }, ...(obs.screenshot ? [{ type: 'image' as const, mediaType: 'image/png' as const, base64: obs.screenshot.toString('base64') }] : [])],
    };
    const usage: Usage = { requests: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
    const turn: ChatMessage[] = [user];
    let lastError = '';
    for (let attempt = 0; attempt <= MAX_TOOL_RETRIES; attempt++) {
      const res = await this.ask([...this.trimmedHistory(), ...turn], obs.step);
      usage.requests += 1;
      usage.inputTokens += res.cost.inputTokens;
      usage.outputTokens += res.cost.outputTokens;
      usage.costUsd = Math.round((usage.costUsd + res.cost.costUsd) * 1e6) / 1e6;
      const call = res.toolCalls[0];
      const json = this.mode === 'json';
      turn.push({ role: 'assistant', text: res.text, toolCalls: json ? [] : res.toolCalls.slice(0, 1) });
      const checked = call ? this.toDecision(call, obs) : { error: 'no tool call: reply with exactly one tool call' };
      if ('decision' in checked) {
        if (!json) turn.push({ role: 'tool', toolCallId: call!.id, name: call!.name, content: 'ok' });
        this.history.push(...turn);
        if (!checked.decision.reasoning && res.text) checked.decision.reasoning = res.text.slice(0, 500);
        return { ...checked.decision, usage };
      }
      lastError = checked.error;
      this.record.corrections.push({ step: obs.step, error: checked.error });
      if (json) turn.push({ role: 'user', content: [{ type: 'text', text: `error: ${checked.error}. Reply again with exactly one JSON object {"tool": …, "arguments": {…}} and nothing else.` }] });
      else if (call) turn.push({ role: 'tool', toolCallId: call.id, name: call.name, content: `error: ${checked.error}. Call one tool again with valid arguments.` });
      else turn.push({ role: 'user', content: [{ type: 'text', text: `error: ${checked.error}.` }] });
    }
    this.history.push(user, { role: 'assistant', text: `(gave up after ${MAX_TOOL_RETRIES + 1} malformed tool calls)`, toolCalls: [] });
    return { action: { kind: 'wait', durationMs: 0 }, reasoning: `the model gave ${MAX_TOOL_RETRIES + 1} malformed tool calls; last error: ${lastError}`, invalid: lastError, usage };
  }

  private trimmedHistory(): ChatMessage[] {
    // keep the last turns; drop images from all but the newest turn (the current one is added separately)
    const start = findTurnStart(this.history, HISTORY_TURNS);
    return this.history.slice(start).map((m) => (m.role === 'user' ? { ...m, content: m.content.map((p) => (p.type === 'image' ? { type: 'text' as const, text: '[earlier screenshot omitted]' } : p)) } : m));
  }

  private toDecision(call: ToolCall, obs: Observation): { decision: Decision } | { error: string } {
    const tool = TOOLS[call.name];
    if (call.parseError) return { error: call.parseError };
    if (!tool) return { error: `unknown tool "${call.name}"; use one of ${Object.keys(TOOLS).join(', ')}` };
    const parsed = tool.schema.safeParse(call.arguments);
    if (!parsed.success) return { error: `invalid arguments for ${call.name}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`).join('; ')}` };
    const a = parsed.data as Record<string, unknown>;
    const reasoning = typeof a.reasoning === 'string' ? a.reasoning : '';
    const el = a.element_id !== undefined ? obs.elements.find((e) => e.ref === a.element_id) : undefined;
    if (a.element_id !== undefined && !el) return { error: `element_id ${a.element_id} is not in the list` };
    const target = el ? { signature: el.signature, name: el.name, role: el.role, tag: el.tag, group: el.group, box: el.box } : undefined;
    const key = el ? `${call.name}|${el.signature}` : undefined;
    let action: Action;
    switch (call.name) {
      case 'click':
        action = el ? { kind: 'click', target } : { kind: 'click', x: a.x as number, y: a.y as number };
        break;
      case 'type':
        action = { kind: 'fill', value: a.text as string, target };
        break;
      case 'press':
        action = { kind: 'press', key: normaliseKey(a.key as string) };
        break;
      case 'hold':
        action = { kind: 'hold', key: normaliseKey(a.key as string), durationMs: a.duration_ms as number };
        break;
      case 'scroll':
        action = { kind: 'scroll', deltaY: a.delta_y as number };
        break;
      case 'drag':
        action = { kind: 'drag', x: a.from_x as number, y: a.from_y as number, toX: a.to_x as number, toY: a.to_y as number };
        break;
      case 'wait':
        action = { kind: 'wait', durationMs: a.ms as number };
        break;
      case 'back':
        action = { kind: 'back' };
        break;
      default: {
        const r = reportSchema.parse(a);
        this.finalReport = {
          actionsPerformed: r.actions_performed,
          issuesFound: r.issues_found,
          featuresTested: r.features_tested,
          featuresNotTested: r.features_not_tested,
          consoleErrors: r.console_errors,
          observation: r.overall_observation,
        };
        action = { kind: 'finish' };
      }
    }
    return { decision: { action, reasoning, ref: el?.ref, key } };
  }

  async report(steps: TraceStep[], untested: string[], consoleErrors: string[]): Promise<AgentReport> {
    if (!this.finalReport) {
      // the budget ran out before `finish`: ask once for the report
      try {
        const res = await this.ask([...this.trimmedHistory(), { role: 'user', content: [{ type: 'text', text: `The action budget is spent. Call finish with your report. Console errors seen: ${consoleErrors.slice(0, 10).join(' | ') || 'none'}.` }] }], steps.length, 'finish');
        const call = res.toolCalls.find((c) => c.name === 'finish');
        const parsed = call ? reportSchema.safeParse(call.arguments) : null;
        if (parsed?.success) {
          const r = parsed.data;
          this.finalReport = { actionsPerformed: r.actions_performed, issuesFound: r.issues_found, featuresTested: r.features_tested, featuresNotTested: r.features_not_tested, consoleErrors: r.console_errors, observation: r.overall_observation };
        }
      } catch {
        /* fall back to the trace below */
      }
    }
    return (
      this.finalReport ?? {
        actionsPerformed: steps.map((s) => `${s.index}: ${s.action.kind} ${s.action.target?.name ?? s.action.key ?? ''}`.trim()),
        issuesFound: [],
        featuresTested: [],
        featuresNotTested: untested,
        consoleErrors,
        observation: 'The model did not write a report; this list is taken from the trace.',
      }
    );
  }

  usage(): Usage {
    return { ...this.client.usage };
  }
}

/** The JSON-in-text protocol (issue 17 §4): the same tools, written as one JSON object per reply. */
function jsonProtocolNotes(): string {
  const tools = Object.values(TOOLS).map((t) => `- ${t.def.name}: ${t.def.description} Arguments (JSON Schema): ${JSON.stringify(t.def.parameters)}`);
  return [
    'This server has no tool calling. A tool call is written as text instead: reply with exactly one JSON object and nothing else,',
    '{"tool": "<tool name>", "arguments": {<the tool\'s arguments>}}',
    'The tools:',
    ...tools,
  ].join('\n');
}

/**
 * Read one JSON-in-text tool call (`{"tool": name, "arguments": {…}}`, also inside a ```json fence) from a
 * reply; an error says what is wrong so the model can be corrected. Never throws. Exported for tests.
 */
export function parseJsonCall(text: string): { call: ToolCall } | { error: string } {
  const body = (text.match(/```(?:json)?\s*([\s\S]*?)```/)?.[1] ?? text).trim();
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  if (start < 0 || end <= start) return { error: 'the reply holds no JSON object' };
  let v: unknown;
  try {
    v = JSON.parse(body.slice(start, end + 1));
  } catch (e) {
    return { error: `the reply is not valid JSON: ${(e as Error).message}` };
  }
  const o = v as { tool?: unknown; name?: unknown; arguments?: unknown };
  const name = typeof o.tool === 'string' ? o.tool : typeof o.name === 'string' ? o.name : null;
  if (!name) return { error: 'the JSON object has no "tool" field' };
  return { call: { id: `json-${name}`, name, arguments: o.arguments ?? {} } };
}

function findTurnStart(history: ChatMessage[], turns: number): number {
  let seen = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i]!;
    if (m.role === 'user' && m.content.some((p) => p.type === 'text' && p.text.startsWith('Step '))) {
      if (++seen === turns) return i;
    }
  }
  return 0;
}

/** Map common key spellings to Playwright key names. */
export function normaliseKey(k: string): string {
  const map: Record<string, string> = { space: 'Space', ' ': 'Space', spacebar: 'Space', enter: 'Enter', return: 'Enter', esc: 'Escape', escape: 'Escape', tab: 'Tab', up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight', arrowup: 'ArrowUp', arrowdown: 'ArrowDown', arrowleft: 'ArrowLeft', arrowright: 'ArrowRight', backspace: 'Backspace', shift: 'Shift' };
  return map[k.toLowerCase()] ?? k;
}

function describeResult(s: TraceStep): string {
  const parts = [`${s.action.kind}${s.action.target ? ` "${s.action.target.name}"` : ''}${s.action.key ? ` ${s.action.key}` : ''} → ${s.outcome}`];
  if (s.effect) parts.push(s.effect.screenChanged ? 'the screen changed' : 'nothing visible changed');
  if (s.pageErrors.length || s.consoleErrors.length) parts.push(`errors: ${[...s.pageErrors, ...s.consoleErrors].map((e) => e.text.slice(0, 150)).join(' | ')}`);
  if (s.dialogs.length) parts.push(`dialogs: ${s.dialogs.map((d) => `${d.type} "${d.message.slice(0, 80)}" (${d.answer})`).join(', ')}`);
  if (s.navigations.length) parts.push(`navigated to ${s.navigations.map((n) => n.url).join(', ')}`);
  if (s.error) parts.push(`error: ${s.error}`);
  return parts.join('; ');
}
