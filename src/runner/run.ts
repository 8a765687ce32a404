import os from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import type { Browser } from 'playwright';
import { createReporters, multiplex } from '../../reporters/index.js';
import { BrowserPool, launchBrowser, webglRenderer } from '../browser/launch.js';
import { loadConfig, redactConfig } from '../config/load.js';
import type { ResolvedConfig } from '../config/schema.js';
import { CookieError } from '../errors.js';
import { makeJudge } from '../judge/index.js';
import { discoverSpecs } from '../spec/discover.js';
import { loadSpecs } from '../spec/load.js';
import { expandTasks } from '../spec/tasks.js';
import type { EnvironmentInfo, EvaluationTask, Reporter, RunResults, Suite } from '../types.js';
import { COOKIE_VERSION } from '../version.js';
import { cacheKey, ResultCache } from './cache.js';
import { evaluate, meetsThresholds } from './evaluate.js';
import { ResultsStore } from './results-store.js';

/** Options of {@link runCookie}; CLI flags override the config file. */
export interface RunOptions {
  paths: string[];
  cwd: string;
  configFile?: string;
  outputDir?: string;
  reporters?: string[];
  concurrency?: number;
  steps?: number;
  /** Extra reporters given programmatically (tests). */
  extraReporters?: Reporter[];
  /** Reuse unchanged evaluations from the output dir's cache (default true; `--no-cache` sets false). */
  cache?: boolean;
  /** Leave out the console reporter (it is otherwise always on, whatever else `--reporter` adds). */
  silent?: boolean;
}

/** Outcome of a run: the results, the exit code and problems found in specs. */
export interface RunOutcome {
  run: RunResults | null;
  exitCode: number;
  specErrors: string[];
  /** Every file and folder the run read (config, specs, query files, artifacts): what watch mode watches. */
  inputs: string[];
  /** Resolved output dir. */
  outputDir?: string;
  /** True when a console reporter already printed the errors. */
  reported?: boolean;
}

/** Apply CLI overrides to a resolved config. */
function override(config: ResolvedConfig, o: RunOptions): ResolvedConfig {
  return {
    ...config,
    outputDir: o.outputDir ?? config.outputDir,
    // --reporter adds to the config's reporters; the console reporter stays unless silent
    reporters: [...new Set([...(o.silent ? [] : ['console']), ...config.reporters.filter((r) => !(o.silent && r === 'console')).map((r) => (typeof r === 'string' ? r : JSON.stringify(r))), ...(o.reporters ?? [])])].map((r) => (r.startsWith('[') ? (JSON.parse(r) as [string, Record<string, unknown>]) : r)),
    concurrency: o.concurrency ?? config.concurrency,
    agent: { ...config.agent, steps: o.steps ?? config.agent.steps },
  };
}

/**
 * Run `cookie test`: load config and specs, expand query × candidate tasks, evaluate them with bounded
 * concurrency, each in a fresh context of a pooled browser whose renderers are killed when it ends
 * (issue 19), write results.json after every evaluation,
 * and report.
 * Exit code: 0 when every evaluation is scored and meets its thresholds; 1 when any errors or falls below;
 * 2 when the config or every spec is unusable.
 * A malformed spec is reported in one line (file, field, fix) and skipped; the other specs still run.
 */
export async function runCookie(o: RunOptions): Promise<RunOutcome> {
  const specErrors: string[] = [];
  const inputs: string[] = o.paths.length ? o.paths.map((p) => path.resolve(o.cwd, p)) : [o.cwd];
  let config: ResolvedConfig;
  try {
    const loaded = await loadConfig(o.cwd, o.configFile);
    if (loaded.file) inputs.push(loaded.file);
    config = override(loaded.config, o);
  } catch (e) {
    return { run: null, exitCode: 2, specErrors: [(e as Error).message], inputs };
  }
  let reporters: Reporter[];
  try {
    reporters = createReporters(config.reporters as (string | [string, Record<string, unknown>])[]);
  } catch (e) {
    return { run: null, exitCode: 2, specErrors: [(e as Error).message], inputs };
  }
  const reporter = multiplex([...reporters, ...(o.extraReporters ?? [])]);
  const reported = config.reporters.includes('console');
  const outputDir = path.resolve(o.cwd, config.outputDir);

  let files: string[];
  try {
    files = await discoverSpecs(o.paths, o.cwd, config.include, config.exclude);
  } catch (e) {
    await reporter.onError((e as Error).message);
    return { run: null, exitCode: 2, specErrors: [(e as Error).message], inputs, reported };
  }
  if (!files.length) {
    const msg = `no spec files found in ${o.paths.join(', ') || o.cwd} (looked for ${config.include.join(', ')})`;
    await reporter.onError(msg);
    return { run: null, exitCode: 2, specErrors: [msg], inputs, reported };
  }
  const suites: Suite[] = [];
  for (const f of files) {
    try {
      const { suites: found, problems } = await loadSpecs(f);
      suites.push(...found);
      for (const p of problems.slice(0, 10)) await reporter.onError(`warning: ${p}`);
      if (problems.length > 10) await reporter.onError(`warning: ${problems.length - 10} more label problems in ${f}`);
    } catch (e) {
      const msg = e instanceof CookieError ? e.message : `${f}: ${(e as Error).message}`;
      specErrors.push(msg);
      await reporter.onError(msg);
    }
  }
  if (!suites.length) return { run: null, exitCode: 2, specErrors, inputs, reported };

  const tasks = expandTasks(suites, config.thresholds);
  const cache = new ResultCache(outputDir);
  const useCache = o.cache !== false;
  const keys = new Map(tasks.map((t) => [t.id, cacheKey(t, config)]));

  // the browser is launched only when an evaluation actually needs one (a fully cached run never does)
  let browser: Browser | null = null;
  let launching: Promise<Browser> | null = null;
  const getBrowser = async (): Promise<Browser> => {
    if (browser?.isConnected()) return browser;
    launching ??= launchBrowser(config.browser.executablePath, config.browser.args).finally(() => (launching = null));
    browser = await launching;
    return browser;
  };
  // evaluations take browsers from a pool: one per worker, renderers killed after each evaluation,
  // replaced after a hostile page (launch.ts, BrowserPool, says why)
  const pool = new BrowserPool(config.browser.executablePath, config.browser.args);
  const previous = ResultsStore.read(outputDir);
  let environment: EnvironmentInfo | null = null;
  const describeEnvironment = async (): Promise<EnvironmentInfo> => {
    if (environment) return environment;
    // described with the pool's first browser, which then serves the first evaluation
    const lease = await pool.acquire();
    try {
      const b = lease.browser;
      environment = { cookieVersion: COOKIE_VERSION, browserVersion: b.version(), webglRenderer: await webglRenderer(b), platform: `${os.platform()} ${os.release()}`, node: process.version };
    } finally {
      await lease.close();
    }
    return environment;
  };
  const cached = new Map(tasks.flatMap((t) => {
    const hit = useCache ? cache.get(t.id, keys.get(t.id)!) : null;
    return hit ? [[t.id, { ...hit, thresholds: t.thresholds, passed: meetsThresholds({ ...hit, thresholds: t.thresholds, expectStatus: t.expectStatus }) }] as const] : [];
  }));
  if (cached.size < tasks.length) {
    try {
      await describeEnvironment();
    } catch (e) {
      await reporter.onError((e as Error).message);
      return { run: null, exitCode: 2, specErrors: [...specErrors, (e as Error).message], inputs, reported };
    }
  }
  const env = environment ?? previous?.environment ?? null;

  const store = new ResultsStore(outputDir, {
    schemaVersion: 1,
    cookieVersion: COOKIE_VERSION,
    browserVersion: env?.browserVersion ?? previous?.browserVersion ?? 'not launched (all evaluations cached)',
    startedAt: new Date().toISOString(),
    config: redactConfig(config),
    environment: env,
  });
  store.write();
  await reporter.onRunStart({ tasks, outputDir, config: redactConfig(config) });

  const limit = pLimit(config.concurrency);
  const ctx = { config, outputDir, environment: env ?? { cookieVersion: COOKIE_VERSION, browserVersion: 'unknown', webglRenderer: null, platform: os.platform(), node: process.version }, getBrowser, openBrowser: () => pool.acquire(), judge: makeJudge(config), reporter };
  let interrupted = false;
  const runOne = async (task: EvaluationTask) => {
    const hit = cached.get(task.id);
    if (hit) {
      store.add(hit);
      await reporter.onEvaluationEnd(hit);
      return;
    }
    await reporter.onEvaluationStart(task);
    const result = await evaluate(task, ctx);
    // cut short by Ctrl-C (its browser and processes were killed): not a finished evaluation, so neither
    // stored nor cached; the next run evaluates it again
    if (interrupted) return;
    result.cacheKey = keys.get(task.id);
    cache.put(task.id, keys.get(task.id)!, result); // first the cache, then results.json: what results.json shows finished is resumable
    store.add(result);
    await reporter.onEvaluationEnd(result);
  };
  const onSignal = () => {
    if (interrupted) process.exit(130); // a second Ctrl-C: stop now (finished evaluations are saved)
    interrupted = true;
    limit.clearQueue();
    // in-flight evaluations are dropped: end them now rather than let them score a dying browser
    void (browser as Browser | null)?.close().catch(() => {});
    void pool.closeAll(1);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await Promise.all(tasks.map((t) => limit(() => (interrupted ? Promise.resolve() : runOne(t)))));
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await (browser as Browser | null)?.close().catch(() => {});
    await pool.closeAll(interrupted ? 1 : 5_000);
  }
  const run = store.finish(tasks.map((t) => t.id));
  await reporter.onRunEnd(run, outputDir);
  const allPassed = run.evaluations.length === tasks.length && run.evaluations.every((r) => r.passed);
  return { run, exitCode: interrupted ? 130 : allPassed && !specErrors.length ? 0 : 1, specErrors, inputs: [...inputs, ...tasks.map((t) => t.candidate.artifactPath)], outputDir, reported };
}
