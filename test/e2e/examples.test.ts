import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EvaluationResult, Evidence, InteractionTrace, RunResults, TraceStep } from '../../src/types.js';
import { BIN, readResults, ROOT, runCli, TEST_TIMEOUT, tmpDir } from '../helpers.js';
import { defaultChromium } from '../../src/util/chromium.js';

// The README's main job, run through the real CLI on the bundled examples.
let out: string;
let run: RunResults;
let cli: { code: number | null; stdout: string; stderr: string };
const byId = (id: string): EvaluationResult => run.evaluations.find((e) => e.id === id)!;
const titles = (id: string) => byId(id).defects.map((d) => d.title);
const readTrace = (id: string): InteractionTrace => JSON.parse(fs.readFileSync(path.join(out, byId(id).evidenceDir, 'trace.json'), 'utf8')) as InteractionTrace;

/**
 * The README's first command runs this same job (`npx cookie test examples` into cookie-results/; CI runs it
 * right before `npm test`). When that output dir holds results finished after the current dist/ was built,
 * the test starts from a copy of it: Cookie's own result cache then reuses every evaluation whose candidate,
 * query and settings are unchanged (a changed example is evaluated again) and every reporter is written anew,
 * so what is asserted below is that job's real output. After an edit of Cookie (the global setup rebuilds
 * dist/), or with COOKIE_EXAMPLES_COLD=1, the job runs here from scratch.
 */
function mainJobOutput(): string | null {
  const dir = path.join(ROOT, 'cookie-results');
  if (process.env.COOKIE_EXAMPLES_COLD === '1') return null;
  try {
    const finished = Date.parse(readResults(dir).finishedAt ?? '');
    const built = fs.statSync(path.join(ROOT, 'dist', '.build-stamp')).mtimeMs;
    return finished > built && fs.existsSync(path.join(dir, 'cache.json')) ? dir : null;
  } catch {
    return null;
  }
}
beforeAll(async () => {
  out = tmpDir('cookie-examples-');
  const mainJob = mainJobOutput();
  if (mainJob) fs.cpSync(mainJob, out, { recursive: true });
  cli = await runCli(['test', 'examples', '--output-dir', out, '--concurrency', '2', '--reporter', 'console', '--reporter', 'junit', '--reporter', 'json', '--reporter', 'html', '--reporter', 'leaderboard']);
  run = readResults(out);
  const reused = run.evaluations.filter((e) => e.cached).length;
  console.info(mainJob ? `examples: started from the main job's output (${mainJob}); ${reused} of 13 evaluations reused` : 'examples: evaluated from scratch');
}, TEST_TIMEOUT);

describe('cookie test examples (end to end)', () => {
  it('exits 0 and prints the summary table', () => {
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(/candidate\s+query\s+F\s+A\s+Total\s+crit\s+major\s+minor\s+status/);
    expect(cli.stdout).toMatch(/Evaluations 13 · 13 passed/);
  });

  it('writes results.json with the documented contract', () => {
    expect(run.schemaVersion).toBe(1);
    expect(run.cookieVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(run.browserVersion).toMatch(/^\d+\./);
    expect(run.finishedAt).toBeTruthy();
    expect((run.config as { agent: { steps: number } }).agent.steps).toBe(25);
    expect(run.evaluations).toHaveLength(13);
    for (const e of run.evaluations.filter((x) => x.id !== 'habit-tracker/bad-icon')) {
      expect(e.status).toBe('scored');
      expect(Object.keys(e.scores!).sort()).toEqual(['aesthetics', 'functionality', 'total']);
      expect(Math.abs(e.scores!.total - (e.scores!.functionality + e.scores!.aesthetics) / 2)).toBeLessThanOrEqual(0.0501);
      expect(e.rubric.length).toBe(18);
      expect(e.timings.total).toBeGreaterThan(0);
      expect(e.timings.perceive).toBeGreaterThan(0);
      const dir = path.join(out, e.evidenceDir);
      expect(fs.existsSync(path.join(dir, 'evidence.json'))).toBe(true);
      expect(fs.existsSync(path.join(dir, 'screenshots', 'fullpage.png'))).toBe(true);
      for (const w of [375, 768, 1280]) expect(fs.existsSync(path.join(dir, 'screenshots', `viewport-${w}.png`))).toBe(true);
      for (const d of e.defects) {
        expect(['critical', 'major', 'minor']).toContain(d.severity);
        expect(['functionality', 'aesthetics']).toContain(d.dimension);
        expect(d.title && d.detail).toBeTruthy();
      }
    }
    expect(fs.existsSync(path.join(out, 'junit.xml'))).toBe(true);
    expect(fs.readFileSync(path.join(out, 'junit.xml'), 'utf8').match(/<testcase /g)).toHaveLength(13);
    expect(JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8')).evaluations).toHaveLength(13);
  });

  it('a TS spec overrides fixtures: storage seeded before perception, its own agent, a custom probe in the evidence', () => {
    const dir = path.join(out, 'evidence', 'reading-list', 'good');
    const ev = JSON.parse(fs.readFileSync(path.join(dir, 'evidence.json'), 'utf8')) as Evidence;
    // the page fixture seeded three saved books before static perception: perception saw them
    expect(JSON.stringify(ev.static!.inventory)).toContain('Piranesi');
    // the agent fixture of this spec replaced the offline explorer for this query only
    expect(ev.interaction!.agent).toBe('mark-every-book-read');
    expect(ev.interaction!.steps.some((s) => s.action.kind === 'click' && s.action.target?.name === 'Mark read')).toBe(true);
    expect(readTrace('todo-list/good').agent).not.toBe('mark-every-book-read');
    // the page fixture's teardown probed the app after the interaction and added its findings
    expect(ev.custom).toEqual({ savedBooks: 3, stillUnread: 0 });
    // self-contained evidence: the source the judge may read and the default viewport
    expect(ev.defaultViewport).toEqual({ width: 1280, height: 800 });
    expect(ev.sources!.files).toEqual(['reading-list.html']);
    expect(fs.readFileSync(path.join(dir, 'source', 'reading-list.html'), 'utf8')).toContain('shelf.books');
  });

  it('finds the planted defect of each todo candidate', () => {
    expect(titles('todo-list/good')).toEqual([]);
    // on a failure the message carries what each click recorded (a dead "Add task" was once found working on a
    // busy machine, and the run's evidence is gone with the test's temporary folder)
    const clicks = readTrace('todo-list/dead-button').steps.map((s) => `${s.index} ${s.action.kind} "${s.action.target?.name ?? ''}": ${s.effect?.kind ?? 'no effect'} (${s.effect?.why ?? ''}; px ${s.effect?.pixelChange}, outside ${s.effect?.outsidePixelChange}, dom ${s.effect?.domMutations}, baseline ${JSON.stringify(s.effect?.baseline ?? null)}${s.frameTiming ? `, cpu ${s.frameTiming.cpuPressure}` : ''})`);
    expect(titles('todo-list/dead-button'), clicks.join('\n')).toEqual(['Dead button "Add task"']);
    expect(titles('todo-list/throws')[0]).toMatch(/^Error when using button "Add task"/);
    expect(byId('todo-list/throws').defects[0]!.detail).toMatch(/TypeError: Cannot read properties of null/);
    expect(titles('todo-list/syntax-error')).toContain('Blank page');
    expect(byId('todo-list/syntax-error').defects.find((d) => d.rubricItem === '5')!.detail).toMatch(/SyntaxError/);
    expect(byId('todo-list/freeze').defects[0]).toMatchObject({ severity: 'critical', title: 'Page freezes' });
    expect(titles('todo-list/overflow')).toEqual(['Horizontal overflow at 375 px']);
    expect(titles('counter-zh/english-ui')).toEqual(['Page language does not match the query']);
  });

  it('ranks the good page highest and the broken pages in a sensible order', () => {
    const t = (c: string) => byId(`todo-list/${c}`).scores!.total;
    for (const bad of ['dead-button', 'throws', 'syntax-error', 'freeze', 'overflow']) expect(t('good')).toBeGreaterThan(t(bad));
    expect(t('syntax-error')).toBeLessThan(10);
    expect(t('freeze')).toBeLessThan(t('dead-button'));
    expect(byId('todo-list/overflow').scores!.aesthetics).toBeLessThan(byId('todo-list/good').scores!.aesthetics);
    expect(byId('counter-zh/good').scores!.total).toBeGreaterThan(byId('counter-zh/english-ui').scores!.total);
  });

  it('records an interaction trace with keyframes and visible effects', () => {
    const trace = JSON.parse(fs.readFileSync(path.join(out, byId('todo-list/good').evidenceDir, 'trace.json'), 'utf8')) as { steps: TraceStep[]; endedBecause: string };
    expect(trace.steps.length).toBeGreaterThanOrEqual(5);
    expect(trace.steps[0]!.action.kind).toBe('fill');
    const add = trace.steps.find((s) => s.action.target?.name === 'Add task')!;
    expect(add.effect!.screenChanged).toBe(true);
    expect(fs.existsSync(path.join(out, byId('todo-list/good').evidenceDir, add.screenshotAfter!))).toBe(true);
    const freeze = JSON.parse(fs.readFileSync(path.join(out, byId('todo-list/freeze').evidenceDir, 'trace.json'), 'utf8'));
    expect(freeze.endedBecause).toBe('unresponsive');
  });

  it('builds and evaluates a React project, and reports a project that does not build as build-failed with its cause', () => {
    const good = byId('habit-tracker/good');
    expect(good, JSON.stringify({ error: good.error, build: good.build })).toMatchObject({ status: 'scored', mode: 'react', passed: true });
    expect(byId('habit-tracker/good').scores!.total).toBeGreaterThan(60);
    expect(byId('habit-tracker/bad-icon')).toMatchObject({ status: 'build-failed', passed: true, build: { step: 'build', cause: 'missing-icon' } });
    expect(byId('habit-tracker/bad-icon').build!.summary).toMatch(/SparkleUnicornIcon/);
    expect(byId('habit-tracker/bad-icon').build!.logTail).toMatch(/lucide-react/);
  });

  it('can re-judge stored evidence without a browser', async () => {
    const before = byId('todo-list/dead-button').scores;
    const r = await runCli(['judge', out], { env: { COOKIE_CHROMIUM: '/nonexistent' } });
    expect(r.code).toBe(0);
    expect(readResults(out).evaluations.find((e) => e.id === 'todo-list/dead-button')!.scores).toEqual(before);
  });
});

describe('recording of the canvas game (Stage 2 evidence)', () => {
  const dir = () => path.join(out, byId('meadow-dash/good').evidenceDir);
  const trace = () => JSON.parse(fs.readFileSync(path.join(dir(), 'trace.json'), 'utf8')) as import('../../src/types.js').InteractionTrace;

  it('holding an arrow key moves the player', () => {
    const t = trace();
    expect(t.gameLike).toBe(true);
    const right = t.steps.find((s) => s.action.kind === 'hold' && s.action.key === 'ArrowRight')!;
    expect(right.action.durationMs).toBeGreaterThanOrEqual(500);
    expect(right.effect, JSON.stringify({ ...right, effect: undefined })).not.toBeNull();
    expect(right.effect!.screenChanged).toBe(true);
    expect(right.effect!.pixelChange).toBeGreaterThan(0.001);
    // keys the game ignores are documented as doing nothing
    expect(t.steps.find((s) => s.action.kind === 'hold' && s.action.key === 'ArrowDown')!.effect!.screenChanged).toBe(false);
  });

  it('writes an H.264 MP4 that ffprobe reads, with the thinking time cut out and trace offsets inside it', async () => {
    const { probeMedia } = await import('../../src/common/ffmpeg.js');
    const info = (await probeMedia(path.join(dir(), 'video.mp4')))!;
    expect(info.video).toMatchObject({ codec: 'h264', width: 1280, height: 800 });
    expect(info.video!.fps).toBe(15);
    expect(info.durationMs).toBeGreaterThan(5000);
    const t = trace();
    expect(t.recording!.video!.durationMs).toBe(info.durationMs);
    let prevEnd = 0;
    for (const s of t.steps) {
      expect(s.video!.startMs).toBeGreaterThanOrEqual(prevEnd - 1);
      expect(s.video!.endMs).toBeGreaterThan(s.video!.startMs);
      expect(s.video!.endMs).toBeLessThanOrEqual(info.durationMs + 100);
      prevEnd = s.video!.endMs;
    }
    // the video holds the running segments only: shorter than the wall time of the interaction
    expect(info.durationMs).toBeLessThan(t.durationMs);
  });

  it('captures the jump beep as an audible audio track, aligned with the video', async () => {
    const { audioVolume, probeMedia } = await import('../../src/common/ffmpeg.js');
    const t = trace();
    const a = t.recording!.audio!;
    expect(a).toMatchObject({ captured: true, muxed: true });
    const jump = t.steps.find((s) => s.action.key === 'Space' || s.action.key === 'ArrowUp')!;
    expect(a.offsetMs!).toBeGreaterThanOrEqual(jump.video!.startMs - 50);
    expect(a.offsetMs!).toBeLessThanOrEqual(jump.video!.endMs + 50);
    const mp4 = path.join(dir(), 'video.mp4');
    expect((await probeMedia(mp4))!.audio!.codec).toBe('aac');
    const vol = (await audioVolume(mp4))!;
    expect(vol.maxDb).toBeGreaterThan(-30);
  });

  it('a page that plays nothing says so', () => {
    const t = JSON.parse(fs.readFileSync(path.join(out, byId('todo-list/good').evidenceDir, 'trace.json'), 'utf8'));
    expect(t.recording.audio).toMatchObject({ captured: false, note: expect.stringMatching(/played no audio/) });
    expect(t.recording.video.fps).toBe(15);
  });
});

describe('HTML report and leaderboard', () => {
  it('writes leaderboard.json with the documented fields', () => {
    const lb = JSON.parse(fs.readFileSync(path.join(out, 'leaderboard.json'), 'utf8'));
    expect(lb.schemaVersion).toBe(1);
    const good = lb.rows.find((r: { candidate: string; mode: string }) => r.candidate === 'good' && r.mode === 'html');
    // counter-zh, coffee-landing, meadow-dash, reading-list (the fixtures example) and todo-list: five HTML answers named good
    expect(good).toMatchObject({ evaluations: 5, scored: 5, runnableRate: 1 });
    expect(Object.keys(good.byPageType).sort()).toEqual(['dynamic', 'static']);
    expect(good.byLanguage.zh.n).toBe(1);
    expect(good.winRate).toBeGreaterThan(0.5);
    const react = lb.rows.find((r: { candidate: string; mode: string }) => r.candidate === 'bad-icon');
    expect(react).toMatchObject({ mode: 'react', runnableRate: 0, overall: { total: 0 } });
  });

  it('renders the leaderboard from disk and seeks the video when a trace step is clicked', async () => {
    const { chromium } = await import('playwright');
    const { startStaticServer } = await import('../../src/deploy/static-server.js');
    const browser = await chromium.launch({ executablePath: defaultChromium(), args: ['--no-sandbox', '--disable-gpu'] });
    const server = await startStaticServer(path.join(out, 'report'));
    try {
      for (const url of [`file://${path.join(out, 'report', 'index.html')}`, `${server.origin}/`]) {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        await page.goto(url);
        await expect.poll(() => page.getByTestId('board-row').count()).toBeGreaterThanOrEqual(7);
        // a filter narrows the leaderboard to one language
        await page.locator('select[data-filter="language"]').selectOption('zh');
        await expect.poll(() => page.getByTestId('board-row').count()).toBe(2);
        await page.locator('select[data-filter="language"]').selectOption('');
        await page.getByTestId('eval-link').filter({ hasText: 'good' }).nth(1).click();
        await page.goto(`${url.replace(/#.*$/, '')}#/eval/${run.evaluations.findIndex((e) => e.id === 'meadow-dash/good')}`);
        await page.getByTestId('video').waitFor();
        await page.getByTestId('video').evaluate((v: HTMLVideoElement) => new Promise((r) => (v.readyState >= 1 ? r(null) : v.addEventListener('loadedmetadata', () => r(null), { once: true }))));
        const step = page.getByTestId('trace-step').nth(4);
        const start = Number(await step.getAttribute('data-start'));
        expect(start).toBeGreaterThan(0);
        await step.click();
        await expect.poll(() => page.getByTestId('video').evaluate((v: HTMLVideoElement) => v.currentTime)).toBeCloseTo(start / 1000, 1);
        expect(await step.getAttribute('class')).toMatch(/current/);
        expect(await page.getByTestId('defect').count()).toBe(byId('meadow-dash/good').defects.length);
        expect(errors).toEqual([]);
        await page.close();
      }
    } finally {
      await browser.close();
      await server.close();
    }
  });

  it('cookie show-report serves the report on 127.0.0.1, prints its URL and stops on Ctrl-C', async () => {
    const child = spawn(process.execPath, [BIN, 'show-report', out], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout.on('data', (d) => {
          text += d;
          const m = text.match(/http:\/\/127\.0\.0\.1:\d+\//);
          if (m) resolve(m[0]);
        });
        child.on('exit', () => reject(new Error(`show-report exited: ${text}`)));
      });
      const index = await fetch(url);
      expect(index.status).toBe(200);
      expect(await index.text()).toMatch(/<title>[^<]*Cookie/);
      const n = run.evaluations.findIndex((e) => e.id === 'meadow-dash/good');
      const video = await fetch(new URL(`data/${n}/video.mp4`, url));
      expect([video.status, video.headers.get('content-type')]).toEqual([200, 'video/mp4']);
    } finally {
      child.kill('SIGINT');
    }
    expect(await new Promise((r) => child.on('exit', (code) => r(code)))).toBe(0);
  });
});
