/**
 * Cookie's extension surface: the public, versioned interfaces of the three things a user can plug in —
 * the **agent** of Stage 2 (interaction), the **judge** of Stage 3 (scoring) and a **reporter** — and the
 * config entry that names one (Playwright Test's reporter API and `version()`; Vitest's reporter
 * entries). Each interface carries an API version; Cookie refuses a plugin that speaks another version
 * with an error naming the plugin and the version it expects, so a plugin written for a later Cookie
 * fails loudly instead of being half-called.
 */
import type { ResolvedConfig } from '../config/schema.js';
import type { Agent } from '../interact/agent.js';
import type { DomInventory, EvaluationTask, Evidence, Judgement, Reporter } from '../types.js';

/** Version of the {@link AgentPlugin} interface this Cookie speaks. */
export const AGENT_API_VERSION = 1 as const;
/** Version of the {@link JudgePlugin} interface this Cookie speaks. */
export const JUDGE_API_VERSION = 1 as const;
/** Version of the {@link Reporter} interface this Cookie speaks (a reporter's `apiVersion`; absent means 1). */
export const REPORTER_API_VERSION = 1 as const;

/** What an agent is created with, once per evaluation, after static perception. */
export interface AgentContext {
  /** The evaluation (query × candidate). */
  task: EvaluationTask;
  /** The deployed app's URL and origin. */
  url: string;
  origin: string;
  /** The DOM inventory of static perception (null when perception could not take one). */
  inventory: DomInventory | null;
  /** The run's resolved config (agent.steps is the step budget). */
  config: ResolvedConfig;
}

/**
 * A pluggable agent (paper §4.1, Stage 2): a factory, called once per evaluation, that returns an
 * {@link Agent} (observe → decide → report). The built-ins are `offline` (the deterministic explorer)
 * and `model` (the model-backed computer-use agent).
 * @example export default defineAgent({ name: 'clicker', create: () => new MyAgent() })
 */
export interface AgentPlugin<Options = Record<string, unknown>> {
  /** Must be {@link AGENT_API_VERSION}; absent means 1. */
  readonly apiVersion?: typeof AGENT_API_VERSION;
  readonly name: string;
  create(ctx: AgentContext, options: Options): Agent | Promise<Agent>;
}

/** What a judge is created with, once per run. */
export interface JudgeContext {
  config: ResolvedConfig;
}

/**
 * A judge (paper §4.1, Stage 3): finished evidence and its folder (screenshots, video, sources) in, a
 * {@link Judgement} out. It never touches a browser or the candidate's folder: everything it reads is in
 * the evidence (so `cookie judge DIR` re-scores a run after the candidates are gone).
 */
export interface Judge {
  readonly name: string;
  judge(evidence: Evidence, evidenceDir: string): Judgement | Promise<Judgement>;
}

/**
 * A pluggable judge: a factory, called once per run, returning a {@link Judge}. The built-ins are
 * `offline` (the rubric judge on measured evidence) and `model` (the three-stage model-backed judge).
 */
export interface JudgePlugin<Options = Record<string, unknown>> {
  /** Must be {@link JUDGE_API_VERSION}; absent means 1. */
  readonly apiVersion?: typeof JUDGE_API_VERSION;
  readonly name: string;
  create(ctx: JudgeContext, options: Options): Judge | Promise<Judge>;
}

/**
 * How a config names a plugin (the same four forms for agents, judges and reporters):
 * - a built-in name: `'offline'`, `'junit'`;
 * - a built-in name or module path with options: `['junit', { outputFile: 'junit.xml' }]`;
 * - the plugin object itself (an {@link AgentPlugin}, {@link JudgePlugin} or {@link Reporter});
 * - a module path (`./my-judge.ts`, `/abs/reporter.js`, or a package name not among the built-ins),
 *   resolved from the config file's folder (from the working directory on the command line). Its default
 *   export is the plugin object, a class (constructed with the options) or a function (called with them).
 */
export type PluginEntry<T> = string | [string, Record<string, unknown>] | T;

/** Type helper for an agent plugin module (returns its input). */
export function defineAgent<O = Record<string, unknown>>(plugin: AgentPlugin<O>): AgentPlugin<O> {
  return plugin;
}

/** Type helper for a judge plugin module (returns its input). */
export function defineJudge<O = Record<string, unknown>>(plugin: JudgePlugin<O>): JudgePlugin<O> {
  return plugin;
}

/** Type helper for a reporter module (returns its input). */
export function defineReporter<R extends Reporter>(reporter: R): R {
  return reporter;
}
