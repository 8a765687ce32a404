#!/usr/bin/env node
// Cookie's executable: runs the TypeScript sources through tsx (no build step), so spec files and
// cookie.config.ts written in TypeScript load the same way.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
await main(process.argv);
