import pc from 'picocolors';
import { DEFAULT_UNSTABLE_MARGIN, formatSpread, runTrials, summarizeTrials, unstableReason } from '../src/runner/trials.js';
import type { EvaluationResult, EvaluationTask, Reporter, RunResults, RunStartInfo, Stage, TrialSummary } from '../src/types.js';

/** Options of the console reporter. */
export interface ConsoleReporterOptions {
  /** Stream to write to (default process.stdout). */
  stream?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Off a TTY: print a heartbeat line when nothing was printed for this long, ms (default 30,000). */
  heartbeatMs?: number;
  /** On a TTY: how often the live line is redrawn so elapsed times move, ms (default 1,000). */
  refreshMs?: number;
}

/** A running evaluation as the live line shows it. */
interface Running {
  stage: Stage;
  step?: number;
  budget?: number;
  startedAt: number;
}

/** Seconds as `42s` or `3m05s`. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

const fmt = (x: number | undefined | null) => (x === null || x === undefined ? '  –  ' : x.toFixed(1).padStart(5));
const width = (s: string) => [...s].reduce((w, c) => w + (/[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(c) ? 2 : 1), 0);
const pad = (s: string, n: number) => {
  let out = s;
  while (width(out) > n) out = out.slice(0, -1);
  return out + ' '.repeat(Math.max(0, n - width(out)));
};

/** Colour a status word. */
function statusWord(r: EvaluationResult): string {
  if (r.expectStatus && r.expectStatus !== 'scored') return r.passed ? pc.green(`${r.status} (expected)`) : pc.red(`${r.status} (expected ${r.expectStatus})`);
  if (r.status === 'error') return pc.red(`error (${r.error?.stage})`);
  if (r.status === 'build-failed') return pc.red('build-failed');
  if (r.status === 'generation-failed') return pc.red('generation-failed');
  return r.passed ? pc.green('pass') : pc.yellow('below threshold');
}

/**
 * The default reporter. While evaluations run: on a TTY, a live line rewritten in place with each running
 * evaluation's stage, interaction step n/N and elapsed time, and an ETA for the run (mean time of the
 * evaluations finished so far × what is left ÷ concurrency); off a TTY (CI logs), one line per finished
 * evaluation and a heartbeat line with the same facts whenever nothing was printed for `heartbeatMs`
 * (30 s), so a long evaluation never looks hung. Then a summary table of candidate × query with Functionality,
 * Aesthetics and Total (0–100), defect counts by severity (critical/major/minor) and the status.
 *
 * With repeated trials (`--repeat-each n`): a trial's line ends with `⚠ unstable: …` (the range of the totals
 * so far and the margin) once the trials finished so far disagree by more than `trials.unstableMargin`; the
 * summary table has one row per candidate × query with the trial means of F and A, the total as mean ±
 * standard deviation, its min–max range, the trials passed (k/n) and `⚠ unstable` with the reason; the
 * last line counts the unstable evaluations.
 */
export class ConsoleReporter implements Reporter {
  private readonly out: NonNullable<ConsoleReporterOptions['stream']>;
  private total = 0;
  private done = 0;
  private concurrency = 1;
  private readonly running = new Map<string, Running>();
  private readonly durations: number[] = [];
  private started = Date.now();
  private lastWrite = Date.now();
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly heartbeatMs: number;
  private readonly refreshMs: number;
  /** Unstable margin (`trials.unstableMargin`, points on 0–100) and the finished trials of each repeated evaluation. */
  private margin = DEFAULT_UNSTABLE_MARGIN;
  private readonly trials = new Map<string, EvaluationResult[]>();

  constructor(opts: ConsoleReporterOptions = {}) {
    this.out = opts.stream ?? process.stdout;
    this.heartbeatMs = opts.heartbeatMs ?? 30_000;
    this.refreshMs = opts.refreshMs ?? 1000;
  }

  /** Write a line (or more) and remember when, for the heartbeat. */
  private write(text: string): void {
    this.out.write(text);
    this.lastWrite = Date.now();
  }

  /** ETA of the run in ms, or null before any evaluation finished. */
  eta(now = Date.now()): number | null {
    if (!this.durations.length) return null;
    const mean = this.durations.reduce((a, b) => a + b, 0) / this.durations.length;
    const queued = Math.max(0, this.total - this.done - this.running.size);
    const left = [...this.running.values()].reduce((s, r) => s + Math.max(0, mean - (now - r.startedAt)), 0) + queued * mean;
    return left / Math.max(1, Math.min(this.concurrency, this.total - this.done));
  }

  /** The progress facts: `3/12 done · ETA 2m10s · q/c interact 5/25 12s · …`. */
  status(now = Date.now()): string {
    const eta = this.eta(now);
    const runs = [...this.running.entries()].map(([id, r]) => `${id} ${r.stage}${r.stage === 'interact' && r.step ? ` ${r.step}/${r.budget}` : ''} ${duration(now - r.startedAt)}`);
    return `${this.done}/${this.total} done · ETA ${eta === null ? '–' : duration(eta)} · ${runs.join(' · ') || 'idle'}`;
  }

  private tick(): void {
    if (!this.running.size) return;
    if (this.tty) this.progress();
    else if (Date.now() - this.lastWrite >= this.heartbeatMs) this.write(`${pc.dim('…')} ${this.status()} (${duration(Date.now() - this.started)} elapsed)\n`);
  }

  private get tty(): boolean {
    return !!this.out.isTTY;
  }

  onRunStart(info: RunStartInfo): void {
    this.total = info.tasks.length;
    this.started = Date.now();
    this.concurrency = Number((info.config as { concurrency?: unknown } | null)?.concurrency) || 1;
    const margin = (info.config as { trials?: { unstableMargin?: unknown } } | null)?.trials?.unstableMargin;
    this.margin = typeof margin === 'number' ? margin : DEFAULT_UNSTABLE_MARGIN;
    this.trials.clear();
    this.timer ??= setInterval(() => this.tick(), this.tty ? this.refreshMs : Math.min(this.heartbeatMs, 5000));
    this.timer.unref?.();
    this.write(`${pc.bold('cookie')} evaluating ${this.total} query × candidate pair${this.total === 1 ? '' : 's'} → ${info.outputDir}\n`);
  }

  onEvaluationStart(task: EvaluationTask): void {
    this.running.set(task.id, { stage: 'deploy', startedAt: Date.now() });
    this.progress();
  }

  onStageStart(task: EvaluationTask, stage: Stage): void {
    const r = this.running.get(task.id) ?? { stage, startedAt: Date.now() };
    this.running.set(task.id, { ...r, stage, step: undefined, budget: undefined });
    this.progress();
  }

  onStep(task: EvaluationTask, step: number, budget: number): void {
    const r = this.running.get(task.id);
    if (!r) return;
    Object.assign(r, { step, budget });
    this.progress();
  }

  onEvaluationEnd(r: EvaluationResult): void {
    this.done++;
    if (this.running.delete(r.id) && !r.cached && r.timings.total) this.durations.push(r.timings.total);
    if (this.tty) this.out.write('\r\x1b[2K');
    const sev = counts(r);
    const score = r.scores ? `F ${fmt(r.scores.functionality)}  A ${fmt(r.scores.aesthetics)}  T ${fmt(r.scores.total)}` : r.error ? (r.passed ? r.error.message.slice(0, 100) : pc.red(r.error.message.slice(0, 100))) : '';
    this.write(`${pc.dim(`[${this.done}/${this.total}]`)} ${r.id}  ${score}  ${sev.critical ? pc.red(`${sev.critical}C `) : ''}${sev.major ? pc.yellow(`${sev.major}M `) : ''}${sev.minor ? `${sev.minor}m ` : ''}${statusWord(r)} ${r.cached ? pc.dim('cached') : pc.dim(`${((r.timings.total ?? 0) / 1000).toFixed(1)}s`)}${this.trialMark(r)}\n`);
    this.progress();
  }

  /** For a trial: `  ⚠ unstable: …` when the trials of its evaluation finished so far are unstable, else nothing. */
  private trialMark(r: EvaluationResult): string {
    if (!r.trial) return '';
    const group = [...(this.trials.get(r.trial.baseId) ?? []), r];
    this.trials.set(r.trial.baseId, group);
    const [s] = summarizeTrials(group, this.margin);
    return s?.unstable ? `  ${pc.yellow(`⚠ unstable: ${unstableReason(s)}`)}` : '';
  }

  onError(message: string): void {
    if (this.tty) this.out.write('\r\x1b[2K');
    // a note (what a setting means, how to add the offline CDN) is information, not a failure
    const mark = message.startsWith('warning:') ? pc.yellow('!') : message.startsWith('note:') ? pc.cyan('i') : pc.red('✗');
    this.write(message.split('\n').map((l) => `${mark} ${l}`).join('\n') + '\n');
  }

  private progress(): void {
    if (!this.tty || !this.running.size) return;
    const line = `▶ ${this.status()}`;
    this.out.write(`\r\x1b[2K${pc.cyan(line.slice(0, (this.out.columns ?? 100) - 1))}`);
  }

  onRunEnd(run: RunResults): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.tty) this.out.write('\r\x1b[2K');
    if (run.stoppedEarly) this.out.write(`${pc.yellow('!')} stopped early (${run.stoppedEarly.reason}): ${run.stoppedEarly.notRun} evaluation${run.stoppedEarly.notRun === 1 ? '' : 's'} not run\n`);
    const rows = run.evaluations;
    if (!rows.length) {
      this.out.write('No evaluations.\n');
      return;
    }
    const cw = Math.min(28, Math.max(9, ...rows.map((r) => width(r.candidate))));
    const qw = Math.min(30, Math.max(5, ...rows.map((r) => width(r.queryId))));
    const trials = runTrials(run, this.margin);
    if (trials.length) this.trialTable(run, trials, cw, qw);
    else this.resultTable(rows, cw, qw);
    const scored = rows.filter((r) => r.status === 'scored');
    const passed = rows.filter((r) => r.passed).length;
    const errors = rows.filter((r) => r.status === 'error').length;
    const cachedN = rows.filter((r) => r.cached).length;
    const mean = scored.length ? scored.reduce((s, r) => s + r.scores!.total, 0) / scored.length : 0;
    const secs = ((Date.now() - this.started) / 1000).toFixed(1);
    const unstable = trials.filter((t) => t.unstable).length;
    const trialNote = trials.length ? ` (${trials.length} candidate × query × ${Math.max(...trials.map((t) => t.n))} trials) ` : ' ';
    this.out.write(
      `\n${pc.bold('Evaluations')} ${rows.length}${trialNote}· ${pc.green(`${passed} passed`)} · ${rows.length - passed - errors ? pc.yellow(`${rows.length - passed - errors} below threshold`) : '0 below threshold'} · ${errors ? pc.red(`${errors} errors`) : '0 errors'} · mean total ${mean.toFixed(1)}${trials.length ? ` · ${unstable ? pc.yellow(`${unstable} unstable`) : '0 unstable'} (margin ${trials[0]!.margin})` : ''}${cachedN ? ` · ${cachedN} cached` : ''} · ${secs}s\n`,
    );
  }

  /** The summary table of an unrepeated run: one row per result. */
  private resultTable(rows: EvaluationResult[], cw: number, qw: number): void {
    const header = `${pad('candidate', cw)}  ${pad('query', qw)}  ${'F'.padStart(5)}  ${'A'.padStart(5)}  ${'Total'.padStart(5)}  crit  major  minor  status`;
    this.out.write(`\n${pc.bold(header)}\n${'─'.repeat(width(header) + 8)}\n`);
    for (const r of [...rows].sort((a, b) => a.candidate.localeCompare(b.candidate) || a.queryId.localeCompare(b.queryId))) {
      const s = counts(r);
      this.out.write(
        `${pad(r.candidate, cw)}  ${pad(r.queryId, qw)}  ${fmt(r.scores?.functionality)}  ${fmt(r.scores?.aesthetics)}  ${fmt(r.scores?.total)}  ${String(s.critical).padStart(4)}  ${String(s.major).padStart(5)}  ${String(s.minor).padStart(5)}  ${statusWord(r)}\n`,
      );
    }
  }

  /**
   * The summary table of a repeated run: one row per candidate × query (an unrepeated result in it is a
   * row of one trial) with the trial means of F and A, total mean ± sd, its range, trials passed and
   * `⚠ unstable` with the reason.
   */
  private trialTable(run: RunResults, trials: TrialSummary[], cw: number, qw: number): void {
    const groups = new Map(trials.map((t) => [t.id, run.evaluations.filter((e) => e.trial?.baseId === t.id)]));
    const single = run.evaluations.filter((e) => !e.trial).map((e) => ({ id: e.id, summary: summarizeTrials([{ ...e, trial: { index: 1, of: 1, baseId: e.id } }], this.margin)[0]! }));
    const rows = [...trials.map((t) => ({ id: t.id, summary: t })), ...single];
    const header = `${pad('candidate', cw)}  ${pad('query', qw)}  ${'F'.padStart(5)}  ${'A'.padStart(5)}  ${pad('Total ± sd', 13)}  ${pad('range', 11)}  passed  stability`;
    this.out.write(`\n${pc.bold(header)}\n${'─'.repeat(width(header) + 8)}\n`);
    for (const { id, summary: t } of rows.sort((a, b) => a.summary.candidate.localeCompare(b.summary.candidate) || a.summary.queryId.localeCompare(b.summary.queryId))) {
      const rs = groups.get(id) ?? run.evaluations.filter((e) => e.id === id);
      const passed = `${rs.filter((r) => r.passed).length}/${t.n}`;
      const range = t.total ? `${t.total.min.toFixed(1)}–${t.total.max.toFixed(1)}` : '–';
      const flag = t.unstable ? pc.yellow(`⚠ unstable: ${unstableReason(t)}`) : t.n > 1 ? pc.green('stable') : pc.dim('1 trial');
      this.out.write(`${pad(t.candidate, cw)}  ${pad(t.queryId, qw)}  ${fmt(t.functionality?.mean)}  ${fmt(t.aesthetics?.mean)}  ${pad(t.total ? formatSpread(t.total) : '–', 13)}  ${pad(range, 11)}  ${passed.padStart(6)}  ${flag}\n`);
    }
  }
}

function counts(r: EvaluationResult): Record<'critical' | 'major' | 'minor', number> {
  const c = { critical: 0, major: 0, minor: 0 };
  for (const d of r.defects) c[d.severity]++;
  return c;
}
