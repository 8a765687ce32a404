import { errorMessage } from '../util/timebox.js';

/** Retry policy for model calls. Times in ms. */
export interface RetryPolicy {
  /** Attempts after the first (default 5). */
  retries: number;
  /** First back-off (doubles each time, with jitter), ms. */
  baseMs: number;
  /** Longest back-off, ms. */
  maxMs: number;
}

/** HTTP status of an SDK error (openai / @anthropic-ai/sdk APIError), if any. */
function statusOf(e: unknown): number | undefined {
  const s = (e as { status?: unknown }).status;
  return typeof s === 'number' ? s : undefined;
}

/** Server-requested wait from `retry-after-ms` / `retry-after` (seconds or HTTP date), ms. */
export function retryAfterMs(e: unknown): number | null {
  const h = (e as { headers?: unknown }).headers;
  const get = (k: string): string | null => {
    if (!h) return null;
    if (typeof (h as Headers).get === 'function') return (h as Headers).get(k);
    const v = (h as Record<string, unknown>)[k];
    return typeof v === 'string' ? v : null;
  };
  const ms = get('retry-after-ms');
  if (ms && !Number.isNaN(Number(ms))) return Number(ms);
  const s = get('retry-after');
  if (!s) return null;
  if (!Number.isNaN(Number(s))) return Number(s) * 1000;
  const d = Date.parse(s);
  return Number.isNaN(d) ? null : Math.max(0, d - Date.now());
}

/**
 * Did the server refuse the request because it cannot do tool calling? (Ollama: "does not support tools";
 * vLLM: "auto" tool choice requires --enable-auto-tool-choice; llama.cpp: "tools param requires --jinja flag";
 * others: "tool_choice"/"tools" not supported.) A 4xx/5xx whose message names tools.
 */
export function isToolRejection(e: unknown): boolean {
  const s = statusOf(e);
  if (s === undefined || s === 429 || s < 400) return false;
  return /does not support tools|tool[_ ]?choice|tool[- ]call|tools? (param|parameter|are|is)? ?not supported|tools param|--jinja|enable-auto-tool-choice|function calling/i.test(errorMessage(e));
}

/** Is an error worth retrying: 408, 409, 429, 5xx, or a connection failure/time-out (a refusal of tools is not: retrying cannot help). */
export function isRetryable(e: unknown): boolean {
  if (isToolRejection(e)) return false;
  const s = statusOf(e);
  if (s !== undefined) return s === 408 || s === 409 || s === 429 || s >= 500;
  const name = (e as { name?: string }).name ?? '';
  return /Connection|Timeout|ECONNRESET|ECONNREFUSED|fetch failed/i.test(`${name} ${errorMessage(e)}`);
}

/**
 * Call `fn`, retrying rate limits (429), server errors (5xx) and connection failures with exponential
 * back-off and jitter, honouring the server's `retry-after`. Other errors (400, 401, …) are thrown at once.
 * @param onRetry told of every retry: attempt number, wait in ms, and the error
 * @throws the last error once the retries are spent
 */
export async function withBackoff<T>(fn: () => Promise<T>, policy: RetryPolicy, onRetry?: (attempt: number, waitMs: number, e: unknown) => void): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (attempt >= policy.retries || !isRetryable(e)) throw e;
      const exp = Math.min(policy.maxMs, policy.baseMs * 2 ** attempt);
      const wait = Math.min(policy.maxMs, retryAfterMs(e) ?? exp * (0.75 + Math.random() * 0.5));
      onRetry?.(attempt + 1, Math.round(wait), e);
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}
