import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Longest files first (LPT scheduling over the 2 workers). Vitest orders files by the durations it cached
// from an earlier run; a fresh clone (every CI run) has none, and then it keeps the glob order, which put
// the heaviest file (the containment suite, ~165 s) last, running alone while the other worker idled. These
// are the heaviest files by their duration in a full run (2 cores, 2026-12-03), heaviest first; any file not
// listed runs after them. A scheduling hint only: a renamed file just runs later.
const HEAVIEST = [
  'test/containment/containment-pages.test.ts',
  'test/e2e/cache-watch.test.ts',
  'test/e2e/package.test.ts',
  'test/e2e/remote-browser.test.ts',
  'test/e2e/hostile.test.ts',
  'test/e2e/generate.test.ts',
  'test/e2e/agent-protocols.test.ts',
  'test/e2e/shard.test.ts',
  'test/e2e/project.test.ts',
  'test/e2e/model-agent.test.ts',
  'test/e2e/perceive-budget.test.ts',
  'test/e2e/offline-cdn.test.ts',
  'test/e2e/trials.test.ts',
  'test/e2e/no-ffmpeg.test.ts',
  'test/e2e/containment-projects.test.ts',
  'test/e2e/determinism.test.ts',
  'test/e2e/freeze.test.ts',
  'test/e2e/examples.test.ts',
];

/** Vitest's sequencer, with {@link HEAVIEST} first when no file's duration is cached (a fresh clone). */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const rel = (f: TestSpecification) => path.relative(root, f.moduleId).split(path.sep).join('/');
    if (files.some((f) => this.ctx.cache.getFileTestResults(`${f.project.name}:${rel(f)}`))) return super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = HEAVIEST.indexOf(rel(f));
      return i === -1 ? HEAVIEST.length : i;
    };
    return [...files].sort((a, b) => rank(a) - rank(b));
  }
}
