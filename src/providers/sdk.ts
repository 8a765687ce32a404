import { createRequire } from 'node:module';
import type AnthropicClient from '@anthropic-ai/sdk';
import type OpenAIClient from 'openai';

// The vendors' official SDKs are loaded on first use, not at start-up: importing both costs about 0.4 s of
// every `cookie test`, and the offline agent and judge (the default) never call a model.
const load = createRequire(import.meta.url);

/** The OpenAI SDK's client class (package `openai`), loaded on the first call. @throws when the package is missing */
export function openAISdk(): typeof OpenAIClient {
  return (load('openai') as { OpenAI: typeof OpenAIClient }).OpenAI;
}

/** The Anthropic SDK's client class (package `@anthropic-ai/sdk`), loaded on the first call. @throws when the package is missing */
export function anthropicSdk(): typeof AnthropicClient {
  return (load('@anthropic-ai/sdk') as { Anthropic: typeof AnthropicClient }).Anthropic;
}
