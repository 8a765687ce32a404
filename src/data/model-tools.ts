import fs from 'node:fs';
import path from 'node:path';
import { z } from '../vendor/zod.js';
import { askJson } from '../judge/model/json-reply.js';
import { loadPrompt, renderPrompt } from '../prompts.js';
import type { ModelClient } from '../providers/client.js';
import { languageName } from '../spec/language.js';
import type { BenchRow } from './records.js';
import { deriveLabels, LEAVES } from './taxonomy.js';

// ───────────────────────────── admissibility filter (A.2) ─────────────────────────────

/** The seven admissibility axes (paper Appendix A.2). */
export const AXES = ['safety', 'privacy', 'task_direction', 'intent_clarity', 'executability', 'dependency_minimality', 'logical_completeness'] as const;
/** Failing any of these rejects a query outright. */
export const REJECT_AXES = ['safety', 'privacy', 'executability', 'logical_completeness'] as const;

const axis = z.object({ pass: z.boolean(), rationale: z.string().default('') });
const filterReply = z.object(Object.fromEntries(AXES.map((a) => [a, axis])) as Record<(typeof AXES)[number], typeof axis>);

/** The filter's decision from per-axis verdicts: auto-reject, auto-accept or route to a human (A.2). */
export function filterDecision(v: Record<(typeof AXES)[number], { pass: boolean }>): 'reject' | 'accept' | 'human' {
  if (REJECT_AXES.some((a) => !v[a].pass)) return 'reject';
  if (AXES.every((a) => v[a].pass)) return 'accept';
  return 'human';
}

/** Judge one query on the seven axes (low temperature, structured output, retried when malformed). */
export async function filterQuery(client: ModelClient, query: string): Promise<{ verdicts: z.infer<typeof filterReply>; decision: 'reject' | 'accept' | 'human' }> {
  const p = loadPrompt('data-filter');
  const r = await askJson(client, 'filter', p.text, [{ type: 'text', text: `Query:\n${query}` }], filterReply);
  return { verdicts: r.value, decision: filterDecision(r.value) };
}

// ───────────────────────────── classifier (A.7) ─────────────────────────────

/** The leaf list with definitions, as inlined in the classifier prompt. */
export function leafList(): string {
  return LEAVES.map((l) => `- ${l.l3} (${l.l2}; ${l.l1}): ${l.definition}. Example: ${l.example}.`).join('\n');
}

const classifyReply = z.object({ task_scenario: z.string() }).refine((v) => !!deriveLabels(v.task_scenario), { message: 'task_scenario must be one of the leaf names in the list' });

/**
 * Classify one query to one of the 54 leaves (A.7): one low-temperature pass (T 0.2, top-p 0.9 by the
 * caller's client config) with the full leaf list and definitions inlined, strict JSON
 * `{"task_scenario": "<leaf>"}`, retried up to 3 times when malformed or not a leaf; L2 and L1 are derived
 * from the tree.
 */
export async function classifyQuery(client: ModelClient, query: string): Promise<{ l1: string; l2: string; l3: string; retries: number }> {
  const p = loadPrompt('data-classify');
  const r = await askJson(client, 'classify', renderPrompt(p, { leaves: leafList() }), [{ type: 'text', text: `Query:\n${query}` }], classifyReply);
  return { ...deriveLabels(r.value.task_scenario)!, retries: r.retries };
}

/** Precision of predictions against gold leaves: correct / predicted (rows without a prediction are left out). */
export function precision(pred: Map<string, string>, gold: Map<string, string>): { correct: number; predicted: number; precision: number | null } {
  let correct = 0;
  let predicted = 0;
  for (const [id, p] of pred) {
    if (!gold.has(id)) continue;
    predicted++;
    if (gold.get(id) === p) correct++;
  }
  return { correct, predicted, precision: predicted ? correct / predicted : null };
}

// ───────────────────────────── translator (A.6) ─────────────────────────────

const PROTECT = /```[\s\S]*?```|`[^`\n]+`|https?:\/\/[^\s)\]}>"']+|(?:\.{0,2}\/)?(?:[\w.-]+\/)+[\w.-]+\.\w{1,8}|<\/?[a-zA-Z][\w-]*(?:\s[^<>]*)?>/g;

/**
 * Mask what must not be translated (code blocks, inline code, URLs, file paths, HTML tags) with ⟦n⟧
 * placeholders. @returns the masked text and the pieces, in order
 */
export function protect(text: string): { masked: string; pieces: string[] } {
  const pieces: string[] = [];
  const masked = text.replace(PROTECT, (m) => `⟦${pieces.push(m) - 1}⟧`);
  return { masked, pieces };
}

/** Put the pieces back. @throws Error when a placeholder is missing or duplicated (the reply is retried) */
export function restore(translated: string, pieces: string[]): string {
  for (let i = 0; i < pieces.length; i++) {
    const n = translated.split(`⟦${i}⟧`).length - 1;
    if (n !== 1) throw new Error(`placeholder ⟦${i}⟧ appears ${n} times`);
  }
  return translated.replace(/⟦(\d+)⟧/g, (_, i: string) => pieces[Number(i)] ?? '');
}

const translateReply = (pieces: number) => z.object({ translation: z.string() }).refine((v) => [...Array(pieces).keys()].every((i) => v.translation.split(`⟦${i}⟧`).length === 2), { message: 'keep every ⟦n⟧ placeholder exactly once' });

/** Translate one query's natural language into a target language (ISO 639-1), keeping code, paths, URLs and structure. */
export async function translateQuery(client: ModelClient, query: string, target: string): Promise<string> {
  const { masked, pieces } = protect(query);
  const p = loadPrompt('data-translate');
  const r = await askJson(client, 'translate', renderPrompt(p, { language: `${languageName(target)} (${target})` }), [{ type: 'text', text: masked }], translateReply(pieces.length));
  return restore(r.value.translation, pieces);
}

/**
 * Translate rows (`target_language` per row, e.g. rebalance's residual.jsonl), cached to disk in batches of
 * ten (`cacheFile`, JSONL keyed by id and target), so an interrupted run resumes without calling the model
 * again for what was already translated.
 * @returns the translated rows (query replaced, `original_query` and `original_language` kept)
 */
export async function translateRows(client: ModelClient, rows: BenchRow[], o: { column: string; id: string; cacheFile: string; batch?: number; onBatch?: (done: number) => void }): Promise<BenchRow[]> {
  const cache = new Map<string, string>();
  if (fs.existsSync(o.cacheFile)) {
    for (const line of fs.readFileSync(o.cacheFile, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        const e = JSON.parse(line) as { key: string; translation: string };
        cache.set(e.key, e.translation);
      } catch {
        /* a torn last line from an interrupted write */
      }
    }
  }
  const keyOf = (r: BenchRow) => `${r[o.id]}\u0000${r.target_language}`;
  const todo = rows.filter((r) => !cache.has(keyOf(r)));
  const size = o.batch ?? 10;
  fs.mkdirSync(path.dirname(o.cacheFile), { recursive: true });
  for (let i = 0; i < todo.length; i += size) {
    const batch = todo.slice(i, i + size);
    const done = await Promise.all(batch.map(async (r) => ({ key: keyOf(r), translation: await translateQuery(client, r[o.column] ?? '', r.target_language ?? 'en') })));
    fs.appendFileSync(o.cacheFile, done.map((d) => JSON.stringify(d)).join('\n') + '\n');
    for (const d of done) cache.set(d.key, d.translation);
    o.onBatch?.(Math.min(i + size, todo.length));
  }
  return rows.map((r) => ({ ...r, original_query: r[o.column] ?? '', original_language: r.language ?? '', [o.column]: cache.get(keyOf(r)) ?? '', language: languageName(r.target_language ?? '') }));
}
