import type { ModelConfig } from '../../config/schema.js';
import type { ModelClient } from '../../providers/client.js';
import type { Agent } from '../agent.js';
import { ModelAgent } from './model.js';
import { AnthropicComputerUseAgent } from './model-anthropic-cu.js';
import { GroundedAgent } from './model-grounded.js';
import { OpenAIComputerUseAgent } from './model-openai-cu.js';

/** A model agent's wire protocol (config `agent.model.protocol`). */
export type AgentProtocol = NonNullable<ModelConfig['protocol']>;

/**
 * The protocol of a model config and why (recorded in the trace): the configured one; else auto-detected from
 * the model name where it tells (`computer-use-preview*` on the OpenAI provider → `openai-computer-use`,
 * `*ui-tars*` → `ui-tars`, `qwen*-vl*` → `qwen-vl`); else `tools` (function calling, which falls back to
 * `json` by itself when the server rejects tools). Anthropic computer use is never guessed: it must be
 * configured, since the tool version depends on the model.
 */
export function detectProtocol(m: ModelConfig): { protocol: AgentProtocol; why: string } {
  if (m.protocol) return { protocol: m.protocol, why: 'configured (agent.model.protocol)' };
  const name = m.model.toLowerCase();
  if (m.provider === 'openai' && /computer-use/.test(name)) return { protocol: 'openai-computer-use', why: `auto-detected from the model name "${m.model}"` };
  if (m.provider === 'openai' && /ui-?tars/.test(name)) return { protocol: 'ui-tars', why: `auto-detected from the model name "${m.model}"` };
  if (m.provider === 'openai' && /qwen[\d.]*-?vl/.test(name)) return { protocol: 'qwen-vl', why: `auto-detected from the model name "${m.model}"` };
  return { protocol: 'tools', why: 'default (function calling; falls back to json when the server rejects tools)' };
}

/**
 * The model-backed agent of a config (issue 17 §5): one class per protocol, all behind the {@link Agent}
 * interface. `task` is the URL, the user's brief and the step budget.
 */
export function makeModelAgent(client: ModelClient, task: { url: string; prompt: string; budget: number }): Agent {
  const { protocol, why } = detectProtocol(client.modelConfig);
  switch (protocol) {
    case 'anthropic-computer-use':
      return new AnthropicComputerUseAgent(client, task, why);
    case 'openai-computer-use':
      return new OpenAIComputerUseAgent(client, task, why);
    case 'ui-tars':
    case 'qwen-vl':
      return new GroundedAgent(client, task, protocol, why);
    default:
      return new ModelAgent(client, task, protocol, why);
  }
}
