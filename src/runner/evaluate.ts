import fs from 'node:fs';
import { cpuStallMs } from '../browser/frame-timing.js';
import path from 'node:path';
import type { Browser } from 'playwright';
import type { EvaluationBrowser } from '../browser/launch.js';
import { openAppSession, SESSION_CLOSE_LIMIT_MS } from '../browser/session.js';
import { measureMachineFrameRate, needsMachineFrameRate } from '../perceive/machine-frame-rate.js';
import type { ResolvedConfig } from '../config/schema.js';
import { deploy } from '../deploy/deploy.js';
import { dropCdnIntegrity, isCdnUrl } from '../common/cdn.js';
import { isVendoredName, resolveCdn, resolveVendored } from '../deploy/cdn.js';
import { BuildFailure, projectOptionsOf } from '../deploy/project.js';
import { generationOf } from '../generate/ledger.js';
import { meetsThresholds, unjudgeable } from './thresholds.js';
import { ArtifactError } from '../errors.js';
import type { AgentPlugin, Judge } from '../plugins/api.js';
import { BUILTIN_AGENTS } from '../plugins/builtin.js';
import { copySources } from './sources.js';
import { FixtureRunner, type EvaluationFixtures, type FixtureFn } from './fixtures.js';
import { seedFor } from '../common/random.js';
import type { EnvironmentInfo, EvaluationResult, EvaluationTask, Evidence, Judgement, Reporter, Stage } from '../types.js';
import { writeJsonAtomic } from '../util/atomic.js';
import { errorMessage, timebox } from '../util/timebox.js';
import { span, timed } from '../util/profile.js';

let perceptionModule: Promise<typeof import('../perceive/perceive.js')> | null = null;
let interactionModule: Promise<typeof import('../interact/loop.js')> | null = null;

/**
 * Load static perception's module (with it the language model and image decoding). Imported on first use,
 * not at start-up: a fully cached run never needs it, and a run that evaluates starts loading it while its
 * browser launches (run.ts), when Node would only wait. Later calls return the same promise.
 * @throws as a failed dynamic import
 */
export function loadPerception(): Promise<typeof import('../perceive/perceive.js')> {
  return (perceptionModule ??= import('../perceive/perceive.js'));
}

/**
 * Load the interaction loop's modules (input, recording, keyframes, effect measurement). Started when the first
 * perception starts, so they load while perception waits on the page, off the path to the first evaluation.
 * Later calls return the same promise. @throws as a failed dynamic import (when awaited)
 */
export function loadInteraction(): Promise<typeof import('../interact/loop.js')> {
  if (!interactionModule) {
    interactionModule = import('../interact/loop.js');
    interactionModule.catch(() => {}); // awaited by the interaction stage, which reports its failure
  }
  return interactionModule;
}

/** What one evaluation needs from the run. */
export interface EvaluateContext {
  config: ResolvedConfig;
  outputDir: string;
  environment: EnvironmentInfo;
  getBrowser(): Promise<Browser>;
  /** The run's judge: finished evidence in, judgement out (never touches a browser). */
  judge: Judge | ((evidence: Evidence, evidenceDir: string) => Promise<Judgement> | Judgement);
  /** The run's agent plugin and its options (default: the built-in named by `agent.kind`). */
  agent?: { plugin: AgentPlugin; options: Record<string, unknown> };
  /**
   * A browser for this evaluation alone (a {@link BrowserPool} lease): its renderers are killed when the
   * evaluation ends, and the browser replaced after a hostile page (issue 19: nothing a page started
   * outlives its evaluation). When absent, `getBrowser` is used (shared, nothing killed).
   */
  openBrowser?(): Promise<EvaluationBrowser>;
  reporter: Reporter;
  /**
   * Called once perception has started: work the run would otherwise do before the first evaluation (loading
   * the offline judge), done while perception waits on the page. Must not throw; optional.
   */
  warmUp?(): void;
}

/**
 * Bound of opening an evaluation's browser session (ms): a fresh context, its fence proxy, init scripts and
 * first page. Seconds when healthy; a browser still busy with a previous hostile page must not stall the
 * next evaluation for minutes (issue 19, seen 6), so it is time-boxed and an expiry is an error at perceive.
 */
export const SESSION_OPEN_TIMEOUT_MS = 60_000;

/** Evidence folder of a task, relative to the output dir. */
export function evidenceDirOf(task: EvaluationTask): string {
  return path.join('evidence', task.id);
}

/** The built-in fixtures of one evaluation (src/runner/fixtures.ts); a spec's `fixtures` override or extend them. */
function builtinFixtures(ctx: EvaluateContext, stage: <T>(name: Stage, ms: number, work: () => Promise<T>) => Promise<T>): Record<string, FixtureFn<unknown, Record<string, unknown>>> {
  const f = <K extends keyof EvaluationFixtures>(fn: FixtureFn<EvaluationFixtures[K]>) => fn as unknown as FixtureFn<unknown, Record<string, unknown>>;
  return {
    deployment: f<'deployment'>(async ({ task, config, evidence }, use) => {
      const limit = task.candidate.mode === 'react' ? config.timeouts.install + config.timeouts.build + config.timeouts.serve + 10_000 : config.timeouts.deploy;
      const d = await stage('deploy', limit, () =>
        deploy(task, projectOptionsOf(config), [ctx.outputDir], config.deploy),
      );
      evidence.deploy = d.evidence;
      try {
        await use(d);
      } finally {
        await d.close().catch(() => {});
      }
    }),
    session: f<'session'>(async ({ deployment, config, evidence, task }, use) => {
      // the origin the browser knows the app by: the local one, or the public one (config deploy.publicUrl), which
      // the fence then treats as the app's (and forwards to the local one)
      const origin = new URL(deployment.evidence.url).origin;
      const { localUrl } = deployment.evidence;
      const publicRoute = config.deploy.publicUrl && localUrl ? { localOrigin: new URL(localUrl).origin, host: config.deploy.host, publicUrl: config.deploy.publicUrl } : undefined;
      // this evaluation's own browser lease (its renderers are killed when it ends; the browser is replaced
      // after a hostile page), or the run's shared browser; opened inside a time box: a stuck browser is an
      // error of this evaluation, never a stall of the run
      let own: EvaluationBrowser | null = null;
      const opening = (async () => {
        let browser: Browser;
        if (ctx.openBrowser) {
          own = await ctx.openBrowser();
          browser = own.browser;
        } else browser = await ctx.getBrowser();
        return openAppSession(browser, origin, {
          viewport: defaultViewportOf(config),
          media: config.agent.freeze || config.recording.audio,
          ...(config.determinism.random ? { randomSeed: seedFor(config.agent.seed, `${task.id}#random`) } : {}),
          ...(config.determinism.date ? { dateOrigin: Date.parse(config.determinism.dateOrigin) } : {}),
          ...(config.offlineCdn ? { resolveExternal: resolveCdn, resolveMissingLocal: { matches: isVendoredName, resolve: resolveVendored }, rewriteDocument: (html: string) => dropCdnIntegrity(html, (u) => resolveCdn(u) !== null) } : {}),
          ...(publicRoute ? { publicRoute } : {}),
        });
      })();
      const s = await timed('eval.session-open', () => timebox(opening, SESSION_OPEN_TIMEOUT_MS, 'browser session opening').catch((e) => {
        // whatever the opening still does later, its browser is killed as soon as it exists
        void opening.catch(() => {}).finally(() => (own as EvaluationBrowser | null)?.close({ recycle: true, graceMs: 1 }));
        throw Object.assign(e instanceof Error ? e : new Error(String(e)), { stage: 'perceive' as Stage });
      }));
      s.page.on('crash', () => evidence.stageErrors.push({ stage: 'interact', message: 'the page crashed (renderer process died)' }));
      try {
        await use(s);
      } finally {
        const { log } = s;
        evidence.consoleErrors = log.consoleErrors;
        evidence.pageErrors = log.pageErrors;
        evidence.failedRequests = log.failedRequests;
        evidence.dialogs = log.dialogs;
        evidence.navigations = log.navigations;
        evidence.documentLoads = log.loads;
        if (Object.keys(log.dropped).length) evidence.dropped = log.dropped;
        evidence.cdn = { rewrites: log.cdnRewrites, unresolved: log.failedRequests.filter((r) => r.blocked && isCdnUrl(r.url)).map((r) => r.url) };
        // the evaluation's renderers end here (a busy loop with them), before the next evaluation starts; the
        // browser itself too when the page flooded (its load may sit in the browser process) or crashed, or
        // its context would not close: the lease is given back whatever closing the session did
        // (a context that needs seconds to close, or a page that stopped answering, has left its load in the
        // browser: session.close() says whether the context closed promptly)
        // a page that stopped answering holds its renderer: on a browser of its own, which is replaced anyway,
        // the context gets a second to close instead of the ten a hung renderer would take
        // the machine's own frame rate, asked only when the evidence has a slowness it could explain, with the
        // app's page closed first (nothing of the app runs meanwhile); on any other page it would answer nothing
        if (evidence.static && needsMachineFrameRate(evidence)) {
          const st = evidence.static;
          await timed('eval.machine-frame-rate', async () => {
            await timebox(s.page.close(), 2000, 'page close').catch(() => {});
            const browser = s.context.browser();
            const measured = browser ? await measureMachineFrameRate(browser) : null;
            if (measured) st.machineFrameRate = measured;
            else st.problems.push('the machine\'s own frame rate could not be measured (no answer from an empty page within 4 s)');
          });
        }
        const endClose = span('eval.session-close');
        const hung = !!evidence.static?.unresponsive || evidence.interaction?.endedBecause === 'unresponsive' || log.crashed;
        const closeLimitMs = hung && own ? 1_000 : undefined;
        const closed = await s.close(closeLimitMs).catch(() => false);
        const hostile = !closed || hung || Object.keys(log.dropped).length > 0 || evidence.stageErrors.length > 0;
        evidence.sessionEnd = { closeLimitMs: closeLimitMs ?? SESSION_CLOSE_LIMIT_MS, contextClosed: closed, browserRecycled: !!own && hostile };
        await (own as EvaluationBrowser | null)?.close({ recycle: hostile, graceMs: 1_000 });
        endClose();
      }
    }),
    context: f<'context'>(async ({ session }, use) => use(session.context)),
    page: f<'page'>(async ({ session }, use) => use(session.page)),
    recording: f<'recording'>(async ({ config }, use) => use({ video: config.recording.video, audio: config.recording.audio, fps: config.recording.fps })),
    agent: f<'agent'>(async ({ task, config, deployment, evidence }, use) => {
      const { plugin, options } = ctx.agent ?? { plugin: BUILTIN_AGENTS[config.agent.kind]!, options: {} };
      const url = deployment.evidence.url;
      await use(await plugin.create({ task, url, origin: new URL(url).origin, inventory: evidence.static?.inventory ?? null, config }, options));
    }),
  };
}

/** The viewport the agent and the video use: the widest configured one (px). */
export function defaultViewportOf(config: ResolvedConfig): { width: number; height: number } {
  return config.viewports.reduce((a, b) => (b.width > a.width ? b : a));
}

/**
 * Collect the evidence of one evaluation: deploy → static perception → interaction, each time-boxed
 * (config.timeouts), written to `<evidenceDir>/evidence.json` and `trace.json`, with a copy of the
 * candidate's source files (`source/`), so the evidence is self-contained. The resources are fixtures
 * (src/runner/fixtures.ts) that the task's spec may override or extend. Evidence collection never
 * judges. Throws only for harness failures, tagged with the stage.
 */
export async function collectEvidence(task: EvaluationTask, ctx: EvaluateContext, timings: EvaluationResult['timings']): Promise<Evidence> {
  const { config } = ctx;
  const evidenceDir = path.join(ctx.outputDir, evidenceDirOf(task));
  const defaultViewport = defaultViewportOf(config);
  const evidence: Evidence = {
    schemaVersion: 1,
    task,
    environment: ctx.environment,
    defaultViewport,
    deploy: null,
    static: null,
    interaction: null,
    consoleErrors: [],
    pageErrors: [],
    failedRequests: [],
    dialogs: [],
    navigations: [],
    stageErrors: [],
  };
  const stage = async <T>(name: Stage, ms: number, work: () => Promise<T>): Promise<T> => {
    await ctx.reporter.onStageStart?.(task, name);
    const t = Date.now();
    try {
      return await timebox(work(), ms, `${name} stage`);
    } catch (e) {
      throw Object.assign(e instanceof Error ? e : new Error(String(e)), { stage: name });
    } finally {
      timings[name] = Date.now() - t;
    }
  };
  const builtins = builtinFixtures(ctx, stage);
  // the browser is worker-scoped: launched once for the run (lazily), shared by every evaluation
  const fx = new FixtureRunner(builtins, task.fixtures ?? {}, { task, config, evidenceDir, evidence }, { browser: () => ctx.getBrowser() });
  try {
    const deployment = await fx.get('deployment');
    const url = deployment.evidence.url;
    const origin = new URL(url).origin;
    const session = await fx.get('session');
    await fx.get('page'); // a spec's page fixture runs now: before perception (init scripts, seeded storage)
    for (const extra of fx.extraNames(builtins)) await fx.get(extra);

    // perception keeps to its own budget (captures that no longer fit are skipped and recorded); the stage's
    // time box, 30 s beyond it, only catches a capture that ignores its own limit
    const { perceive } = await loadPerception();
    // what the interaction and the judge need loads while perception waits on the page (Node would only wait)
    const interaction = loadInteraction();
    ctx.warmUp?.();
    evidence.static = await stage('perceive', config.timeouts.perceive + 30_000, () =>
      perceive(session, {
        url,
        evidenceDir,
        viewports: config.viewports,
        defaultViewport,
        expectedLanguage: task.query.language,
        timeouts: config.timeouts,
        budgetMs: config.timeouts.perceive,
        ...(ctx.openBrowser ? { cpuStall: cpuStallMs } : {}),
      }),
    );

    const st = evidence.static;
    const renders = !st.unresponsive && !st.viewports.find((v) => v.width === defaultViewport.width)?.blank.isBlank;
    // ablation video: false — one screenshot, no interaction evidence: the agent does not run
    if (renders && config.ablation.video) {
      const agent = await fx.get('agent');
      const recording = await fx.get('recording');
      const { interact } = await interaction;
      evidence.interaction = await stage('interact', config.timeouts.interact + 60_000, () =>
        interact(session, agent, {
          url,
          origin,
          evidenceDir,
          steps: config.agent.steps,
          seed: seedFor(config.agent.seed, task.id),
          stepTimeoutMs: config.timeouts.step,
          thinkTimeoutMs: config.timeouts.think,
          unresponsiveMs: config.timeouts.unresponsive,
          totalTimeoutMs: config.timeouts.interact,
          animatedShare: st.animatedShare,
          idleMutationsPerSec: st.idleMutationsPerSec,
          freeze: config.agent.freeze,
          video: recording.video,
          audio: recording.audio,
          fps: recording.fps,
          ...(ctx.openBrowser ? { cpuStall: cpuStallMs } : {}),
          onStep: (n, budget) => void Promise.resolve(ctx.reporter.onStep?.(task, n, budget)).catch(() => {}),
        }),
      ).catch((e) => {
        // a harness failure during interaction keeps the static evidence; the stage error is recorded
        evidence.stageErrors.push({ stage: 'interact', message: errorMessage(e) });
        return null;
      });
      if (evidence.interaction && agent.protocolRecord) evidence.interaction.protocol = agent.protocolRecord();
      // the loop ended early for a reason that is not the app's: say so, so nobody reads an untested app as a tested one
      const it = evidence.interaction;
      if (it && (it.endedBecause === 'error' || it.endedBecause === 'agent-error')) evidence.stageErrors.push({ stage: 'interact', message: `interaction ended early after ${it.steps.length} step(s): ${it.endedBecause}${it.endDetail ? `: ${it.endDetail}` : ''}` });
    }
  } finally {
    const endTeardown = span('eval.teardown');
    try {
      await fx.teardown();
    } catch (e) {
      // a fixture's teardown (e.g. a spec's custom probe) failed: recorded, the evidence stands
      evidence.stageErrors.push({ stage: evidence.interaction ? 'interact' : 'perceive', message: `fixture teardown: ${errorMessage(e)}` });
    }
    // (the session fixture's teardown gave this evaluation's browser lease back, recycled when hostile)
    fs.mkdirSync(evidenceDir, { recursive: true });
    evidence.sources = copySources(task.candidate.artifactPath, evidenceDir, evidence.deploy?.entry);
    writeJsonAtomic(path.join(evidenceDir, 'evidence.json'), evidence);
    if (evidence.interaction) writeJsonAtomic(path.join(evidenceDir, 'trace.json'), evidence.interaction);
    endTeardown();
  }
  return evidence;
}

/**
 * Run one evaluation end to end and return its result — never throws: a missing artifact, or one refused
 * at expansion (`task.inputProblem`), is status `error` at stage `load`, a harness failure is status `error` at the stage that failed, and every
 * misbehaviour of the app itself is evidence for the judge.
 */
export async function evaluate(task: EvaluationTask, ctx: EvaluateContext): Promise<EvaluationResult> {
  const t0 = Date.now();
  const timings: EvaluationResult['timings'] = {};
  const evidenceDir = evidenceDirOf(task);
  const absDir = path.join(ctx.outputDir, evidenceDir);
  fs.rmSync(absDir, { recursive: true, force: true });
  fs.mkdirSync(absDir, { recursive: true });
  const base: EvaluationResult = {
    id: task.id,
    ...(task.trial ? { trial: task.trial } : {}),
    queryId: task.query.id,
    candidate: task.candidate.name,
    mode: task.candidate.mode,
    suiteFile: task.suiteFile,
    artifactPath: task.candidate.artifactPath,
    status: 'error',
    scores: null,
    static8: null,
    final8: null,
    defects: [],
    rubric: [],
    reasons: [],
    thresholds: task.thresholds,
    ...(task.expectStatus ? { expectStatus: task.expectStatus } : {}),
    passed: false,
    timings,
    evidenceDir,
    query: { prompt: task.query.prompt.slice(0, 2000), language: task.query.language, kind: task.query.kind, category: task.query.category, difficulty: task.query.difficulty },
    finishedAt: '',
  };
  const done = (r: EvaluationResult): EvaluationResult => {
    timings.total = Date.now() - t0;
    r.finishedAt = new Date().toISOString();
    r.passed = meetsThresholds(r);
    return r;
  };

  // a candidate Cookie generated carries its ledger row (model, tokens, cost); a generation that gave no
  // HTML is the model's failure (generation-failed), one that could not reach the model is an error
  const gen = generationOf(task.candidate.artifactPath);
  if (gen) base.generation = { status: gen.status, provider: gen.provider, model: gen.model, mode: gen.mode, promptHash: gen.promptHash, calls: gen.calls, inputTokens: gen.inputTokens, outputTokens: gen.outputTokens, cachedTokens: gen.cachedTokens, wallMs: gen.wallMs, costUsd: gen.costUsd, ...(gen.reason ? { reason: gen.reason } : {}) };
  if (!fs.existsSync(task.candidate.artifactPath)) {
    if (gen?.status === 'generation-failed') return done({ ...base, status: 'generation-failed', error: { stage: 'generate', message: `generation failed: ${gen.reason ?? 'no HTML in the reply'} (reply kept beside the candidate)` } });
    if (gen?.status === 'error') return done({ ...base, error: { stage: 'generate', message: gen.reason ?? 'the model could not be reached' } });
    return done({ ...base, error: { stage: 'load', message: `artifact not found: ${task.candidate.artifactPath}` } });
  }
  // refused at expansion (a FIFO or device, a URL, the wrong shape for its mode, too large): this evaluation alone
  if (task.inputProblem) return done({ ...base, error: { stage: 'load', message: task.inputProblem } });
  let evidence: Evidence;
  try {
    evidence = await collectEvidence(task, ctx, timings);
  } catch (e) {
    if (e instanceof BuildFailure) {
      return done({ ...base, status: 'build-failed', error: { stage: 'deploy', message: e.message }, build: { step: e.step, cause: e.cause.kind, summary: e.cause.summary, logTail: e.logTail.slice(-4000) } });
    }
    const stage: Stage = e instanceof ArtifactError ? 'load' : ((e as { stage?: Stage }).stage ?? 'deploy');
    return done({ ...base, error: { stage, message: errorMessage(e) } });
  }
  // no perception, or the page answers but Cookie's in-page probe could not take its inventory (a page that
  // replaced the built-ins the probe relies on): Cookie cannot measure it, which is not the same as a blank page
  const notJudged = unjudgeable(evidence);
  if (notJudged) return done({ ...base, error: notJudged });
  try {
    await ctx.reporter.onStageStart?.(task, 'judge');
    const tj = Date.now();
    const runJudge = typeof ctx.judge === 'function' ? ctx.judge : ctx.judge.judge.bind(ctx.judge);
    const j = await timebox(Promise.resolve(runJudge(evidence, absDir)), ctx.config.timeouts.judge, 'judge stage');
    timings.judge = Date.now() - tj;
    writeJsonAtomic(path.join(absDir, 'judgement.json'), j);
    if (j.unscorable) return done({ ...base, defects: j.defects, rubric: j.rubric, reasons: j.reasons, error: { stage: 'deploy', message: `environment: ${j.unscorable}` } });
    if (evidence.interaction?.usage) base.usage = evidence.interaction.usage;
    if (j.stages) base.judgeStages = j.stages;
    base.ablation = j.ablation ?? ctx.config.ablation;
    return done({ ...base, status: 'scored', scores: j.scores, static8: j.static8, final8: j.final8, defects: j.defects, rubric: j.rubric, reasons: j.reasons });
  } catch (e) {
    return done({ ...base, error: { stage: 'judge', message: errorMessage(e) } });
  }
}
