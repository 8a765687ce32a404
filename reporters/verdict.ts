import type { ConsoleEntry, Defect, EvaluationResult, Evidence, Severity } from '../src/types.js';

/** Severity order, worst first (paper §4.1 Stage 3: critical > major > minor). */
export const SEVERITY_RANK: Record<Severity, number> = { critical: 0, major: 1, minor: 2 };

/**
 * Defects of an evaluation, worst first: by severity (critical, major, minor), then by points deducted on
 * the 0–8 scale (larger first), then in the judge's order. The input is not modified.
 */
export function rankDefects(defects: readonly Defect[]): Defect[] {
  return defects
    .map((d, i) => ({ d, i }))
    .sort((a, b) => SEVERITY_RANK[a.d.severity] - SEVERITY_RANK[b.d.severity] || b.d.deduction - a.d.deduction || a.i - b.i)
    .map((x) => x.d);
}

/** The worst defect of an evaluation (see {@link rankDefects}), or undefined when it has none. */
export function worstDefect(r: Pick<EvaluationResult, 'defects'>): Defect | undefined {
  return rankDefects(r.defects)[0];
}

/** The scores (0–100) below their thresholds, e.g. `["total 42.5 < 70"]`; empty when none is missed or nothing was scored. */
export function thresholdMisses(r: Pick<EvaluationResult, 'scores' | 'thresholds'>): string[] {
  if (!r.scores) return [];
  return (['functionality', 'aesthetics', 'total'] as const).filter((k) => r.thresholds[k] !== undefined && r.scores![k] < r.thresholds[k]!).map((k) => `${k} ${r.scores![k]} < ${r.thresholds[k]}`);
}

/** How an evaluation ended, for people: the verdict word and one line saying why. */
export interface Verdict {
  /** `pass`: scored and every threshold met (or ended with its expected status); `fail`: the candidate's fault (below threshold, not built); `error`: Cookie could not finish the evaluation. */
  verdict: 'pass' | 'fail' | 'error';
  /** One line: which thresholds were missed, the build cause, or the stage error. */
  why: string;
}

/**
 * The verdict of one evaluation against its thresholds (0–100). A result that ended with the status its
 * spec expects (`expectStatus`) passes.
 */
export function verdictOf(r: EvaluationResult): Verdict {
  if (r.passed) {
    if (r.status !== 'scored') return { verdict: 'pass', why: `${r.status} as expected${r.build ? `: ${r.build.summary}` : r.error ? `: ${r.error.message}` : ''}` };
    const t = (['functionality', 'aesthetics', 'total'] as const).filter((k) => r.thresholds[k] !== undefined).map((k) => `${k} ${r.scores![k]} ≥ ${r.thresholds[k]}`);
    return { verdict: 'pass', why: t.length ? t.join(', ') : 'scored (no threshold set)' };
  }
  if (r.status === 'build-failed') return { verdict: 'fail', why: `${r.build?.step ?? 'build'} failed: ${r.build?.summary ?? r.error?.message ?? ''}` };
  if (r.status === 'error') return { verdict: 'error', why: `${r.error?.stage ?? 'evaluation'}: ${r.error?.message ?? 'did not finish'}` };
  if (r.expectStatus && r.expectStatus !== r.status) return { verdict: 'fail', why: `ended ${r.status}, expected ${r.expectStatus}` };
  return { verdict: 'fail', why: `below threshold: ${thresholdMisses(r).join(', ') || 'not scored'}` };
}

/**
 * A source location `file:line[:column]` from a stack line or console location of the app, with the file
 * relative to the app's web root (e.g. `at HTMLButtonElement.<anonymous> (http://127.0.0.1:41234/buggy.html:24:40)`
 * → `buggy.html:24:40`). Locations outside the app's origin (a CDN copy) keep their host.
 * @param where the stack line or location text
 * @param origin the app's origin (`http://127.0.0.1:41234`), when known
 * @param entry the entry document's path below the root, used when the URL is the root itself
 * @returns the location, or undefined when the text holds no URL with a line number
 */
export function sourceLocation(where: string | undefined, origin?: string, entry?: string): string | undefined {
  const m = where?.match(/(https?:\/\/[^\s()]+?):(\d+)(?::(\d+))?(?=\)|\s|$)/);
  if (!m) return undefined;
  let file: string;
  try {
    const u = new URL(m[1]!);
    file = origin && u.origin === origin ? decodeURIComponent(u.pathname).replace(/^\/+/, '') || entry || 'index.html' : `${u.host}${u.pathname}`;
  } catch {
    return undefined;
  }
  return `${file}:${m[2]}${m[3] ? `:${m[3]}` : ''}`;
}

/**
 * The console entry (uncaught exception or console error of the app) a defect cites: the one of its
 * interaction step whose text matches the defect's excerpt or appears in its detail; for a static defect, the
 * entry matching its excerpt or detail. Never a guess: undefined when no entry matches.
 */
export function errorOfDefect(d: Defect, ev: Pick<Evidence, 'pageErrors' | 'consoleErrors' | 'interaction'> | null): ConsoleEntry | undefined {
  if (!ev) return undefined;
  const ex = d.evidence.excerpt?.trim();
  const same = (e: ConsoleEntry) => (!!ex && (e.text.startsWith(ex) || ex.startsWith(e.text))) || d.detail.includes(e.text.slice(0, 120));
  const step = d.evidence.step !== undefined ? ev.interaction?.steps.find((s) => s.index === d.evidence.step) : undefined;
  if (step) {
    const errs = [...step.pageErrors, ...step.consoleErrors].filter((e) => e.origin === 'app');
    return errs.find(same);
  }
  return [...ev.pageErrors, ...ev.consoleErrors].find((e) => e.origin === 'app' && same(e));
}
