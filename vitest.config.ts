import { defineConfig } from 'vitest/config';

// Unit tests are fast; e2e tests drive the real CLI and Chromium and get generous time limits.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // the CLI the e2e tests spawn runs the compiled dist/: built once here when stale
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
