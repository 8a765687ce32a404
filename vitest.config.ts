import { defineConfig } from 'vitest/config';
import { TEST_TIMEOUT } from './test/helpers.js';
import LongestFirst from './test/sequencer.js';

// Unit tests are fast; e2e tests drive the real CLI and Chromium. Their limits only catch a runaway (Cookie
// time-boxes every stage itself), so they are generous and scale with COOKIE_TEST_TIME_SCALE on a busy
// machine (see test/helpers.ts).
export default defineConfig({
  test: {
    // the judge-precision suite (test/precision, 80+ pages) is its own run: npm run test:precision
    include: ['test/unit/**/*.test.ts', 'test/e2e/**/*.test.ts', 'test/containment/**/*.test.ts'],
    // the CLI the e2e tests spawn runs the compiled dist/: built once here when stale
    globalSetup: ['test/global-setup.ts'],
    testTimeout: TEST_TIMEOUT,
    hookTimeout: TEST_TIMEOUT,
    pool: 'forks',
    maxWorkers: 2,
    // heaviest files first on a fresh clone (test/sequencer.ts)
    sequence: { sequencer: LongestFirst },
    reporters: ['default'],
  },
});
