import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { checkReporterNames, multiplex } from '../../reporters/index.js';
import type { ResolvedConfig } from '../config/schema.js';
import { InputError } from '../errors.js';
import { createReporters } from '../plugins/load.js';
import type { EvaluationResult, RunResults } from '../types.js';
import { writeJsonAtomic } from '../util/atomic.js';
import { zodToInputError } from '../util/zod-error.js';
import { z } from '../vendor/zod.js';
import { CACHE_FILE } from './cache.js';
import { RESULTS_FILE } from './results-store.js';
import { markTrials } from './trials.js';

/**
 * Hash of the settings that decide what an evaluation measures and how it is judged (agent, judge,
 * ablations, recording, viewports, time limits, thresholds, offline CDN) — not where results go, how
 * many run at once, or which reporters print them. Shards of one run share it; `merge-reports` refuses
 * blobs whose hashes differ (Playwright's merge-reports likewise refuses mixed configs).
 * @returns 16 hex digits
 */
export function runConfigHash(config: Partial<ResolvedConfig> | Record<string, unknown>): string {
  const c = config as Record<string, unknown>;
  const pick = ['agent', 'judge', 'ablation', 'recording', 'viewports', 'timeouts', 'thresholds', 'offlineCdn', 'determinism', 'trials'];
  const strip = (v: unknown): unknown => JSON.parse(JSON.stringify(v ?? null, (k, x) => (k === 'apiKey' || k === 'apiKeyEnv' ? undefined : x)));
  const settings = Object.fromEntries(pick.map((k) => [k, strip(c[k])]));
  return crypto.createHash('sha256').update(JSON.stringify(settings)).digest('hex').slice(0, 16);
}

/** What {@link mergeReports} did. */
export interface MergeOutcome {
  run: RunResults;
  /** Blob folders merged, in the order given. */
  blobs: string[];
  /** Evaluations found in more than one blob (the first blob's copy is kept). */
  duplicates: string[];
  /** 0 when every merged evaluation passed; 1 otherwise (the `cookie test` convention). */
  exitCode: number;
  /** Problems that did not stop the merge (a blob without evidence/, shards missing under `allowPartial`), one line each. */
  warnings: string[];
}

/** Options of {@link mergeReports}. */
export interface MergeOptions {
  /** Merge even when blobs record shard i/n and some shard index is missing (a failed CI shard); a warning names it. */
  allowPartial?: boolean;
}

const scoresShape = z.object({ functionality: z.number(), aesthetics: z.number(), total: z.number() });
/** The fields of a blob's evaluation results that merging and the reporters read (others pass through). */
const BlobShape = z.looseObject({
  schemaVersion: z.literal(1),
  cookieVersion: z.string(),
  startedAt: z.string(),
  shard: z.object({ current: z.number().int().min(1), total: z.number().int().min(1) }).optional(),
  evaluations: z.array(
    z.looseObject({
      id: z.string().min(1),
      queryId: z.string().min(1),
      candidate: z.string(),
      status: z.enum(['scored', 'build-failed', 'generation-failed', 'error']),
      scores: scoresShape.nullable(),
      passed: z.boolean(),
      evidenceDir: z.string(),
      defects: z.array(z.unknown()),
    }),
  ),
});

/**
 * Read and check one blob's results.json.
 * @throws InputError naming the file, the field and the real reason: folder or file missing, empty file,
 *   invalid JSON, not an object, wrong schemaVersion, an evaluation field of the wrong type
 */
export function readBlob(dir: string): RunResults {
  const file = path.join(dir, RESULTS_FILE);
  const fix = 'pass the --output-dir of a finished `cookie test --shard i/n` run';
  if (!fs.existsSync(dir)) throw new InputError(file, '(file)', `not found (the folder ${dir} does not exist)`, fix);
  if (!fs.statSync(dir).isDirectory()) throw new InputError(file, '(file)', `not found (${dir} is a file, not an output dir)`, fix);
  if (!fs.existsSync(file)) throw new InputError(file, '(file)', 'not found (the folder holds no results.json)', fix);
  const text = fs.readFileSync(file, 'utf8');
  if (!text.trim()) throw new InputError(file, '(file)', 'is empty (the run was interrupted before it wrote results?)', `re-run that shard; ${fix}`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new InputError(file, '(file)', `invalid JSON (${(e as Error).message})`, `re-run that shard; ${fix}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InputError(file, '(top level)', `expected an object with schemaVersion and evaluations, found ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}`, fix);
  const v = (value as { schemaVersion?: unknown }).schemaVersion;
  if (v !== 1) throw new InputError(file, 'schemaVersion', v === undefined ? 'is missing (not a Cookie results file?)' : `unsupported schema version ${JSON.stringify(v)} (this Cookie reads 1)`, 'merge blobs written by this Cookie version');
  const parsed = BlobShape.safeParse(value);
  if (!parsed.success) throw zodToInputError(file, parsed.error, Object.fromEntries(['evaluations', 'id', 'queryId', 'candidate', 'status', 'scores', 'passed', 'evidenceDir', 'defects', 'cookieVersion', 'startedAt', 'shard'].map((k) => [k, `re-run that shard; a results.json written by \`cookie test\` has it right`])));
  return value as RunResults;
}

/**
 * Which shards the blobs cover, when they record `shard i/n`: problems (duplicated index, totals that
 * differ) and the missing indexes. Blobs of unsharded runs are not checked.
 * @returns errors (always fatal) and missing (fatal unless partial merges are allowed), one line each
 */
export function checkShardCoverage(blobs: { dir: string; shard?: { current: number; total: number } | null }[]): { errors: string[]; missing: string[] } {
  const sharded = blobs.filter((b) => b.shard);
  const errors: string[] = [];
  const missing: string[] = [];
  if (!sharded.length) return { errors, missing };
  const totals = [...new Set(sharded.map((b) => b.shard!.total))];
  if (totals.length > 1) errors.push(`the blobs come from different shardings (${sharded.map((b) => `${b.dir}: ${b.shard!.current}/${b.shard!.total}`).join(', ')})`);
  const byIndex = new Map<number, string[]>();
  for (const b of sharded) byIndex.set(b.shard!.current, [...(byIndex.get(b.shard!.current) ?? []), b.dir]);
  for (const [i, dirs] of byIndex) if (dirs.length > 1) errors.push(`shard ${i}/${totals[0]} given twice (${dirs.join(', ')})`);
  if (totals.length === 1) {
    const n = totals[0]!;
    const have = [...byIndex.keys()].sort((a, b) => a - b);
    for (let i = 1; i <= n; i++) if (!byIndex.has(i)) missing.push(`shard ${i}/${n} missing: have ${have.map((h) => `${h}/${n}`).join(', ')}`);
  }
  return { errors, missing };
}

/**
 * Merge the blobs of sharded runs (each shard's output dir: results.json, evidence/, cache.json) into one
 * output dir with one results.json, one cache and the reports of `reporters` (HTML, leaderboard, JUnit…),
 * as Playwright's `merge-reports` does for blob reports.
 * @param dirs output dirs of `cookie test --shard i/n` runs
 * @param outputDir where the merged run goes (never one of `dirs`: an input is not overwritten)
 * @param opts `allowPartial`: merge when shard indexes are missing (a warning names them)
 * @param reporters reporter names or `[name, options]` (see reporters/index.ts)
 * @throws InputError when a blob has no valid results.json (see {@link readBlob}), a blob is given twice,
 *   the output dir is a blob, a shard index is missing or duplicated, or blobs come from different Cookie
 *   versions or configs (the message names both blobs and what differs)
 */
export async function mergeReports(dirs: string[], outputDir: string, reporters: (string | [string, Record<string, unknown>])[], opts: MergeOptions = {}): Promise<MergeOutcome> {
  if (!dirs.length) throw new InputError('merge-reports', '(arguments)', 'no blob folders given', 'pass the output dirs of the shard runs, e.g. cookie merge-reports shard-1 shard-2');
  const blobs = dirs.map((d) => path.resolve(d));
  const out = path.resolve(outputDir);
  const twice = blobs.filter((b, i) => blobs.indexOf(b) !== i);
  if (twice.length) throw new InputError('merge-reports', '(arguments)', `blob ${twice[0]} given more than once`, 'pass each shard\'s output dir once');
  if (blobs.includes(out)) throw new InputError('merge-reports', '--output-dir', `${out} is one of the blobs being merged (it would be overwritten)`, 'pass a new folder, e.g. --output-dir merged');
  const runs = blobs.map((d) => readBlob(d));
  const first = runs[0]!;
  const firstHash = first.configHash ?? runConfigHash(first.config as Record<string, unknown>);
  runs.forEach((r, i) => {
    const file = path.join(blobs[i]!, RESULTS_FILE);
    if (r.cookieVersion !== first.cookieVersion) throw new InputError(file, 'cookieVersion', `written by Cookie ${r.cookieVersion}, but ${path.join(blobs[0]!, RESULTS_FILE)} by Cookie ${first.cookieVersion}`, 'run every shard with the same Cookie version');
    const h = r.configHash ?? runConfigHash(r.config as Record<string, unknown>);
    if (h !== firstHash) throw new InputError(file, 'config', `the shard ran with other settings (config hash ${h}) than ${path.join(blobs[0]!, RESULTS_FILE)} (${firstHash})`, 'run every shard with the same cookie.config.ts and flags (only --shard and --output-dir may differ)');
  });

  const warnings: string[] = [];
  const coverage = checkShardCoverage(runs.map((r, i) => ({ dir: blobs[i]!, shard: r.shard })));
  if (coverage.errors.length) throw new InputError('merge-reports', '(blobs)', coverage.errors.join('; '), 'merge the blobs of one sharded run, each shard\'s output dir once');
  if (coverage.missing.length) {
    if (!opts.allowPartial) throw new InputError('merge-reports', '(blobs)', `${coverage.missing.join('; ')} (a failed or forgotten shard?)`, 'pass every shard\'s output dir, or --allow-partial to merge what there is');
    warnings.push(...coverage.missing.map((m) => `${m} (--allow-partial: merged without it)`));
  }
  blobs.forEach((b, i) => {
    if (runs[i]!.evaluations.length && !fs.existsSync(path.join(b, 'evidence'))) warnings.push(`${b}: no evidence/ folder: the merged report has no screenshots or traces for its ${runs[i]!.evaluations.length} evaluation(s)`);
  });
  fs.mkdirSync(out, { recursive: true });
  const seen = new Map<string, EvaluationResult>();
  const duplicates: string[] = [];
  const cacheEntries: Record<string, unknown> = {};
  runs.forEach((run, i) => {
    const blob = blobs[i]!;
    for (const r of run.evaluations) {
      if (seen.has(r.id)) {
        duplicates.push(r.id);
        continue;
      }
      seen.set(r.id, r);
      const from = path.join(blob, r.evidenceDir);
      const to = path.join(out, r.evidenceDir);
      if (path.resolve(from) !== path.resolve(to) && fs.existsSync(from)) fs.cpSync(from, to, { recursive: true });
    }
    try {
      const cache = JSON.parse(fs.readFileSync(path.join(blob, CACHE_FILE), 'utf8')) as { version: number; entries: Record<string, unknown> };
      if (cache.version === 1) for (const [id, e] of Object.entries(cache.entries)) cacheEntries[id] ??= e;
    } catch {
      /* a blob without a cache (every evaluation errored) */
    }
  });
  const evaluations = [...seen.values()].sort((a, b) => a.id.localeCompare(b.id));
  const run: RunResults = {
    ...first,
    startedAt: runs.map((r) => r.startedAt).sort()[0]!,
    finishedAt: runs.map((r) => r.finishedAt ?? '').sort().at(-1) || null,
    configHash: firstHash,
    shard: undefined,
    mergedFrom: runs.map((r, i) => ({ dir: blobs[i]!, shard: r.shard ?? null, evaluations: r.evaluations.length })),
    evaluations,
  };
  if (evaluations.some((e) => e.trial)) markTrials(run, (first.config as { trials?: { unstableMargin?: number } } | null)?.trials?.unstableMargin);
  writeJsonAtomic(path.join(out, CACHE_FILE), { version: 1, entries: cacheEntries });
  writeJsonAtomic(path.join(out, RESULTS_FILE), run);
  const source = 'merge-reports --reporter';
  checkReporterNames(reporters.map((r) => (typeof r === 'string' ? r : r[0])), source);
  const reporter = multiplex(await createReporters(reporters, source));
  await reporter.onRunEnd(run, out);
  return { run, blobs, duplicates, warnings, exitCode: evaluations.every((e) => e.passed) ? 0 : 1 };
}
