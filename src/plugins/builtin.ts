/**
 * The built-in agents and judges as plugins (the same interface a user's own implements): `offline` and
 * `model` for each. The agent is chosen here, by name, never inside evidence collection.
 */
import { AGENT_API_VERSION, JUDGE_API_VERSION, type AgentPlugin, type JudgePlugin } from './api.js';

let offlineJudge: Promise<typeof import('../judge/offline/judge.js')> | null = null;
/**
 * Load the offline judge (the rubric checks and the language model they use). Imported on first use; a run
 * that evaluates starts loading it while its browser launches (run.ts). @throws as a failed dynamic import
 */
export function loadOfflineJudge(): Promise<typeof import('../judge/offline/judge.js')> {
  return (offlineJudge ??= import('../judge/offline/judge.js'));
}

/** Built-in agents by name. Options override the config's `agent` section (`holdMs`; `model`). */
export const BUILTIN_AGENTS: Record<string, AgentPlugin> = {
  offline: {
    apiVersion: AGENT_API_VERSION,
    name: 'offline',
    // (each agent's modules load when one is created, inside an evaluation: start-up loads neither)
    create: async ({ origin, inventory, config }, o) => {
      const { OfflineExplorer } = await import('../interact/agents/explorer.js');
      return new OfflineExplorer(origin, inventory, typeof o.holdMs === 'number' ? o.holdMs : config.agent.holdMs);
    },
  },
  model: {
    apiVersion: AGENT_API_VERSION,
    name: 'model',
    create: async ({ url, task, config }) => {
      const model = config.agent.model;
      if (!model) throw new Error('the model agent needs agent.model in the config');
      const [{ ModelClient, providerFor }, { makeModelAgent }] = await Promise.all([import('../providers/client.js'), import('../interact/agents/model-select.js')]);
      const client = new ModelClient(providerFor(model), model, config.pricing);
      return makeModelAgent(client, { url, prompt: task.query.prompt, budget: config.agent.steps });
    },
  },
};

/** Built-in judges by name, with the config's ablations. */
export const BUILTIN_JUDGES: Record<string, JudgePlugin> = {
  offline: {
    apiVersion: JUDGE_API_VERSION,
    name: 'offline',
    // loaded on first use (its language model is a tenth of a second of start-up): a cached run never judges
    create: ({ config }) => ({ name: 'offline', judge: async (ev) => (await loadOfflineJudge()).judgeOffline(ev, config.ablation) }),
  },
  model: {
    apiVersion: JUDGE_API_VERSION,
    name: 'model',
    create: ({ config }) => {
      const j = config.judge;
      if (!j.model) throw new Error('the model judge needs judge.model in the config');
      const opts = { model: j.model, pricing: config.pricing, finalFunctionality: j.finalFunctionality, keyframes: j.keyframes, sourceChars: j.sourceChars, ablation: config.ablation };
      return { name: 'model', judge: async (ev, dir) => (await import('../judge/model/judge.js')).judgeModel(ev, dir, opts) };
    },
  },
};
