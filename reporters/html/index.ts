import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { announce } from '../announce.js';
import type { EvaluationResult, Evidence, InteractionTrace, Reporter, RunResults, TraceStep } from '../../src/types.js';
import { describeTrials, runTrials, trialMeans, unstableReason } from '../../src/runner/trials.js';
import { writeTextAtomic } from '../../src/util/atomic.js';
import { errorOfDefect, rankDefects, sourceLocation, verdictOf } from '../verdict.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** Folder of the report inside the output dir. */
export const REPORT_DIR = 'report';

/** Options of the html reporter. */
export interface HtmlReporterOptions {
  /** Folder, relative to the output dir (default `report`). */
  outputFolder?: string;
}

/**
 * How a step of the action list reads: its outcome, except that a step whose action went through but made
 * the page throw (an uncaught error of the app) or log an error is not "ok".
 * @returns `ok`, `page error`, `console error`, or the failed outcome (`failed`, `timeout`, `unresponsive`)
 */
export function stepStatus(s: Pick<TraceStep, 'outcome' | 'pageErrors' | 'consoleErrors'>): string {
  if (s.outcome !== 'ok') return s.outcome;
  if (s.pageErrors.some((e) => e.origin === 'app')) return 'page error';
  if (s.consoleErrors.some((e) => e.origin === 'app')) return 'console error';
  return 'ok';
}

/** Put a file into the report: a hard link when possible (no copy of videos), else a copy. */
function place(src: string, dest: string): boolean {
  if (!fs.existsSync(src)) return false;
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  fs.rmSync(dest, { force: true });
  try {
    fs.linkSync(src, dest);
  } catch {
    fs.copyFileSync(src, dest);
  }
  return true;
}

/** Escape JSON for a <script> element. */
const scriptJson = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c').replace(/\u2028|\u2029/g, ' ');

/** The per-evaluation details the evaluation page shows (read from the stored evidence). */
function details(outputDir: string, e: EvaluationResult, n: number, dataDir: string) {
  const evDir = path.join(outputDir, e.evidenceDir);
  const read = <T>(f: string): T | null => {
    try {
      return JSON.parse(fs.readFileSync(path.join(evDir, f), 'utf8')) as T;
    } catch {
      return null;
    }
  };
  const ev = read<Evidence>('evidence.json');
  const trace = ev?.interaction ?? read<InteractionTrace>('trace.json');
  const dest = path.join(dataDir, String(n));
  const screenshots: { label: string; file: string }[] = [];
  for (const v of ev?.static?.viewports ?? []) if (place(path.join(evDir, v.screenshot), path.join(dest, v.screenshot))) screenshots.push({ label: `${v.width} px`, file: v.screenshot });
  if (ev?.static?.fullPageScreenshot && place(path.join(evDir, ev.static.fullPageScreenshot), path.join(dest, ev.static.fullPageScreenshot))) screenshots.push({ label: 'full page, 1280 px', file: ev.static.fullPageScreenshot });
  const video = trace?.recording?.video && place(path.join(evDir, trace.recording.video.file), path.join(dest, trace.recording.video.file)) ? trace.recording.video.file : null;
  // poster of the video: the first frame the agent saw (the screenshot before step 0), else the 1280-px screenshot
  const posterSrc = [trace?.steps[0]?.screenshotBefore, ev?.static?.viewports.find((v) => v.width === 1280)?.screenshot, ev?.static?.viewports.at(-1)?.screenshot].find((f): f is string => !!f && fs.existsSync(path.join(evDir, f)));
  const poster = video && posterSrc && place(path.join(evDir, posterSrc), path.join(dest, posterSrc)) ? posterSrc : null;
  const origin = ev?.deploy?.url ? new URL(ev.deploy.url).origin : undefined;
  // per defect (same order as the result's defects): its keyframe, its moment in the video and the source location of its error
  const defectInfo = e.defects.map((x) => {
    const step = x.evidence.step !== undefined ? trace?.steps.find((s) => s.index === x.evidence.step) : undefined;
    const frame = [x.evidence.screenshot, step?.screenshotAfter, step?.screenshotBefore].find((f): f is string => !!f && fs.existsSync(path.join(evDir, f)));
    const thumb = frame && place(path.join(evDir, frame), path.join(dest, frame)) ? frame : null;
    const err = errorOfDefect(x, ev);
    return { thumb, step: step?.index ?? null, atMs: video && step?.video ? step.video.startMs : null, location: err ? (sourceLocation(err.location, origin, ev?.deploy?.entry) ?? null) : null };
  });
  return {
    screenshots,
    video,
    poster,
    defectInfo,
    videoNote: trace?.recording?.videoNote ?? (trace ? null : 'No interaction (the page did not render, or interaction was switched off).'),
    audio: trace?.recording?.audio?.note ?? null,
    report: trace?.report ?? null,
    steps: (trace?.steps ?? []).map((s) => ({
      index: s.index,
      label: `${s.action.kind}${s.action.target ? ` ${s.action.target.role} “${s.action.target.name || s.action.target.tag}”` : ''}${s.action.key ? ` ${s.action.key}` : ''}${s.action.value ? ` “${s.action.value}”` : ''}${s.action.durationMs ? ` ${s.action.durationMs} ms` : ''}`,
      reasoning: s.reasoning,
      outcome: s.outcome,
      status: stepStatus(s),
      changed: s.effect ? s.effect.screenChanged : null,
      video: s.video ?? null,
      errors: [...s.pageErrors, ...s.consoleErrors].map((x) => x.text.slice(0, 300)),
    })),
    consoleErrors: [...(ev?.pageErrors ?? []), ...(ev?.consoleErrors ?? [])].slice(0, 100).map((c) => ({ text: c.text.slice(0, 500), origin: c.origin })),
  };
}

/**
 * Write the HTML report folder (Playwright-style: data inlined in index.html, attachments beside it).
 * Verdict first: the index lists every evaluation with pass/fail against its thresholds and its worst
 * defect (sortable by any column), and each evaluation page opens with the verdict and why, the final
 * scores with static → final (0–8), and the top defects, each with its keyframe thumbnail, its moment in
 * the video (click = seek) and the source location of its error (`buggy.html:24:40`); `#/compare/n/m`
 * shows two candidates of the same query side by side (screenshots, scores, defects). Below that:
 * a leaderboard (candidates × Dynamic/Static × Functionality/Aesthetics/Total, HTML vs React, runnable
 * rate, win rate) with filters by L2 category, language and difficulty, and a page per evaluation with
 * the screenshots at each viewport, the video beside its action trace (clicking a step seeks the video;
 * the current step is highlighted while it plays), defects linked to their moment in the video, console
 * errors, rubric items with their methods, static → final scores with reasons, and usage and cost.
 * The leaderboard's overall total is shown as mean ± the half-width of its 95 % interval across queries.
 * With repeated trials (`--repeat-each n`) the leaderboard is computed from trial means (one per query ×
 * candidate) and has Trials and Unstable columns; a Trials table lists per candidate × query the trial
 * means, the total as mean ± sd with its range, the trials passed and an `unstable` tag with the reason;
 * each trial's row in the evaluations table carries `trial k/n` and, when unstable, an `unstable` tag; and
 * an evaluation page says which trial it is, the spread of its evaluation's trials and links to the others.
 * Self-contained and offline: it works opened from disk or served (`cookie show-report`).
 * @returns the path of index.html
 */
export function writeHtmlReport(run: RunResults, outputDir: string, folder = REPORT_DIR): string {
  const root = path.resolve(outputDir, folder);
  const dataDir = path.join(root, 'data');
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  const evaluations = run.evaluations.map((e, n) => {
    const d = details(outputDir, e, n, dataDir);
    writeTextAtomic(path.join(dataDir, String(n), 'eval.js'), `window.__cookieEvalLoaded(${n}, ${scriptJson(d)});\n`);
    const { artifactPath: _a, suiteFile: _s, ...rest } = e;
    const v = verdictOf(e);
    const worst = rankDefects(e.defects)[0];
    return { ...rest, n, verdict: v.verdict, why: v.why, worst: worst ? e.defects.indexOf(worst) : -1, rank: rankDefects(e.defects).map((x) => e.defects.indexOf(x)) };
  });
  // the leaderboard is computed in the page (it filters) from one trial mean per query × candidate, never from the trials themselves
  const trials = runTrials(run, (run.config as { trials?: { unstableMargin?: number } } | null)?.trials?.unstableMargin);
  const board = trialMeans(run.evaluations, trials).map(({ candidate, mode, queryId, status, scores, unstable, usage, judgeStages, generation, query, trialSummary }) => ({ candidate, mode, queryId, status, scores, unstable, usage, judgeStages, generation, query, trialSummary }));
  const summary = { run: { cookieVersion: run.cookieVersion, browserVersion: run.browserVersion, startedAt: run.startedAt, evaluations: run.evaluations.length }, evaluations, trials: trials.map((t) => ({ ...t, reason: unstableReason(t), line: describeTrials(t) })), board };
  const aggregate = fs.readFileSync(path.join(HERE, 'aggregate.js'), 'utf8').replace(/^export\s+/gm, '');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Cookie report</title><style>${fs.readFileSync(path.join(HERE, 'style.css'), 'utf8')}</style></head>
<body><div id="app"></div>
<script id="cookie-data" type="application/json">${scriptJson(summary)}</script>
<script>${aggregate}</script>
<script>${fs.readFileSync(path.join(HERE, 'app.js'), 'utf8')}</script>
</body></html>
`;
  const index = path.join(root, 'index.html');
  writeTextAtomic(index, html);
  return index;
}

/** `--reporter html`: writes the report folder when the run ends. */
export class HtmlReporter implements Reporter {
  constructor(private readonly opts: HtmlReporterOptions = {}) {}

  onRunEnd(run: RunResults, outputDir: string): void {
    const index = writeHtmlReport(run, outputDir, this.opts.outputFolder ?? REPORT_DIR);
    announce(run, 'HTML report', index, `(cookie show-report ${path.relative(process.cwd(), outputDir) || '.'})`);
  }
}
