import { describeLoadError } from '../util/load-error.js';
import fs from 'node:fs';
import path from 'node:path';
import { combineInputErrors, InputError } from '../errors.js';
import { defaultExport, freshImport } from '../util/fresh-import.js';
import { zodIssueErrors } from '../util/zod-error.js';
import { configSchema, type ResolvedConfig, type UserConfig } from './schema.js';
import { resolveEntryPath } from '../plugins/paths.js';

/** File names searched, in order, in the working directory when no `--config` is given. */
export const CONFIG_FILES = ['cookie.config.ts', 'cookie.config.mts', 'cookie.config.js', 'cookie.config.mjs'];

/** Per-field fixes shown in config errors. */
const HINTS: Record<string, string> = {
  concurrency: 'use a whole number from 1 to 64',
  steps: 'use a whole number of steps from 1 to 200 (the paper uses 25)',
  kind: 'use "offline" (the built-in explorer or judge) or "model" (with a `model:` setting)',
  include: 'use a list of glob strings such as ["**/*.cookie.yaml"]',
  reporters: 'use names such as ["console", "junit"] or ["junit", { outputFile: "junit.xml" }]',
  width: 'use a width in px between 200 and 4000',
  height: 'use a height in px between 200 and 4000',
  outputDir: 'use a folder path string',
  model: 'give agent.model: { provider: "openai" | "anthropic", model: "<name>", baseURL?: "<url>" }, or set COOKIE_AGENT_PROVIDER and COOKIE_AGENT_MODEL',
  provider: 'use "openai" (any OpenAI-compatible server) or "anthropic"',
  baseURL: 'use a full URL such as http://localhost:8000/v1',
};

/**
 * Environment variables that configure the model-backed agent when the config file does not:
 * COOKIE_AGENT_PROVIDER (openai | anthropic), COOKIE_AGENT_MODEL, COOKIE_AGENT_BASE_URL, COOKIE_AGENT_PROTOCOL. Setting a model
 * this way switches the agent to `model`. The same for the judge: COOKIE_JUDGE_PROVIDER, COOKIE_JUDGE_MODEL,
 * COOKIE_JUDGE_BASE_URL. Keys come from OPENAI_API_KEY / ANTHROPIC_API_KEY / COOKIE_API_KEY.
 */
export function applyEnv(input: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  const agent = { ...((input.agent as Record<string, unknown>) ?? {}) };
  if (env.COOKIE_AGENT_MODEL && !agent.model) {
    agent.model = { provider: env.COOKIE_AGENT_PROVIDER ?? 'openai', model: env.COOKIE_AGENT_MODEL, ...(env.COOKIE_AGENT_BASE_URL ? { baseURL: env.COOKIE_AGENT_BASE_URL } : {}), ...(env.COOKIE_AGENT_PROTOCOL ? { protocol: env.COOKIE_AGENT_PROTOCOL } : {}) };
    agent.kind ??= 'model';
  }
  const judge = { ...((input.judge as Record<string, unknown>) ?? {}) };
  if (env.COOKIE_JUDGE_MODEL && !judge.model) {
    judge.model = { provider: env.COOKIE_JUDGE_PROVIDER ?? 'openai', model: env.COOKIE_JUDGE_MODEL, ...(env.COOKIE_JUDGE_BASE_URL ? { baseURL: env.COOKIE_JUDGE_BASE_URL } : {}) };
    judge.kind ??= 'model';
  }
  const data = { ...((input.data as Record<string, unknown>) ?? {}) };
  if (env.COOKIE_DATA_MODEL && !data.model) data.model = { provider: env.COOKIE_DATA_PROVIDER ?? 'openai', model: env.COOKIE_DATA_MODEL, ...(env.COOKIE_DATA_BASE_URL ? { baseURL: env.COOKIE_DATA_BASE_URL } : {}) };
  let out = input;
  if (Object.keys(data).length) out = { ...out, data };
  if (Object.keys(agent).length) out = { ...out, agent };
  if (Object.keys(judge).length) out = { ...out, judge };
  return out;
}

/** A copy of a config with every API key replaced by "***" (for results, reports and logs). */
export function redactConfig<T>(config: T): T {
  return JSON.parse(JSON.stringify(config, (k, v) => (k === 'apiKey' && typeof v === 'string' ? '***' : v))) as T;
}

/**
 * Validate a user config object and apply defaults.
 * @param input the object `defineConfig` returned (or `{}`)
 * @param file the file it came from, for error messages
 * @param also problems the caller found in the same input, thrown together with the schema's
 * @throws InputError naming the file, the field and the fix (one line per problem)
 */
export function resolveConfig(input: unknown, file = '(inline config)', also: InputError[] = []): ResolvedConfig {
  // reportInput: a missing key is told apart from a wrong value ("is missing", src/util/zod-error.ts)
  const parsed = configSchema.safeParse(applyEnv((input ?? {}) as Record<string, unknown>), { reportInput: true });
  // every problem of the file in one go: the schema's and the caller's (e.g. unknown reporter names)
  const problems = [...(parsed.success ? [] : zodIssueErrors(file, parsed.error, HINTS, configSchema)), ...also];
  if (problems.length) throw combineInputErrors(problems, 8);
  return parsed.data!;
}

/** The first line of an error's message, with tsx's `data:text/javascript,…` module URLs replaced by `file`. */
function firstLine(e: unknown, file: string): string {
  const msg = e instanceof Error ? e.message : String(e);
  return scrubDataUrls(msg.split('\n').find((l) => l.trim())?.trim() ?? 'unknown error', file);
}

/** `text` with every `data:` URL (tsx loads a transpiled module as one, kilobytes long) replaced by `file`. */
export function scrubDataUrls(text: string, file: string): string {
  return text.replace(/data:[a-z]+\/[a-z+-]+[,;][^\s)'"]*/gi, file);
}

/** Config files whose uncaught errors are reported as theirs (see {@link guardConfigFile}). */
const guarded = new Set<string>();
/** Unhandled rejections collected while a config file loads (null when none is loading). */
let pending: { promise?: Promise<unknown>; reason: unknown }[] | null = null;

/**
 * The config file an uncaught error came from: the guarded config whose path (plain or URL-encoded,
 * as in tsx's data: URL of the transpiled module) appears in the error's stack; null for other errors.
 * @param e what was thrown or rejected
 * @param files the config files to look for (default: every file {@link loadConfig} loaded)
 */
export function configFileOfError(e: unknown, files: Iterable<string> = guarded): string | null {
  const stack = e instanceof Error ? (e.stack ?? '') : '';
  for (const f of files) if (stack.includes(f) || stack.includes(encodeURIComponent(f))) return f;
  return null;
}

/**
 * The one line reported when config code throws after the config loaded (a timer, an event), naming the file.
 * @param e the uncaught error
 * @param file the config file it came from
 */
export function configFaultMessage(e: unknown, file: string): string {
  return `${file}: (file): threw after it loaded: ${firstLine(e, file)}. Fix: the config must only export settings; do not start timers, servers or promises that can fail at the top level`;
}

/**
 * Watch for errors a config file's code throws outside the import (a rejected promise, a timer): while it
 * loads they are collected for {@link loadConfig}; later they end the process with exit code 2 and one line
 * naming the file ({@link configFaultMessage}) instead of Node's crash dump of the transpiled module.
 * Errors from anything else keep Node's behaviour (stack on stderr, exit code 1).
 */
function guardConfigFile(file: string): void {
  const first = guarded.size === 0;
  guarded.add(file);
  if (!first) return;
  const onError = (event: 'uncaughtException' | 'unhandledRejection') => (e: unknown, p?: Promise<unknown>) => {
    const from = configFileOfError(e);
    if (from && pending && event === 'unhandledRejection') {
      pending.push({ promise: p, reason: e });
      return;
    }
    if (from) {
      process.stderr.write(`✗ ${configFaultMessage(e, from)}\n`);
      process.exit(2);
    }
    // not the config's: behave as Node does without a listener, unless another listener handles it
    if (process.listenerCount(event) > 1) return;
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  };
  process.on('uncaughtException', onError('uncaughtException'));
  process.on('unhandledRejection', onError('unhandledRejection'));
}

/**
 * Find and load the config: `explicit` if given, else the first of {@link CONFIG_FILES} in `cwd`.
 * TypeScript configs are imported directly (the CLI runs under tsx).
 * @param check more checks of the file's default export (problems the schema cannot see), reported with the schema's
 * @returns the resolved config and the file it came from (null when defaults were used)
 * @throws InputError when the file is missing, fails to import, or does not validate
 */
export async function loadConfig(cwd: string, explicit?: string, check?: (value: unknown, file: string) => InputError[]): Promise<{ config: ResolvedConfig; file: string | null }> {
  let file: string | null = null;
  if (explicit) {
    file = path.resolve(cwd, explicit);
    if (!fs.existsSync(file)) throw new InputError(file, '(file)', 'config file not found', 'check the --config path');
  } else {
    file = CONFIG_FILES.map((f) => path.join(cwd, f)).find((f) => fs.existsSync(f)) ?? null;
  }
  if (!file) return { config: resolveConfig({}), file: null };
  guardConfigFile(file);
  const stray: { promise?: Promise<unknown>; reason: unknown }[] = [];
  pending = stray;
  let mod: Record<string, unknown>;
  let value: UserConfig | undefined;
  try {
    try {
      mod = await freshImport(file);
    } catch (e) {
      const { why, fix } = describeLoadError(e, 'defineConfig');
      throw new InputError(file, '(file)', `cannot be loaded: ${scrubDataUrls(why, file)}`, fix);
    }
    const exported = defaultExport(mod);
    try {
      // `export default Promise.resolve({...})` (or an async helper's promise) is awaited
      value = (await exported) as UserConfig | undefined;
    } catch (e) {
      throw new InputError(file, 'default export', `rejected: ${firstLine(e, file)}`, 'export the config object itself, or a promise that resolves to it: `export default defineConfig({ ... })`');
    }
    // a promise the file left rejected without a handler (not its default export)
    const other = stray.find((r) => r.promise !== exported);
    if (other) throw new InputError(file, '(file)', `a promise rejected while it loaded: ${firstLine(other.reason, file)}`, 'handle (await or .catch) every promise the config starts, or start none at the top level');
  } finally {
    pending = null;
  }
  if (value === undefined) {
    throw new InputError(file, 'default export', 'is missing', 'add `export default defineConfig({ ... })`');
  }
  let config: ResolvedConfig;
  try {
    config = resolveConfig(value, file, check?.(value, file) ?? []);
  } catch (e) {
    if (e instanceof InputError || (e as { code?: string }).code === 'ERR_COOKIE_INPUT') throw e;
    // a getter or proxy in the config threw while Cookie read it
    throw new InputError(file, 'default export', `throws when read: ${firstLine(e, file)}`, 'export plain values (no getters or proxies that throw): `export default defineConfig({ ... })`');
  }
  // plugin module paths (reporters, agent.use, judge.use) are relative to the config file
  const dir = path.dirname(file);
  config.reporters = config.reporters.map((r) => resolveEntryPath(r, dir));
  if (config.agent.use) config.agent.use = resolveEntryPath(config.agent.use, dir);
  if (config.judge.use) config.judge.use = resolveEntryPath(config.judge.use, dir);
  return { config, file };
}
