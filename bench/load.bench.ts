// Benchmark: ≥ 50 evaluations mixing single-file, multi-file and React candidates at concurrency 1, 2 and 4.
// Prints throughput, time per stage and the count of infrastructure failures (which must be 0).
// Run: npx tsx bench/load.bench.ts [--steps N] [--levels 1,2,4]   (prints its figures; asserts nothing)
// --steps is the step budget; the offline explorer keeps 3 steps in reserve, so the default 8 gives 5 actions.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCookie } from '../src/runner/run.js';
import type { EvaluationResult } from '../src/types.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REAL = path.resolve(ROOT, '..', 'shared', 'real-inputs');
const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : def;
};
const steps = Number(arg('steps', '8'));
const levels = arg('levels', '1,2,4').split(',').map(Number);

// the mix: single-file pages (examples + KCORES solar system), multi-file apps (yarreg), React projects
const solar = path.join(REAL, 'KCORES__kcores-llm-arena/benchmark-solar-system/src');
const single = [
  ...['good', 'dead-button', 'throws', 'syntax-error', 'overflow'].map((c) => path.join(ROOT, 'examples/todo', `${c}.html`)),
  path.join(ROOT, 'examples/counter-zh/good-zh.html'),
  path.join(ROOT, 'examples/landing/bloom.html'),
  path.join(ROOT, 'examples/game/runner.html'),
  ...fs.readdirSync(solar).filter((f) => f.endsWith('.html')).sort().slice(0, 32).map((f) => path.join(solar, f)),
];
const yarreg = path.join(REAL, 'yarreg__osm-llm-webdev-test/gh-pages/restaurant_dark_singlepage');
const multi = fs.readdirSync(yarreg).sort().slice(0, 6).map((m) => path.join(yarreg, m));
const react = [path.join(ROOT, 'examples/react/good'), path.join(ROOT, 'examples/react/bad-icon'), path.join(ROOT, 'examples/react/good'), path.join(ROOT, 'templates/react-vite')];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cookie-load-'));
const cand = (name: string, mode: string, p: string) => `  - { name: ${JSON.stringify(name)}, mode: ${mode}, path: ${JSON.stringify(p)} }`;
const spec = (id: string, kind: string, list: string[]) => `query:\n  id: ${id}\n  prompt: Load benchmark page.\n  language: en\n  kind: ${kind}\ncandidates:\n${list.join('\n')}\n`;
fs.writeFileSync(path.join(dir, 'single.cookie.yaml'), spec('single', 'dynamic', single.map((p, i) => cand(`s${i}-${path.basename(p, '.html')}`, 'html', p))));
fs.writeFileSync(path.join(dir, 'multi.cookie.yaml'), spec('multi', 'static', multi.map((p) => cand(`m-${path.basename(p)}`, 'html', p))));
fs.writeFileSync(path.join(dir, 'react.cookie.yaml'), spec('react', 'dynamic', react.map((p, i) => cand(`r${i}-${path.basename(p)}`, 'react', p))));
const total = single.length + multi.length + react.length;

// child processes still alive after a level: not counting this `ps` shell and tsx's own esbuild service
const children = () => {
  try {
    return execSync(`ps -o pid=,args= --ppid ${process.pid}`, { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter((l) => l && !/\bps -o pid=|esbuild --service=/.test(l)).length;
  } catch {
    return 0;
  }
};
const vitePorts = () => {
  try {
    return execSync('ss -ltnp 2>/dev/null | grep -c -E "vite|esbuild" || true', { encoding: 'utf8' }).trim();
  } catch {
    return '?';
  }
};

console.log(`Cookie load benchmark — ${os.cpus().length} cores; ${total} evaluations per level (${single.length} single-file, ${multi.length} multi-file, ${react.length} React); step budget ${steps} each`);
const rows: string[] = [];
for (const [li, c] of levels.entries()) {
  // a level repeated (--levels 2,2, to keep load on a machine for longer) evaluates again: no result cache,
  // its own output folder
  const out = path.join(dir, `out-c${c}-${li}`);
  const t0 = Date.now();
  const { run } = await runCookie({ paths: [dir], cwd: dir, outputDir: out, reporters: ['json'], concurrency: c, steps, silent: true, cache: false });
  const wall = (Date.now() - t0) / 1000;
  const ev: EvaluationResult[] = run?.evaluations ?? [];
  const infra = ev.filter((e) => e.status === 'error');
  const built = ev.filter((e) => e.status === 'build-failed').length;
  // actions the agent really took, read back from each interaction trace
  const actions = ev.map((e) => {
    try {
      const t = JSON.parse(fs.readFileSync(path.join(out, e.evidenceDir, 'trace.json'), 'utf8')) as { steps: unknown[] };
      return t.steps.length;
    } catch {
      return 0;
    }
  });
  const mean = (k: 'deploy' | 'perceive' | 'interact' | 'judge' | 'total', mode?: string) => {
    const xs = ev.filter((e) => (mode ? e.mode === mode : true) && e.timings[k] !== undefined).map((e) => e.timings[k]!);
    return xs.length ? (xs.reduce((a, b) => a + b, 0) / xs.length / 1000).toFixed(1) : '–';
  };
  rows.push(
    `concurrency ${c}: ${ev.length}/${total} evaluations in ${wall.toFixed(0)} s = ${((ev.length / wall) * 60).toFixed(1)} evaluations/min; ` +
      `mean s per stage: deploy ${mean('deploy')} (html ${mean('deploy', 'html')}, react ${mean('deploy', 'react')}), perceive ${mean('perceive')}, interact ${mean('interact')}, judge ${mean('judge')}, total ${mean('total')}; ` +
      `interaction steps taken ${actions.reduce((a, b) => a + b, 0)} (mean ${(actions.reduce((a, b) => a + b, 0) / Math.max(1, ev.length)).toFixed(1)} per evaluation); ` +
      `scored ${ev.filter((e) => e.status === 'scored').length}, build-failed ${built} (candidates' fault), infrastructure failures ${infra.length}${infra.length ? ` (${infra.map((e) => `${e.id}: ${e.error?.stage} ${e.error?.message}`).join('; ')})` : ''}; ` +
      `child processes left ${children()}, vite/esbuild ports left ${vitePorts()}`,
  );
  console.log(rows[rows.length - 1]);
}
fs.rmSync(dir, { recursive: true, force: true });
