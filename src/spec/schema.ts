import { z } from '../vendor/zod.js';

/**
 * zod schemas of spec files (`*.cookie.yaml` and the object a `*.cookie.spec.ts` default-exports).
 * Unknown keys are allowed (the issue: "more are allowed"); the known ones are checked strictly.
 */

const thresholds = z.object({
  functionality: z.number().min(0).max(100).optional(),
  aesthetics: z.number().min(0).max(100).optional(),
  total: z.number().min(0).max(100).optional(),
});

/** A string with at least one non-blank character (an id, a name, a brief); `what` says which in the error. */
const nonBlank = (fix: string) => z.string().refine((v) => v.trim() !== '', { message: 'is empty or blank', params: { fix } });

/** An inline query. `language`: ISO 639-1 code or Cookie-Bench English name (checked later). */
export const inlineQuerySchema = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String).pipe(nonBlank('give the query a unique id such as "todo-app"')),
  prompt: nonBlank("give the user's brief as `prompt:`"),
  language: z.string().min(2),
  kind: z.enum(['static', 'dynamic']),
  category: z.string().optional(),
  difficulty: z.string().optional(),
});

/** A generated candidate (`generate:` instead of `path:`): model as PROVIDER:MODEL or a model config, mode, system prompt file. */
export const generateSchema = z.object({
  model: z.union([
    z.string().regex(/^(openai|anthropic):.+/, 'expected PROVIDER:MODEL'),
    z.object({ provider: z.enum(['openai', 'anthropic']), model: z.string().min(1), baseURL: z.string().url().optional(), apiKeyEnv: z.string().optional(), temperature: z.number().min(0).max(2).optional(), maxTokens: z.number().int().positive().optional() }).strict(),
  ]),
  mode: z.enum(['html', 'react']),
  prompt: z.string().min(1).optional(),
  steps: z.number().int().min(1).max(500).optional(),
  tokenBudget: z.number().int().min(1000).optional(),
}).strict();

/** A candidate: a model's answer (a `path`), or one Cookie generates (`generate`). */
export const candidateSchema = z.looseObject({
  name: z.union([z.string(), z.number()]).transform(String).pipe(nonBlank('name the candidate, usually after the model')),
  mode: z.enum(['html', 'react']).optional(),
  path: z.string().min(1).optional(),
  generate: generateSchema.optional(),
  thresholds: thresholds.optional(),
  expectStatus: z.enum(['scored', 'build-failed', 'generation-failed', 'error']).optional(),
});

/** The spec object. Exactly one of `query` or `queries` is required (checked after parsing). */
export const specSchema = z.looseObject({
  query: inlineQuerySchema.optional(),
  queries: z.string().min(1).optional(),
  select: z.array(z.union([z.string(), z.number()]).transform(String)).optional(),
  candidates: z.array(candidateSchema).min(1),
  thresholds: thresholds.optional(),
});

/** Fixes shown when a spec field is wrong, keyed by field name. */
export const SPEC_HINTS: Record<string, string> = {
  query: 'give `query:` with id, prompt, language and kind, or `queries:` with a JSONL path',
  id: 'give the query a unique id such as "todo-app"',
  prompt: "give the user's brief as `prompt:`",
  language: 'use an ISO 639-1 code such as "zh" or an English name such as "Chinese"',
  kind: 'use "static" or "dynamic"',
  candidates: 'list at least one candidate with name, mode and path',
  name: 'name the candidate, usually after the model',
  mode: 'use "html" (a file or static folder) or "react" (a Vite project)',
  path: 'give the file or folder of the answer, relative to the spec (may contain {data_id})',
  queries: 'give the path of a Cookie-Bench JSONL file, relative to the spec',
  functionality: 'use a number from 0 to 100',
  aesthetics: 'use a number from 0 to 100',
  total: 'use a number from 0 to 100',
  expectStatus: 'use "scored", "build-failed", "generation-failed" or "error"',
  generate: 'give generate: { model: "openai:MODEL" (or { provider, model, baseURL }), mode: html | react, prompt?: FILE }',
};
