// A development aid, not evidence: with COOKIE_PROFILE set, named spans of Cookie's own work (perception's
// waits and captures, each interaction step's observation, keyframes and freeze) are written to stderr as
// `cookie-profile <label> <ms>` lines, which bench/floor.bench.ts sums per label. Without it, nothing is
// measured or written.

const enabled = !!process.env.COOKIE_PROFILE;

/**
 * Start a span named `label`; the returned function ends it and writes its wall time (ms) to stderr when
 * COOKIE_PROFILE is set. A no-op otherwise. Never throws.
 */
export function span(label: string): () => void {
  if (!enabled) return noop;
  const t0 = performance.now();
  return () => {
    try {
      process.stderr.write(`cookie-profile ${label} ${(performance.now() - t0).toFixed(1)}\n`);
    } catch {}
  };
}

/** Await `p` inside a span named `label` (see {@link span}); resolves or rejects as `p` does. */
export async function timed<T>(label: string, p: Promise<T> | (() => T | Promise<T>)): Promise<T> {
  const end = span(label);
  try {
    return await (typeof p === 'function' ? p() : p);
  } finally {
    end();
  }
}

function noop(): void {}

/** Write the time since the process started (ms) under `label` when COOKIE_PROFILE is set (start-up cost). */
export function sinceStart(label: string): void {
  if (!enabled) return;
  try {
    process.stderr.write(`cookie-profile ${label} ${performance.now().toFixed(1)}\n`);
  } catch {}
}
