// Benchmark: the same 40 evaluations unsharded, then as 4 shards run one after another and merged with
// `cookie merge-reports`. Prints whether the merged results equal the unsharded ones (ids, statuses, scores),
// the merge time, and the projected wall time of the full benchmark (1,000 queries × 13 models × 2 modes =
// 26,000 evaluations) on N runners from the measured cost per evaluation.
// Run: npx tsx bench/shard.bench.ts [--steps N] [--concurrency N]   (prints its figures; asserts nothing)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunResults } from '../src/types.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REAL = path.resolve(ROOT, '..', 'shared', 'real-inputs');
const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : def;
};
const steps = arg('steps', '8');
const concurrency = arg('concurrency', '2');
const SHARDS = 4;

const solar = path.join(REAL, 'KCORES__kcores-llm-arena/benchmark-solar-system/src');
const pages = [
  ...['good', 'dead-button', 'throws', 'syntax-error', 'overflow', 'freeze'].map((c) => path.join(ROOT, 'examples/todo', `${c}.html`)),
  path.join(ROOT, 'examples/counter-zh/good-zh.html'),
  path.join(ROOT, 'examples/counter-zh/english-ui.html'),
  ...fs.readdirSync(solar).filter((f) => f.endsWith('.html')).sort().slice(0, 32).map((f) => path.join(solar, f)),
];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cookie-shard-bench-'));
fs.writeFileSync(
  path.join(dir, 'shard.cookie.yaml'),
  `query:\n  id: shard-bench\n  prompt: Build a solar system or a small app page.\n  language: en\n  kind: dynamic\ncandidates:\n${pages.map((p, i) => `  - { name: ${JSON.stringify(`p${i}-${path.basename(p, '.html')}`)}, mode: html, path: ${JSON.stringify(p)} }`).join('\n')}\n`,
);
const cli = (args: string[]) => {
  const t0 = performance.now();
  spawnSync(process.execPath, [path.join(ROOT, 'bin/cookie.js'), ...args], { cwd: dir, stdio: 'ignore' });
  return (performance.now() - t0) / 1000;
};
const common = ['--steps', steps, '--concurrency', concurrency, '--silent', '--no-cache'];

console.log(`Cookie shard benchmark — ${os.cpus().length} cores; ${pages.length} evaluations; step budget ${steps}; concurrency ${concurrency}`);
const whole = cli(['test', dir, '--output-dir', path.join(dir, 'whole'), ...common]);
console.log(`unsharded: ${whole.toFixed(1)} s`);
const shardTimes: number[] = [];
for (let i = 1; i <= SHARDS; i++) shardTimes.push(cli(['test', dir, '--output-dir', path.join(dir, `s${i}`), ...common, '--shard', `${i}/${SHARDS}`]));
const counts = Array.from({ length: SHARDS }, (_, i) => (JSON.parse(fs.readFileSync(path.join(dir, `s${i + 1}`, 'results.json'), 'utf8')) as RunResults).evaluations.length);
console.log(`shards: ${shardTimes.map((t, i) => `${i + 1}/${SHARDS} ${counts[i]} evaluations ${t.toFixed(1)} s`).join('; ')}`);
const merge = cli(['merge-reports', ...Array.from({ length: SHARDS }, (_, i) => path.join(dir, `s${i + 1}`)), '--output-dir', path.join(dir, 'merged'), '--reporter', 'json', '--reporter', 'junit', '--reporter', 'html', '--reporter', 'leaderboard']);
console.log(`merge-reports (json, junit, html, leaderboard): ${merge.toFixed(1)} s`);

const view = (out: string) =>
  (JSON.parse(fs.readFileSync(path.join(dir, out, 'results.json'), 'utf8')) as RunResults).evaluations
    .map((e) => JSON.stringify([e.id, e.status, e.scores]))
    .sort();
const a = view('whole');
const b = view('merged');
const same = a.filter((x, i) => x === b[i]).length;
console.log(`identical results (id, status, scores): ${same}/${a.length}${a.length === b.length ? '' : ` (merged has ${b.length})`}`);
for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) console.log(`  differs: ${a[i]}  vs  ${b[i]}`);

const perEval = whole / pages.length; // wall s per evaluation on this machine at this concurrency
const total = 26_000;
console.log(`measured: ${perEval.toFixed(2)} wall-s per evaluation on one ${os.cpus().length}-core runner at concurrency ${concurrency}`);
for (const n of [1, 10, 50, 100, 250]) {
  const h = (total * perEval) / n / 3600 + merge / 3600;
  console.log(`projected 26,000 evaluations on ${String(n).padStart(3)} runner(s): ${h.toFixed(1)} h`);
}
