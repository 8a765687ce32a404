import { StageTimeoutError } from '../errors.js';

/**
 * Race `work` against a deadline. On expiry rejects with {@link StageTimeoutError}; the abandoned
 * promise is silenced so a late rejection (e.g. from a hung page) never becomes an unhandled rejection.
 * Every browser call on an untrusted page goes through this (PITFALLS.md: a busy loop makes every
 * Playwright call wait forever).
 * @param work the promise to bound
 * @param ms deadline in ms (≤ 0 or Infinity: no deadline)
 * @param label what was being done, for the error message
 * @throws StageTimeoutError when the deadline passes first
 */
export function timebox<T>(work: Promise<T>, ms: number, label: string): Promise<T> {
  work.catch(() => {});
  if (!(ms > 0) || ms === Infinity) return work;
  let timer: NodeJS.Timeout;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StageTimeoutError(label, ms)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Like {@link timebox} but resolves to `fallback` instead of throwing (on time-out or on error).
 * Use for best-effort evidence capture where a missing datum is itself recorded by the caller.
 * @returns `{ ok: true, value }` or `{ ok: false, value: fallback, error }`
 */
export async function attempt<T>(
  work: () => Promise<T>,
  ms: number,
  label: string,
  fallback: T,
): Promise<{ ok: boolean; value: T; error?: string }> {
  try {
    return { ok: true, value: await timebox(Promise.resolve().then(work), ms, label) };
  } catch (e) {
    return { ok: false, value: fallback, error: errorMessage(e) };
  }
}

/** One-line message of any thrown value. */
export function errorMessage(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.split('\n')[0]!.slice(0, 500);
}

/** Promise that resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
