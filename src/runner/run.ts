import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import type { Browser } from 'playwright';
import { checkReporterNames, createReporters, FILE_REPORTERS, multiplex } from '../../reporters/index.js';
import { launchBrowser, webglRenderer } from '../browser/launch.js';
import { loadConfig, redactConfig } from '../config/load.js';
import type { ResolvedConfig } from '../config/schema.js';
import { CookieError, InputError } from '../errors.js';
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
  /** `-t/--grep`: only evaluations whose query id, candidate name or id (`query/candidate`) match this regular expression (Vitest `-t`, Playwright `--grep`). */
  grep?: string;
  /** `--bail N` / `--max-failures N`: start no new evaluation once N evaluations did not pass (running ones finish). */
  bail?: number;
  /** `--list`: list the evaluations that would run (after the filters) and stop; no browser is launched. */
  list?: boolean;
  /** `--last-failed`: only the evaluations that did not pass in this output dir's last run ({@link LAST_RUN_FILE}). */
  lastFailed?: boolean;
  /** `--pass-with-no-tests`: exit 0 when no spec file or no evaluation is found (else 2 / 1). */
  passWithNoTests?: boolean;
  /** `--output-file`: per reporter name, the file (folder for html) to write, absolute or relative to `cwd`; turns that reporter on. */
  outputFiles?: Record<string, string>;
  /** Environment (default process.env): GITHUB_ACTIONS=true adds the github reporter. */
  env?: Record<string, string | undefined>;
}

/** Playwright's record of the last run in the output dir: `{ status, failedTests: [evaluation ids] }` (read by `--last-failed`). */
export const LAST_RUN_FILE = '.last-run.json';

/** Does a task match a `--grep` pattern (a regular expression, tried on the query id, the candidate name and the id)? */
export function matchesGrep(task: EvaluationTask, re: RegExp): boolean {
  return re.test(task.query.id) || re.test(task.candidate.name) || re.test(task.id) || re.test(`${task.query.id} ${task.candidate.name}`);
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
  /** `--list`: the evaluations that would run. */
  listed?: EvaluationTask[];
  /** A note for the user (e.g. why nothing ran), one line. */
  note?: string;
}

/** Apply CLI overrides to a resolved config. */
function override(config: ResolvedConfig, o: RunOptions): ResolvedConfig {
  // --reporter adds to the config's reporters; the console reporter stays unless silent
  let reporters: ResolvedConfig['reporters'] = [...new Set([...(o.silent ? [] : ['console']), ...config.reporters.filter((r) => !(o.silent && r === 'console')).map((r) => (typeof r === 'string' ? r : JSON.stringify(r))), ...(o.reporters ?? [])])].map((r) => (r.startsWith('[') ? (JSON.parse(r) as [string, Record<string, unknown>]) : r));
  if ((o.env ?? process.env).GITHUB_ACTIONS === 'true' && !reporters.some((r) => (typeof r === 'string' ? r : r[0]) === 'github')) reporters.push('github');
  // --output-file name=path: that reporter, on, writing there (Vitest --outputFile.<reporter>)
  for (const [name, file] of Object.entries(o.outputFiles ?? {})) {
    const key = FILE_REPORTERS[name]!;
    const target = path.resolve(o.cwd, file);
    const has = reporters.some((r) => (typeof r === 'string' ? r : r[0]) === name);
    reporters = has ? reporters.map((r) => ((typeof r === 'string' ? r : r[0]) === name ? [name, { ...(typeof r === 'string' ? {} : r[1]), [key]: target }] : r)) : [...reporters, [name, { [key]: target }]];
  }
  return {
    ...config,
    outputDir: o.outputDir ?? config.outputDir,
    reporters,
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
  const inputs: string[] = o.paths.length ? o.paths.map((p) => path.resolve(o.cwd, p)) : [o.cwd];
  let config: ResolvedConfig;
  try {
    const loaded = await loadConfig(o.cwd, o.configFile);
    if (loaded.file) inputs.push(loaded.file);
    // blame the file that names an unknown reporter: the config file, or the command line
    checkReporterNames(loaded.config.reporters.map((r) => (typeof r === 'string' ? r : r[0])), loaded.file ?? '(config)');
    checkReporterNames(o.reporters ?? [], '--reporter');
    for (const name of Object.keys(o.outputFiles ?? {})) {
      checkReporterNames([name], `--output-file.${name}`);
      if (!FILE_REPORTERS[name]) throw new InputError(`--output-file.${name}`, `"${name}"`, `the ${name} reporter writes no file`, `use one of ${Object.keys(FILE_REPORTERS).map((n) => `--output-file.${n}=PATH`).join(', ')}`);
    }
    config = override(loaded.config, o);
  } catch (e) {
    return { run: null, exitCode: 2, specErrors: [(e as Error).message], inputs };
  }
  let reporters: Reporter[];
  try {
    // junit and github write paths relative to the run's working directory (CI's checkout)
    reporters = createReporters((config.reporters as (string | [string, Record<string, unknown>])[]).map((r) => {
      const [name, opts] = typeof r === 'string' ? [r, {}] : r;
      return name === 'junit' || name === 'github' ? ([name, { cwd: o.cwd, ...opts }] as [string, Record<string, unknown>]) : r;
    }));
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
    if (o.passWithNoTests) return { run: null, exitCode: 0, specErrors: [], inputs, reported, note: `${msg}; exit code 0 (--pass-with-no-tests)` };
    await reporter.onError(msg);
    return { run: null, exitCode: 2, specErrors: [msg], inputs, reported };
  }
  const suites: Suite[] = [];
  const brokenSpecs: { file: string; message: string }[] = [];
  for (const f of files) {
    try {
      const { suites: found, problems } = await loadSpecs(f);
      suites.push(...found);
      for (const p of problems.slice(0, 10)) await reporter.onError(`warning: ${p}`);
      if (problems.length > 10) await reporter.onError(`warning: ${problems.length - 10} more label problems in ${f}`);
    } catch (e) {
      const msg = e instanceof CookieError ? e.message : `${f}: ${(e as Error).message}`;
      specErrors.push(msg);
      brokenSpecs.push({ file: f, message: msg });
      await reporter.onError(msg);
    }
  }
  const outputDirForErrors = path.resolve(o.cwd, config.outputDir);
  if (!suites.length) {
    // every spec is broken: still tell the reporters (JUnit lists each as an <error>), unless only listing
    if (!o.list) await reporter.onRunEnd({ schemaVersion: 1, cookieVersion: COOKIE_VERSION, browserVersion: 'not launched', startedAt: new Date().toISOString(), finishedAt: new Date().toISOString(), config: redactConfig(config), environment: null, evaluations: [], specErrors: brokenSpecs }, outputDirForErrors);
    return { run: null, exitCode: 2, specErrors, inputs, reported };
  }

  let tasks = expandTasks(suites, config.thresholds);
  const all = tasks.length;
  const filters: string[] = [];
  if (o.grep !== undefined) {
    const re = new RegExp(o.grep);
    tasks = tasks.filter((t) => matchesGrep(t, re));
    filters.push(`--grep ${o.grep}`);
  }
  if (o.lastFailed) {
    const last = readLastRun(outputDirForErrors);
    if (!last) await reporter.onError(`warning: --last-failed: no ${LAST_RUN_FILE} in ${outputDirForErrors} (no finished run there yet): running every evaluation`);
    else {
      if (!last.failedTests.length) return { run: null, exitCode: 0, specErrors, inputs, reported, note: `--last-failed: the last run in ${outputDirForErrors} had no failures; nothing to run` };
      const failed = new Set(last.failedTests);
      tasks = tasks.filter((t) => failed.has(t.id));
      filters.push('--last-failed');
    }
  }
  if (o.list && tasks.length) return { run: null, exitCode: specErrors.length ? 1 : 0, specErrors, inputs, reported, listed: tasks };
  if (!tasks.length) {
    const msg = `no evaluations match ${filters.join(' ')} (${all} in ${suites.length} spec${suites.length === 1 ? '' : 's'})`;
    if (o.passWithNoTests) return { run: null, exitCode: specErrors.length ? 1 : 0, specErrors, inputs, reported, note: `${msg}; exit code 0 (--pass-with-no-tests)` };
    await reporter.onError(msg);
    return { run: null, exitCode: 1, specErrors: [...specErrors, msg], inputs, reported };
  }
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
  const previous = ResultsStore.read(outputDir);
  let environment: EnvironmentInfo | null = null;
  const describeEnvironment = async (): Promise<EnvironmentInfo> => {
    if (environment) return environment;
    const b = await getBrowser();
    environment = { cookieVersion: COOKIE_VERSION, browserVersion: b.version(), webglRenderer: await webglRenderer(b), platform: `${os.platform()} ${os.release()}`, node: process.version };
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
  const ctx = { config, outputDir, environment: env ?? { cookieVersion: COOKIE_VERSION, browserVersion: 'unknown', webglRenderer: null, platform: os.platform(), node: process.version }, getBrowser, judge: makeJudge(config), reporter };
  let interrupted = false;
  let failures = 0;
  let bailed = false;
  // --bail N: once N evaluations did not pass, start no new one (the running ones finish and are kept)
  const countFailure = (passed: boolean) => {
    if (passed || !o.bail) return;
    // queued tasks see `bailed` and return at once (p-limit's clearQueue would leave their promises pending forever)
    if (++failures >= o.bail) bailed = true;
  };
  const runOne = async (task: EvaluationTask) => {
    const hit = cached.get(task.id);
    if (hit) {
      store.add(hit);
      await reporter.onEvaluationEnd(hit);
      countFailure(hit.passed);
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
    countFailure(result.passed);
  };
  const onSignal = () => {
    if (interrupted) process.exit(130); // a second Ctrl-C: stop now (finished evaluations are saved)
    interrupted = true;
    limit.clearQueue();
    // in-flight evaluations are dropped: end them now rather than let them score a dying browser
    void (browser as Browser | null)?.close().catch(() => {});
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await Promise.all(tasks.map((t) => limit(() => (interrupted || bailed ? Promise.resolve() : runOne(t)))));
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await (browser as Browser | null)?.close().catch(() => {});
  }
  if (brokenSpecs.length) store.run.specErrors = brokenSpecs;
  const done = new Set(store.run.evaluations.map((e) => e.id));
  if (bailed) store.run.stoppedEarly = { reason: `--bail ${o.bail}: ${failures} evaluation${failures === 1 ? '' : 's'} did not pass`, notRun: tasks.filter((t) => !done.has(t.id)).length };
  const run = store.finish(tasks.map((t) => t.id));
  if (!interrupted) writeLastRun(outputDir, run, tasks);
  await reporter.onRunEnd(run, outputDir);
  const allPassed = run.evaluations.length === tasks.length && run.evaluations.every((r) => r.passed);
  return { run, exitCode: interrupted ? 130 : allPassed && !specErrors.length ? 0 : 1, specErrors, inputs: [...inputs, ...tasks.map((t) => t.candidate.artifactPath)], outputDir, reported };
}

/** Read `<outputDir>/.last-run.json`, or null when there is none or it is unreadable. */
export function readLastRun(outputDir: string): { status: string; failedTests: string[] } | null {
  try {
    const j = JSON.parse(fs.readFileSync(path.join(outputDir, LAST_RUN_FILE), 'utf8')) as { status?: unknown; failedTests?: unknown };
    return Array.isArray(j.failedTests) ? { status: String(j.status), failedTests: j.failedTests.map(String) } : null;
  } catch {
    return null;
  }
}

/** Write `<outputDir>/.last-run.json` (Playwright's shape): `passed` or `failed`, and the ids of the evaluations of this run that did not pass or did not run. */
function writeLastRun(outputDir: string, run: RunResults, tasks: EvaluationTask[]): void {
  const passed = new Set(run.evaluations.filter((e) => e.passed).map((e) => e.id));
  const failedTests = tasks.filter((t) => !passed.has(t.id)).map((t) => t.id);
  fs.writeFileSync(path.join(outputDir, LAST_RUN_FILE), `${JSON.stringify({ status: failedTests.length ? 'failed' : 'passed', failedTests }, null, 2)}\n`);
}
