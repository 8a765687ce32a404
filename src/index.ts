/**
 * Cookie's public API: `defineConfig` for cookie.config.ts, `defineSpec` for *.cookie.spec.ts, the
 * programmatic runner and the public types. Everything else is internal.
 */
// the public types name Node's (Buffer, NodeJS.*) and Playwright's, which need @types/node (a dependency):
// kept in the .d.ts so a consumer's tsc sees them even where its tsconfig lists no `types`
/// <reference types="node" preserve="true" />
import type { UserConfig } from './config/schema.js';
import type { SpecFixtures } from './runner/fixtures.js';
import type { SpecInput } from './types.js';

/** Every public type (queries, candidates, evidence, judgement, results, reporters). */
export type * from './types.js';
/** The user config (all optional) and the config after defaults. */
export type { ResolvedConfig, UserConfig } from './config/schema.js';
export type { RunOptions, RunOutcome } from './runner/run.js';
import type { RunOptions, RunOutcome } from './runner/run.js';

/**
 * Run `cookie test` programmatically (see `runCookie` in src/runner/run.ts for the exit codes). The runner
 * (Playwright, providers) loads on the first call, so importing `cookie-eval` in a spec or config stays light.
 */
export async function runCookie(options: RunOptions): Promise<RunOutcome> {
  const { runCookie: run } = await import('./runner/run.js');
  return run(options);
}
export { judgeOffline } from './judge/offline/judge.js';
/** Fixtures (Playwright Test style) a TS spec may override or extend. */
export type { EvaluationFixtures, FixtureFn, RecordingSettings, SpecFixtures, WorkerFixtures } from './runner/fixtures.js';
/** The extension surface: versioned agent, judge and reporter interfaces (also in cookie-eval/agents, /judges, /reporters). */
export { AGENT_API_VERSION, JUDGE_API_VERSION, REPORTER_API_VERSION, defineAgent, defineJudge, defineReporter } from './plugins/api.js';
export type { AgentContext, AgentPlugin, Judge, JudgeContext, JudgePlugin, PluginEntry } from './plugins/api.js';
export type { Agent, Decision, Observation } from './interact/agent.js';
/** Cookie's error classes (every one has a stable `code`). */
export { ArtifactError, BrowserError, CookieError, InputError, SchemaVersionError, StageError, StageTimeoutError } from './errors.js';
export { FixtureError } from './runner/fixtures.js';

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
 * against the spec file's folder. A TS spec may also export an array of specs (one per query), and may
 * override or extend the evaluation's fixtures (`fixtures: { page: async ({ page }, use) => … }`).
 */
export function defineSpec<Extra extends Record<string, unknown> = Record<string, unknown>, T extends TypedSpec<Extra> | TypedSpec<Extra>[] = TypedSpec<Extra>>(spec: T): T {
  return spec;
}

/** A TS spec with typed fixture overrides (`fixtures`); `Extra` types the spec's own fixtures. */
export type TypedSpec<Extra extends Record<string, unknown> = Record<string, unknown>> = Omit<SpecInput, 'fixtures'> & { fixtures?: SpecFixtures<Extra> };
