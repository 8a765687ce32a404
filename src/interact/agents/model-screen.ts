import { z } from '../../vendor/zod.js';
import { loadPrompt, renderPrompt } from '../../prompts.js';
import type { ModelClient } from '../../providers/client.js';
import type { Action, AgentProtocolRecord, AgentReport, TraceStep, Usage } from '../../types.js';
import type { Agent, Decision, Observation } from '../agent.js';

/**
 * Shared parts of the screenshot-only model agents (issue 17: Anthropic and OpenAI computer use, UI-TARS,
 * Qwen-VL): one neutral action vocabulary that every protocol's actions are parsed into, its mapping onto
 * Cookie's human-like input ({@link Action}), key names, coordinate conventions, and the report.
 */

/** A point in CSS px of the viewport. */
export interface Point {
  x: number;
  y: number;
}

/** One action of a computer-use protocol, coordinates already in CSS px of the viewport. */
export type ScreenAction =
  | { type: 'click'; at: Point; button: 'left' | 'right' | 'middle'; clicks: number }
  | { type: 'move'; at: Point }
  | { type: 'drag'; from: Point; to: Point }
  | { type: 'type'; text: string }
  | { type: 'key'; key: string }
  | { type: 'hold'; key: string; ms: number }
  | { type: 'scroll'; at: Point | null; dx: number; dy: number }
  | { type: 'wait'; ms: number };

/** Most screenshot-only replies (screenshot requests, malformed actions) answered within one step before it is recorded as failed. */
export const MAX_REPLIES_PER_STEP = 4;

/**
 * Map a protocol key name onto Playwright's (`Control+a`, `Enter`, `ArrowLeft`…). Accepts xdotool names
 * (Anthropic: `Return`, `ctrl+s`, `Page_Down`), OpenAI's upper-case names (`CTRL`, `ENTER`), and UI-TARS /
 * Qwen space-separated chords (`ctrl c`). Chords are joined with `+`.
 */
export function playwrightKey(spec: string | string[]): string {
  const parts = Array.isArray(spec) ? spec : spec.trim().length > 1 ? spec.trim().split(/\s*\+\s*|\s+/) : [spec];
  return parts.filter((p) => p !== '').map(oneKey).join('+') || (Array.isArray(spec) ? '' : spec);
}

const KEYS: Record<string, string> = {
  return: 'Enter', enter: 'Enter', kp_enter: 'Enter', esc: 'Escape', escape: 'Escape', tab: 'Tab', space: 'Space', spacebar: 'Space',
  backspace: 'Backspace', delete: 'Delete', del: 'Delete', insert: 'Insert', home: 'Home', end: 'End',
  page_up: 'PageUp', pageup: 'PageUp', prior: 'PageUp', page_down: 'PageDown', pagedown: 'PageDown', next: 'PageDown',
  up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight', arrowup: 'ArrowUp', arrowdown: 'ArrowDown', arrowleft: 'ArrowLeft', arrowright: 'ArrowRight',
  ctrl: 'Control', control: 'Control', control_l: 'Control', control_r: 'Control', alt: 'Alt', alt_l: 'Alt', option: 'Alt', shift: 'Shift', shift_l: 'Shift', shift_r: 'Shift',
  super: 'Meta', super_l: 'Meta', meta: 'Meta', cmd: 'Meta', command: 'Meta', win: 'Meta', capslock: 'CapsLock', caps_lock: 'CapsLock',
  minus: 'Minus', equal: 'Equal', plus: '+', comma: ',', period: '.', slash: '/',
};
function oneKey(k: string): string {
  const low = k.toLowerCase();
  if (KEYS[low]) return KEYS[low]!;
  if (/^f([1-9]|1[0-2])$/.test(low)) return low.toUpperCase();
  if (k.length === 1) return /[A-Z]/.test(k) && k.length === 1 ? k.toLowerCase() : k;
  return k;
}

/** Width and height (px) of a PNG from its IHDR header; null when the bytes are not a PNG. */
export function pngSize(png: Buffer | null): { width: number; height: number } | null {
  if (!png || png.length < 24 || png.readUInt32BE(12) !== 0x49484452) return null;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/**
 * Qwen2.5-VL's `smart_resize` (the image size the model's processor actually sees, and so the pixel space of
 * its coordinates; also UI-TARS-1.5): both sides rounded to a multiple of `factor`, the area kept within
 * [minPixels, maxPixels]. Sizes in px.
 */
export function smartResize(width: number, height: number, factor = 28, minPixels = 56 * 56, maxPixels = 14 * 14 * 4 * 16384): { width: number; height: number } {
  let h = Math.max(factor, Math.round(height / factor) * factor);
  let w = Math.max(factor, Math.round(width / factor) * factor);
  if (h * w > maxPixels) {
    const beta = Math.sqrt((height * width) / maxPixels);
    h = Math.max(factor, Math.floor(height / beta / factor) * factor);
    w = Math.max(factor, Math.floor(width / beta / factor) * factor);
  } else if (h * w < minPixels) {
    const beta = Math.sqrt(minPixels / (height * width));
    h = Math.ceil((height * beta) / factor) * factor;
    w = Math.ceil((width * beta) / factor) * factor;
  }
  return { width: w, height: h };
}

/** A coordinate convention of screenshot-grounded models (see the config field `coordinates`). */
export type CoordinateConvention = 'relative-1000' | 'pixels' | 'smart-resize';

/**
 * The factor from a model's coordinates to CSS px of the viewport: `relative-1000` → viewport/1000;
 * `pixels` → viewport / screenshot size (a 2× device screenshot gives 0.5); `smart-resize` → viewport /
 * the processor's resized size. Falls back to the viewport as the screenshot size when it is unknown.
 */
export function coordinateScale(convention: CoordinateConvention, viewport: { width: number; height: number }, screenshot: { width: number; height: number } | null): { scaleX: number; scaleY: number } {
  const shot = screenshot ?? viewport;
  const space = convention === 'relative-1000' ? { width: 1000, height: 1000 } : convention === 'smart-resize' ? smartResize(shot.width, shot.height) : shot;
  return { scaleX: viewport.width / space.width, scaleY: viewport.height / space.height };
}

/** Clamp a point to the viewport (a model may aim a pixel outside it) and round to 0.1 px. */
export function inViewport(p: Point, viewport: { width: number; height: number }): Point {
  const r = (v: number, max: number) => Math.round(Math.min(Math.max(v, 0), max - 1) * 10) / 10;
  return { x: r(p.x, viewport.width), y: r(p.y, viewport.height) };
}

/**
 * The Cookie action of a screen action (human-like input in src/interact/input.ts: the loop moves the
 * pointer to `x, y` along a human path first, then `performAction` presses, types, scrolls or drags).
 */
export function screenDecision(a: ScreenAction, reasoning: string): Decision {
  let action: Action;
  switch (a.type) {
    case 'click':
      action = { kind: 'click', x: a.at.x, y: a.at.y, ...(a.button !== 'left' ? { button: a.button } : {}), ...(a.clicks > 1 ? { clicks: a.clicks } : {}) };
      break;
    case 'move':
      action = { kind: 'hover', x: a.at.x, y: a.at.y };
      break;
    case 'drag':
      action = { kind: 'drag', x: a.from.x, y: a.from.y, toX: a.to.x, toY: a.to.y };
      break;
    case 'type':
      action = { kind: 'fill', value: a.text, append: true };
      break;
    case 'key':
      action = { kind: 'press', key: a.key };
      break;
    case 'hold':
      action = { kind: 'hold', key: a.key, durationMs: Math.round(Math.min(Math.max(a.ms, 50), 5000)) };
      break;
    case 'scroll':
      action = { kind: 'scroll', ...(a.at ? { x: a.at.x, y: a.at.y } : {}), deltaY: Math.round(a.dy), ...(a.dx ? { deltaX: Math.round(a.dx) } : {}) };
      break;
    case 'wait':
      action = { kind: 'wait', durationMs: Math.round(Math.min(Math.max(a.ms, 0), 10_000)) };
      break;
  }
  const key = action.x !== undefined ? `${action.kind}|${Math.round(action.x / 20)},${Math.round(action.y! / 20)}` : undefined;
  return { action, reasoning, ...(key ? { key } : {}) };
}

/** The screen-agent system prompt (`prompts/agent-screen.md`, variables url, task, budget) with a protocol's own instructions appended. */
export function screenPrompt(task: { url: string; prompt: string; budget: number }, protocolNotes: string): string {
  return `${renderPrompt(loadPrompt('agent-screen'), { url: task.url, task: task.prompt, budget: task.budget })}\n${protocolNotes.trim()}\n`;
}

/** The neutral report's fields as a model writes them (snake_case), validated with zod. */
export const reportArgs = z.object({
  actions_performed: z.array(z.string()).default([]),
  issues_found: z.array(z.object({ feature: z.string(), action: z.string(), expected: z.string(), actual: z.string() })).default([]),
  features_tested: z.array(z.string()).default([]),
  features_not_tested: z.array(z.string()).default([]),
  console_errors: z.array(z.string()).default([]),
  overall_observation: z.string().default(''),
});

/** JSON Schema of the `finish` tool's arguments (the report). */
export const FINISH_PARAMETERS = {
  type: 'object',
  properties: {
    actions_performed: { type: 'array', items: { type: 'string' } },
    issues_found: { type: 'array', items: { type: 'object', properties: { feature: { type: 'string' }, action: { type: 'string' }, expected: { type: 'string' }, actual: { type: 'string' } }, required: ['feature', 'action', 'expected', 'actual'] } },
    features_tested: { type: 'array', items: { type: 'string' } },
    features_not_tested: { type: 'array', items: { type: 'string' } },
    console_errors: { type: 'array', items: { type: 'string' } },
    overall_observation: { type: 'string' },
  },
  required: ['overall_observation'],
};

/** The report of validated `finish` arguments. */
export function reportOf(r: z.output<typeof reportArgs>): AgentReport {
  return { actionsPerformed: r.actions_performed, issuesFound: r.issues_found, featuresTested: r.features_tested, featuresNotTested: r.features_not_tested, consoleErrors: r.console_errors, observation: r.overall_observation };
}

/**
 * The report of a final free-text message: a JSON object in it with the report's fields when there is one,
 * else the text as the overall observation (the trace supplies the actions).
 */
export function reportFromText(text: string, steps: TraceStep[], untested: string[], consoleErrors: string[]): AgentReport {
  const m = text.match(/\{[\s\S]*\}/);
  if (m) {
    try {
      const parsed = reportArgs.safeParse(JSON.parse(m[0]));
      if (parsed.success && parsed.data.overall_observation) return reportOf(parsed.data);
    } catch {
      /* not JSON: the text is the observation */
    }
  }
  return { ...traceReport(steps, untested, consoleErrors), observation: text.trim().slice(0, 4000) };
}

/** The report taken from the trace when the model wrote none. */
export function traceReport(steps: TraceStep[], untested: string[], consoleErrors: string[]): AgentReport {
  return {
    actionsPerformed: steps.map((s) => `${s.index}: ${describeAction(s.action)}`),
    issuesFound: [],
    featuresTested: [],
    featuresNotTested: untested,
    consoleErrors,
    observation: 'The model did not write a report; this list is taken from the trace.',
  };
}

/** One line for an action (`click (412, 230)`, `press Control+a`, `fill "Buy milk"`). */
export function describeAction(a: Action): string {
  const at = a.x !== undefined ? ` (${Math.round(a.x)}, ${Math.round(a.y ?? 0)})` : '';
  if (a.kind === 'fill') return `type "${(a.value ?? '').slice(0, 60)}"`;
  if (a.kind === 'press' || a.kind === 'hold') return `${a.kind} ${a.key}${a.durationMs ? ` ${a.durationMs} ms` : ''}`;
  if (a.kind === 'scroll') return `scroll ${a.deltaY ?? 0}px${at}`;
  if (a.kind === 'drag') return `drag${at} → (${Math.round(a.toX ?? 0)}, ${Math.round(a.toY ?? 0)})`;
  return `${a.kind}${a.target ? ` "${a.target.name}"` : ''}${at}`;
}

/** What the last step did, for the model's next turn (outcome, visible effect, errors, dialogs, navigation). */
export function resultText(s: TraceStep | null): string {
  if (!s) return 'This is the first step.';
  const parts = [`${describeAction(s.action)} → ${s.outcome}`];
  if (s.effect) parts.push(s.effect.screenChanged ? 'the screen changed' : 'nothing visible changed');
  if (s.pageErrors.length || s.consoleErrors.length) parts.push(`errors: ${[...s.pageErrors, ...s.consoleErrors].map((e) => e.text.slice(0, 150)).join(' | ')}`);
  if (s.dialogs.length) parts.push(`dialogs: ${s.dialogs.map((d) => `${d.type} "${d.message.slice(0, 80)}" (${d.answer})`).join(', ')}`);
  if (s.navigations.length) parts.push(`navigated to ${s.navigations.map((n) => n.url).join(', ')}`);
  if (s.error) parts.push(`error: ${s.error}`);
  return parts.join('; ');
}

/** A fresh usage counter. */
export function noUsage(): Usage {
  return { requests: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
}

/** Add one request's usage to a step's. */
export function addUsage(into: Usage, u: Usage): void {
  into.requests += u.requests;
  into.inputTokens += u.inputTokens;
  into.outputTokens += u.outputTokens;
  into.costUsd = Math.round((into.costUsd + u.costUsd) * 1e6) / 1e6;
}

/** The decision of a step whose replies were all unusable: nothing is done, the step is recorded as failed. */
export function invalidDecision(error: string, replies: number, usage: Usage): Decision {
  return { action: { kind: 'wait', durationMs: 0 }, reasoning: `the model gave ${replies} unusable replies; last error: ${error}`, invalid: error, usage };
}

/** The request for the report once the budget is spent: `ask` and the console errors seen (first 10). */
export function budgetSpentNote(ask: string, consoleErrors: string[]): string {
  return `${ask} Console errors seen: ${consoleErrors.slice(0, 10).join(' | ') || 'none'}.`;
}

/**
 * What the screenshot-only agents (Anthropic and OpenAI computer use, UI-TARS / Qwen-VL) share: they look
 * (`wantsScreenshot`), report the client's usage and their protocol record, and end with the same report
 * order — the report the model gave (`finalReport`), else its final text read by {@link reportFromText}
 * (`finalText`), else one request for the report ({@link askReport}, called only then), else
 * {@link traceReport} when that request fails or yields none.
 */
export abstract class ScreenAgent implements Agent {
  abstract readonly name: string;
  readonly wantsScreenshot = true;
  protected abstract readonly client: ModelClient;
  protected abstract readonly record: AgentProtocolRecord;
  /** The report of the model's own `finish` call. */
  protected finalReport: AgentReport | null = null;
  /** The model's last words when it ended without a `finish` call. */
  protected finalText: string | null = null;

  abstract next(obs: Observation): Promise<Decision>;

  /** Ask the model once for its report after the budget ran out; null when the reply holds none. May throw. */
  protected abstract askReport(steps: TraceStep[], untested: string[], consoleErrors: string[]): Promise<AgentReport | null>;

  async report(steps: TraceStep[], untested: string[], consoleErrors: string[]): Promise<AgentReport> {
    if (this.finalReport) return this.finalReport;
    if (this.finalText !== null) return reportFromText(this.finalText, steps, untested, consoleErrors);
    try {
      const r = await this.askReport(steps, untested, consoleErrors);
      if (r) return r;
    } catch {
      /* fall back to the trace */
    }
    return traceReport(steps, untested, consoleErrors);
  }

  usage(): Usage {
    return { ...this.client.usage };
  }

  protocolRecord(): AgentProtocolRecord {
    return this.record;
  }
}
