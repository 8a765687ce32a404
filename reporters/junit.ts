import path from 'node:path';
import junitModule from 'junit-report-builder';
import type { EvaluationResult, Reporter, RunResults } from '../src/types.js';
import { writeTextAtomic } from '../src/util/atomic.js';

/** Options of the junit reporter. */
export interface JunitReporterOptions {
  /** File to write, relative to the output dir (default `junit.xml`). */
  outputFile?: string;
}

type Builder = (typeof junitModule)['default'];
/** The package is CommonJS: at runtime the default import is the builder itself, whatever the typings say. */
const junitBuilder: Builder = ((junitModule as unknown as { default?: Builder }).default?.newBuilder ? (junitModule as unknown as { default: Builder }).default : (junitModule as unknown as Builder));

function thresholdText(r: EvaluationResult): string {
  const t = r.thresholds;
  return (['functionality', 'aesthetics', 'total'] as const)
    .filter((k) => t[k] !== undefined && (r.scores?.[k] ?? -1) < t[k]!)
    .map((k) => `${k} ${r.scores?.[k] ?? '–'} < ${t[k]}`)
    .join(', ');
}

/**
 * JUnit XML for any CI (built with junit-report-builder): one testsuite per spec file, one testcase per
 * query × candidate (classname = query id, name = candidate). A result below its thresholds or not scored
 * (build-failed) is a <failure>; an evaluation Cookie could not finish (status error) is an <error>, so CI
 * tells the model's failures from the harness's. One that ended with the status its spec expects
 * (`expectStatus`, e.g. a candidate meant not to build) passes. The defects and scores are in system-out.
 */
export class JunitReporter implements Reporter {
  constructor(private readonly opts: JunitReporterOptions = {}) {}

  /** Build the XML text for a run (exposed for tests). */
  static build(run: RunResults): string {
    const builder = junitBuilder.newBuilder();
    const bySuite = new Map<string, EvaluationResult[]>();
    for (const r of run.evaluations) bySuite.set(r.suiteFile, [...(bySuite.get(r.suiteFile) ?? []), r]);
    for (const [file, results] of bySuite) {
      const suite = builder.testSuite().name(`cookie: ${path.basename(file)}`);
      for (const r of results) {
        const tc = suite.testCase().className(r.queryId).name(r.candidate).file(file).time((r.timings.total ?? 0) / 1000);
        const lines = [
          r.scores ? `scores (0-100): functionality ${r.scores.functionality}, aesthetics ${r.scores.aesthetics}, total ${r.scores.total}` : 'not scored',
          ...r.defects.map((d) => `[${d.severity}/${d.dimension}] ${d.title}: ${d.detail}`),
          `evidence: ${r.evidenceDir}`,
        ];
        // an evaluation that ended with the status its spec expects (`expectStatus`) passes, as in the console
        if (r.passed) {
          if (r.status !== 'scored') lines.unshift(`${r.status} as expected: ${r.error?.message ?? r.build?.summary ?? ''}`);
        } else if (r.status === 'error') tc.error(`${r.error?.stage}: ${r.error?.message}`, 'CookieError');
        else if (r.status === 'generation-failed') tc.failure(r.error?.message ?? 'generation failed', 'GenerationFailed');
        else if (r.status === 'build-failed') tc.failure(`${r.build?.step ?? 'build'} failed: ${r.build?.summary ?? r.error?.message ?? ''}`, 'BuildFailed');
        else tc.failure(`below threshold: ${thresholdText(r)}`, 'BelowThreshold');
        tc.standardOutput(lines.join('\n'));
      }
    }
    return builder.build();
  }

  onRunEnd(run: RunResults, outputDir: string): void {
    writeTextAtomic(path.resolve(outputDir, this.opts.outputFile ?? 'junit.xml'), JunitReporter.build(run));
  }
}
