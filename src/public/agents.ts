/**
 * `cookie-eval/agents`: the Agent interface of Stage 2 (observe → decide → report), the versioned
 * AgentPlugin factory a config names in `agent.use`, and the built-in agents (`offline`, `model`).
 */
// the public types name Node's (Buffer, NodeJS.*) and Playwright's, which need @types/node (a dependency):
// kept in the .d.ts so a consumer's tsc sees them even where its tsconfig lists no `types`
/// <reference types="node" preserve="true" />
export type { Agent, Decision, Observation, ObservedElement } from '../interact/agent.js';
export type { Action, AgentReport, DomInventory, TraceStep, Usage } from '../types.js';
export { AGENT_API_VERSION, defineAgent, type AgentContext, type AgentPlugin } from '../plugins/api.js';
export { BUILTIN_AGENTS } from '../plugins/builtin.js';
