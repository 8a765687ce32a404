import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright';
import { writeHtmlReport } from '../../reporters/html/index.js';
import { FFMPEG } from '../../src/common/ffmpeg.js';
import type { Defect, EvaluationResult, RunResults } from '../../src/types.js';
import { evidence, click } from '../fixtures/evidence.js';
import { ROOT, tmpDir, scaled } from '../helpers.js';
import { defaultChromium } from '../../src/util/chromium.js';

// The HTML report, checked in a real browser. The evidence is an evaluation's as Cookie stores it, with
// screenshots Chromium takes of two real example pages (examples/todo) and an H.264 video ffmpeg encodes
// from them, so the report renders exactly what a run would hand it, without the minutes of a run.
/** Where the first screen of the failing candidate's page is saved (quoted in the note). */
export const FAILING_SCREENSHOT = path.join(ROOT, 'test-results', 'report-failing-evaluation.png');

let out: string;
let browser: Browser;
const seconds = (ms: number) => ms / 1000;

const result = (over: Partial<EvaluationResult>): EvaluationResult => ({
  id: 'todo-list/x', queryId: 'todo-list', candidate: 'x', mode: 'html', suiteFile: '/s/todo.cookie.yaml', artifactPath: '/a.html', status: 'scored',
  scores: { functionality: 90, aesthetics: 80, total: 85 }, static8: { functionality: 7, aesthetics: 6.5 }, final8: { functionality: 7.2, aesthetics: 6.4 }, defects: [], rubric: [], reasons: ['baseline'],
  thresholds: { total: 70 }, passed: true, timings: { total: 40_000 }, evidenceDir: 'evidence/todo-list/x',
  query: { prompt: 'Build a single-page todo list app: add tasks, mark them done, delete them, filter.', language: 'en', kind: 'dynamic', category: 'Tools & Productivity (Dynamic)' }, finishedAt: '', ...over,
});

beforeAll(async () => {
  out = tmpDir('cookie-report-');
  const { chromium } = await import('playwright');
  browser = await chromium.launch({ executablePath: defaultChromium(), args: ['--no-sandbox', '--disable-gpu'] });
  // evidence folders with real screenshots of the example pages and a 6-second video
  for (const [name, file] of [['good', 'good.html'], ['throws', 'throws.html']] as const) {
    const dir = path.join(out, 'evidence', 'todo-list', name, 'screenshots');
    fs.mkdirSync(dir, { recursive: true });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`file://${path.join(ROOT, 'examples', 'todo', file)}`);
    await page.screenshot({ path: path.join(dir, 'viewport-1280.png') });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: path.join(dir, 'viewport-375.png') });
    await page.close();
    for (const k of ['step-00-before', 'step-00-after', 'step-01-before', 'step-01-after']) fs.copyFileSync(path.join(dir, 'viewport-1280.png'), path.join(dir, `${k}.png`));
    execFileSync(FFMPEG(), ['-loglevel', 'error', '-y', '-loop', '1', '-i', path.join(dir, 'viewport-1280.png'), '-t', '6', '-r', '15', '-vf', 'scale=1280:800,format=yuv420p', '-c:v', 'libx264', path.join(dir, '..', 'video.mp4')]);
  }
  const origin = 'http://127.0.0.1:41234';
  const recording = { video: { file: 'video.mp4', durationMs: 6000, fps: 15, frames: 90, width: 1280, height: 800, repaints: 40 }, videoNote: null, audio: null, freeze: true };
  const fill = click('New task', true, { index: 0, action: { kind: 'fill', value: 'Buy oat milk', target: { signature: 's', name: 'New task', role: 'textbox', tag: 'input', group: 'g', box: { x: 0, y: 0, width: 300, height: 30 } } }, screenshotBefore: 'screenshots/step-00-before.png', screenshotAfter: 'screenshots/step-00-after.png', video: { startMs: 0, endMs: 2500 } });
  const thrown = { text: "TypeError: Cannot read properties of null (reading 'value')", origin: 'app' as const, atMs: 4100, location: `at HTMLButtonElement.<anonymous> (${origin}/throws.html:24:40)`, step: 1 };
  const add = click('Add task', false, { index: 1, screenshotBefore: 'screenshots/step-01-before.png', screenshotAfter: 'screenshots/step-01-after.png', video: { startMs: 2500, endMs: 5200 }, pageErrors: [thrown] });
  const evThrows = evidence({ deploy: { url: `${origin}/throws.html`, port: 41234, root: '/x', entry: 'throws.html', mode: 'html' }, pageErrors: [thrown] }, [fill, add]);
  evThrows.interaction!.recording = recording;
  const evGood = evidence({ deploy: { url: `${origin}/good.html`, port: 41234, root: '/x', entry: 'good.html', mode: 'html' } }, [{ ...fill }]);
  evGood.interaction!.recording = recording;
  fs.writeFileSync(path.join(out, 'evidence', 'todo-list', 'throws', 'evidence.json'), JSON.stringify(evThrows));
  fs.writeFileSync(path.join(out, 'evidence', 'todo-list', 'good', 'evidence.json'), JSON.stringify(evGood));
  const defects: Defect[] = [
    { code: 'inconsistent-type-scale', severity: 'minor', dimension: 'aesthetics', title: 'No consistent type scale', detail: '14 different font sizes are in use.', rubricItem: '8', deduction: 0.5, phase: 'static', evidence: {} },
    { code: 'error-on-use', severity: 'major', dimension: 'functionality', title: 'Error when using button "Add task"', detail: thrown.text, rubricItem: '3', deduction: 1, phase: 'interaction', evidence: { step: 1, screenshot: 'screenshots/step-01-after.png', excerpt: thrown.text } },
  ];
  const run: RunResults = {
    schemaVersion: 1, cookieVersion: '0.1.0', browserVersion: '140', startedAt: '2026-12-01T15:00:00.000Z', finishedAt: '2026-12-01T15:02:00.000Z', config: {}, environment: null,
    evaluations: [
      result({ id: 'todo-list/good', candidate: 'good', evidenceDir: 'evidence/todo-list/good' }),
      result({ id: 'todo-list/throws', candidate: 'throws', evidenceDir: 'evidence/todo-list/throws', passed: false, scores: { functionality: 50, aesthetics: 75, total: 62.5 }, static8: { functionality: 6, aesthetics: 6 }, final8: { functionality: 4, aesthetics: 6 }, defects }),
      result({ id: 'counter/missing', queryId: 'counter', candidate: 'missing', status: 'error', passed: false, scores: null, static8: null, final8: null, error: { stage: 'load', message: 'artifact not found: /x/missing.html' }, evidenceDir: 'evidence/counter/missing' }),
    ],
  };
  writeHtmlReport(run, out);
}, scaled(120_000));

afterAll(async () => {
  await browser?.close();
});

async function open(hash = ''): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`file://${path.join(out, 'report', 'index.html')}${hash}`);
  return { page, errors };
}

describe('HTML report, verdict first (real browser)', () => {
  it('the index shows pass/fail and the worst defect per row, and sorts by any column', async () => {
    const { page, errors } = await open();
    await expect.poll(() => page.getByTestId('eval-row').count()).toBe(3);
    expect(await page.getByTestId('summary').innerText()).toMatch(/1 passed · 1 failed · 1 errors/);
    // default order: worst verdict first
    const verdicts = () => page.getByTestId('verdict-tag').allInnerTexts();
    expect((await verdicts()).map((v) => v.toLowerCase())).toEqual(['error', 'fail', 'pass']);
    const throwsRow = page.getByTestId('eval-row').filter({ hasText: 'throws' });
    expect(await throwsRow.getByTestId('worst').innerText()).toMatch(/major\s+Error when using button "Add task"/);
    // sort by total, ascending then descending (unscored last ascending, as −1 first)
    await page.locator('th[data-sort="total"]').click();
    const names = () => page.getByTestId('eval-link').allInnerTexts();
    expect(await names()).toEqual(['missing', 'throws', 'good']);
    await page.locator('th[data-sort="total"]').click();
    expect(await names()).toEqual(['good', 'throws', 'missing']);
    expect(await page.locator('th[data-sort="total"]').getAttribute('aria-sort')).toBe('descending');
    expect(errors).toEqual([]);
    await page.close();
  });

  it("a failing candidate's page opens with FAIL and why, static → final scores and the top defects with keyframe, source location and a video moment that seeks; first screen saved", async () => {
    const { page, errors } = await open('#/eval/1');
    await page.getByTestId('verdict').waitFor();
    // everything that decides the verdict is on the first screen (1280 × 800)
    const inFirstScreen = async (testId: string) => {
      const box = await page.getByTestId(testId).first().boundingBox();
      return !!box && box.y + Math.min(box.height, 40) <= 800;
    };
    expect(await page.getByTestId('verdict').innerText()).toMatch(/✗ FAIL[\s\S]*throws on todo-list[\s\S]*below threshold: total 62.5 < 70/);
    expect(await page.getByTestId('scores').innerText()).toMatch(/0–8: static 6.0 → final 4.0/);
    for (const id of ['verdict', 'scores', 'top-defects', 'defect-thumb', 'defect-location']) expect(await inFirstScreen(id), id).toBe(true);
    const top = page.getByTestId('top-defect');
    expect(await top.count()).toBe(2);
    // worst first: the major interaction error before the minor type-scale defect
    expect(await top.first().innerText()).toMatch(/major[\s\S]*Error when using button "Add task"/);
    expect(await top.first().getByTestId('defect-location').innerText()).toBe('throws.html:24:40');
    const thumb = top.first().getByTestId('defect-thumb');
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1280);
    // the video has a poster frame and the defect's moment seeks it
    const video = page.getByTestId('video');
    expect(await video.getAttribute('poster')).toMatch(/step-00-before\.png$/);
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
    fs.mkdirSync(path.dirname(FAILING_SCREENSHOT), { recursive: true });
    await page.screenshot({ path: FAILING_SCREENSHOT });
    await top.first().getByTestId('defect-seek').click();
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeCloseTo(seconds(2500), 1);
    expect(await page.getByTestId('trace-step').nth(1).getAttribute('class')).toMatch(/current/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('an evaluation Cookie could not finish says ERROR with its stage, not a score', async () => {
    const { page, errors } = await open('#/eval/2');
    await page.getByTestId('verdict').waitFor();
    expect(await page.getByTestId('verdict').innerText()).toMatch(/⚠ ERROR[\s\S]*load: artifact not found/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows two candidates of the same query side by side and switches candidates', async () => {
    const { page, errors } = await open();
    await page.getByTestId('eval-row').filter({ hasText: 'throws' }).getByTestId('compare-link').click();
    await expect.poll(() => page.getByTestId('compare-side').count()).toBe(2);
    const sides = page.getByTestId('compare-side');
    expect(await sides.nth(0).innerText()).toMatch(/fail[\s\S]*62.5[\s\S]*Error when using button/i);
    expect(await sides.nth(1).innerText()).toMatch(/pass[\s\S]*85.0[\s\S]*No defects/i);
    await expect.poll(() => sides.nth(0).locator('img.shot').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1280);
    // candidates of another query are not offered
    expect(await page.getByTestId('compare-select-a').locator('option').allInnerTexts()).toEqual(['good', 'throws']);
    await page.getByTestId('compare-select-b').selectOption({ label: 'throws' });
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/compare/1/1');
    expect(errors).toEqual([]);
    await page.close();
  });
});
