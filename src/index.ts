/**
 * Cookie's public API: `defineConfig` for cookie.config.ts, `defineSpec` for *.cookie.spec.ts, the
 * programmatic runner and the public types. Everything else is internal.
 */
import type { UserConfig } from './config/schema.js';
import type { SpecInput } from './types.js';

/** Every public type (queries, candidates, evidence, judgement, results, reporters). */
export type * from './types.js';
/** The user config (all optional) and the config after defaults. */
export type { ResolvedConfig, UserConfig } from './config/schema.js';
export { runCookie, type RunOptions, type RunOutcome } from './runner/run.js';
export { judgeOffline } from './judge/offline/judge.js';

/**
 * Type helper for `cookie.config.ts` (Vitest style: returns its input; validated with zod when loaded).
 * @example export default defineConfig({ concurrency: 2, reporters: ['console', 'junit'] })
 */
export function defineConfig(config: UserConfig): UserConfig {
  return config;
}

/**
 * Type helper for `*.cookie.spec.ts`: the same shape as a YAML spec — `query` (inline) or `queries`
 * (a Cookie-Bench JSONL path), and `candidates`. Validated with zod when loaded; relative paths resolve
 * against the spec file's folder. A TS spec may also export an array of specs (one per query).
 */
export function defineSpec<T extends SpecInput | SpecInput[]>(spec: T): T {
  return spec;
}
