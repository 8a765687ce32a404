#!/usr/bin/env node
// Cookie's executable: runs the TypeScript sources through tsx (no build step), so spec files and
// cookie.config.ts written in TypeScript load the same way.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
await main(process.argv);
// a finished command exits even if an untrusted page left something pending (watch mode and
// show-report keep running on purpose: they return only when they are stopped)
if (!process.argv.includes('--watch')) process.exit(process.exitCode ?? 0);
