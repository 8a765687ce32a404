/**
 * The built-in agents and judges as plugins (the same interface a user's own implements): `offline` and
 * `model` for each. The agent is chosen here, by name, never inside evidence collection.
 */
import { judgeModel } from '../judge/model/judge.js';
import { judgeOffline } from '../judge/offline/judge.js';
import { OfflineExplorer } from '../interact/agents/explorer.js';
import { makeModelAgent } from '../interact/agents/model-select.js';
import { ModelClient, providerFor } from '../providers/client.js';
import { AGENT_API_VERSION, JUDGE_API_VERSION, type AgentPlugin, type JudgePlugin } from './api.js';

/** Built-in agents by name. Options override the config's `agent` section (`holdMs`; `model`). */
export const BUILTIN_AGENTS: Record<string, AgentPlugin> = {
  offline: {
    apiVersion: AGENT_API_VERSION,
    name: 'offline',
    create: ({ origin, inventory, config }, o) => new OfflineExplorer(origin, inventory, typeof o.holdMs === 'number' ? o.holdMs : config.agent.holdMs),
  },
  model: {
    apiVersion: AGENT_API_VERSION,
    name: 'model',
    create: ({ url, task, config }) => {
      const model = config.agent.model;
      if (!model) throw new Error('the model agent needs agent.model in the config');
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
    create: ({ config }) => ({ name: 'offline', judge: (ev) => judgeOffline(ev, config.ablation) }),
  },
  model: {
    apiVersion: JUDGE_API_VERSION,
    name: 'model',
    create: ({ config }) => {
      const j = config.judge;
      if (!j.model) throw new Error('the model judge needs judge.model in the config');
      const opts = { model: j.model, pricing: config.pricing, finalFunctionality: j.finalFunctionality, keyframes: j.keyframes, sourceChars: j.sourceChars, ablation: config.ablation };
      return { name: 'model', judge: (ev, dir) => judgeModel(ev, dir, opts) };
    },
  },
};
