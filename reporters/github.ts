import fs from 'node:fs';
import path from 'node:path';
import { describeTrials, formatSpread, runTrials, unstableReason } from '../src/runner/trials.js';
import type { EvaluationResult, Evidence, Reporter, RunResults, TrialSummary } from '../src/types.js';
import { errorOfDefect, rankDefects, sourceLocation, verdictOf, worstDefect } from './verdict.js';

/** Options of the github reporter. */
export interface GithubReporterOptions {
  /** Environment to read GITHUB_STEP_SUMMARY, GITHUB_WORKSPACE, GITHUB_SERVER_URL, GITHUB_REPOSITORY, GITHUB_RUN_ID from (default process.env). */
  env?: Record<string, string | undefined>;
  /** Where workflow commands (`::error …`) go (default process.stdout: the runner reads the job log). */
  stream?: NodeJS.WritableStream;
  /** Base folder of annotation `file=` paths (default GITHUB_WORKSPACE, else the working directory). */
  cwd?: string;
}

/** Escape a workflow-command message (GitHub Actions toolkit `escapeData`). */
const escData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
/** Escape a workflow-command property (`escapeProperty`: also `:` and `,`). */
const escProp = (s: string) => escData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
/** Escape Markdown table cell text. */
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ').replace(/</g, '&lt;');
const num = (x: number | undefined | null) => (x === null || x === undefined ? '–' : x.toFixed(1));

function readEvidence(outputDir: string, r: EvaluationResult): Evidence | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(outputDir, r.evidenceDir, 'evidence.json'), 'utf8')) as Evidence;
  } catch {
    return null;
  }
}

/**
 * The annotation of one evaluation that did not pass: `::error file=<artifact>,line=…,col=…,title=…::<why>`.
 * The line and column come from the worst defect's source location when it lies in the artifact file
 * itself (e.g. `buggy.html:24:40`); the file is the candidate's artifact relative to `cwd`.
 */
export function annotation(r: EvaluationResult, ev: Evidence | null, cwd: string): string {
  const v = verdictOf(r);
  const worst = worstDefect(r);
  const file = path.relative(cwd, r.artifactPath).split(path.sep).join('/');
  const props = [`file=${escProp(file)}`];
  const err = worst ? errorOfDefect(worst, ev) : undefined;
  const origin = ev?.deploy?.url ? new URL(ev.deploy.url).origin : undefined;
  const loc = err ? sourceLocation(err.location, origin, ev?.deploy?.entry) : undefined;
  const m = loc?.match(/^(.*?):(\d+)(?::(\d+))?$/);
  // a file artifact: its location names the file itself; a folder: the location is below it
  const inArtifact = m && (path.basename(r.artifactPath) === m[1] || fs.existsSync(path.join(r.artifactPath, m[1]!)));
  if (m && inArtifact) {
    if (fs.existsSync(path.join(r.artifactPath, m[1]!)) && !fs.statSync(r.artifactPath).isFile()) props[0] = `file=${escProp(path.relative(cwd, path.join(r.artifactPath, m[1]!)).split(path.sep).join('/'))}`;
    props.push(`line=${m[2]}`);
    if (m[3]) props.push(`col=${m[3]}`);
  }
  const trial = r.trial ? ` (trial ${r.trial.index}/${r.trial.of}${r.unstable ? ', unstable' : ''})` : '';
  props.push(`title=${escProp(`Cookie: ${r.candidate} on ${r.queryId}${trial} ${v.verdict === 'error' ? 'could not be evaluated' : 'failed'}`)}`);
  const msg = [v.why, ...(worst ? [`worst defect: [${worst.severity}] ${worst.title}: ${worst.detail}`] : []), ...(loc ? [`at ${loc}`] : [])].join('\n');
  return `::error ${props.join(',')}::${escData(msg)}`;
}

/**
 * The annotation of one unstable repeated evaluation (once, not per trial):
 * `::warning file=<artifact>,title=Cookie: <candidate> on <query> is unstable::unstable: total 70.0 ± 14.1
 * over 2 trials, range 60.0–80.0 (20.0 points > margin 10)` followed by each trial's total (0–100).
 * @param trials the evaluation's trial results, in order
 */
export function unstableAnnotation(s: TrialSummary, trials: EvaluationResult[], cwd: string): string {
  const artifact = trials[0]?.artifactPath;
  const props = [...(artifact ? [`file=${escProp(path.relative(cwd, artifact).split(path.sep).join('/'))}`] : []), `title=${escProp(`Cookie: ${s.candidate} on ${s.queryId} is unstable`)}`];
  const msg = [describeTrials(s), `trials: ${trials.map((r) => `${r.trial?.index ?? '?'}: ${r.scores ? r.scores.total.toFixed(1) : r.status}`).join(', ')}`].join('\n');
  return `::warning ${props.join(',')}::${escData(msg)}`;
}

/**
 * The Markdown job summary (GitHub Actions `GITHUB_STEP_SUMMARY`): totals, a table of every evaluation
 * (verdict, scores 0–100, worst defect), the worst defects of the failures, and a link to the run's
 * artifacts when the run's URL is known. With repeated trials (`--repeat-each n`): the heading counts the
 * unstable evaluations, each trial's row is named `<candidate> (trial k/n)` and marked `⚠️ unstable`, and a
 * "Trials" table gives per candidate × query the total as mean ± sd, its range, the trials passed and
 * `⚠️ unstable` with the reason (or `stable`).
 */
export function stepSummary(run: RunResults, outputDir: string, env: Record<string, string | undefined> = {}): string {
  const rows = run.evaluations;
  const passed = rows.filter((r) => r.passed).length;
  const errors = rows.filter((r) => verdictOf(r).verdict === 'error').length;
  const failed = rows.length - passed - errors;
  const icon = { pass: '✅', fail: '❌', error: '⚠️' } as const;
  const runUrl = env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}` : null;
  const trials = runTrials(run, (run.config as { trials?: { unstableMargin?: number } } | null)?.trials?.unstableMargin);
  const unstable = trials.filter((t) => t.unstable);
  const name = (r: EvaluationResult) => `${cell(r.candidate)}${r.trial ? ` (trial ${r.trial.index}/${r.trial.of})` : ''}${r.unstable ? ' ⚠️ unstable' : ''}`;
  const out = [
    `## 🍪 Cookie: ${passed} passed, ${failed} failed, ${errors} errors (${rows.length} evaluations${trials.length ? `; ${trials.length} candidate × query, ${unstable.length} unstable` : ''})`,
    '',
    ...(run.specErrors?.length ? [`**${run.specErrors.length} spec file(s) could not be loaded:**`, ...run.specErrors.map((e) => `- \`${cell(e.message.split('\n')[0]!)}\``), ''] : []),
    ...(run.stoppedEarly ? [`**Stopped early** (${run.stoppedEarly.reason}): ${run.stoppedEarly.notRun} evaluation(s) not run.`, ''] : []),
    '| | Query | Candidate | F | A | Total | Worst defect |',
    '|---|---|---|--:|--:|--:|---|',
    ...rows.map((r) => {
      const w = worstDefect(r);
      return `| ${icon[verdictOf(r).verdict]} | ${cell(r.queryId)} | ${name(r)} | ${num(r.scores?.functionality)} | ${num(r.scores?.aesthetics)} | ${num(r.scores?.total)} | ${w ? `**${w.severity}** ${cell(w.title)}` : '–'} |`;
    }),
    '',
  ];
  if (trials.length) {
    out.push(`### Trials (margin ${trials[0]!.margin} points)`, '', '| Query | Candidate | Trials | Total (mean ± sd) | Range | Passed | Stability |', '|---|---|--:|--:|---|--:|---|');
    for (const t of trials) {
      const rs = rows.filter((r) => r.trial?.baseId === t.id);
      out.push(`| ${cell(t.queryId)} | ${cell(t.candidate)} | ${t.n} | ${t.total ? formatSpread(t.total) : '–'} | ${t.total ? `${num(t.total.min)}–${num(t.total.max)}` : '–'} | ${rs.filter((r) => r.passed).length}/${t.n} | ${t.unstable ? `⚠️ **unstable**: ${cell(unstableReason(t))}` : 'stable'} |`);
    }
    out.push('');
  }
  const failures = rows.filter((r) => !r.passed);
  if (failures.length) {
    out.push('### Why they failed', '');
    for (const r of failures.slice(0, 20)) {
      out.push(`<details><summary><b>${name(r)}</b> on <b>${cell(r.queryId)}</b>: ${cell(verdictOf(r).why)}</summary>`, '');
      for (const d of rankDefects(r.defects).slice(0, 5)) out.push(`- **${d.severity}** (${d.dimension}) ${cell(d.title)}: ${cell(d.detail.slice(0, 300))}`);
      out.push(`- evidence: \`${cell(path.join(path.basename(outputDir), r.evidenceDir))}\``, '', '</details>', '');
    }
  }
  out.push(runUrl ? `HTML report: download the artifact of [this run](${runUrl}) and open \`report/index.html\` (or run \`cookie show-report\`).` : `HTML report: \`${path.basename(outputDir)}/report/index.html\` when run with \`--reporter html\`.`, '');
  return out.join('\n');
}

/**
 * `--reporter github` (added by itself when GITHUB_ACTIONS=true, as Vitest does): `::error file=…`
 * annotations for every evaluation below its thresholds or in error, a `::warning file=…` annotation for
 * every unstable repeated evaluation (`--repeat-each`), and, when GITHUB_STEP_SUMMARY is set, a Markdown
 * summary appended to that file.
 */
export class GithubReporter implements Reporter {
  constructor(private readonly opts: GithubReporterOptions = {}) {}

  onRunEnd(run: RunResults, outputDir: string): void {
    const env = this.opts.env ?? process.env;
    const cwd = this.opts.cwd ?? env.GITHUB_WORKSPACE ?? process.cwd();
    const stream = this.opts.stream ?? process.stdout;
    for (const r of run.evaluations.filter((x) => !x.passed)) stream.write(`${annotation(r, readEvidence(outputDir, r), cwd)}\n`);
    for (const t of runTrials(run, (run.config as { trials?: { unstableMargin?: number } } | null)?.trials?.unstableMargin).filter((x) => x.unstable)) {
      stream.write(`${unstableAnnotation(t, run.evaluations.filter((r) => r.trial?.baseId === t.id).sort((a, b) => a.trial!.index - b.trial!.index), cwd)}\n`);
    }
    for (const e of run.specErrors ?? []) stream.write(`::error file=${escProp(path.relative(cwd, e.file).split(path.sep).join('/'))},title=${escProp('Cookie: spec could not be loaded')}::${escData(e.message)}\n`);
    if (env.GITHUB_STEP_SUMMARY) fs.appendFileSync(env.GITHUB_STEP_SUMMARY, stepSummary(run, outputDir, env));
  }
}
