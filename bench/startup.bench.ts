// Benchmark: wall time of `cookie --version` against `vitest --version`, measured in the same run on the
// same machine (issue 12's target: Cookie's at most 1.5× Vitest's). Both run their installed JavaScript
// (Cookie's compiled dist/: run `npm run build` first).
// Run: npx tsx bench/startup.bench.ts   (prints its figures; asserts nothing)
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = 7;
const commands: Record<string, string[]> = {
  cookie: [path.join(ROOT, 'bin', 'cookie.js'), '--version'],
  vitest: [path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), '--version'],
};

/** Median wall time (ms) of `node <args>` over RUNS runs, the two commands interleaved so load drifts hit both. */
const times: Record<string, number[]> = { cookie: [], vitest: [] };
for (let i = 0; i < RUNS; i++) {
  for (const [name, args] of Object.entries(commands)) {
    const t = process.hrtime.bigint();
    execFileSync(process.execPath, args, { cwd: ROOT, stdio: 'pipe' });
    times[name]!.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const c = median(times.cookie!);
const v = median(times.vitest!);
console.log(`cookie --version  median ${c.toFixed(0)} ms  (runs: ${times.cookie!.map((x) => x.toFixed(0)).join(', ')})`);
console.log(`vitest --version  median ${v.toFixed(0)} ms  (runs: ${times.vitest!.map((x) => x.toFixed(0)).join(', ')})`);
console.log(`ratio cookie/vitest: ${(c / v).toFixed(2)}× (target ≤ 1.5×)`);
