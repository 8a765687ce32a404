import { defineConfig } from 'vitest/config';
import { TEST_TIMEOUT } from './test/helpers.js';
import LongestFirst from './test/sequencer.js';

// Unit tests are fast; e2e tests drive the real CLI and Chromium. Their limits only catch a runaway (Cookie
// time-boxes every stage itself), so they are generous and scale with COOKIE_TEST_TIME_SCALE on a busy
// machine (see test/helpers.ts).
export default defineConfig({
  test: {
    // the CLI the e2e tests spawn runs the compiled dist/: built once here when stale
    globalSetup: ['test/global-setup.ts'],
    testTimeout: TEST_TIMEOUT,
    hookTimeout: TEST_TIMEOUT,
    pool: 'forks',
    maxWorkers: 2,
    // heaviest files first on a fresh clone (test/sequencer.ts)
    sequence: { sequencer: LongestFirst },
    reporters: ['default'],
    // the judge-precision suite (test/precision, 80+ pages) is its own run: npm run test:precision
    projects: [
      // Unit files share their worker's module graph instead of importing Cookie (Playwright, zod, the judge)
      // again per file: 58 files in 24–29 s instead of 48 s, and about 35 s less CPU on a 2-core machine. They
      // keep no state between files: fake timers and spies are restored after each test, and the fixtures'
      // step counter is reset before each (test/setup-unit.ts).
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false, setupFiles: ['test/setup-unit.ts'] } },
      // e2e and containment files start servers, canaries and CLIs: each in a fresh worker
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts', 'test/containment/**/*.test.ts'] } },
    ],
  },
});
