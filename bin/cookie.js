#!/usr/bin/env node
// Cookie's executable: runs the compiled JavaScript in dist/ (`npm run build`). A TypeScript loader
// (tsx) is used only to import the user's cookie.config.ts and *.cookie.spec.ts, never for Cookie itself.
import fs from 'node:fs';

const main = new URL('../dist/src/cli/main.js', import.meta.url);
if (!fs.existsSync(main)) {
  process.stderr.write('cookie: the compiled code (dist/) is missing. Fix: run `npm run build` in the cookie-eval folder\n');
  process.exit(2);
}
const { main: run } = await import(main.href);
await run(process.argv);
// a finished command exits even if an untrusted page left something pending (watch mode and
// show-report keep running on purpose: they return only when they are stopped)
if (!process.argv.includes('--watch')) process.exit(process.exitCode ?? 0);
