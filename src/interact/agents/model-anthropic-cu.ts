import type Anthropic from '@anthropic-ai/sdk';
import { anthropicSdk } from '../../providers/sdk.js';
import { z } from '../../vendor/zod.js';
import { apiKeyOf, type ModelClient } from '../../providers/client.js';
import type { AgentProtocolRecord, AgentReport, TraceStep, Usage } from '../../types.js';
import type { Decision, Observation } from '../agent.js';
import {
  addUsage,
  budgetSpentNote,
  FINISH_PARAMETERS,
  inViewport,
  invalidDecision,
  MAX_REPLIES_PER_STEP,
  noUsage,
  playwrightKey,
  reportArgs,
  reportOf,
  resultText,
  ScreenAgent,
  screenDecision,
  screenPrompt,
  type Point,
  type ScreenAction,
} from './model-screen.js';

type Block = Anthropic.Beta.Messages.BetaContentBlockParam;
type Msg = Anthropic.Beta.Messages.BetaMessageParam;
type ToolResultContent = Exclude<Anthropic.Beta.Messages.BetaToolResultBlockParam['content'], string | undefined>;

/** The beta header of each computer tool version (Anthropic computer-use docs; @anthropic-ai/sdk 1.14 types). */
export const ANTHROPIC_COMPUTER_BETAS = { computer_20251124: 'computer-use-2025-11-24', computer_20250124: 'computer-use-2025-01-24' } as const;
/** Screenshots kept in the conversation (older ones become a text placeholder, bounding tokens). */
const KEEP_IMAGES = 3;
/** Pixels per wheel click of `scroll_amount`. */
const SCROLL_CLICK_PX = 100;

const coord = z.tuple([z.number(), z.number()]);
const cuInput = z.object({
  action: z.string(),
  coordinate: coord.optional(),
  start_coordinate: coord.optional(),
  text: z.string().optional(),
  duration: z.number().optional(),
  scroll_direction: z.enum(['up', 'down', 'left', 'right']).optional(),
  scroll_amount: z.number().optional(),
});

/**
 * The Anthropic computer-use agent (issue 17 §1; paper §4.1 Stage 2: a screenshot-only computer-using agent):
 * the Messages API with the `computer` tool (version `computer_20251124`, beta header `computer-use-2025-11-24`,
 * or `computer_20250124`), display size = the viewport, plus a `finish` tool for the neutral report. Each
 * step answers the previous `tool_use` with a `tool_result` holding the new screenshot; the model's action is
 * mapped onto Cookie's human-like input (left/right/middle/double/triple click, mouse_move, left_click_drag,
 * left_mouse_down/up, type, key chords, hold_key, scroll, wait); `screenshot` and `cursor_position` are
 * answered at once without acting. The app stays frozen while the model thinks (the loop holds the freeze
 * during `next`). A final message without a tool call, or the `finish` tool, is the report.
 */
export class AnthropicComputerUseAgent extends ScreenAgent {
  readonly name: string;
  private readonly sdk: Anthropic;
  private readonly messages: Msg[] = [];
  private readonly tool: keyof typeof ANTHROPIC_COMPUTER_BETAS;
  private pending: { id: string; others: string[] } | null = null;
  private pointer: Point = { x: 640, y: 400 };
  private mouseDownAt: Point | null = null;
  private display = { width: 1280, height: 800 };
  protected readonly record: AgentProtocolRecord;

  constructor(
    protected readonly client: ModelClient,
    private readonly task: { url: string; prompt: string; budget: number },
    why: string,
  ) {
    super();
    const m = client.modelConfig;
    this.name = `anthropic-computer-use (${client.model})`;
    this.tool = m.computerTool === 'computer_20250124' ? 'computer_20250124' : 'computer_20251124';
    this.sdk = new (anthropicSdk())({ apiKey: apiKeyOf(m), baseURL: m.baseURL, maxRetries: 0, timeout: m.timeoutMs });
    this.record = { requested: m.protocol ?? 'auto', used: 'anthropic-computer-use', why, tool: `${this.tool} (beta ${ANTHROPIC_COMPUTER_BETAS[this.tool]})`, corrections: [] };
  }

  private system(): string {
    return screenPrompt(
      this.task,
      'Use the `computer` tool to act on the screen (coordinates in px of the screenshot). When you are done, call the `finish` tool with your report (or reply with the report as plain text and no tool call).',
    );
  }

  private async send(usage: Usage, toolChoice?: Anthropic.Beta.Messages.BetaToolChoice): Promise<Anthropic.Beta.Messages.BetaMessage> {
    this.trimImages();
    const m = this.client.modelConfig;
    const { res, cost } = await this.client.call(
      () =>
        this.sdk.beta.messages.create({
          model: this.client.model,
          max_tokens: m.maxTokens,
          system: this.system(),
          messages: this.messages,
          betas: [ANTHROPIC_COMPUTER_BETAS[this.tool]],
          tools: [
            { type: this.tool, name: 'computer', display_width_px: this.display.width, display_height_px: this.display.height },
            { name: 'finish', description: 'End the exploration with your neutral report (no scores).', input_schema: FINISH_PARAMETERS as Anthropic.Beta.Messages.BetaTool.InputSchema },
          ],
          ...(toolChoice ? { tool_choice: toolChoice } : {}),
        }),
      (r) => ({ inputTokens: r.usage?.input_tokens ?? 0, outputTokens: r.usage?.output_tokens ?? 0 }),
    );
    addUsage(usage, cost);
    this.messages.push({ role: 'assistant', content: res.content as unknown as Block[] });
    return res;
  }

  async next(obs: Observation): Promise<Decision> {
    this.display = obs.viewport;
    const usage = noUsage();
    const shot: ToolResultContent = obs.screenshot ? [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: obs.screenshot.toString('base64') } }] : [];
    const status = `Step ${obs.step + 1} of ${obs.budget}. ${resultText(obs.previous)}`;
    if (this.pending) this.pushUser(this.answer(this.pending, [{ type: 'text', text: status }, ...shot]));
    else this.pushUser([{ type: 'text', text: `${status} The application is open; here is the screen.` }, ...(shot as Block[])]);
    this.pending = null;
    let lastError = '';
    for (let reply = 0; reply < MAX_REPLIES_PER_STEP; reply++) {
      const res = await this.send(usage);
      const text = res.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n').trim();
      const uses = res.content.flatMap((b) => (b.type === 'tool_use' ? [b] : []));
      if (!uses.length) {
        this.finalText = text || '(the model ended without a report)';
        return { action: { kind: 'finish' }, reasoning: text.slice(0, 500), usage };
      }
      const use = uses[0]!;
      const others = uses.slice(1).map((u) => u.id);
      if (use.name === 'finish') {
        const r = reportArgs.safeParse(use.input);
        if (r.success) {
          this.finalReport = reportOf(r.data);
          return { action: { kind: 'finish' }, reasoning: text.slice(0, 500), usage };
        }
        lastError = `invalid finish arguments: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`;
        this.correct(obs.step, { id: use.id, others }, lastError);
        continue;
      }
      const parsed = this.parse(use.input, obs.screenshot);
      if ('immediate' in parsed) {
        this.pushUser(this.answer({ id: use.id, others }, parsed.immediate));
        continue;
      }
      if ('error' in parsed) {
        lastError = parsed.error;
        this.correct(obs.step, { id: use.id, others }, lastError);
        continue;
      }
      this.pending = { id: use.id, others };
      return { ...screenDecision(parsed.action, text.slice(0, 500)), usage };
    }
    // leave the conversation well-formed: the unusable tool_use is answered at the next step
    return invalidDecision(lastError, MAX_REPLIES_PER_STEP, usage);
  }

  /** Add a user turn, merged into the previous one when that is a user turn too (the API alternates roles). */
  private pushUser(content: Block[]): void {
    const last = this.messages[this.messages.length - 1];
    if (last?.role === 'user' && Array.isArray(last.content)) last.content.push(...content);
    else this.messages.push({ role: 'user', content });
  }

  /** tool_result blocks answering a tool_use (and refusing any parallel ones: one action per turn). */
  private answer(p: { id: string; others: string[] }, content: ToolResultContent, isError = false): Block[] {
    return [
      { type: 'tool_result', tool_use_id: p.id, content, ...(isError ? { is_error: true } : {}) },
      ...p.others.map((id): Block => ({ type: 'tool_result', tool_use_id: id, content: 'not executed: one action per turn', is_error: true })),
    ];
  }

  private correct(step: number, p: { id: string; others: string[] }, error: string): void {
    this.record.corrections.push({ step, error });
    this.pushUser(this.answer(p, [{ type: 'text', text: `error: ${error}. Call one tool again with valid input.` }], true));
  }

  /** Parse a computer tool input into an action (coordinates in CSS px), an immediate answer, or an error. */
  private parse(input: unknown, screenshot: Buffer | null): { action: ScreenAction } | { immediate: ToolResultContent } | { error: string } {
    const p = cuInput.safeParse(input);
    if (!p.success) return { error: `invalid computer input: ${p.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`).join('; ')}` };
    const a = p.data;
    const at = (c: [number, number] | undefined): Point | null => (c ? inViewport({ x: c[0], y: c[1] }, this.display) : null);
    const need = (c: [number, number] | undefined, what: string): Point | { error: string } => at(c) ?? { error: `${a.action} needs ${what}` };
    const shot = (): ToolResultContent => (screenshot ? [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: screenshot.toString('base64') } }] : [{ type: 'text', text: 'no screenshot available' }]);
    const move = (pt: Point) => (this.pointer = pt);
    switch (a.action) {
      case 'screenshot':
        return { immediate: shot() };
      case 'cursor_position':
        return { immediate: [{ type: 'text', text: `X=${Math.round(this.pointer.x)},Y=${Math.round(this.pointer.y)}` }] };
      case 'zoom':
        return { error: 'zoom is not available here; use screenshot' };
      case 'left_click':
      case 'right_click':
      case 'middle_click':
      case 'double_click':
      case 'triple_click': {
        const pt = a.coordinate ? need(a.coordinate, 'coordinate') : this.pointer;
        if ('error' in pt) return pt;
        move(pt);
        const button = a.action === 'right_click' ? 'right' : a.action === 'middle_click' ? 'middle' : 'left';
        return { action: { type: 'click', at: pt, button, clicks: a.action === 'double_click' ? 2 : a.action === 'triple_click' ? 3 : 1 } };
      }
      case 'mouse_move': {
        const pt = need(a.coordinate, 'coordinate');
        if ('error' in pt) return pt;
        move(pt);
        if (this.mouseDownAt) return { immediate: [{ type: 'text', text: `pointer at (${pt.x}, ${pt.y}) with the button held` }] };
        return { action: { type: 'move', at: pt } };
      }
      case 'left_click_drag': {
        const to = need(a.coordinate, 'coordinate');
        if ('error' in to) return to;
        const from = a.start_coordinate ? need(a.start_coordinate, 'start_coordinate') : this.pointer;
        if ('error' in from) return from;
        move(to);
        return { action: { type: 'drag', from, to } };
      }
      case 'left_mouse_down':
        this.mouseDownAt = { ...this.pointer };
        return { immediate: [{ type: 'text', text: `button down at (${this.pointer.x}, ${this.pointer.y})` }] };
      case 'left_mouse_up': {
        const from = this.mouseDownAt ?? this.pointer;
        this.mouseDownAt = null;
        return { action: from.x === this.pointer.x && from.y === this.pointer.y ? { type: 'click', at: from, button: 'left', clicks: 1 } : { type: 'drag', from, to: { ...this.pointer } } };
      }
      case 'type':
        return a.text ? { action: { type: 'type', text: a.text } } : { error: 'type needs text' };
      case 'key':
        return a.text ? { action: { type: 'key', key: playwrightKey(a.text) } } : { error: 'key needs text (e.g. "Return" or "ctrl+s")' };
      case 'hold_key':
        return a.text && a.duration !== undefined ? { action: { type: 'hold', key: playwrightKey(a.text), ms: a.duration * 1000 } } : { error: 'hold_key needs text and duration (seconds)' };
      case 'scroll': {
        const pt = a.coordinate ? need(a.coordinate, 'coordinate') : null;
        if (pt && 'error' in pt) return pt;
        if (!a.scroll_direction) return { error: 'scroll needs scroll_direction' };
        const px = (a.scroll_amount ?? 3) * SCROLL_CLICK_PX;
        if (pt) move(pt);
        const d = a.scroll_direction;
        return { action: { type: 'scroll', at: pt, dx: d === 'left' ? -px : d === 'right' ? px : 0, dy: d === 'up' ? -px : d === 'down' ? px : 0 } };
      }
      case 'wait':
        return { action: { type: 'wait', ms: (a.duration ?? 1) * 1000 } };
      default:
        return { error: `unknown action "${a.action}"` };
    }
  }

  /** Keep only the newest screenshots in the conversation. */
  private trimImages(): void {
    let seen = 0;
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const m = this.messages[i]!;
      if (m.role !== 'user' || !Array.isArray(m.content)) continue;
      m.content = m.content.map((b) => {
        if (b.type === 'image') return ++seen > KEEP_IMAGES ? { type: 'text', text: '[earlier screenshot omitted]' } : b;
        if (b.type === 'tool_result' && Array.isArray(b.content)) {
          return { ...b, content: b.content.map((c) => (c.type === 'image' && ++seen > KEEP_IMAGES ? { type: 'text' as const, text: '[earlier screenshot omitted]' } : c)) };
        }
        return b;
      });
    }
  }

  /** The budget ran out: answer the last action and ask for the report with a forced finish call. */
  protected async askReport(steps: TraceStep[], _untested: string[], consoleErrors: string[]): Promise<AgentReport | null> {
    const note = budgetSpentNote('The action budget is spent. Call finish with your report.', consoleErrors);
    if (this.pending) this.pushUser([...this.answer(this.pending, [{ type: 'text', text: resultText(steps[steps.length - 1] ?? null) }]), { type: 'text', text: note }]);
    else this.pushUser([{ type: 'text', text: note }]);
    this.pending = null;
    const res = await this.send(noUsage(), { type: 'tool', name: 'finish' });
    const use = res.content.find((b) => b.type === 'tool_use' && b.name === 'finish');
    const r = use && use.type === 'tool_use' ? reportArgs.safeParse(use.input) : null;
    return r?.success ? (this.finalReport = reportOf(r.data)) : null;
  }
}
