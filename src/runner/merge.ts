import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { checkReporterNames, multiplex } from '../../reporters/index.js';
import type { ResolvedConfig } from '../config/schema.js';
import { InputError } from '../errors.js';
import { createReporters } from '../plugins/load.js';
import type { EvaluationResult, RunResults } from '../types.js';
import { writeJsonAtomic } from '../util/atomic.js';
import { CACHE_FILE } from './cache.js';
import { RESULTS_FILE, ResultsStore } from './results-store.js';
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
}

/**
 * Merge the blobs of sharded runs (each shard's output dir: results.json, evidence/, cache.json) into one
 * output dir with one results.json, one cache and the reports of `reporters` (HTML, leaderboard, JUnit…),
 * as Playwright's `merge-reports` does for blob reports.
 * @param dirs output dirs of `cookie test --shard i/n` runs
 * @param outputDir where the merged run goes (may be one of `dirs`)
 * @param reporters reporter names or `[name, options]` (see reporters/index.ts)
 * @throws InputError when a blob has no readable results.json, or blobs come from different Cookie
 *   versions or configs (the message names both blobs and what differs)
 */
export async function mergeReports(dirs: string[], outputDir: string, reporters: (string | [string, Record<string, unknown>])[]): Promise<MergeOutcome> {
  if (!dirs.length) throw new InputError('merge-reports', '(arguments)', 'no blob folders given', 'pass the output dirs of the shard runs, e.g. cookie merge-reports shard-1 shard-2');
  const blobs = dirs.map((d) => path.resolve(d));
  const runs = blobs.map((d) => {
    const run = ResultsStore.read(d);
    if (!run) throw new InputError(path.join(d, RESULTS_FILE), '(file)', 'not found or unreadable', 'pass the --output-dir of a finished `cookie test --shard i/n` run');
    if (run.schemaVersion !== 1) throw new InputError(path.join(d, RESULTS_FILE), 'schemaVersion', `unsupported schema version ${String(run.schemaVersion)}`, 'merge blobs written by this Cookie version');
    return run;
  });
  const first = runs[0]!;
  const firstHash = first.configHash ?? runConfigHash(first.config as Record<string, unknown>);
  runs.forEach((r, i) => {
    const file = path.join(blobs[i]!, RESULTS_FILE);
    if (r.cookieVersion !== first.cookieVersion) throw new InputError(file, 'cookieVersion', `written by Cookie ${r.cookieVersion}, but ${path.join(blobs[0]!, RESULTS_FILE)} by Cookie ${first.cookieVersion}`, 'run every shard with the same Cookie version');
    const h = r.configHash ?? runConfigHash(r.config as Record<string, unknown>);
    if (h !== firstHash) throw new InputError(file, 'config', `the shard ran with other settings (config hash ${h}) than ${path.join(blobs[0]!, RESULTS_FILE)} (${firstHash})`, 'run every shard with the same cookie.config.ts and flags (only --shard and --output-dir may differ)');
  });

  const out = path.resolve(outputDir);
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
  return { run, blobs, duplicates, exitCode: evaluations.every((e) => e.passed) ? 0 : 1 };
}
