import type { ChatProvider, ChatRequest, ChatResponse } from './chat.js';

/**
 * A request-rate limit shared by every caller of one provider endpoint: request starts are spaced at
 * least `60 000 / rpm` ms apart (a simple, fair queue). Rate-limit answers (429) that still come back are
 * handled by the back-off in {@link withBackoff} (ModelClient), honouring `retry-after`.
 */
export class RateLimiter {
  private next = 0;
  private readonly gapMs: number;

  /** @param rpm requests per minute (≥ 1); Infinity for no limit */
  constructor(readonly rpm: number) {
    this.gapMs = Number.isFinite(rpm) && rpm > 0 ? 60_000 / rpm : 0;
  }

  /** Wait for this caller's turn (resolves at once when there is no limit). */
  async acquire(): Promise<void> {
    if (!this.gapMs) return;
    const now = Date.now();
    const at = Math.max(now, this.next);
    this.next = at + this.gapMs;
    if (at > now) await new Promise((r) => setTimeout(r, at - now));
  }
}

const limiters = new Map<string, RateLimiter>();

/**
 * The shared limiter of a provider endpoint (`openai|https://api.openai.com/v1`), created on first use
 * with `rpm` requests per minute; later calls with the same key share it (one budget per provider, not
 * per worker).
 */
export function limiterFor(key: string, rpm: number): RateLimiter {
  let l = limiters.get(key);
  if (!l || l.rpm !== rpm) {
    l = new RateLimiter(rpm);
    limiters.set(key, l);
  }
  return l;
}

/** A chat provider whose every request first waits for the shared limiter. */
export function rateLimited(provider: ChatProvider, limiter: RateLimiter): ChatProvider {
  return {
    provider: provider.provider,
    model: provider.model,
    async complete(req: ChatRequest): Promise<ChatResponse> {
      await limiter.acquire();
      return provider.complete(req);
    },
  };
}
