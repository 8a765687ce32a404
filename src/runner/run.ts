import os from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import type { Browser } from 'playwright';
import { createReporters, multiplex } from '../../reporters/index.js';
import { launchBrowser, webglRenderer } from '../browser/launch.js';
import { loadConfig, redactConfig } from '../config/load.js';
import type { ResolvedConfig } from '../config/schema.js';
import { CookieError } from '../errors.js';
import { makeJudge } from '../judge/index.js';
import { discoverSpecs } from '../spec/discover.js';
import { loadSpecs } from '../spec/load.js';
import { expandTasks } from '../spec/tasks.js';
import type { EnvironmentInfo, EvaluationTask, Reporter, RunResults, Suite } from '../types.js';
import { COOKIE_VERSION } from '../version.js';
import { evaluate } from './evaluate.js';
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
}

/** Outcome of a run: the results, the exit code and problems found in specs. */
export interface RunOutcome {
  run: RunResults | null;
  exitCode: number;
  specErrors: string[];
}

/** Apply CLI overrides to a resolved config. */
function override(config: ResolvedConfig, o: RunOptions): ResolvedConfig {
  return {
    ...config,
    outputDir: o.outputDir ?? config.outputDir,
    reporters: o.reporters?.length ? o.reporters : config.reporters,
    concurrency: o.concurrency ?? config.concurrency,
    agent: { ...config.agent, steps: o.steps ?? config.agent.steps },
  };
}

/**
 * Run `cookie test`: load config and specs, expand query × candidate tasks, evaluate them with bounded
 * concurrency in one shared browser (an isolated context each), write results.json after every evaluation,
 * and report.
 * Exit code: 0 when every evaluation is scored and meets its thresholds; 1 when any errors or falls below;
 * 2 when the config or every spec is unusable.
 * A malformed spec is reported in one line (file, field, fix) and skipped; the other specs still run.
 */
export async function runCookie(o: RunOptions): Promise<RunOutcome> {
  const specErrors: string[] = [];
  let config: ResolvedConfig;
  try {
    config = override((await loadConfig(o.cwd, o.configFile)).config, o);
  } catch (e) {
    return { run: null, exitCode: 2, specErrors: [(e as Error).message] };
  }
  let reporters: Reporter[];
  try {
    reporters = createReporters(config.reporters as (string | [string, Record<string, unknown>])[]);
  } catch (e) {
    return { run: null, exitCode: 2, specErrors: [(e as Error).message] };
  }
  const reporter = multiplex([...reporters, ...(o.extraReporters ?? [])]);
  const outputDir = path.resolve(o.cwd, config.outputDir);

  let files: string[];
  try {
    files = await discoverSpecs(o.paths, o.cwd, config.include, config.exclude);
  } catch (e) {
    await reporter.onError((e as Error).message);
    return { run: null, exitCode: 2, specErrors: [(e as Error).message] };
  }
  if (!files.length) {
    const msg = `no spec files found in ${o.paths.join(', ') || o.cwd} (looked for ${config.include.join(', ')})`;
    await reporter.onError(msg);
    return { run: null, exitCode: 2, specErrors: [msg] };
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
  if (!suites.length) return { run: null, exitCode: 2, specErrors };

  const tasks = expandTasks(suites, config.thresholds);
  let browser: Browser | null = null;
  let launching: Promise<Browser> | null = null;
  const getBrowser = async (): Promise<Browser> => {
    if (browser?.isConnected()) return browser;
    launching ??= launchBrowser(config.browser.executablePath, config.browser.args).finally(() => (launching = null));
    browser = await launching;
    return browser;
  };

  let environment: EnvironmentInfo;
  try {
    const b = await getBrowser();
    environment = { cookieVersion: COOKIE_VERSION, browserVersion: b.version(), webglRenderer: await webglRenderer(b), platform: `${os.platform()} ${os.release()}`, node: process.version };
  } catch (e) {
    await reporter.onError((e as Error).message);
    return { run: null, exitCode: 2, specErrors: [...specErrors, (e as Error).message] };
  }

  const store = new ResultsStore(outputDir, {
    schemaVersion: 1,
    cookieVersion: COOKIE_VERSION,
    browserVersion: environment.browserVersion,
    startedAt: new Date().toISOString(),
    config: redactConfig(config),
    environment,
  });
  store.write();
  await reporter.onRunStart({ tasks, outputDir, config: redactConfig(config) });

  const limit = pLimit(config.concurrency);
  const ctx = { config, outputDir, environment, getBrowser, judge: makeJudge(config), reporter };
  const runOne = async (task: EvaluationTask) => {
    await reporter.onEvaluationStart(task);
    const result = await evaluate(task, ctx);
    store.add(result);
    await reporter.onEvaluationEnd(result);
  };
  let interrupted = false;
  const onSignal = () => {
    interrupted = true;
    limit.clearQueue();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await Promise.all(tasks.map((t) => limit(() => (interrupted ? Promise.resolve() : runOne(t)))));
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await (browser as Browser | null)?.close().catch(() => {});
  }
  const run = store.finish(tasks.map((t) => t.id));
  await reporter.onRunEnd(run, outputDir);
  const allPassed = run.evaluations.length === tasks.length && run.evaluations.every((r) => r.passed);
  return { run, exitCode: allPassed && !specErrors.length && !interrupted ? 0 : 1, specErrors };
}
