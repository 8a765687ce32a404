// Benchmark: how far one evaluation is from the physical floor of the same work (issue: an evaluation near
// the floor). For each page, `cookie test` runs it alone (concurrency 1, no cache), then a bare Playwright
// script does the same work with no analysis: launch Chromium, load the page, the same 4 screenshots
// (viewport + full page at 1280, then 375 and 768), and the same inputs Cookie's trace recorded, each
// taking the running time Cookie's recording gave it (so human-speed input and settle time count for
// both). Prints per page and per stage: Cookie's time, the bare time and the ratio.
// Run: npx tsx bench/floor.bench.ts [--steps N] [--pages tiny,buttons,...] [--repeat N: medians of N runs]   (prints; asserts nothing)
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright';
import { CHROMIUM_ARGS } from '../src/browser/launch.js';
import { resolveCdn } from '../src/deploy/cdn.js';
import { startStaticServer } from '../src/deploy/static-server.js';
import type { EvaluationResult, RunResults } from '../src/types.js';
import { defaultChromium } from '../src/util/chromium.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : def;
};
const steps = Number(arg('steps', '6'));
const CHROMIUM = defaultChromium();

interface PageCase {
  name: string;
  mode: 'html' | 'react';
  path: string;
  kind: 'static' | 'dynamic';
}
const all: PageCase[] = [
  { name: 'tiny', mode: 'html', path: path.join(ROOT, 'bench/floor/tiny.html'), kind: 'static' },
  { name: 'buttons', mode: 'html', path: path.join(ROOT, 'bench/floor/buttons.html'), kind: 'dynamic' },
  { name: 'form', mode: 'html', path: path.join(ROOT, 'bench/floor/form.html'), kind: 'dynamic' },
  { name: 'game', mode: 'html', path: path.join(ROOT, 'bench/floor/game.html'), kind: 'dynamic' },
  { name: 'three', mode: 'html', path: path.join(ROOT, 'bench/floor/three.html'), kind: 'dynamic' },
  { name: 'react', mode: 'react', path: path.join(ROOT, 'examples/react/good'), kind: 'dynamic' },
];
const pick = arg('pages', all.map((p) => p.name).join(',')).split(',');
const cases = all.filter((c) => pick.includes(c.name));

interface TraceStep {
  action: { kind: string; target?: { box?: { x: number; y: number; width: number; height: number } }; key?: string; text?: string };
  durationMs: number;
  startedAt: string;
  endedAt: string;
  video?: { startMs: number; endMs: number };
}

/** Run Cookie on one page alone; wall time of the whole CLI process, its result and trace. */
function runCookie(c: PageCase, dir: string): { wallMs: number; result: EvaluationResult; steps: TraceStep[]; profile: Map<string, number[]> } {
  const spec = `query:\n  id: floor-${c.name}\n  prompt: Floor benchmark page ${c.name}.\n  language: en\n  kind: ${c.kind}\ncandidates:\n  - { name: ${c.name}, mode: ${c.mode}, path: ${JSON.stringify(c.path)} }\n`;
  fs.writeFileSync(path.join(dir, 'floor.cookie.yaml'), spec);
  const out = path.join(dir, 'out');
  const t0 = performance.now();
  // COOKIE_PROFILE: Cookie writes the wall time of its own spans (src/util/profile.ts) to stderr
  const child = spawnSync(process.execPath, [path.join(ROOT, 'bin/cookie.js'), 'test', dir, '--output-dir', out, '--no-cache', '--silent', '--concurrency', '1', '--steps', String(steps)], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', env: { ...process.env, COOKIE_PROFILE: '1' } });
  const wallMs = performance.now() - t0;
  const run = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8')) as RunResults;
  const result = run.evaluations[0]!;
  let trace: TraceStep[] = [];
  try {
    trace = (JSON.parse(fs.readFileSync(path.join(out, result.evidenceDir!, 'trace.json'), 'utf8')) as { steps: TraceStep[] }).steps;
  } catch {}
  const profile = new Map<string, number[]>();
  for (const m of (child.stderr ?? '').matchAll(/^cookie-profile (\S+) ([\d.]+)$/gm)) profile.set(m[1]!, [...(profile.get(m[1]!) ?? []), Number(m[2])]);
  return { wallMs, result, steps: trace, profile };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The same work with no analysis: deploy, launch, load, 4 screenshots, the recorded inputs. */
async function runBare(c: PageCase, trace: TraceStep[]): Promise<Record<string, number>> {
  const t: Record<string, number> = {};
  let t0 = performance.now();
  let root = path.dirname(c.path);
  let entry = path.basename(c.path);
  if (c.mode === 'react') {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'floor-react-'));
    fs.cpSync(c.path, copy, { recursive: true, filter: (s) => !/node_modules|dist/.test(path.relative(c.path, s)) });
    execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--cache', path.join(os.homedir(), '.cache', 'cookie', 'npm')], { cwd: copy, stdio: 'ignore' });
    execFileSync('npm', ['run', 'build'], { cwd: copy, stdio: 'ignore' });
    root = path.join(copy, 'dist');
    entry = '';
  }
  const server = await startStaticServer(root, { spa: c.mode === 'react' });
  t.deploy = performance.now() - t0;
  t0 = performance.now();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  t.launch = performance.now() - t0;
  t0 = performance.now();
  // the same loads: a public CDN's script is served from the same offline copy Cookie serves (cookie-cdn;
  // without it three.js never runs and the "floor" would be a blank page); anything else fails fast
  await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, (r) => {
    const f = resolveCdn(r.request().url());
    return f ? r.fulfill({ status: f.status, contentType: f.contentType, body: f.body }) : r.abort();
  });
  await page.goto(`${server.origin}/${entry}`, { waitUntil: 'load' });
  await page.screenshot();
  await page.screenshot({ fullPage: true });
  for (const w of [375, 768]) {
    await page.setViewportSize({ width: w, height: w === 375 ? 812 : 1024 });
    await page.screenshot();
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  t.perceive = performance.now() - t0;
  t0 = performance.now();
  for (const s of trace) {
    const start = performance.now();
    const running = s.video ? s.video.endMs - s.video.startMs : 0;
    const box = s.action.target?.box;
    if (s.action.kind === 'click' && box) await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    else if ((s.action.kind === 'press' || s.action.kind === 'hold') && s.action.key) await page.keyboard.press(s.action.key).catch(() => {});
    else if (s.action.kind === 'type' && s.action.text) await page.keyboard.type(s.action.text).catch(() => {});
    const left = running - (performance.now() - start);
    if (left > 0) await sleep(left);
  }
  t.interact = performance.now() - t0;
  t0 = performance.now();
  await browser.close();
  await server.close();
  t.teardown = performance.now() - t0;
  return t;
}

// the bare script's own start: a Node process that loads Playwright (any Playwright script pays it before it
// can launch; the bare work above runs inside this bench's process, where Playwright is already loaded). The
// floor is the faster of the two ways a script loads it: an ESM import, which also scans playwright-core for
// named exports, or a CommonJS require (about 90 ms less on 2 cores; Cookie itself requires it). Measured
// again beside every repetition (the machine's speed drifts)
const startOf = (code: string[]) => {
  const t0 = performance.now();
  spawnSync(process.execPath, code, { cwd: ROOT });
  return performance.now() - t0;
};
const starts = () => ({ importStart: startOf(['--input-type=module', '-e', "await import('playwright')"]), requireStart: startOf(['-e', "require('playwright')"]) });
// --repeat N: each page runs N times (Cookie, then the bare script, then the two starts); every figure printed
// is the median over the N runs, and the total's ratio also its range (a shared 2-core machine drifts by ±0.1 s)
const repeat = Math.max(1, Number(arg('repeat', '1')) || 1);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const first = starts();

console.log(`Cookie floor benchmark — ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(2)}; step budget ${steps}; ${repeat} run(s) per page, medians; times in s; ratio = Cookie / bare; the bare script's start (node + playwright: import ${(first.importStart / 1000).toFixed(2)} s, require ${(first.requireStart / 1000).toFixed(2)} s; the faster counts)`);
const f = (ms: number) => (ms / 1000).toFixed(1).padStart(6);
// no ratio against a stage the bare script does not do (a page with no steps has nothing to interact with)
const r = (a: number, b: number) => (b >= 5 ? (a / b).toFixed(2) : '—').padStart(6);
console.log(`${'page'.padEnd(8)} ${'stage'.padEnd(10)} ${'cookie'.padStart(6)} ${'bare'.padStart(6)} ${'ratio'.padStart(6)}`);

/** One run of a page: Cookie's and the bare script's time per stage (ms), and what Cookie's run recorded. */
interface PageRun {
  rows: [string, number, number][];
  ratio: number;
  importRatio: number;
  profile: Map<string, number[]>;
  steps: number;
  overhead: number;
  status: string;
}

async function runPage(c: PageCase): Promise<PageRun> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `cookie-floor-${c.name}-`));
  const ck = runCookie(c, dir);
  const bare = await runBare(c, ck.steps);
  const { importStart, requireStart } = starts();
  const nodeStart = Math.min(importStart, requireStart);
  const tm = ck.result.timings as Record<string, number>;
  const staged = (tm.deploy ?? 0) + (tm.perceive ?? 0) + (tm.interact ?? 0) + (tm.judge ?? 0);
  const running = ck.steps.reduce((a, s) => a + (s.video ? s.video.endMs - s.video.startMs : 0), 0);
  // per step, everything that is not the action's own running time: the freeze, the keyframes, the effect
  // measurement inside the step, and between steps the observation and the agent's deliberation (from the
  // first step's start to the next step's start; the last step's tail is its own duration)
  const stepStarts = ck.steps.map((s) => Date.parse(s.startedAt));
  const last = ck.steps[ck.steps.length - 1];
  const spanMs = last ? Date.parse(last.endedAt) - stepStarts[0]! + (ck.profile.get('step.keyframe-after')?.at(-1) ?? 0) : 0;
  const overhead = ck.steps.length ? (spanMs - running) / ck.steps.length : 0;
  const bareTotal = Object.values(bare).reduce((a, b) => a + b, 0) + nodeStart;
  fs.rmSync(dir, { recursive: true, force: true });
  return {
    rows: [
      ['deploy', tm.deploy ?? 0, bare.deploy!],
      ['perceive', tm.perceive ?? 0, bare.perceive!],
      ['interact', tm.interact ?? 0, bare.interact!],
      ['judge', tm.judge ?? 0, 0],
      ['start+end', ck.wallMs - staged, nodeStart + bare.launch! + bare.teardown!],
      ['total', ck.wallMs, bareTotal],
    ],
    ratio: ck.wallMs / bareTotal,
    importRatio: ck.wallMs / (bareTotal - nodeStart + importStart),
    profile: ck.profile,
    steps: ck.steps.length,
    overhead,
    status: ck.result.status,
  };
}

for (const c of cases) {
  const runs: PageRun[] = [];
  for (let i = 0; i < repeat; i++) runs.push(await runPage(c));
  for (const [k, [stage]] of runs[0]!.rows.entries()) {
    const a = median(runs.map((x) => x.rows[k]![1]));
    const b = median(runs.map((x) => x.rows[k]![2]));
    console.log(`${c.name.padEnd(8)} ${stage.padEnd(10)} ${f(a)} ${f(b)} ${r(a, b)}`);
  }
  // where Cookie's own time went (COOKIE_PROFILE spans): per span the median over the runs of its total ms,
  // and the count when it repeats within a run
  const labels = [...new Set(runs.flatMap((x) => [...x.profile.keys()]))];
  const spans = labels.map((k) => {
    const per = runs.map((x) => x.profile.get(k) ?? []);
    const n = Math.max(...per.map((v) => v.length));
    return `${k} ${Math.round(median(per.map((v) => v.reduce((a, b) => a + b, 0))))}${n > 1 ? `/${n}` : ''}`;
  });
  console.log(`${c.name.padEnd(8)} spans (ms, total/count): ${spans.join(', ')}`);
  console.log(`${c.name.padEnd(8)} ${`${median(runs.map((x) => x.steps))} steps; overhead per step beyond the action's running time: ${(median(runs.map((x) => x.overhead)) / 1000).toFixed(2)} s; status ${[...new Set(runs.map((x) => x.status))].join('/')}`}`);
  // the total's ratio to two decimals against each way of loading Playwright (the table counts the faster)
  const ratios = runs.map((x) => x.ratio);
  const total = median(runs.map((x) => x.rows[5]![1]));
  const bareTotal = median(runs.map((x) => x.rows[5]![2]));
  console.log(`${c.name.padEnd(8)} total ${(total / 1000).toFixed(2)} s; ratio ${median(ratios).toFixed(2)}${repeat > 1 ? ` (range ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)} over ${repeat} runs)` : ''} (bare ${(bareTotal / 1000).toFixed(2)} s, Playwright required); ${median(runs.map((x) => x.importRatio)).toFixed(2)} against a bare script that imports it as an ES module`);
}
