// Cookie's own config (every field is optional; these are the defaults spelled out where useful).
import { defineConfig } from './src/index.ts';

export default defineConfig({
  include: ['**/*.cookie.{yaml,yml}', '**/*.cookie.spec.ts'],
  exclude: ['**/node_modules/**', '**/.git/**', '**/cookie-results/**'],
  outputDir: 'cookie-results',
  concurrency: 2,
  agent: { kind: 'offline', steps: 25, seed: 1 },
  reporters: ['console', 'junit'],
});
