import pc from 'picocolors';
import type { EvaluationResult, EvaluationTask, Reporter, RunResults, RunStartInfo, Stage } from '../src/types.js';

/** Options of the console reporter. */
export interface ConsoleReporterOptions {
  /** Stream to write to (default process.stdout). */
  stream?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
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
 * The default reporter: a live progress line while evaluations run (rewritten in place on a TTY, one line
 * per finished evaluation otherwise), then a summary table of candidate × query with Functionality,
 * Aesthetics and Total (0–100), defect counts by severity (critical/major/minor) and the status.
 */
export class ConsoleReporter implements Reporter {
  private readonly out: NonNullable<ConsoleReporterOptions['stream']>;
  private total = 0;
  private done = 0;
  private readonly running = new Map<string, string>();
  private started = Date.now();

  constructor(opts: ConsoleReporterOptions = {}) {
    this.out = opts.stream ?? process.stdout;
  }

  private get tty(): boolean {
    return !!this.out.isTTY;
  }

  onRunStart(info: RunStartInfo): void {
    this.total = info.tasks.length;
    this.started = Date.now();
    this.out.write(`${pc.bold('cookie')} evaluating ${this.total} query × candidate pair${this.total === 1 ? '' : 's'} → ${info.outputDir}\n`);
  }

  onEvaluationStart(task: EvaluationTask): void {
    this.running.set(task.id, 'deploy');
    this.progress();
  }

  onStageStart(task: EvaluationTask, stage: Stage): void {
    this.running.set(task.id, stage);
    this.progress();
  }

  onEvaluationEnd(r: EvaluationResult): void {
    this.done++;
    this.running.delete(r.id);
    if (this.tty) this.out.write('\r\x1b[2K');
    const sev = counts(r);
    const score = r.scores ? `F ${fmt(r.scores.functionality)}  A ${fmt(r.scores.aesthetics)}  T ${fmt(r.scores.total)}` : r.error ? (r.passed ? r.error.message.slice(0, 100) : pc.red(r.error.message.slice(0, 100))) : '';
    this.out.write(`${pc.dim(`[${this.done}/${this.total}]`)} ${r.id}  ${score}  ${sev.critical ? pc.red(`${sev.critical}C `) : ''}${sev.major ? pc.yellow(`${sev.major}M `) : ''}${sev.minor ? `${sev.minor}m ` : ''}${statusWord(r)} ${r.cached ? pc.dim('cached') : pc.dim(`${((r.timings.total ?? 0) / 1000).toFixed(1)}s`)}\n`);
    this.progress();
  }

  onError(message: string): void {
    if (this.tty) this.out.write('\r\x1b[2K');
    const mark = message.startsWith('warning:') ? pc.yellow('!') : pc.red('✗');
    this.out.write(message.split('\n').map((l) => `${mark} ${l}`).join('\n') + '\n');
  }

  private progress(): void {
    if (!this.tty || !this.running.size) return;
    const [id, stage] = [...this.running.entries()][0]!;
    const line = `${pc.cyan('▶')} ${this.done}/${this.total} done · ${id} · ${stage}${this.running.size > 1 ? ` (+${this.running.size - 1} running)` : ''}`;
    this.out.write(`\r\x1b[2K${line.slice(0, (this.out.columns ?? 100) - 1)}`);
  }

  onRunEnd(run: RunResults): void {
    if (this.tty) this.out.write('\r\x1b[2K');
    const rows = run.evaluations;
    if (!rows.length) {
      this.out.write('No evaluations.\n');
      return;
    }
    const cw = Math.min(28, Math.max(9, ...rows.map((r) => width(r.candidate))));
    const qw = Math.min(30, Math.max(5, ...rows.map((r) => width(r.queryId))));
    const header = `${pad('candidate', cw)}  ${pad('query', qw)}  ${'F'.padStart(5)}  ${'A'.padStart(5)}  ${'Total'.padStart(5)}  crit  major  minor  status`;
    this.out.write(`\n${pc.bold(header)}\n${'─'.repeat(width(header) + 8)}\n`);
    for (const r of [...rows].sort((a, b) => a.candidate.localeCompare(b.candidate) || a.queryId.localeCompare(b.queryId))) {
      const s = counts(r);
      this.out.write(
        `${pad(r.candidate, cw)}  ${pad(r.queryId, qw)}  ${fmt(r.scores?.functionality)}  ${fmt(r.scores?.aesthetics)}  ${fmt(r.scores?.total)}  ${String(s.critical).padStart(4)}  ${String(s.major).padStart(5)}  ${String(s.minor).padStart(5)}  ${statusWord(r)}\n`,
      );
    }
    const scored = rows.filter((r) => r.status === 'scored');
    const passed = rows.filter((r) => r.passed).length;
    const errors = rows.filter((r) => r.status === 'error').length;
    const cachedN = rows.filter((r) => r.cached).length;
    const mean = scored.length ? scored.reduce((s, r) => s + r.scores!.total, 0) / scored.length : 0;
    const secs = ((Date.now() - this.started) / 1000).toFixed(1);
    this.out.write(
      `\n${pc.bold('Evaluations')} ${rows.length} · ${pc.green(`${passed} passed`)} · ${rows.length - passed - errors ? pc.yellow(`${rows.length - passed - errors} below threshold`) : '0 below threshold'} · ${errors ? pc.red(`${errors} errors`) : '0 errors'} · mean total ${mean.toFixed(1)}${cachedN ? ` · ${cachedN} cached` : ''} · ${secs}s\n`,
    );
  }
}

function counts(r: EvaluationResult): Record<'critical' | 'major' | 'minor', number> {
  const c = { critical: 0, major: 0, minor: 0 };
  for (const d of r.defects) c[d.severity]++;
  return c;
}
