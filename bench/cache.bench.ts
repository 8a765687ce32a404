// Benchmark: the second run of an unchanged suite of ≥ 30 evaluations against the first, and a run after
// one candidate file changed (only that evaluation should run again).
// Run: npx tsx bench/cache.bench.ts   (prints its figures; asserts nothing; the CLI line needs `npm run build`)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCookie } from '../src/runner/run.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const solar = path.resolve(ROOT, '..', 'shared', 'real-inputs', 'KCORES__kcores-llm-arena/benchmark-solar-system/src');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cookie-cache-bench-'));
// candidates are copied so one can be edited; 24 real pages + the 8 single-file examples = 32 evaluations
const pages = [
  ...fs.readdirSync(solar).filter((f) => f.endsWith('.html')).sort().slice(0, 24).map((f) => path.join(solar, f)),
  ...['good', 'dead-button', 'throws', 'syntax-error', 'freeze', 'overflow'].map((c) => path.join(ROOT, 'examples/todo', `${c}.html`)),
  path.join(ROOT, 'examples/counter-zh/good-zh.html'),
  path.join(ROOT, 'examples/landing/bloom.html'),
];
pages.forEach((p, i) => fs.copyFileSync(p, path.join(dir, `c${i}.html`)));
fs.writeFileSync(path.join(dir, 's.cookie.yaml'), `query:\n  id: cache-bench\n  prompt: A page.\n  language: en\n  kind: dynamic\ncandidates:\n${pages.map((_, i) => `  - { name: c${i}, mode: html, path: c${i}.html }`).join('\n')}\n`);
const run = async (label: string) => {
  const t0 = Date.now();
  const { run } = await runCookie({ paths: [dir], cwd: dir, reporters: ['json'], concurrency: 2, steps: 8, silent: true });
  const ms = Date.now() - t0;
  const ev = run!.evaluations;
  console.log(`${label}: ${ev.length} evaluations in ${(ms / 1000).toFixed(1)} s — ${ev.filter((e) => !e.cached).length} evaluated, ${ev.filter((e) => e.cached).length} reused from the cache`);
  return { ms, ev };
};
console.log(`Cookie cache benchmark — ${pages.length} evaluations, concurrency 2, 8 steps each`);
const first = await run('first run (cold)');
const second = await run('second run (unchanged)');
console.log(`→ the second run took ${((second.ms / first.ms) * 100).toFixed(2)}% of the first run's wall time`);
// the same unchanged run as a user types it: the `cookie test` process, start-up included (compiled dist/)
const t0 = Date.now();
const cli = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'cookie.js'), 'test', dir, '--concurrency', '2', '--steps', '8', '--reporter', 'json'], { cwd: dir, encoding: 'utf8' });
const cliMs = Date.now() - t0;
console.log(`second run again, as a \`cookie test\` process (exit ${cli.status}): ${(cliMs / 1000).toFixed(1)} s = ${((cliMs / first.ms) * 100).toFixed(2)}% of the first run's wall time`);
fs.appendFileSync(path.join(dir, 'c3.html'), '\n<!-- edited -->\n');
const third = await run('third run (c3.html edited)');
console.log(`→ re-evaluated: ${third.ev.filter((e) => !e.cached).map((e) => e.candidate).join(', ') || 'none'}`);
fs.rmSync(dir, { recursive: true, force: true });
