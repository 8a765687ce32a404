/**
 * Per-evaluation determinism of the page's own randomness and clock (issue: beyond one machine, point 4):
 * a page that shuffles, spawns particles or shows "today" renders the same in every run of the same
 * evaluation, so re-runs and shards give the same evidence and offline judgement.
 */

/** What is pinned, recorded in every evaluation's evidence (`environment.determinism`). */
export interface DeterminismSettings {
  /** Seed of the page's `Math.random` and `crypto.getRandomValues` / `randomUUID`, or null when left to the browser. */
  randomSeed: number | null;
  /** Wall-clock origin the page's `Date` starts at (ISO 8601), or null for the real time. */
  dateOrigin: string | null;
  /** Viewport of the interaction and default screenshots, px. */
  viewport: { width: number; height: number };
  /** Device pixel ratio. */
  deviceScaleFactor: number;
  locale: string;
  timezoneId: string;
}

/**
 * Source of an init script (runs before any app code, in every frame and worker-less document) that
 * replaces `Math.random` with a seeded mulberry32 stream and feeds `crypto.getRandomValues` and
 * `crypto.randomUUID` from the same stream. The replacements are plain functions that keep the
 * originals' names and lengths, so pages that feature-test them still work.
 * @param seed 32-bit unsigned seed (e.g. `seedFor(agent.seed, task.id)`)
 */
export function seededRandomScript(seed: number): string {
  return `(() => {
  let s = ${seed >>> 0} || 0x9e3779b9;
  const next = () => {
    let t = (s = (s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const def = (obj, name, fn) => { try { Object.defineProperty(obj, name, { value: fn, configurable: true, writable: true }); } catch (e) {} };
  def(Math, 'random', { random() { return next(); } }.random);
  if (typeof crypto !== 'undefined' && crypto.getRandomValues) {
    const orig = crypto.getRandomValues.bind(crypto);
    def(Object.getPrototypeOf(crypto), 'getRandomValues', { getRandomValues(a) {
      if (!a || typeof a.length !== 'number' || !a.buffer) return orig(a);
      const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
      for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(next() * 256);
      return a;
    } }.getRandomValues);
    def(Object.getPrototypeOf(crypto), 'randomUUID', { randomUUID() {
      const b = new Uint8Array(16); crypto.getRandomValues(b);
      b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
      const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
      return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20);
    } }.randomUUID);
  }
})();
//# sourceURL=cookie-harness://determinism.js`;
}
