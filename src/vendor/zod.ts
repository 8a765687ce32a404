// zod, as Cookie imports it. The build (scripts/bundle-vendor.mjs) replaces this module's compiled file with
// zod bundled into one file: loaded as its ~90 ES modules, zod 4 costs 65–80 ms at every start of the CLI
// (config and spec validation need it before anything else), bundled 25 ms. Same code, packed; under Vitest
// this file re-exports the package itself. Every module of Cookie imports zod from here, never from 'zod'
// (test/unit/vendor.test.ts), so one copy of its classes is ever loaded.

/** zod's namespace (`z.object`, `z.infer`, …): https://zod.dev. */
export { z } from 'zod';
