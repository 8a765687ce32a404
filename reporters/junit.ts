import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type junitModule from 'junit-report-builder';
import type { EvaluationResult, Reporter, RunResults } from '../src/types.js';
import { describeTrials, formatSpread, runTrials, unstableReason } from '../src/runner/trials.js';
import { announce } from './announce.js';
import { writeTextAtomic } from '../src/util/atomic.js';
import { rankDefects, verdictOf, worstDefect } from './verdict.js';

/** Options of the junit reporter. */
export interface JunitReporterOptions {
  /** File to write, relative to the output dir (default `junit.xml`); an absolute path is kept. */
  outputFile?: string;
  /** Folder `file` attributes and attachment paths are relative to (default: the working directory). */
  cwd?: string;
}

/** Options of {@link JunitReporter.build}. */
export interface JunitBuildOptions {
  /** Output dir of the run: attachments are looked up below it (absent: no attachments). */
  outputDir?: string;
  /** Folder `file` attributes and attachment paths are relative to (default: the working directory, as CI expects). */
  cwd?: string;
}

type Builder = (typeof junitModule)['default'];
/**
 * The package (CommonJS: the module is the builder itself, whatever the typings say), loaded when a report is
 * built: it costs about 0.3 s of start-up, and most runs have no junit reporter.
 */
function junitBuilder(): Builder {
  const m = createRequire(import.meta.url)('junit-report-builder') as { default?: Builder } & Builder;
  return m.default?.newBuilder ? m.default : m;
}

/**
 * Text safe inside XML CDATA: xmlbuilder escapes only the first `]]>` of a section, and XML 1.0 forbids most
 * control characters (which a page's console output may hold).
 */
const xmlText = (s: string) => s.replaceAll(']]>', ']] >').replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '�');

const rel = (cwd: string, p: string) => path.relative(cwd, p).split(path.sep).join('/') || '.';

/**
 * Files CI should attach to a testcase (Jenkins junit-attachments / GitLab `[[ATTACHMENT|path]]`
 * convention), relative to `cwd`: the screenshots the worst defects cite, the 1280-px screenshot and the
 * interaction video; only files that exist.
 */
function attachments(r: EvaluationResult, outputDir: string, cwd: string): string[] {
  const dir = path.join(outputDir, r.evidenceDir);
  const files = [...rankDefects(r.defects).slice(0, 3).map((d) => d.evidence.screenshot), 'screenshots/viewport-1280.png', 'video.mp4'].filter((f): f is string => !!f);
  return [...new Set(files)].map((f) => path.join(dir, f)).filter((f) => fs.existsSync(f)).map((f) => rel(cwd, f));
}

/**
 * JUnit XML for any CI (built with junit-report-builder; valid against the schema Jenkins and GitLab read,
 * see test/fixtures/junit.xsd): one testsuite per spec file (with `time` in s and `timestamp` of the run's
 * start), one testcase per query × candidate (classname = query id, name = candidate, `file` = the spec,
 * relative to the working directory). A result below its thresholds or not built is a `<failure>` whose
 * message is the worst defect (or the missed thresholds) and whose body lists every defect with its
 * severity; an evaluation Cookie could not finish is an `<error>`; a spec file that could not be loaded is
 * an `<error>` testcase of its own suite, so CI counts it. One that ended with the status its spec expects
 * (`expectStatus`) passes. Scores, defects and `[[ATTACHMENT|path]]` lines (key screenshots, video) are in
 * system-out.
 *
 * Repeated trials (`--repeat-each n`): one testcase per trial, named `<candidate> [trial k/n]`, each with
 * testcase `<properties>` (as Playwright's JUnit reporter writes a test's annotations): `trial` (`k/n`),
 * `trials.total` (mean ± sd of the evaluation's totals, 0–100, with min and max) and, when its trials are
 * unstable, `unstable` (why: the range of the totals against the margin, or trials not scored); its
 * system-out starts with the same line (`unstable: total 70.0 ± 14.1 over 2 trials, range 60.0–80.0 …`).
 * An unstable trial is not a failure by itself: pass or fail is still its own verdict.
 */
export class JunitReporter implements Reporter {
  constructor(private readonly opts: JunitReporterOptions = {}) {}

  /** Build the XML text for a run (exposed for tests). */
  static build(run: RunResults, o: JunitBuildOptions = {}): string {
    const cwd = o.cwd ?? process.cwd();
    const builder = junitBuilder().newBuilder();
    const trials = new Map(runTrials(run, (run.config as { trials?: { unstableMargin?: number } } | null)?.trials?.unstableMargin).map((t) => [t.id, t]));
    const bySuite = new Map<string, EvaluationResult[]>();
    for (const r of run.evaluations) bySuite.set(r.suiteFile, [...(bySuite.get(r.suiteFile) ?? []), r]);
    for (const [file, results] of bySuite) {
      const suite = builder
        .testSuite()
        .name(`cookie: ${path.basename(file)}`)
        .timestamp(new Date(run.startedAt || Date.now()))
        .time(results.reduce((s, r) => s + (r.cached ? 0 : (r.timings.total ?? 0)), 0) / 1000);
      for (const r of results) {
        const trial = r.trial ? trials.get(r.trial.baseId) : undefined;
        const tc = suite.testCase().className(r.queryId).name(r.trial ? `${r.candidate} [trial ${r.trial.index}/${r.trial.of}]` : r.candidate).file(rel(cwd, file)).time((r.cached ? 0 : (r.timings.total ?? 0)) / 1000);
        if (r.trial) tc.property('trial', `${r.trial.index}/${r.trial.of}`);
        if (trial?.total) tc.property('trials.total', `${formatSpread(trial.total)} (min ${trial.total.min.toFixed(1)}, max ${trial.total.max.toFixed(1)}, ${trial.scored} of ${trial.n} trials scored)`);
        if (trial?.unstable) tc.property('unstable', unstableReason(trial));
        const defects = rankDefects(r.defects).map((d) => `[${d.severity}/${d.dimension}] ${d.title}${d.deduction ? ` (−${d.deduction})` : ''}: ${d.detail}`);
        const lines = [
          ...(trial ? [`${describeTrials(trial)} (this is trial ${r.trial!.index}/${r.trial!.of})`] : []),
          r.scores ? `scores (0-100): functionality ${r.scores.functionality}, aesthetics ${r.scores.aesthetics}, total ${r.scores.total}` : 'not scored',
          ...defects,
          `evidence: ${o.outputDir ? rel(cwd, path.join(o.outputDir, r.evidenceDir)) : r.evidenceDir}`,
          ...(o.outputDir ? attachments(r, o.outputDir, cwd).map((a) => `[[ATTACHMENT|${a}]]`) : []),
        ];
        const v = verdictOf(r);
        const worst = worstDefect(r);
        if (v.verdict === 'pass') {
          if (r.status !== 'scored') lines.unshift(v.why);
        } else if (v.verdict === 'error') tc.error(xmlText(v.why), 'CookieError', xmlText(defects.join('\n')) || undefined);
        else if (r.status === 'generation-failed') tc.failure(xmlText(r.error?.message ?? 'generation failed'), 'GenerationFailed');
        else if (r.status === 'build-failed') tc.failure(xmlText(v.why), 'BuildFailed').stacktrace(xmlText(r.build?.logTail.slice(-2000) ?? '') || undefined);
        else tc.failure(xmlText(worst ? `${worst.severity}: ${worst.title} (${v.why})` : v.why), 'BelowThreshold').stacktrace(xmlText(defects.length ? defects.join('\n') : v.why));
        tc.standardOutput(xmlText(lines.join('\n')));
      }
    }
    const broken = new Map<string, string[]>();
    for (const e of run.specErrors ?? []) broken.set(e.file, [...(broken.get(e.file) ?? []), e.message]);
    for (const [file, messages] of broken) {
      const suite = builder.testSuite().name(`cookie: ${path.basename(file)}`).timestamp(new Date(run.startedAt || Date.now())).time(0);
      suite.testCase().className('(spec)').name(`${path.basename(file)} could not be loaded`).file(rel(cwd, file)).time(0).error(xmlText(messages[0]!.split('\n')[0]!), 'SpecError', xmlText(messages.join('\n')));
    }
    return builder.build();
  }

  onRunEnd(run: RunResults, outputDir: string): void {
    const file = path.resolve(outputDir, this.opts.outputFile ?? 'junit.xml');
    writeTextAtomic(file, JunitReporter.build(run, { outputDir, cwd: this.opts.cwd }));
    announce(run, 'JUnit report', file);
  }
}
