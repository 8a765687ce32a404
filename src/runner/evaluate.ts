import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright';
import { openAppSession } from '../browser/session.js';
import type { ResolvedConfig } from '../config/schema.js';
import { deploy, type Deployment } from '../deploy/deploy.js';
import { isCdnUrl } from '../common/cdn.js';
import { isVendoredName, resolveCdn, resolveVendored } from '../deploy/cdn.js';
import { BuildFailure } from '../deploy/project.js';
import { ArtifactError } from '../errors.js';
import type { Agent } from '../interact/agent.js';
import { OfflineExplorer } from '../interact/agents/explorer.js';
import { ModelAgent } from '../interact/agents/model.js';
import { ModelClient, providerFor } from '../providers/client.js';
import { interact } from '../interact/loop.js';
import { seedFor } from '../common/random.js';
import { perceive } from '../perceive/perceive.js';
import type { DomInventory, EnvironmentInfo, EvaluationResult, EvaluationTask, Evidence, Judgement, Reporter, Stage } from '../types.js';
import { writeJsonAtomic } from '../util/atomic.js';
import { errorMessage, timebox } from '../util/timebox.js';

/** What one evaluation needs from the run. */
export interface EvaluateContext {
  config: ResolvedConfig;
  outputDir: string;
  environment: EnvironmentInfo;
  getBrowser(): Promise<Browser>;
  /** The judge: finished evidence in, judgement out (never touches a browser). */
  judge(evidence: Evidence, evidenceDir: string): Promise<Judgement> | Judgement;
  reporter: Reporter;
}

/** Evidence folder of a task, relative to the output dir. */
export function evidenceDirOf(task: EvaluationTask): string {
  return path.join('evidence', task.id);
}

/** Does a scored result meet its thresholds (0–100)? */
export function meetsThresholds(r: Pick<EvaluationResult, 'status' | 'scores' | 'thresholds'> & { expectStatus?: EvaluationResult['status'] }): boolean {
  if (r.expectStatus && r.expectStatus !== 'scored') return r.status === r.expectStatus;
  if (r.status !== 'scored' || !r.scores) return false;
  const t = r.thresholds;
  return (t.functionality === undefined || r.scores.functionality >= t.functionality) && (t.aesthetics === undefined || r.scores.aesthetics >= t.aesthetics) && (t.total === undefined || r.scores.total >= t.total);
}

/**
 * Collect the evidence of one evaluation: deploy → static perception → interaction, each time-boxed
 * (config.timeouts), written to `<evidenceDir>/evidence.json` and `trace.json`. Evidence collection
 * never judges. Throws only for harness failures, tagged with the stage.
 */
export async function collectEvidence(task: EvaluationTask, ctx: EvaluateContext, timings: EvaluationResult['timings']): Promise<Evidence> {
  const { config } = ctx;
  const evidenceDir = path.join(ctx.outputDir, evidenceDirOf(task));
  const evidence: Evidence = {
    schemaVersion: 1,
    task,
    environment: ctx.environment,
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

  const deployLimit = task.candidate.mode === 'react' ? config.timeouts.install + config.timeouts.build + config.timeouts.serve + 10_000 : config.timeouts.deploy;
  const deployment: Deployment = await stage('deploy', deployLimit, () =>
    deploy(task, { npmCache: path.resolve(config.npmCache), installTimeoutMs: config.timeouts.install, buildTimeoutMs: config.timeouts.build, serveTimeoutMs: config.timeouts.serve }, [ctx.outputDir]),
  );
  evidence.deploy = deployment.evidence;
  const origin = new URL(deployment.evidence.url).origin;
  const defaultViewport = config.viewports.reduce((a, b) => (b.width > a.width ? b : a));
  let session: Awaited<ReturnType<typeof openAppSession>> | null = null;
  try {
    const browser = await ctx.getBrowser();
    session = await openAppSession(browser, origin, {
      viewport: defaultViewport,
      media: config.agent.freeze || config.recording.audio,
      ...(config.offlineCdn ? { resolveExternal: resolveCdn, resolveMissingLocal: { matches: isVendoredName, resolve: resolveVendored } } : {}),
    });
    const s = session;
    s.page.on('crash', () => evidence.stageErrors.push({ stage: 'interact', message: 'the page crashed (renderer process died)' }));

    evidence.static = await stage('perceive', config.timeouts.perceive, () =>
      perceive(s, {
        url: deployment.evidence.url,
        evidenceDir,
        viewports: config.viewports,
        defaultViewport,
        expectedLanguage: task.query.language,
        timeouts: config.timeouts,
      }),
    );

    const st = evidence.static;
    const renders = !st.unresponsive && !st.viewports.find((v) => v.width === defaultViewport.width)?.blank.isBlank;
    // ablation video: false — one screenshot, no interaction evidence: the agent does not run
    if (renders && config.ablation.video) {
      const agent = makeAgent(config, task, deployment.evidence.url, origin, st.inventory);
      evidence.interaction = await stage('interact', config.timeouts.interact + 60_000, () =>
        interact(s, agent, {
          url: deployment.evidence.url,
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
          video: config.recording.video,
          audio: config.recording.audio,
          fps: config.recording.fps,
          onStep: (n, budget) => void Promise.resolve(ctx.reporter.onStep?.(task, n, budget)).catch(() => {}),
        }),
      ).catch((e) => {
        // a harness failure during interaction keeps the static evidence; the stage error is recorded
        evidence.stageErrors.push({ stage: 'interact', message: errorMessage(e) });
        return null;
      });
      // the loop ended early for a reason that is not the app's: say so, so nobody reads an untested app as a tested one
      const ended = evidence.interaction?.endedBecause ?? '';
      if (/^(agent-)?error/.test(ended)) evidence.stageErrors.push({ stage: 'interact', message: `interaction ended early after ${evidence.interaction!.steps.length} step(s): ${ended}` });
    }
  } finally {
    if (session) {
      const { log } = session;
      evidence.consoleErrors = log.consoleErrors;
      evidence.pageErrors = log.pageErrors;
      evidence.failedRequests = log.failedRequests;
      evidence.dialogs = log.dialogs;
      evidence.navigations = log.navigations;
      evidence.documentLoads = log.loads;
      if (Object.keys(log.dropped).length) evidence.dropped = log.dropped;
      evidence.cdn = { rewrites: log.cdnRewrites, unresolved: log.failedRequests.filter((r) => r.blocked && isCdnUrl(r.url)).map((r) => r.url) };
      await session.close();
    }
    await deployment.close().catch(() => {});
    fs.mkdirSync(evidenceDir, { recursive: true });
    writeJsonAtomic(path.join(evidenceDir, 'evidence.json'), evidence);
    if (evidence.interaction) writeJsonAtomic(path.join(evidenceDir, 'trace.json'), evidence.interaction);
  }
  return evidence;
}

/** The agent of the config: the offline explorer, or the model-backed agent on its provider. */
export function makeAgent(config: ResolvedConfig, task: EvaluationTask, url: string, origin: string, inventory: DomInventory | null): Agent {
  if (config.agent.kind === 'model' && config.agent.model) {
    const client = new ModelClient(providerFor(config.agent.model), config.agent.model, config.pricing);
    return new ModelAgent(client, { url, prompt: task.query.prompt, budget: config.agent.steps });
  }
  return new OfflineExplorer(origin, inventory, config.agent.holdMs);
}

/**
 * Run one evaluation end to end and return its result — never throws: a missing artifact is status
 * `error` at stage `load`, a harness failure is status `error` at the stage that failed, and every
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

  if (!fs.existsSync(task.candidate.artifactPath)) {
    return done({ ...base, error: { stage: 'load', message: `artifact not found: ${task.candidate.artifactPath}` } });
  }
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
  if (!evidence.static) {
    return done({ ...base, error: { stage: 'perceive', message: evidence.stageErrors[0]?.message ?? 'static perception produced no evidence' } });
  }
  // the page answers but Cookie's in-page probe could not take its inventory (a page that replaced the
  // built-ins the probe relies on): Cookie cannot measure it, which is not the same as a blank page
  if (evidence.static.probeError) {
    return done({ ...base, error: { stage: 'perceive', message: `Cookie's in-page probe could not measure this page (it may replace built-ins such as Array.prototype or JSON): ${evidence.static.probeError}` } });
  }
  try {
    await ctx.reporter.onStageStart?.(task, 'judge');
    const tj = Date.now();
    const j = await timebox(Promise.resolve(ctx.judge(evidence, absDir)), ctx.config.timeouts.judge, 'judge stage');
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
