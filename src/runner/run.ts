import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { promisify } from 'node:util';
import path from 'node:path';
import pLimit from 'p-limit';
import type { Browser } from 'playwright';
import { stdoutCarriesRun } from '../../reporters/announce.js';
import { checkReporterNames, FILE_REPORTERS, multiplex, reporterNameErrors } from '../../reporters/index.js';
import { BrowserPool, openBrowser, webglRenderer, webglRendererCached } from '../browser/launch.js';
import { CDN_INSTALL_FIX, offlineCdnInstalled } from '../deploy/cdn.js';
import { loadConfig, redactConfig } from '../config/load.js';
import type { ResolvedConfig } from '../config/schema.js';
import { ArtifactError, CookieError, InputError } from '../errors.js';
import type { Judge } from '../plugins/api.js';
import { createJudge, createReporters, loadAgentPlugin } from '../plugins/load.js';
import { resolveEntryPath } from '../plugins/paths.js';
import { loadOfflineJudge } from '../plugins/builtin.js';
import { discoverSpecs } from '../spec/discover.js';
import { loadSpecs } from '../spec/load.js';
import { expandTasks } from '../spec/tasks.js';
import type { EnvironmentInfo, EvaluationTask, Reporter, RunResults, Suite } from '../types.js';
import { COOKIE_VERSION } from '../version.js';
import { cacheKey, ResultCache } from './cache.js';
import { meetsThresholds } from './thresholds.js';
import { runConfigHash } from './merge.js';
import { ResultsStore } from './results-store.js';
import { killAllCandidateProcesses } from '../deploy/processes.js';
import { selectShard, type ShardSpec } from './shard.js';
import { markTrials, repeatTasks } from './trials.js';
import { deployNotes, resolvablePattern } from '../util/public-url.js';
import { sinceStart, span, timed } from '../util/profile.js';
import { ffmpegAvailable } from '../common/ffmpeg.js';

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
  /** Run each evaluation this many times with different seeds (`--repeat-each n`); results keep every trial. */
  repeatEach?: number;
  /** Evaluate only this shard (`--shard i/n`): a stable subset chosen by hash (src/runner/shard.ts). */
  shard?: ShardSpec;
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

/** ms an interrupted run waits for in-flight evaluations to unwind after their processes were killed. */
const SIGNAL_GRACE_MS = 2000;
/** ms after which an interrupted run exits even if its shutdown (reporters, browser) still hangs. */
const SIGNAL_FORCE_EXIT_MS = 15_000;
/** Shell convention: 128 + the signal's number (SIGINT 130, SIGTERM 143). */
function signalExitCode(sig: NodeJS.Signals): number {
  return 128 + (os.constants.signals[sig] ?? 2);
}

/**
 * Hash and count of the installed font families (`fc-list`, run without blocking the event loop: it is
 * asked while the browser launches), or nulls where fontconfig is absent. Never rejects.
 */
function fontsFingerprint(): Promise<{ fontsHash: string | null; fontFamilies: number | null }> {
  return promisify(execFile)('fc-list', [':', 'family'], { encoding: 'utf8', timeout: 10_000, maxBuffer: 16 * 1024 * 1024 }).then(
    ({ stdout }) => {
      const families = [...new Set(stdout.split('\n').map((l) => l.trim()).filter(Boolean))].sort();
      return { fontsHash: crypto.createHash('sha256').update(families.join('\n')).digest('hex').slice(0, 16), fontFamilies: families.length };
    },
    () => ({ fontsHash: null, fontFamilies: null }),
  );
}

/** What a run pins so its evaluations repeat (recorded in results.json `environment.determinism`). */
function determinismOf(config: ResolvedConfig, fonts: { fontsHash: string | null; fontFamilies: number | null }): NonNullable<EnvironmentInfo['determinism']> {
  const viewport = config.viewports.reduce((a, b) => (b.width > a.width ? b : a));
  return { randomSeed: config.determinism.random ? config.agent.seed : null, dateOrigin: config.determinism.date ? config.determinism.dateOrigin : null, viewport, deviceScaleFactor: 1, locale: 'en-US', timezoneId: 'UTC', ...fonts };
}

/** The environment a run measures in (results.json `environment`), described with one of its browsers. */
async function describeEnvironment(browser: Browser, config: ResolvedConfig, remote: boolean, fonts: ReturnType<typeof fontsFingerprint>): Promise<EnvironmentInfo> {
  // a local browser's WebGL renderer is remembered between runs; a remote one (another machine) is asked each time
  const webgl = remote ? await webglRenderer(browser) : await webglRendererCached(browser, [config.browser.executablePath, ...config.browser.args]);
  const browserExecutable = !remote ? config.browser.executablePath : config.browser.wsEndpoint ? 'remote (Playwright server)' : 'remote (CDP)';
  return { cookieVersion: COOKIE_VERSION, browserVersion: browser.version(), browserExecutable, webglRenderer: webgl, platform: `${os.platform()} ${os.release()}`, node: process.version, determinism: determinismOf(config, await fonts) };
}

/** The name (built-in or module path) of a reporter entry; undefined for a reporter object. */
function entryName(r: ResolvedConfig['reporters'][number]): string | undefined {
  return typeof r === 'string' ? r : Array.isArray(r) ? String(r[0]) : undefined;
}

/** The built-in reporter names a config file's (unvalidated) `reporters` lists, '' for entries that are not names. */
function configReporterNames(value: unknown): string[] {
  const list = (value as { reporters?: unknown } | null)?.reporters;
  return Array.isArray(list) ? list.map((r) => (typeof r === 'string' ? r : Array.isArray(r) && typeof r[0] === 'string' ? r[0] : '')) : [];
}

/** The options of a reporter entry (`{}` for a bare name). */
function entryOptions(r: ResolvedConfig['reporters'][number]): Record<string, unknown> {
  return Array.isArray(r) ? ((r as [string, Record<string, unknown>])[1] ?? {}) : {};
}

/** Drop repeated reporter entries (same name/path and options); objects are kept as given. */
function dedupeReporters(entries: ResolvedConfig['reporters']): ResolvedConfig['reporters'] {
  const seen = new Set<string>();
  return entries.filter((e) => {
    if (typeof e === 'object' && !Array.isArray(e)) return true;
    const key = JSON.stringify(e);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Apply CLI overrides to a resolved config. */
function override(config: ResolvedConfig, o: RunOptions): ResolvedConfig {
  // --reporter adds to the config's reporters (a module path is relative to the working directory); the
  // console reporter stays unless silent; a name given twice is created once
  let reporters: ResolvedConfig['reporters'] = dedupeReporters([...(o.silent ? [] : ['console']), ...config.reporters.filter((r) => !(o.silent && r === 'console')), ...(o.reporters ?? []).map((r) => resolveEntryPath(r, o.cwd))]);
  if ((o.env ?? process.env).GITHUB_ACTIONS === 'true' && !reporters.some((r) => entryName(r) === 'github')) reporters.push('github');
  // --output-file name=path: that reporter, on, writing there (Vitest --outputFile.<reporter>); `-` is stdout (json)
  for (const [name, file] of Object.entries(o.outputFiles ?? {})) {
    const target = { [FILE_REPORTERS[name]!]: file === '-' ? '-' : path.resolve(o.cwd, file) };
    reporters = reporters.some((r) => entryName(r) === name) ? reporters.map((r) => (entryName(r) === name ? [name, { ...entryOptions(r), ...target }] : r)) : [...reporters, [name, target]];
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
 * concurrency, each in a fresh context of a pooled browser whose renderers are killed when it ends
 * (issue 19), write results.json after every evaluation,
 * and report.
 * Exit code: 0 when every evaluation is scored and meets its thresholds; 1 when any errors or falls below;
 * 2 when the config or every spec is unusable; 130 (SIGINT) or 143 (SIGTERM) when interrupted (finished evaluations kept).
 * A malformed spec is reported in one line (file, field, fix) and skipped; the other specs still run.
 */
export async function runCookie(o: RunOptions): Promise<RunOutcome> {
  sinceStart('cli.boot');
  const specErrors: string[] = [];
  const inputs: string[] = o.paths.length ? o.paths.map((p) => path.resolve(o.cwd, p)) : [o.cwd];
  let config: ResolvedConfig;
  let configSource = '--reporter';
  // whether the config file sets `concurrency` (else the default, 1, applies and the run says so)
  let concurrencySet = false;
  try {
    // an unknown reporter name blames the config file, and comes with the file's other problems
    const loaded = await loadConfig(o.cwd, o.configFile, (value, file) => {
      concurrencySet = (value as { concurrency?: unknown } | null)?.concurrency !== undefined;
      return reporterNameErrors(configReporterNames(value), file);
    });
    if (loaded.file) inputs.push(loaded.file);
    checkReporterNames(o.reporters ?? [], '--reporter');
    for (const name of Object.keys(o.outputFiles ?? {})) {
      checkReporterNames([name], `--output-file.${name}`);
      if (!FILE_REPORTERS[name]) throw new InputError(`--output-file.${name}`, `"${name}"`, `the ${name} reporter writes no file`, `use one of ${Object.keys(FILE_REPORTERS).map((n) => `--output-file.${n}=PATH`).join(', ')}`);
      if (o.outputFiles![name] === '-' && name !== 'json') throw new InputError(`--output-file.${name}`, '"-"', `only the json reporter prints to stdout`, `name a file, e.g. --output-file.${name}=${{ junit: 'junit.xml', leaderboard: 'leaderboard.json', html: 'report' }[name]}`);
    }
    config = override(loaded.config, o);
    configSource = loaded.file ?? '--reporter';
  } catch (e) {
    return { run: null, exitCode: 2, specErrors: [(e as Error).message], inputs };
  }
  let reporters: Reporter[];
  const jsonOnStdout = stdoutCarriesRun({ config });
  try {
    // junit and github write paths relative to the run's working directory (CI's checkout); when stdout
    // carries the run as JSON, the console reporter writes to stderr (`cookie test --output-file.json=- | jq`)
    reporters = await createReporters(
      config.reporters.map((r) => {
        const name = entryName(r);
        if (name === 'console' && jsonOnStdout) return ['console', { ...entryOptions(r), stream: process.stderr }];
        return name === 'junit' || name === 'github' ? [name, { cwd: o.cwd, ...entryOptions(r) }] : r;
      }),
      configSource,
    );
  } catch (e) {
    return { run: null, exitCode: 2, specErrors: [(e as Error).message], inputs };
  }
  const reporter = multiplex([...reporters, ...(o.extraReporters ?? [])]);
  const reported = config.reporters.includes('console');
  // the agent and the judge are plugins chosen here, once for the run (src/plugins), never inside evidence collection
  let judge: Judge;
  let agent: Awaited<ReturnType<typeof loadAgentPlugin>>;
  try {
    judge = await createJudge(config, configSource);
    agent = await loadAgentPlugin(config, configSource);
  } catch (e) {
    await reporter.onError((e as Error).message);
    return { run: null, exitCode: 2, specErrors: [(e as Error).message], inputs, reported };
  }
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
  // every spec file is an input (watch mode re-runs when one changes, even while it is broken)
  inputs.push(...files);
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
      for (const w of e instanceof InputError ? e.warnings : []) await reporter.onError(`warning: ${w}`);
    }
  }
  if (!suites.length) {
    // every spec is broken: still tell the reporters (JUnit lists each as an <error>), unless only listing
    if (!o.list) await reporter.onRunEnd({ schemaVersion: 1, cookieVersion: COOKIE_VERSION, browserVersion: 'not launched', startedAt: new Date().toISOString(), finishedAt: new Date().toISOString(), config: redactConfig(config), environment: null, evaluations: [], specErrors: brokenSpecs }, outputDir);
    return { run: null, exitCode: 2, specErrors, inputs, reported };
  }

  inputs.push(...suites.flatMap((s) => (s.queriesFile ? [s.queriesFile] : [])));
  let allTasks: EvaluationTask[];
  try {
    allTasks = expandTasks(suites, config.thresholds);
  } catch (e) {
    // two specs that contradict each other (one query id, two briefs; a candidate given twice): nothing runs
    await reporter.onError((e as Error).message);
    return { run: null, exitCode: 2, specErrors: [...specErrors, (e as Error).message], inputs, reported };
  }
  let tasks = repeatTasks(o.shard ? selectShard(allTasks, o.shard) : allTasks, o.repeatEach ?? config.trials.repeatEach);
  const all = tasks.length;
  const filters: string[] = [];
  if (o.grep !== undefined) {
    const re = new RegExp(o.grep);
    tasks = tasks.filter((t) => matchesGrep(t, re));
    filters.push(`--grep ${o.grep}`);
  }
  if (o.lastFailed) {
    const last = readLastRun(outputDir);
    if (!last) await reporter.onError(`warning: --last-failed: no ${LAST_RUN_FILE} in ${outputDir} (no finished run there yet): running every evaluation`);
    else {
      if (!last.failedTests.length) return { run: null, exitCode: 0, specErrors, inputs, reported, note: `--last-failed: the last run in ${outputDir} had no failures; nothing to run` };
      const failed = new Set(last.failedTests);
      tasks = tasks.filter((t) => failed.has(t.id));
      filters.push('--last-failed');
    }
  }
  // a candidate that cannot be evaluated is listed with its problem, and fails the listing as it would the run
  if (o.list && tasks.length) return { run: null, exitCode: specErrors.length || tasks.some((t) => t.inputProblem) ? 1 : 0, specErrors, inputs, reported, listed: tasks };
  if (!tasks.length) {
    const msg = `no evaluations match ${filters.join(' ')} (${all} in ${suites.length} spec${suites.length === 1 ? '' : 's'})`;
    if (o.passWithNoTests) return { run: null, exitCode: specErrors.length ? 1 : 0, specErrors, inputs, reported, note: `${msg}; exit code 0 (--pass-with-no-tests)` };
    await reporter.onError(msg);
    return { run: null, exitCode: 1, specErrors: [...specErrors, msg], inputs, reported };
  }
  // candidates a spec asks Cookie to generate (`generate:`): generated now when missing or stale
  // (generation's modules, with the model SDKs' clients, load only for a run that has such a candidate)
  if (tasks.some((t) => t.candidate.generate)) {
    const { generationInputs, prepareGenerated } = await import('../generate/spec.js');
    try {
      await prepareGenerated(tasks, config, outputDir, (line) => void (o.silent || (jsonOnStdout ? process.stderr : process.stdout).write(`${line}\n`)));
    } catch (e) {
      await reporter.onError((e as Error).message);
      return { run: null, exitCode: 2, specErrors: [...specErrors, (e as Error).message], inputs, reported };
    }
    inputs.push(...generationInputs(tasks));
  }
  const cache = new ResultCache(outputDir);
  const useCache = o.cache !== false;
  // a candidate refused at expansion is not hashed (it may be a FIFO, a device or too large); one that became
  // unusable since (hashArtifact refuses it) is refused the same way: that evaluation alone, never the run
  const keys = new Map(tasks.map((t) => {
    if (t.inputProblem) return [t.id, ''];
    try {
      return [t.id, cacheKey(t, config)];
    } catch (e) {
      if (!(e instanceof ArtifactError)) throw e;
      t.inputProblem = `${t.suiteFile}: candidate ${t.candidate.name}: ${e.message}`;
      return [t.id, ''];
    }
  }));

  // the browser is launched only when an evaluation actually needs one (a fully cached run never does); it may
  // resolve the host name of deploy.publicUrl (by which it reaches the apps and their fence proxies)
  const publicName = config.deploy.publicUrl ? resolvablePattern(config.deploy.publicUrl) : null;
  const resolvable = publicName ? [publicName] : [];
  let browser: Browser | null = null;
  let launching: Promise<Browser> | null = null;
  const getBrowser = async (): Promise<Browser> => {
    if (browser?.isConnected()) return browser;
    launching ??= openBrowser({ ...config.browser, resolvable }).finally(() => (launching = null));
    browser = await launching;
    return browser;
  };
  // evaluations take browsers from a pool: one per worker, renderers killed after each evaluation,
  // replaced after a hostile page (launch.ts, BrowserPool, says why); a remote browser (wsEndpoint,
  // cdpEndpoint) is shared, its contexts closed after each evaluation
  const remote = !!(config.browser.wsEndpoint || config.browser.cdpEndpoint);
  const pool = new BrowserPool(config.browser.executablePath, config.browser.args, resolvable);
  const previous = ResultsStore.read(outputDir);
  const cached = new Map(tasks.flatMap((t) => {
    const hit = useCache && !t.inputProblem ? cache.get(t.id, keys.get(t.id)!) : null;
    return hit ? [[t.id, { ...hit, thresholds: t.thresholds, passed: meetsThresholds({ ...hit, thresholds: t.thresholds, expectStatus: t.expectStatus }) }] as const] : [];
  }));
  // set whenever an evaluation will run (a fully cached run launches no browser and evaluates nothing)
  let environment: EnvironmentInfo | null = null;
  // evaluations that need a browser: not cached, not refused at expansion (those are recorded without one)
  const needBrowser = tasks.some((t) => !cached.has(t.id) && !t.inputProblem);
  // the evaluation's modules (deploy, session, fixtures) load only when something is evaluated: with a browser,
  // while it launches (below); a refused candidate is recorded through them too, with no browser
  const evaluation = tasks.some((t) => !cached.has(t.id)) ? import('./evaluate.js') : null;
  evaluation?.catch(() => {}); // awaited where it is used
  const endEnv = span('run.environment');
  if (needBrowser) {
    // asked while the browser launches: the fonts (fc-list) and whether ffmpeg runs (each recording reads the answer)
    const fonts = fontsFingerprint();
    if (config.recording.video) void ffmpegAvailable();
    // the evaluation's modules and static perception's load while the browser starts (Node would only wait):
    // started just after the launch, so the browser's process is already on its way. The interaction's modules
    // and the offline judge load later, while the first perception waits on its page (evaluate.ts, warmUp)
    const launched = remote ? null : pool.acquire();
    await Promise.resolve();
    const loading = evaluation!.then((m) => m.loadPerception());
    loading.catch(() => {}); // awaited below, after the launch (whose failure is reported first)
    try {
      // a remote browser is shared; a local one is described with the pool's first browser, which then serves the first evaluation
      if (remote) environment = await describeEnvironment(await getBrowser(), config, true, fonts);
      else {
        const lease = await launched!;
        try {
          environment = await describeEnvironment(lease.browser, config, false, fonts);
        } finally {
          await lease.close();
        }
      }
      await loading;
    } catch (e) {
      await reporter.onError((e as Error).message);
      return { run: null, exitCode: 2, specErrors: [...specErrors, (e as Error).message], inputs, reported };
    }
  }
  endEnv();
  const env = environment ?? previous?.environment ?? null;

  const store = new ResultsStore(outputDir, {
    schemaVersion: 1,
    cookieVersion: COOKIE_VERSION,
    browserVersion: env?.browserVersion ?? previous?.browserVersion ?? 'not launched (no evaluation needed a browser)',
    startedAt: new Date().toISOString(),
    config: redactConfig(config),
    environment: env,
    configHash: runConfigHash(config),
    ...(o.shard ? { shard: o.shard } : {}),
  });
  store.write();
  sinceStart('run.first-evaluation');
  await reporter.onRunStart({ tasks, outputDir, config: redactConfig(config) });

  // deploy settings that are allowed but worth saying (a public URL with a local browser, apps on the network)
  if (needBrowser) for (const n of deployNotes(config)) await reporter.onError(`note: ${n}`);
  // the offline CDN copies are an optional package: say once per run how to add them
  if (config.offlineCdn && needBrowser && !offlineCdnInstalled()) {
    await reporter.onError(`note: the offline CDN copies are not installed, so requests to public CDNs (three.js, React, Tailwind, ...) are recorded as unresolved environment failures. Fix: ${CDN_INSTALL_FIX}`);
  }
  const toEvaluate = tasks.filter((t) => !cached.has(t.id) && !t.inputProblem).length;
  if (toEvaluate > 1 && o.concurrency === undefined && !concurrencySet) {
    await reporter.onError(`note: evaluating one at a time: ${configSource === '--reporter' ? 'there is no cookie.config.ts' : `${configSource} does not set \`concurrency\``}, and its default is 1. To go faster, set \`concurrency: 2\` in the config (or pass --concurrency 2) to run ${Math.min(2, toEvaluate)} at once (each takes a browser and a CPU core)`);
  }
  const limit = pLimit(config.concurrency);
  // environment is set whenever runOne evaluates (only uncached tasks are evaluated, and they described it above)
  const warmUp = config.judge.kind === 'offline' ? () => void loadOfflineJudge().catch(() => {}) : undefined;
  const ctx = { config, outputDir, environment: environment!, getBrowser, ...(remote ? {} : { openBrowser: () => pool.acquire() }), judge, agent, reporter, ...(warmUp ? { warmUp } : {}) };
  // set by SIGINT/SIGTERM: which one (exit code 128 + its number)
  let interrupted: NodeJS.Signals | null = null;
  let stopWaiting: () => void = () => {};
  const stopped = new Promise<void>((resolve) => (stopWaiting = resolve));
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
    const { evaluate } = await evaluation!;
    const result = await evaluate(task, ctx);
    // cut short by Ctrl-C (its browser and processes were killed): not a finished evaluation, so neither
    // stored nor cached; the next run evaluates it again
    if (interrupted) return;
    result.cacheKey = keys.get(task.id) || undefined;
    cache.put(task.id, keys.get(task.id)!, result); // first the cache, then results.json: what results.json shows finished is resumable
    store.add(result);
    await reporter.onEvaluationEnd(result);
    countFailure(result.passed);
  };
  // SIGINT/SIGTERM end the run promptly whatever a candidate does (issue 19 point 7): every candidate
  // process group and sandbox is killed and the browser closed at once; in-flight evaluations get
  // SIGNAL_GRACE_MS to unwind, then the run ends with what finished (results.json already holds every
  // finished evaluation); a second signal, or a shutdown that still hangs, exits at once.
  const onSignal = (sig: NodeJS.Signals) => {
    const code = signalExitCode(sig);
    if (interrupted) process.exit(code); // a second Ctrl-C: stop now (finished evaluations are saved)
    interrupted = sig;
    limit.clearQueue();
    killAllCandidateProcesses();
    // in-flight evaluations are dropped: end them now rather than let them score a dying browser
    void (browser as Browser | null)?.close().catch(() => {});
    setTimeout(stopWaiting, SIGNAL_GRACE_MS).unref();
    setTimeout(() => process.exit(code), SIGNAL_FORCE_EXIT_MS).unref();
    void pool.closeAll(1);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await Promise.race([Promise.all(tasks.map((t) => limit(() => (interrupted || bailed ? Promise.resolve() : runOne(t))))), stopped]);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    const endClose = span('run.close-browsers');
    if (!interrupted) await (browser as Browser | null)?.close().catch(() => {});
    await pool.closeAll(interrupted ? 1 : 5_000);
    endClose();
  }
  if (brokenSpecs.length) store.run.specErrors = brokenSpecs;
  const done = new Set(store.run.evaluations.map((e) => e.id));
  if (bailed) store.run.stoppedEarly = { reason: `--bail ${o.bail}: ${failures} evaluation${failures === 1 ? '' : 's'} did not pass`, notRun: tasks.filter((t) => !done.has(t.id)).length };
  const run = store.finish(tasks.map((t) => t.id));
  if (tasks.some((t) => t.trial)) {
    markTrials(run, config.trials.unstableMargin);
    store.write();
  }
  if (!interrupted) writeLastRun(outputDir, run, tasks);
  await timed('run.report-end', () => reporter.onRunEnd(run, outputDir));
  const allPassed = run.evaluations.length === tasks.length && run.evaluations.every((r) => r.passed);
  return { run, exitCode: interrupted ? signalExitCode(interrupted) : allPassed && !specErrors.length ? 0 : 1, specErrors, inputs: [...inputs, ...tasks.map((t) => t.candidate.artifactPath)], outputDir, reported };
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
