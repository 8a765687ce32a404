/**
 * Turn config entries ({@link PluginEntry}: built-in name, `[name, options]`, object or module path) into
 * agents, judges and reporters, checking each plugin's API version.
 */
import fs from 'node:fs';
import { REPORTERS } from '../../reporters/index.js';
import type { ResolvedConfig } from '../config/schema.js';
import { InputError } from '../errors.js';
import type { Reporter } from '../types.js';
import { defaultExport, freshImport } from '../util/fresh-import.js';
import { AGENT_API_VERSION, JUDGE_API_VERSION, REPORTER_API_VERSION, type AgentPlugin, type Judge, type JudgePlugin, type PluginEntry } from './api.js';
import { BUILTIN_AGENTS, BUILTIN_JUDGES } from './builtin.js';
import { namesModule } from './paths.js';

/** Which kind of plugin an entry names (for messages and version checks). */
export type PluginKind = 'agent' | 'judge' | 'reporter';
const VERSIONS: Record<PluginKind, number> = { agent: AGENT_API_VERSION, judge: JUDGE_API_VERSION, reporter: REPORTER_API_VERSION };

/** Build the plugin from a module's default export: an object, a class (constructed) or a function (called) with the options. */
async function instantiate(value: unknown, options: Record<string, unknown>): Promise<unknown> {
  if (typeof value !== 'function') return value;
  const fn = value as (...a: unknown[]) => unknown;
  if (/^class\b/.test(Function.prototype.toString.call(fn))) return new (fn as unknown as new (o: unknown) => unknown)(options);
  return await fn(options);
}

/**
 * Load one plugin entry.
 * @param source the file or flag the entry came from (for errors)
 * @throws InputError for an unknown name, a module that does not load or has no default export, or a plugin of another API version
 */
export async function loadPlugin<T extends object>(kind: PluginKind, entry: PluginEntry<T>, builtins: Record<string, (options: Record<string, unknown>) => T | Promise<T>>, source: string): Promise<{ plugin: T; options: Record<string, unknown> }> {
  const field = kind === 'reporter' ? 'reporters' : `${kind}.use`;
  let plugin: unknown;
  let options: Record<string, unknown> = {};
  if (typeof entry === 'string' || Array.isArray(entry)) {
    const [name, opts] = typeof entry === 'string' ? [entry, {}] : (entry as [string, Record<string, unknown>]);
    options = opts ?? {};
    const builtin = builtins[name];
    if (builtin) plugin = await builtin(options);
    else if (namesModule(name)) {
      if (!fs.existsSync(name)) throw new InputError(source, field, `${kind} module "${name}" not found`, 'give a path relative to the config file (or the working directory on the command line)');
      let mod: Record<string, unknown>;
      try {
        mod = await freshImport(name);
      } catch (e) {
        throw new InputError(name, '(file)', `${kind} module cannot be loaded: ${(e as Error).message.split('\n')[0]}`, 'fix the module so it loads under Node (TypeScript is compiled by tsx)');
      }
      const d = defaultExport(mod);
      if (d === undefined) throw new InputError(name, 'default export', 'is missing', `export default the ${kind} (an object, a class or a factory function)`);
      plugin = await instantiate(d, options);
    } else {
      throw new InputError(source, field, `unknown ${kind} "${name}"`, `use one of ${Object.keys(builtins).join(', ')}, or a module path such as ./my-${kind}.ts`);
    }
  } else plugin = entry;
  if (!plugin || typeof plugin !== 'object') throw new InputError(source, field, `the ${kind} is not an object`, `export default the ${kind} object, a class or a factory`);
  const version = (plugin as { apiVersion?: unknown }).apiVersion ?? 1;
  if (version !== VERSIONS[kind]) {
    const name = (plugin as { name?: string }).name ?? (typeof entry === 'string' ? entry : 'plugin');
    throw new InputError(source, field, `${kind} "${name}" speaks ${kind} API version ${String(version)}, this Cookie speaks ${VERSIONS[kind]}`, `use a version of the ${kind} written for cookie-eval's ${kind} API v${VERSIONS[kind]}`);
  }
  return { plugin: plugin as T, options };
}

/** The reporter entries of a run, created (built-ins from the registry in reporters/index.ts). */
export async function createReporters(entries: PluginEntry<Reporter>[], source = '--reporter'): Promise<Reporter[]> {
  const out: Reporter[] = [];
  for (const e of entries) out.push((await loadPlugin<Reporter>('reporter', e, REPORTERS, source)).plugin);
  return out;
}

/** The agent plugin of a config (`agent.use`, else `agent.kind`) with its options. */
export async function loadAgentPlugin(config: ResolvedConfig, source = 'cookie.config'): Promise<{ plugin: AgentPlugin; options: Record<string, unknown> }> {
  const entry = (config.agent.use ?? config.agent.kind) as PluginEntry<AgentPlugin>;
  const builtins = Object.fromEntries(Object.entries(BUILTIN_AGENTS).map(([k, v]) => [k, () => v]));
  const r = await loadPlugin<AgentPlugin>('agent', entry, builtins, source);
  if (typeof r.plugin.create !== 'function') throw new InputError(source, 'agent.use', 'the agent plugin has no create(ctx, options) function', 'export default defineAgent({ name, create: (ctx) => agent })');
  return r;
}

/** The judge of a config (`judge.use`, else `judge.kind`), created once for the run. */
export async function createJudge(config: ResolvedConfig, source = 'cookie.config'): Promise<Judge> {
  const entry = (config.judge.use ?? config.judge.kind) as PluginEntry<JudgePlugin>;
  const builtins = Object.fromEntries(Object.entries(BUILTIN_JUDGES).map(([k, v]) => [k, () => v]));
  const { plugin, options } = await loadPlugin<JudgePlugin>('judge', entry, builtins, source);
  if (typeof plugin.create !== 'function') throw new InputError(source, 'judge.use', 'the judge plugin has no create(ctx, options) function', 'export default defineJudge({ name, create: () => ({ name, judge: (evidence) => judgement }) })');
  const judge = await plugin.create({ config }, options);
  if (!judge || typeof judge.judge !== 'function') throw new InputError(source, 'judge.use', `judge "${plugin.name}" create() returned no judge(evidence, dir) function`, 'return { name, judge(evidence, evidenceDir) { ... } }');
  return judge;
}
