import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pLimit from 'p-limit';
import { modelSchema, type ModelConfig, type PriceTable } from '../config/schema.js';
import type { ProjectOptions } from '../deploy/project.js';
import { InputError } from '../errors.js';
import { PROMPTS_DIR } from '../prompts.js';
import { ModelClient, providerFor } from '../providers/client.js';
import { limiterFor, rateLimited } from '../providers/rate-limit.js';
import { loadSpecs } from '../spec/load.js';
import { loadBenchQueries } from '../spec/queries-jsonl.js';
import type { CandidateMode, Query } from '../types.js';
import { packageRoot } from '../util/package-root.js';
import { writeJsonAtomic, writeTextAtomic } from '../util/atomic.js';
import { generateHtml } from './html.js';
import { generationPaths, isDone, settingsHashOf, UsageMeter, writeRecord, type GenerationPaths, type GenerationRecord } from './ledger.js';
import { runReactSession } from './react/agent.js';
import { sandboxHost } from './react/host.js';
import { ProjectTools, type ToolHost } from './react/tools.js';

/** The React scaffold models start from (Vite 7, React 19, TypeScript, Tailwind v4, shadcn/ui-style deps). */
export const REACT_TEMPLATE = path.join(packageRoot(), 'templates', 'react-vite');

/** A generation system prompt: its file, text and hash (sha256, 12 hex). */
export interface GenerationPrompt {
  file: string;
  text: string;
  hash: string;
}

/** Everything that decides what a generation produces. Budgets apply to React mode. */
export interface GenerateSettings {
  model: ModelConfig;
  mode: CandidateMode;
  /** System prompt file (default `prompts/generate-<mode>.md`). */
  promptFile?: string;
  /** React: most tool calls (default 60). */
  steps?: number;
  /** React: most tokens, input + output over all calls (default 1,500,000). */
  tokenBudget?: number;
}

/** Options of {@link generateAll}. */
export interface GenerateOptions {
  queries: Query[];
  /** Output dir: candidates go to `<outDir>/<model>/<data_id>.html` or `<outDir>/<model>/<data_id>/`. */
  outDir: string;
  settings: GenerateSettings;
  /** Generations at once (default 2). */
  concurrency?: number;
  /** Requests per minute to this provider endpoint, shared by all workers (default no limit; 429s back off). */
  rpm?: number;
  prices: PriceTable;
  /** Sandboxed build and install of React mode (time limits, npm cache). */
  host: ProjectOptions;
  /** Replace the sandboxed build/install (tests of the loop's logic only). */
  toolHost?: ToolHost;
  /** Told when a generation starts, is skipped (already done) or ends. */
  onEvent?(e: GenerateEvent): void;
}

/** Progress of {@link generateAll}. */
export type GenerateEvent = { kind: 'start'; queryId: string } | { kind: 'skip'; queryId: string } | { kind: 'end'; queryId: string; record: GenerationRecord };

/** Default system prompt file of a mode. */
export function defaultPromptFile(mode: CandidateMode): string {
  return path.join(PROMPTS_DIR, `generate-${mode}.md`);
}

/**
 * Read a generation prompt file.
 * @throws InputError naming the file when it cannot be read
 */
export function loadGenerationPrompt(file: string): GenerationPrompt {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new InputError(file, 'prompt', `cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, 'give a path to a text file with the system prompt (relative to the spec, or absolute)');
  }
  return { file, text, hash: crypto.createHash('sha256').update(text).digest('hex').slice(0, 12) };
}

/**
 * Parse `PROVIDER:MODEL` (e.g. `openai:gpt-4.1`, `anthropic:claude-sonnet-4-5`) into a model config with
 * generation defaults (max_tokens 16,384, temperature 0.2); `extra` may set baseURL, apiKeyEnv, maxTokens….
 * @throws InputError naming the flag and the fix
 */
export function parseModelFlag(spec: string, extra: Partial<ModelConfig> = {}, where = '--model'): ModelConfig {
  const m = /^(openai|anthropic):(.+)$/.exec(spec.trim());
  if (!m) throw new InputError(where, 'model', `"${spec}" is not PROVIDER:MODEL`, 'write e.g. openai:gpt-4.1 or anthropic:claude-sonnet-4-5 (openai covers every OpenAI-compatible server: give --base-url)');
  const parsed = modelSchema.safeParse({ provider: m[1], model: m[2], maxTokens: 16_384, ...Object.fromEntries(Object.entries(extra).filter(([, v]) => v !== undefined)) });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InputError(where, issue.path.join('.') || 'model', issue.message, 'check the model settings');
  }
  return parsed.data;
}

/** The settings hash of a query's generation (what decides its output; secrets and endpoints left out). */
export function generationSettingsHash(query: Query, s: GenerateSettings, prompt: GenerationPrompt): string {
  return settingsHashOf({
    v: 1,
    query: query.prompt,
    mode: s.mode,
    provider: s.model.provider,
    model: s.model.model,
    temperature: s.model.temperature,
    maxTokens: s.model.maxTokens,
    prompt: prompt.hash,
    ...(s.mode === 'react' ? { steps: s.steps ?? 60, tokens: s.tokenBudget ?? 1_500_000 } : {}),
  });
}

/** Fill `{{steps}}` in a React prompt (a custom prompt may leave it out). */
function renderSystem(prompt: GenerationPrompt, s: GenerateSettings): string {
  return prompt.text.replaceAll('{{steps}}', String(s.steps ?? 60));
}

/**
 * Generate one query's candidate (unless it is done with these settings) and write its ledger row.
 * HTML mode: {@link generateHtml}. React mode: a copy of templates/react-vite in a temporary folder beside
 * the candidate, the tool loop ({@link runReactSession}), a final sandboxed build when the last state was not
 * built, then the folder renamed into place (so a killed run never leaves a half-written project where a
 * finished one is expected); the tool transcript (`<data_id>.transcript.json`) and the build log
 * (`<data_id>.build.log`) are kept beside it. A project that never builds is kept, status `build-failed`.
 * @returns the ledger row, or null when it was already done
 */
export async function generateOne(query: Query, o: GenerateOptions, prompt: GenerationPrompt, client: ModelClient): Promise<GenerationRecord | null> {
  const s = o.settings;
  const paths = generationPaths(o.outDir, s.model.model, query.id, s.mode);
  const hash = generationSettingsHash(query, s, prompt);
  if (isDone(paths, hash)) return null;
  fs.mkdirSync(paths.dir, { recursive: true });
  const meter = new UsageMeter(s.model.provider, s.model.model, o.prices);
  const base = {
    schemaVersion: 1 as const,
    queryId: query.id,
    provider: s.model.provider,
    model: s.model.model,
    mode: s.mode,
    promptHash: prompt.hash,
    promptFile: prompt.file,
    settingsHash: hash,
    artifact: path.relative(o.outDir, paths.artifact),
  };
  let rest: Partial<GenerationRecord> & Pick<GenerationRecord, 'status'>;
  if (s.mode === 'html') {
    rest = await generateHtml(client, prompt.text, query, paths, meter);
  } else {
    rest = await generateReact(query, o, prompt, client, paths, meter);
  }
  const record: GenerationRecord = { ...base, ...rest, ...meter.finish(), finishedAt: new Date().toISOString() };
  writeRecord(paths.meta, record);
  return record;
}

async function generateReact(query: Query, o: GenerateOptions, prompt: GenerationPrompt, client: ModelClient, paths: GenerationPaths, meter: UsageMeter): Promise<Pick<GenerationRecord, 'status' | 'reason' | 'react'>> {
  const s = o.settings;
  const name = path.basename(paths.artifact);
  // leftovers of a killed run: its half-written project is redone from scratch
  for (const f of fs.readdirSync(paths.dir)) if (f.startsWith(`.${name}.tmp-`)) fs.rmSync(path.join(paths.dir, f), { recursive: true, force: true });
  const work = path.join(paths.dir, `.${name}.tmp-${process.pid}-${Date.now()}`);
  fs.cpSync(REACT_TEMPLATE, work, { recursive: true, filter: (p) => !/[/\\](node_modules|dist)$/.test(p) });
  try {
    const tools = new ProjectTools(work, o.toolHost ?? sandboxHost(o.host));
    const session = await runReactSession(client, renderSystem(prompt, s), query.prompt, tools, { steps: s.steps ?? 60, tokens: s.tokenBudget ?? 1_500_000, maxTokensPerCall: s.model.maxTokens }, meter);
    if (session.modelError) {
      writeJsonAtomic(paths.transcript, { query: query.id, endedBecause: session.endedBecause, steps: session.transcript });
      return { status: 'error', reason: session.endedBecause };
    }
    // the harness's own check of the final state: what the evaluation will build
    if (tools.dirty || !tools.lastBuild) await tools.run('build', {});
    if (tools.lastBuild?.harnessError) {
      writeJsonAtomic(paths.transcript, { query: query.id, endedBecause: `harness-error: ${tools.lastBuild.harnessError}`, steps: session.transcript });
      return { status: 'error', reason: `the build could not run: ${tools.lastBuild.harnessError}` };
    }
    const ok = !!tools.lastBuild?.ok;
    writeJsonAtomic(paths.transcript, { query: query.id, endedBecause: session.endedBecause, steps: session.transcript, plan: tools.plan });
    writeTextAtomic(paths.buildLog, tools.buildLogs.join('\n\n') + '\n');
    fs.rmSync(paths.artifact, { recursive: true, force: true });
    fs.renameSync(work, paths.artifact);
    return {
      status: ok ? 'done' : 'build-failed',
      ...(ok ? {} : { reason: `the project does not build${tools.lastBuild?.cause ? ` (${tools.lastBuild.cause})` : ''}` }),
      react: { steps: session.steps, endedBecause: session.endedBecause, builds: tools.builds, lastBuildOk: tools.lastBuild?.ok ?? null, plan: tools.plan },
    };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * `cookie generate`: generate every query's candidate with one model in one mode, `concurrency` at a time,
 * requests spaced by the shared per-endpoint rate limit and retried with the providers' back-off. Resumable:
 * a query whose ledger row matches the current settings is skipped; anything else (never started, killed
 * half-way, settings or prompt changed, model unreachable last time) is generated again.
 * @returns the rows written by this run and the ids skipped as done
 * @throws InputError when the prompt file cannot be read
 */
export async function generateAll(o: GenerateOptions): Promise<{ records: GenerationRecord[]; skipped: string[] }> {
  const prompt = loadGenerationPrompt(o.settings.promptFile ?? defaultPromptFile(o.settings.mode));
  const m = o.settings.model;
  const limiter = limiterFor(`${m.provider}|${m.baseURL ?? 'default'}`, o.rpm ?? Infinity);
  const client = () => new ModelClient(rateLimited(providerFor(m), limiter), m, o.prices);
  const limit = pLimit(o.concurrency ?? 2);
  const records: GenerationRecord[] = [];
  const skipped: string[] = [];
  await Promise.all(
    o.queries.map((q) =>
      limit(async () => {
        o.onEvent?.({ kind: 'start', queryId: q.id });
        const r = await generateOne(q, o, prompt, client());
        if (r) {
          records.push(r);
          o.onEvent?.({ kind: 'end', queryId: q.id, record: r });
        } else {
          skipped.push(q.id);
          o.onEvent?.({ kind: 'skip', queryId: q.id });
        }
      }),
    ),
  );
  return { records, skipped };
}

/**
 * The queries of `--queries`: a Cookie-Bench JSONL file, or a spec file (its inline query or query file,
 * with its `select`). Duplicate ids are kept once.
 * @throws InputError naming the file, the field and the fix
 */
export async function loadQueriesFrom(file: string): Promise<Query[]> {
  if (!fs.existsSync(file)) throw new InputError(file, '--queries', 'file not found', 'pass a Cookie-Bench JSONL file or a *.cookie.yaml / *.cookie.spec.ts spec');
  if (/\.jsonl?$/i.test(file)) return loadBenchQueries(file).queries;
  const { suites } = await loadSpecs(file);
  const byId = new Map<string, Query>();
  for (const s of suites) for (const q of s.queries) if (!byId.has(q.id)) byId.set(q.id, q);
  return [...byId.values()];
}
