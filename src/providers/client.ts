import type { ModelConfig, PriceTable } from '../config/schema.js';
import { CookieError } from '../errors.js';
import type { Usage } from '../types.js';
import { AnthropicProvider } from './anthropic.js';
import { withBackoff } from './backoff.js';
import type { ChatProvider, ChatRequest, ChatResponse } from './chat.js';
import { OpenAIProvider } from './openai.js';

/** Cost in USD of a token count under a price table (USD per million tokens); 0 for an unpriced model. */
export function costOf(model: string, inputTokens: number, outputTokens: number, prices: PriceTable): number {
  const p = prices[model];
  if (!p) return 0;
  return Math.round(((inputTokens * p.input + outputTokens * p.output) / 1e6) * 1e6) / 1e6;
}

/**
 * The API key of a model config: `apiKey`, else the variable named by `apiKeyEnv`, else the provider's usual
 * variable, else COOKIE_API_KEY; a config with a `baseURL` (a local server) needs none. Never logged.
 * @throws CookieError `ERR_COOKIE_NO_API_KEY` naming the variable to set, when a hosted model has no key (the
 *   SDKs' own "Missing credentials" names neither Cookie's config fields nor COOKIE_API_KEY)
 */
export function apiKeyOf(m: ModelConfig): string {
  if (m.apiKey) return m.apiKey;
  const env = m.apiKeyEnv ?? (m.provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY');
  const key = process.env[env] || process.env.COOKIE_API_KEY || (m.baseURL ? 'not-needed' : '');
  if (!key) throw new CookieError('ERR_COOKIE_NO_API_KEY', `no API key for the ${m.provider} model "${m.model}". Fix: set ${env} (or COOKIE_API_KEY), name another variable in the model config's apiKeyEnv, or give its baseURL for a local server that needs no key`);
  return key;
}

/** Build the provider of a model config. */
export function providerFor(m: ModelConfig): ChatProvider {
  const apiKey = apiKeyOf(m);
  return m.provider === 'anthropic'
    ? new AnthropicProvider({ model: m.model, apiKey, baseURL: m.baseURL, timeoutMs: m.timeoutMs })
    : new OpenAIProvider({ model: m.model, apiKey, baseURL: m.baseURL, timeoutMs: m.timeoutMs });
}

/**
 * A chat provider with Cookie's policies: retries with back-off on 429/5xx/connection errors, and usage
 * accounting (requests, tokens, cost from the price table) — summed over its life and readable per call.
 */
export class ModelClient {
  readonly usage: Usage = { requests: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
  /** Retries performed (attempt, wait ms, error message), for the evidence. */
  readonly retries: { attempt: number; waitMs: number; error: string }[] = [];

  constructor(
    readonly provider: ChatProvider,
    private readonly config: ModelConfig,
    private readonly prices: PriceTable,
  ) {}

  /** The model's name. */
  get model(): string {
    return this.provider.model;
  }

  /**
   * One completion with retries; usage of the successful call is added to `usage` and returned.
   * @throws the provider's error when it is not retryable or retries are spent
   */
  async complete(req: ChatRequest): Promise<ChatResponse & { cost: Usage }> {
    const { res, cost } = await this.call(() => this.provider.complete({ temperature: this.config.temperature, maxTokens: this.config.maxTokens, ...req }), (r) => r.usage);
    return { ...res, cost };
  }

  /**
   * Any other request to the model (computer-use APIs that do not fit {@link ChatRequest}) with the same
   * policies: retries with back-off, and its tokens and cost added to `usage`.
   * @param usageOf the token counts of a response
   * @throws the SDK's error when it is not retryable or retries are spent
   */
  async call<T>(fn: () => Promise<T>, usageOf: (res: T) => { inputTokens: number; outputTokens: number }): Promise<{ res: T; cost: Usage }> {
    const res = await withBackoff(
      () => {
        this.usage.requests++;
        return fn();
      },
      { retries: this.config.retries, baseMs: this.config.backoffMs, maxMs: 60_000 },
      (attempt, waitMs, e) => this.retries.push({ attempt, waitMs, error: (e as Error).message?.slice(0, 200) ?? String(e) }),
    );
    const u = usageOf(res);
    const cost = costOf(this.model, u.inputTokens, u.outputTokens, this.prices);
    this.usage.inputTokens += u.inputTokens;
    this.usage.outputTokens += u.outputTokens;
    this.usage.costUsd = Math.round((this.usage.costUsd + cost) * 1e6) / 1e6;
    return { res, cost: { requests: 1, inputTokens: u.inputTokens, outputTokens: u.outputTokens, costUsd: cost } };
  }

  /** The model config this client was built from (read-only). */
  get modelConfig(): ModelConfig {
    return this.config;
  }
}
