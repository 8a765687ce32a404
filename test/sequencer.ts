import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Longest files first (LPT scheduling over the 2 workers). Vitest orders files by the durations it cached
// from an earlier run; a fresh clone (every CI run) has none, and then it keeps the glob order, which put
// the heaviest file (the containment suite) last, running alone while the other worker idled. These are the
// files that take more than 2 s, with their seconds in an idle fresh-clone run (2 cores, 2026-12-03, 522 s in
// all); every other file runs after them, in glob order. A scheduling hint only: a renamed file just runs
// later, and a file missing here that grew heavy ends the run alone (the perception evidence file did:
// about 45 s of one idle worker at the end), so keep it current.
export const HEAVY: Record<string, number> = {
  'test/containment/containment-pages.test.ts': 110,
  'test/e2e/cache-watch.test.ts': 92,
  'test/e2e/package.test.ts': 85,
  'test/e2e/generate.test.ts': 82,
  'test/e2e/hostile.test.ts': 69,
  'test/e2e/remote-browser.test.ts': 66,
  'test/e2e/agent-protocols.test.ts': 60,
  'test/e2e/perceive-evidence.test.ts': 55,
  'test/e2e/project.test.ts': 49,
  'test/e2e/shard.test.ts': 35,
  'test/e2e/model-agent.test.ts': 31,
  'test/e2e/trials.test.ts': 25,
  'test/e2e/no-ffmpeg.test.ts': 25,
  'test/e2e/perceive-budget.test.ts': 24,
  'test/e2e/containment-projects.test.ts': 21,
  'test/e2e/freeze.test.ts': 20,
  'test/e2e/determinism.test.ts': 19,
  'test/e2e/offline-cdn.test.ts': 18,
  'test/unit/perceive-hang.test.ts': 14,
  'test/e2e/examples.test.ts': 13,
  'test/e2e/report.test.ts': 11,
  'test/unit/spec.test.ts': 11,
  'test/e2e/probe-layout.test.ts': 10,
  'test/e2e/cli-flags.test.ts': 9,
  'test/unit/step.test.ts': 5,
  'test/unit/measure-after.test.ts': 3,
  'test/unit/config.test.ts': 3,
  'test/e2e/browser-pool.test.ts': 3,
  'test/e2e/judge-readback.test.ts': 3,
  'test/unit/input.test.ts': 3,
};

/** Vitest's sequencer; when no file's duration is cached (a fresh clone), the files of {@link HEAVY} first, longest first. */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const rel = (f: TestSpecification) => path.relative(root, f.moduleId).split(path.sep).join('/');
    if (files.some((f) => this.ctx.cache.getFileTestResults(`${f.project.name}:${rel(f)}`))) return super.sort(files);
    const seconds = (f: TestSpecification) => HEAVY[rel(f)] ?? 0;
    return [...files].sort((a, b) => seconds(b) - seconds(a)); // stable: the rest keep the glob order
  }
}
