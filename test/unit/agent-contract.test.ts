import { afterEach, describe, expect, it } from 'vitest';
import type { ModelConfig } from '../../src/config/schema.js';
import type { Agent, Decision, Observation, ObservedElement } from '../../src/interact/agent.js';
import { OfflineExplorer } from '../../src/interact/agents/explorer.js';
import { AnthropicComputerUseAgent } from '../../src/interact/agents/model-anthropic-cu.js';
import { ModelAgent } from '../../src/interact/agents/model.js';
import { ModelClient, providerFor } from '../../src/providers/client.js';
import type { ActionKind, AgentReport, TraceStep, Usage } from '../../src/types.js';
import { inventory } from '../fixtures/evidence.js';
import { png } from '../fixtures/fake-page.js';
import { anthropicComputer, anthropicToolUse, elementId, openaiToolCall, startFakeLlm, type Reply, type SeenRequest } from '../fixtures/fake-llm.js';

// One contract for both agent families of Stage 2 (paper §4.1 observe → think → act; METHOD.md §2.3):
// the offline explorer, and model-backed agents talking to a local server that speaks the real OpenAI
// chat-completions or Anthropic Messages wire format (no model is reachable from our machines). Each is
// driven the way the loop drives it — next(observation), observeResult(step), report() — without a browser.

/** Every action kind of the declared union; the type check below fails when the union grows. */
const KINDS = ['click', 'fill', 'select', 'check', 'press', 'hold', 'scroll', 'hover', 'wait', 'back', 'drag', 'finish'] as const;
const exhaustive: Exclude<ActionKind, (typeof KINDS)[number]> extends never ? true : false = true;

const ORIGIN = 'http://127.0.0.1:4173';
const VIEWPORT = { width: 1280, height: 800 };
const BUDGET = 8;
const SCREENSHOT = png([[2, 2]]);

const el = (ref: number, role: string, name: string, over: Partial<ObservedElement> = {}): ObservedElement => ({
  ref, name, role, tag: role === 'textbox' ? 'input' : role === 'link' ? 'a' : 'button', signature: `${role}|${name}`, group: `${role}|g`,
  box: { x: 100 + ref * 10, y: 40 + ref * 30, width: 120, height: 28 }, inViewport: true, disabled: false, ...over,
});
/** A small todo page; refs are not array indexes (an agent must answer with the ref, not the position). */
const ELEMENTS: ObservedElement[] = [
  el(3, 'textbox', 'New task', { type: 'text' }),
  el(5, 'button', 'Add task'),
  el(8, 'button', 'Clear done'),
  el(11, 'link', 'About', { href: '#about' }),
];

const observation = (step: number, budget: number, previous: TraceStep | null): Observation => ({
  step, budget, url: `${ORIGIN}/`, elements: ELEMENTS, screenshot: SCREENSHOT, viewport: VIEWPORT, previous, lists: [{ id: 'ul.tasks', items: ['Buy bread', 'Call mum'] }],
});
/** What the loop would record for a decision: it worked and changed the screen. */
const stepOf = (d: Decision, index: number): TraceStep => ({
  index, action: d.action, reasoning: d.reasoning, startedAt: new Date(0).toISOString(), durationMs: 400, screenshotBefore: null, screenshotAfter: null,
  effect: { pixelChange: 0.05, targetPixelChange: 0.01, domMutations: 3, scrolled: false, screenChanged: true, kind: 'changed', why: 'text' },
  consoleErrors: [], pageErrors: [], dialogs: [], navigations: [], outcome: 'ok',
});

/** Drive an agent like the loop: at most `steps` observations; stops at its finish. */
async function drive(agent: Agent, budget: number, steps = budget): Promise<{ seen: { obs: Observation; d: Decision }[]; trace: TraceStep[]; finishedAt: number | null }> {
  const seen: { obs: Observation; d: Decision }[] = [];
  const trace: TraceStep[] = [];
  for (let i = 0; i < steps; i++) {
    const obs = observation(i, budget, trace.at(-1) ?? null);
    const d = await agent.next(obs);
    seen.push({ obs, d });
    if (d.action.kind === 'finish') return { seen, trace, finishedAt: i };
    const s = stepOf(d, i);
    trace.push(s);
    agent.observeResult?.(s, d);
  }
  return { seen, trace, finishedAt: null };
}

// ── the model side: a scripted model that reads the element list it is sent ──

const FINISH_ARGS = { overall_observation: 'Adding a task works.', features_tested: ['add a task'], features_not_tested: [], actions_performed: ['typed a task', 'added it'], issues_found: [], console_errors: [] };
/** Tool calls in order; the first names an element that is not on the page (the agent must correct it, not pass it on). */
const TOOL_PLAN: ((req: SeenRequest) => [string, Record<string, unknown>])[] = [
  () => ['click', { element_id: 99, reasoning: 'a control I imagine' }],
  (req) => ['type', { element_id: elementId(req, 'textbox', 'New task'), text: 'Buy milk', reasoning: 'add a task' }],
  (req) => ['click', { element_id: elementId(req, 'button', 'Add task'), reasoning: 'submit it' }],
  () => ['press', { key: 'Enter' }],
  () => ['scroll', { delta_y: 400 }],
];
/** Computer-tool inputs in order (screen coordinates): an unsupported zoom first, a move off the screen later. */
const SCREEN_PLAN: Record<string, unknown>[] = [
  { action: 'zoom', region: [0, 0, 10, 10] },
  { action: 'left_click', coordinate: [160, 160] },
  { action: 'type', text: 'Buy milk' },
  { action: 'mouse_move', coordinate: [1500, -20] },
  { action: 'key', text: 'Return' },
];
const forcedFinish = (req: SeenRequest) => JSON.stringify(req.body.tool_choice ?? '').includes('finish');

/** A fake model server: the next planned call per request, `finish` when the plan is done or the client forces it. */
async function scriptedModel<T>(plan: T[], reply: (req: SeenRequest, step: T | null, n: number) => Reply) {
  let turn = 0;
  return startFakeLlm((req, n) => reply(req, forcedFinish(req) || turn >= plan.length ? null : plan[turn++]!, n));
}

function client(m: Pick<ModelConfig, 'provider' | 'model' | 'baseURL'>): ModelClient {
  const cfg: ModelConfig = { temperature: 0.2, maxTokens: 512, timeoutMs: 5000, retries: 0, backoffMs: 0, apiKey: 'k', ...m };
  return new ModelClient(providerFor(cfg), cfg, { [m.model]: { input: 3, output: 15 } });
}
const task = { url: `${ORIGIN}/`, prompt: 'A todo list: add, complete and clear tasks.', budget: BUDGET };

interface AgentFamily {
  name: string;
  /** A fresh agent (and the fake server behind it, if any). */
  make(): Promise<{ agent: Agent; close?: () => Promise<void> }>;
}

const families: AgentFamily[] = [
  { name: 'offline explorer', make: async () => ({ agent: new OfflineExplorer(ORIGIN, inventory({ interactive: [] }), 600) }) },
  {
    name: 'model agent, OpenAI chat completions (tool calls)',
    make: async () => {
      const srv = await scriptedModel(TOOL_PLAN, (req, step) => {
        const [name, args] = step ? step(req) : ['finish', FINISH_ARGS];
        return openaiToolCall(name, JSON.stringify(args));
      });
      return { agent: new ModelAgent(client({ provider: 'openai', model: 'gpt-test', baseURL: `${srv.url}/v1` }), task), close: srv.close };
    },
  },
  {
    name: 'model agent, Anthropic Messages (tool use)',
    make: async () => {
      const srv = await scriptedModel(TOOL_PLAN, (req, step) => (step ? anthropicToolUse(...step(req)) : anthropicToolUse('finish', FINISH_ARGS)));
      return { agent: new ModelAgent(client({ provider: 'anthropic', model: 'claude-test', baseURL: srv.url }), task), close: srv.close };
    },
  },
  {
    name: 'computer-use agent, Anthropic computer tool (screen coordinates)',
    make: async () => {
      const srv = await scriptedModel(SCREEN_PLAN, (_req, input, n) => (input ? anthropicComputer(`s${n}`, input) : anthropicToolUse('finish', FINISH_ARGS)));
      return { agent: new AnthropicComputerUseAgent(client({ provider: 'anthropic', model: 'claude-cu-test', baseURL: srv.url }), task, 'configured'), close: srv.close };
    },
  },
];

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});
async function make(f: AgentFamily): Promise<Agent> {
  const made = await f.make();
  close = made.close;
  return made.agent;
}

function expectUsage(u: Usage): void {
  for (const k of ['requests', 'inputTokens', 'outputTokens', 'costUsd'] as const) {
    expect(Number.isFinite(u[k])).toBe(true);
    expect(u[k]).toBeGreaterThanOrEqual(0);
  }
}

function expectReport(r: AgentReport): void {
  expect(Object.keys(r).sort()).toEqual(['actionsPerformed', 'consoleErrors', 'featuresNotTested', 'featuresTested', 'issuesFound', 'observation']);
  for (const k of ['actionsPerformed', 'featuresTested', 'featuresNotTested', 'consoleErrors'] as const) {
    expect(Array.isArray(r[k])).toBe(true);
    for (const x of r[k]) expect(typeof x).toBe('string');
  }
  for (const i of r.issuesFound) for (const k of ['feature', 'action', 'expected', 'actual'] as const) expect(typeof i[k]).toBe('string');
  expect(typeof r.observation).toBe('string');
}

describe.each(families)('agent contract: $name', (family) => {
  it('declares what it needs: a name and whether it looks at screenshots', async () => {
    expect(exhaustive).toBe(true);
    const agent = await make(family);
    expect(agent.name.length).toBeGreaterThan(0);
    expect(typeof agent.wantsScreenshot).toBe('boolean');
  });

  it("answers every observation with a valid Decision: a declared action kind, a ref among the observation's elements, a point on the screen", async () => {
    const agent = await make(family);
    const { seen } = await drive(agent, BUDGET);
    expect(seen.length).toBeGreaterThan(1);
    for (const { obs, d } of seen) {
      expect(KINDS).toContain(d.action.kind);
      expect(typeof d.reasoning).toBe('string');
      expect(d.invalid).toBeUndefined();
      if (d.ref !== undefined) {
        const target = obs.elements.find((e) => e.ref === d.ref);
        expect(target, `ref ${d.ref} is not in the observation`).toBeDefined();
        if (d.action.target) expect(d.action.target.signature).toBe(target!.signature);
      }
      if (d.action.target) expect(d.ref).toBeDefined();
      // a pointer action says where: an element, or a point
      if (['click', 'check', 'select', 'hover'].includes(d.action.kind)) expect(d.ref !== undefined || (d.action.x !== undefined && d.action.y !== undefined)).toBe(true);
      if (d.action.kind === 'drag') expect([d.action.x, d.action.y, d.action.toX, d.action.toY].every((v) => v !== undefined)).toBe(true);
      for (const [x, y] of [[d.action.x, d.action.y], [d.action.toX, d.action.toY]]) {
        if (x === undefined && y === undefined) continue;
        expect(x).toBeGreaterThanOrEqual(0);
        expect(x).toBeLessThan(obs.viewport.width);
        expect(y).toBeGreaterThanOrEqual(0);
        expect(y).toBeLessThan(obs.viewport.height);
      }
    }
  });

  it('finishes within the step budget, and report() then returns the AgentReport shape', async () => {
    const agent = await make(family);
    const { trace, finishedAt } = await drive(agent, BUDGET);
    expect(finishedAt).not.toBeNull();
    expect(finishedAt!).toBeLessThan(BUDGET);
    expectReport(await agent.report(trace, ['button "Clear done"'], ['TypeError: x is undefined']));
  });

  it('still reports in the AgentReport shape when the budget runs out before it finishes', async () => {
    const agent = await make(family);
    const { trace, finishedAt } = await drive(agent, BUDGET, 2);
    expect(finishedAt).toBeNull();
    expectReport(await agent.report(trace, ['link "About"'], []));
  });

  it('spends non-negative usage, per decision and in all', async () => {
    const agent = await make(family);
    const { seen, trace } = await drive(agent, BUDGET);
    await agent.report(trace, [], []);
    let requests = 0;
    for (const { d } of seen)
      if (d.usage) {
        expectUsage(d.usage);
        requests += d.usage.requests;
      }
    if (agent.usage) {
      const total = agent.usage();
      expectUsage(total);
      expect(total.requests).toBeGreaterThanOrEqual(requests);
    }
  });
});
