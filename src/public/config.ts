/**
 * `cookie-eval/config`: what a `cookie.config.ts` needs (Vitest's `vitest/config`): `defineConfig` and
 * the config types.
 */
// the public types name Node's (Buffer, NodeJS.*) and Playwright's, which need @types/node (a dependency):
// kept in the .d.ts so a consumer's tsc sees them even where its tsconfig lists no `types`
/// <reference types="node" preserve="true" />
import type { UserConfig } from '../config/schema.js';

export type { Ablation, DeployConfig, ModelConfig, PriceTable, ReporterEntry, ResolvedConfig, UserConfig } from '../config/schema.js';
export type { PluginEntry } from '../plugins/api.js';

/**
 * Type helper for `cookie.config.ts` (Vitest style: returns its input; validated with zod when loaded).
 * @example export default defineConfig({ concurrency: 2, reporters: ['console', 'junit', './my-reporter.ts'] })
 */
export function defineConfig(config: UserConfig): UserConfig {
  return config;
}
