import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { PriceTable } from '../config/schema.js';
import type { CandidateMode } from '../types.js';
import { slug } from '../spec/tasks.js';
import { writeJsonAtomic } from '../util/atomic.js';

/**
 * The generation ledger and the on-disk layout of generated candidates (`cookie generate`, paper §5 and
 * Figure 4 right: tokens per query by mode). A spec reads the layout as `DIR/<model>/{data_id}.html`
 * (HTML mode) or `DIR/<model>/{data_id}/` (React mode). Beside each candidate, `<data_id>.generation.json`
 * is its ledger row (written last and atomically: its presence with a matching settings hash is what
 * "done" means, so a run killed at any point redoes only what it had not finished).
 */

/** Outcome of one generation. `generation-failed`: the model answered but gave no HTML (its reply is kept). `build-failed`: a React project that never built (kept; evaluated as build-failed). `error`: the model could not be reached (retried next run). */
export type GenerationStatus = 'done' | 'generation-failed' | 'build-failed' | 'error';

/** Token and call counts of one generation; cost in USD from the `pricing` table (0 when unpriced). */
export interface GenerationUsage {
  /** Model calls that returned (retries not counted). */
  calls: number;
  /** Input tokens, cached ones included. */
  inputTokens: number;
  outputTokens: number;
  /** Input tokens served from the provider's prompt cache. */
  cachedTokens: number;
  /** Wall time of the whole generation (model calls, tools, builds), ms. */
  wallMs: number;
  costUsd: number;
}

/** One ledger row: a query × model generation (`<data_id>.generation.json`). */
export interface GenerationRecord extends GenerationUsage {
  schemaVersion: 1;
  queryId: string;
  provider: 'openai' | 'anthropic';
  model: string;
  mode: CandidateMode;
  status: GenerationStatus;
  /** Why it failed, one line. */
  reason?: string;
  /** sha256 (12 hex) of the system prompt text; `promptFile` is its path. */
  promptHash: string;
  promptFile: string;
  /** Hash of everything that decides the output (query, mode, model, sampling, prompt, budgets): a change regenerates. */
  settingsHash: string;
  /** Artifact path relative to the ledger's folder (`<model>/<data_id>.html` or `<model>/<data_id>`). */
  artifact: string;
  /** HTML mode: how the document was found in the reply. */
  extraction?: { method: string; truncated: boolean; blocks: number };
  /** React mode: the agent loop's facts. */
  react?: { steps: number; endedBecause: string; builds: number; lastBuildOk: boolean | null; plan: { step: string; status: string }[] };
  finishedAt: string;
}

/** Files of one query × model generation. */
export interface GenerationPaths {
  /** The candidate: an HTML file or a project folder. */
  artifact: string;
  /** The ledger row. */
  meta: string;
  /** The model's raw reply (HTML mode). */
  reply: string;
  /** The React agent's tool transcript. */
  transcript: string;
  /** The React project's build log. */
  buildLog: string;
  /** The model's folder (`DIR/<model>`). */
  dir: string;
}

/** Folder name of a model in the layout (`gpt-4.1-mini`, `claude-sonnet-4-5`). */
export function modelDirName(model: string): string {
  return slug(model);
}

/**
 * Paths of a generation in the layout: `DIR/<model>/<data_id>.html` or `DIR/<model>/<data_id>/`, and
 * beside it `<data_id>.generation.json`, `.reply.md`, `.transcript.json`, `.build.log`.
 */
export function generationPaths(outDir: string, model: string, queryId: string, mode: CandidateMode): GenerationPaths {
  const dir = path.join(outDir, modelDirName(model));
  const base = path.join(dir, slug(queryId));
  return { dir, artifact: mode === 'html' ? `${base}.html` : base, meta: `${base}.generation.json`, reply: `${base}.reply.md`, transcript: `${base}.transcript.json`, buildLog: `${base}.build.log` };
}

/** The ledger row beside an artifact (a `.html` file or a project folder), when there is one. */
export function metaPathOf(artifactPath: string): string {
  return `${artifactPath.replace(/[/\\]+$/, '').replace(/\.html?$/i, '')}.generation.json`;
}

/** Read a ledger row; null when missing or unreadable (a half-written one never exists: rows are written atomically). */
export function readRecord(file: string): GenerationRecord | null {
  try {
    const r = JSON.parse(fs.readFileSync(file, 'utf8')) as GenerationRecord;
    return r && r.schemaVersion === 1 ? r : null;
  } catch {
    return null;
  }
}

/** Write a ledger row atomically. */
export function writeRecord(file: string, r: GenerationRecord): void {
  writeJsonAtomic(file, r);
}

/**
 * Is this generation finished with these settings? True when its row exists with the same settings hash,
 * a final status (not `error`), and — unless it failed to generate — its artifact exists.
 */
export function isDone(p: GenerationPaths, settingsHash: string): boolean {
  const r = readRecord(p.meta);
  if (!r || r.settingsHash !== settingsHash || r.status === 'error') return false;
  return r.status === 'generation-failed' || fs.existsSync(p.artifact);
}

/** Hash (16 hex) of the settings that decide a generation's output. */
export function settingsHashOf(settings: Record<string, unknown>): string {
  return crypto.createHash('sha256').update(JSON.stringify(settings)).digest('hex').slice(0, 16);
}

/**
 * Cost in USD of a generation's tokens: input at the model's `input` price (cached input at `cachedInput`
 * when given), output at `output`; prices are USD per million tokens. 0 for an unpriced model.
 */
export function generationCost(model: string, inputTokens: number, outputTokens: number, cachedTokens: number, prices: PriceTable): number {
  const p = prices[model];
  if (!p) return 0;
  const cached = Math.min(cachedTokens, inputTokens);
  const usd = ((inputTokens - cached) * p.input + cached * (p.cachedInput ?? p.input) + outputTokens * p.output) / 1e6;
  return Math.round(usd * 1e6) / 1e6;
}

/** An accumulator of usage over a generation's model calls. */
export class UsageMeter {
  readonly usage: GenerationUsage = { calls: 0, inputTokens: 0, outputTokens: 0, cachedTokens: 0, wallMs: 0, costUsd: 0 };
  private readonly t0 = Date.now();

  constructor(
    private readonly provider: 'openai' | 'anthropic',
    private readonly model: string,
    private readonly prices: PriceTable,
  ) {}

  /** Add one call's usage as the provider reported it (Anthropic's cache reads are added to the input count). */
  add(u: { inputTokens: number; outputTokens: number; cachedInputTokens?: number }): void {
    const cached = u.cachedInputTokens ?? 0;
    this.usage.calls++;
    this.usage.inputTokens += u.inputTokens + (this.provider === 'anthropic' ? cached : 0);
    this.usage.outputTokens += u.outputTokens;
    this.usage.cachedTokens += cached;
  }

  /** Tokens used so far (input + output). */
  get tokens(): number {
    return this.usage.inputTokens + this.usage.outputTokens;
  }

  /** The final usage: wall time and cost filled in. */
  finish(): GenerationUsage {
    this.usage.wallMs = Date.now() - this.t0;
    this.usage.costUsd = generationCost(this.model, this.usage.inputTokens, this.usage.outputTokens, this.usage.cachedTokens, this.prices);
    return { ...this.usage };
  }
}

/** Totals of ledger rows, per model and mode. */
export interface LedgerTotals extends GenerationUsage {
  model: string;
  mode: CandidateMode;
  queries: number;
  done: number;
  generationFailed: number;
  buildFailed: number;
  errors: number;
  /** Mean tokens (input + output) per query (paper Figure 4 right). */
  tokensPerQuery: number;
}

/** Sum ledger rows per model × mode. */
export function ledgerTotals(rows: GenerationRecord[]): LedgerTotals[] {
  const by = new Map<string, LedgerTotals>();
  for (const r of rows) {
    const k = `${r.model}\0${r.mode}`;
    const t = by.get(k) ?? { model: r.model, mode: r.mode, queries: 0, done: 0, generationFailed: 0, buildFailed: 0, errors: 0, calls: 0, inputTokens: 0, outputTokens: 0, cachedTokens: 0, wallMs: 0, costUsd: 0, tokensPerQuery: 0 };
    t.queries++;
    if (r.status === 'done') t.done++;
    else if (r.status === 'generation-failed') t.generationFailed++;
    else if (r.status === 'build-failed') t.buildFailed++;
    else t.errors++;
    t.calls += r.calls;
    t.inputTokens += r.inputTokens;
    t.outputTokens += r.outputTokens;
    t.cachedTokens += r.cachedTokens;
    t.wallMs += r.wallMs;
    t.costUsd = Math.round((t.costUsd + r.costUsd) * 1e6) / 1e6;
    t.tokensPerQuery = Math.round((t.inputTokens + t.outputTokens) / t.queries);
    by.set(k, t);
  }
  return [...by.values()];
}

/** Every ledger row under an output dir (`DIR/<model>/*.generation.json`). */
export function readLedger(outDir: string): GenerationRecord[] {
  if (!fs.existsSync(outDir)) return [];
  const rows: GenerationRecord[] = [];
  for (const d of fs.readdirSync(outDir, { withFileTypes: true })) {
    if (!d.isDirectory()) continue;
    for (const f of fs.readdirSync(path.join(outDir, d.name)).sort()) {
      if (!f.endsWith('.generation.json')) continue;
      const r = readRecord(path.join(outDir, d.name, f));
      if (r) rows.push(r);
    }
  }
  return rows;
}

/** Write `DIR/ledger.json`: every row and the totals per model × mode. */
export function writeLedger(outDir: string): { rows: GenerationRecord[]; totals: LedgerTotals[] } {
  const rows = readLedger(outDir);
  const totals = ledgerTotals(rows);
  writeJsonAtomic(path.join(outDir, 'ledger.json'), { schemaVersion: 1, writtenAt: new Date().toISOString(), totals, rows });
  return { rows, totals };
}

/** The ledger row of a task's artifact when Cookie generated it (its `.meta.json` beside it), else null. */
export function generationOf(artifactPath: string): GenerationRecord | null {
  if (!artifactPath) return null;
  return readRecord(metaPathOf(artifactPath));
}
