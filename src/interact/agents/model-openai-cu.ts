import type OpenAI from 'openai';
import { openAISdk } from '../../providers/sdk.js';
import type { ResponseInputItem, ResponseOutputItem, Tool } from 'openai/resources/responses/responses';
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

type SafetyCheck = { id: string; code?: string | null; message?: string | null };

const pt = { x: z.number(), y: z.number() };
/** The computer-call actions of the Responses API (openai 6.x `ResponseComputerToolCall`), validated. */
const cuAction = z.discriminatedUnion('type', [
  z.object({ type: z.literal('click'), ...pt, button: z.enum(['left', 'right', 'wheel', 'back', 'forward']).default('left') }),
  z.object({ type: z.literal('double_click'), ...pt }),
  z.object({ type: z.literal('drag'), path: z.array(z.object(pt)).min(2) }),
  z.object({ type: z.literal('keypress'), keys: z.array(z.string()).min(1) }),
  z.object({ type: z.literal('move'), ...pt }),
  z.object({ type: z.literal('screenshot') }),
  z.object({ type: z.literal('scroll'), ...pt, scroll_x: z.number().default(0), scroll_y: z.number().default(0) }),
  z.object({ type: z.literal('type'), text: z.string() }),
  z.object({ type: z.literal('wait') }),
]);

/**
 * The OpenAI computer-use agent (issue 17 §2): the Responses API with the `computer_use_preview` tool
 * (display = the viewport, environment `browser`) or its successor `computer` (batched `actions`), chained
 * with `previous_response_id` so only the new `computer_call_output` (the screenshot after the action) is sent
 * each step. Actions are mapped onto Cookie's human-like input. A `finish` function tool or a final message
 * is the report.
 *
 * Safety checks (`pending_safety_checks`) follow Cookie's policy `agent.model.safetyChecks`: `acknowledge`
 * (default) passes them back as `acknowledged_safety_checks` — the candidate runs in a contained browser that
 * cannot reach beyond its own origin, holds no credentials and sees nothing of the host, so a check can
 * only concern the candidate itself — and `stop` ends the exploration. Either way each check is recorded in
 * the trace (`protocol.safetyChecks`): a page that trips `malicious_instructions` is evidence about the app.
 */
export class OpenAIComputerUseAgent extends ScreenAgent {
  readonly name: string;
  private readonly sdk: OpenAI;
  private readonly toolType: 'computer_use_preview' | 'computer';
  private previousId: string | undefined;
  private pending: { callId: string; checks: SafetyCheck[] } | null = null;
  private queue: ScreenAction[] = [];
  private stoppedBySafety: string | null = null;
  private viewport = { width: 1280, height: 800 };
  private lastShot: Buffer | null = null;
  protected readonly record: AgentProtocolRecord;

  constructor(
    protected readonly client: ModelClient,
    private readonly task: { url: string; prompt: string; budget: number },
    why: string,
  ) {
    super();
    const m = client.modelConfig;
    this.name = `openai-computer-use (${client.model})`;
    this.toolType = m.computerTool === 'computer' ? 'computer' : 'computer_use_preview';
    this.sdk = new (openAISdk())({ apiKey: apiKeyOf(m), baseURL: m.baseURL, maxRetries: 0, timeout: m.timeoutMs });
    this.record = { requested: m.protocol ?? 'auto', used: 'openai-computer-use', why, tool: `${this.toolType} (Responses API, previous_response_id chaining)`, corrections: [], safetyChecks: [] };
  }

  private instructions(): string {
    return screenPrompt(this.task, 'Use the computer tool to act on the browser (coordinates in px of the screenshot). When you are done, call the `finish` function with your report (or reply with the report as a message and no tool call).');
  }

  private tools(): Tool[] {
    const computer = (this.toolType === 'computer' ? { type: 'computer' } : { type: 'computer_use_preview', display_width: this.viewport.width, display_height: this.viewport.height, environment: 'browser' }) as Tool;
    return [computer, { type: 'function', name: 'finish', description: 'End the exploration with your neutral report (no scores).', parameters: FINISH_PARAMETERS, strict: false }];
  }

  private async send(input: ResponseInputItem[], usage: Usage, toolChoice?: { type: 'function'; name: string }): Promise<ResponseOutputItem[]> {
    const m = this.client.modelConfig;
    const { res, cost } = await this.client.call(
      () =>
        this.sdk.responses.create({
          model: this.client.model,
          instructions: this.instructions(),
          input,
          tools: this.tools(),
          truncation: 'auto',
          reasoning: { summary: 'concise' },
          max_output_tokens: m.maxTokens,
          ...(this.previousId ? { previous_response_id: this.previousId } : {}),
          ...(toolChoice ? { tool_choice: toolChoice } : {}),
        }),
      (r) => ({ inputTokens: r.usage?.input_tokens ?? 0, outputTokens: r.usage?.output_tokens ?? 0 }),
    );
    addUsage(usage, cost);
    this.previousId = res.id;
    return res.output ?? [];
  }

  private screenshotItem(callId: string, png: Buffer | null, checks: SafetyCheck[]): ResponseInputItem {
    return {
      type: 'computer_call_output',
      call_id: callId,
      output: { type: 'computer_screenshot', image_url: `data:image/png;base64,${png?.toString('base64') ?? ''}` },
      ...(checks.length ? { acknowledged_safety_checks: checks.map((c) => ({ id: c.id, code: c.code ?? null, message: c.message ?? null })) } : {}),
    };
  }

  async next(obs: Observation): Promise<Decision> {
    this.viewport = obs.viewport;
    this.lastShot = obs.screenshot;
    if (this.queue.length) return { ...screenDecision(this.queue.shift()!, '(next action of the same batch)'), usage: noUsage() };
    if (this.stoppedBySafety) return { action: { kind: 'finish' }, reasoning: this.stoppedBySafety };
    const usage = noUsage();
    const status = `Step ${obs.step + 1} of ${obs.budget}. ${resultText(obs.previous)}`;
    let input: ResponseInputItem[] = this.pending
      ? [this.screenshotItem(this.pending.callId, obs.screenshot, this.pending.checks), { role: 'user', content: status }]
      : [{ role: 'user', content: [{ type: 'input_text', text: `${status} The application is open; here is the screen.` }, ...(obs.screenshot ? [{ type: 'input_image' as const, detail: 'auto' as const, image_url: `data:image/png;base64,${obs.screenshot.toString('base64')}` }] : [])] }];
    this.pending = null;
    let lastError = '';
    for (let reply = 0; reply < MAX_REPLIES_PER_STEP; reply++) {
      const out = await this.send(input, usage);
      const text = out.flatMap((o) => (o.type === 'message' ? o.content.flatMap((c) => (c.type === 'output_text' ? [c.text] : [])) : [])).join('\n').trim();
      const thought = out.flatMap((o) => (o.type === 'reasoning' ? (o.summary ?? []).map((s) => s.text) : [])).join(' ').trim();
      const reasoning = (thought || text).slice(0, 500);
      const finish = out.find((o) => o.type === 'function_call' && o.name === 'finish');
      if (finish && finish.type === 'function_call') {
        let args: unknown = null;
        try {
          args = JSON.parse(finish.arguments);
        } catch {
          /* reported below */
        }
        const r = reportArgs.safeParse(args);
        if (r.success) {
          this.finalReport = reportOf(r.data);
          return { action: { kind: 'finish' }, reasoning, usage };
        }
        lastError = `invalid finish arguments: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`;
        this.record.corrections.push({ step: obs.step, error: lastError });
        input = [{ type: 'function_call_output', call_id: finish.call_id, output: `error: ${lastError}. Call finish again with valid arguments.` }];
        continue;
      }
      const call = out.find((o) => o.type === 'computer_call');
      if (!call || call.type !== 'computer_call') {
        this.finalText = text || '(the model ended without a report)';
        return { action: { kind: 'finish' }, reasoning, usage };
      }
      const checks = call.pending_safety_checks ?? [];
      const acknowledge = (this.client.modelConfig.safetyChecks ?? 'acknowledge') === 'acknowledge';
      for (const c of checks) this.record.safetyChecks!.push({ step: obs.step, id: c.id, code: c.code ?? null, message: c.message ?? null, acknowledged: acknowledge });
      if (checks.length && !acknowledge) {
        this.stoppedBySafety = `stopped by Cookie's safety-check policy (stop): ${checks.map((c) => `${c.code ?? 'check'}: ${c.message ?? ''}`).join('; ')}`;
        this.finalText = this.stoppedBySafety;
        return { action: { kind: 'finish' }, reasoning: this.stoppedBySafety, usage };
      }
      const raw = call.actions?.length ? call.actions : call.action ? [call.action] : [];
      const parsed: ScreenAction[] = [];
      let error = raw.length ? '' : 'the computer call has no action';
      let screenshotOnly = raw.length > 0;
      for (const r of raw) {
        const a = this.parse(r);
        if ('error' in a) {
          error = a.error;
          break;
        }
        if (a.action) {
          parsed.push(a.action);
          screenshotOnly = false;
        }
      }
      if (!error && screenshotOnly) {
        input = [this.screenshotItem(call.call_id, obs.screenshot, acknowledge ? checks : [])];
        continue;
      }
      if (error) {
        lastError = error;
        this.record.corrections.push({ step: obs.step, error });
        // answer the call with the unchanged screen and say what was wrong
        input = [this.screenshotItem(call.call_id, obs.screenshot, acknowledge ? checks : []), { role: 'user', content: `error: ${error}. Nothing was done; act again with a valid action.` }];
        continue;
      }
      this.pending = { callId: call.call_id, checks: acknowledge ? checks : [] };
      this.queue = parsed.slice(1);
      return { ...screenDecision(parsed[0]!, reasoning), usage };
    }
    return invalidDecision(lastError, MAX_REPLIES_PER_STEP, usage);
  }

  /** One Responses API action → a screen action (null for `screenshot`), or an error for the correction. */
  private parse(raw: unknown): { action: ScreenAction | null } | { error: string } {
    const p = cuAction.safeParse(raw);
    if (!p.success) return { error: `invalid computer action: ${p.error.issues.map((i) => `${i.path.join('.') || '(action)'}: ${i.message}`).join('; ')}` };
    const a = p.data;
    const at = (x: number, y: number): Point => inViewport({ x, y }, this.viewport);
    switch (a.type) {
      case 'click':
        if (a.button === 'back' || a.button === 'forward') return { error: `button "${a.button}" is not available; click inside the application instead` };
        return { action: { type: 'click', at: at(a.x, a.y), button: a.button === 'wheel' ? 'middle' : a.button, clicks: 1 } };
      case 'double_click':
        return { action: { type: 'click', at: at(a.x, a.y), button: 'left', clicks: 2 } };
      case 'drag':
        return { action: { type: 'drag', from: at(a.path[0]!.x, a.path[0]!.y), to: at(a.path[a.path.length - 1]!.x, a.path[a.path.length - 1]!.y) } };
      case 'keypress':
        return { action: { type: 'key', key: playwrightKey(a.keys) } };
      case 'move':
        return { action: { type: 'move', at: at(a.x, a.y) } };
      case 'screenshot':
        return { action: null };
      case 'scroll':
        return { action: { type: 'scroll', at: at(a.x, a.y), dx: a.scroll_x, dy: a.scroll_y } };
      case 'type':
        return { action: { type: 'type', text: a.text } };
      case 'wait':
        return { action: { type: 'wait', ms: 2000 } };
    }
  }

  /** The budget ran out: answer the last call and ask for the report with a forced finish call. */
  protected async askReport(_steps: TraceStep[], _untested: string[], consoleErrors: string[]): Promise<AgentReport | null> {
    const note = budgetSpentNote('The action budget is spent. Call finish with your report.', consoleErrors);
    const input: ResponseInputItem[] = this.pending ? [this.screenshotItem(this.pending.callId, this.lastShot, this.pending.checks), { role: 'user', content: note }] : [{ role: 'user', content: note }];
    this.pending = null;
    const out = await this.send(input, noUsage(), { type: 'function', name: 'finish' });
    const f = out.find((o) => o.type === 'function_call' && o.name === 'finish');
    if (!f || f.type !== 'function_call') return null;
    const r = reportArgs.safeParse(JSON.parse(f.arguments));
    return r.success ? (this.finalReport = reportOf(r.data)) : null;
  }
}
