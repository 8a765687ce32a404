import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../src/browser/launch.js';
import { evalIn, isResponsive, openAppSession } from '../../src/browser/session.js';
import { startStaticServer, type StaticServer } from '../../src/deploy/static-server.js';
import { Freezer } from '../../src/interact/freeze.js';
import { ROOT, tmpDir } from '../helpers.js';
import { defaultChromium } from '../../src/util/chromium.js';

type Snap = { n: number; frames: number; date: number; perf: number; css: number; video: number; audio: number };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let browser: Browser;
let server: StaticServer;

beforeAll(async () => {
  const dir = tmpDir('cookie-freeze-');
  fs.copyFileSync(path.join(ROOT, 'test/fixtures/freeze.html'), path.join(dir, 'index.html'));
  // a heavy canvas page as models write them: each frame draws until its time budget is spent (here 300 ms of
  // script per frame, ~3 fps), and a "process" button whose handler busy-waits on Date.now()
  fs.writeFileSync(
    path.join(dir, 'budget.html'),
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Glow field</title></head><body style="margin:0;background:#050814">
<canvas id="c" width="640" height="400"></canvas><p id="n">0</p><script>
const ctx = document.getElementById('c').getContext('2d'); let frames = 0;
function frame() {
  const t0 = performance.now();
  while (performance.now() - t0 < 300) { ctx.fillStyle = 'hsl(' + (frames * 7 % 360) + ',90%,60%)'; ctx.beginPath(); ctx.arc(Math.random() * 640, Math.random() * 400, 3, 0, 7); ctx.fill(); }
  document.getElementById('n').textContent = ++frames;
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);
setInterval(() => { const s = Date.now(); while (Date.now() - s < 50) {} }, 120);
</script></body></html>`,
  );
  execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=20:size=160x120:rate=15', '-c:v', 'libvpx', '-b:v', '200k', path.join(dir, 'clip.webm')]);
  server = await startStaticServer(dir);
  browser = await launchBrowser(defaultChromium());
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(freeze: boolean) {
  const s = await openAppSession(browser, server.origin, { viewport: { width: 800, height: 500 }, media: true });
  await s.page.goto(`${server.origin}/index.html`);
  await s.page.mouse.click(...(await center(s.page)));
  await sleep(1200);
  const f = await Freezer.attach(s.page, freeze);
  return { s, f, snap: () => evalIn<Snap>(s.page, 'window.snap()', 5000) };
}
async function center(page: import('playwright').Page): Promise<[number, number]> {
  const b = (await page.locator('#go').boundingBox())!;
  return [b.x + b.width / 2, b.y + b.height / 2];
}

describe('environment freeze', () => {
  it('timers, rAF, Date/performance, CSS animation, video and oscillator show no change across a 2-second deliberation', async () => {
    const { s, f, snap } = await open(true);
    const running = await snap();
    expect(running.video).toBeGreaterThan(0.3);
    expect(running.audio).toBeGreaterThan(0.3);
    await f.freeze();
    const a = await snap();
    const shotA = await s.page.screenshot();
    await sleep(2000);
    const b = await snap();
    const shotB = await s.page.screenshot();
    expect(b.n).toBe(a.n);
    expect(b.frames).toBe(a.frames);
    expect(b.date).toBe(a.date);
    expect(b.perf).toBe(a.perf);
    expect(b.css).toBe(a.css);
    expect(b.video).toBeCloseTo(a.video, 2);
    expect(b.audio).toBeCloseTo(a.audio, 1);
    expect(Buffer.compare(shotA, shotB)).toBe(0);

    // resumes at normal speed, with no catch-up burst for the 2 frozen seconds: the app advances by about
    // the wall time that really passed (measured here, so a busy machine does not decide the result), never
    // by the 2 s it was frozen on top
    const t0 = Date.now();
    await f.unfreeze();
    await sleep(1000);
    const c = await snap();
    const elapsed = Date.now() - t0;
    expect(c.n - b.n).toBeGreaterThanOrEqual(6);
    expect(c.n - b.n).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + 4);
    expect(c.date - b.date).toBeGreaterThan(700);
    expect(c.date - b.date).toBeLessThan(elapsed + 500);
    expect(c.css - b.css).toBeGreaterThan(700);
    expect(c.css - b.css).toBeLessThan(elapsed + 500);
    expect(c.video - b.video).toBeGreaterThan(0.5);
    expect(c.video - b.video).toBeLessThan(elapsed / 1000 + 0.5);
    expect(c.audio - b.audio).toBeGreaterThan(0.5);
    expect(c.audio - b.audio).toBeLessThan(elapsed / 1000 + 0.5);
    await s.close();
  });

  it('a page whose callbacks wait on the clock (a frame budget, a busy sleep) is frozen and resumed, never hung by the freeze', async () => {
    // Playwright's public pause fast-forwards the clock first, running the due frame with time standing still:
    // the frame's budget loop never ended and Cookie's own freeze hung the page ("Page freezes", critical)
    const s = await openAppSession(browser, server.origin, { viewport: { width: 800, height: 500 }, media: true });
    await s.page.goto(`${server.origin}/budget.html`);
    const frames = () => evalIn<number>(s.page, 'Number(document.getElementById("n").textContent)', 5000);
    // (bounded in work: a few frames of 300 ms, however slow the machine)
    while ((await frames()) < 2) await sleep(100);
    const f = await Freezer.attach(s.page, true);
    for (let i = 0; i < 3; i++) {
      await f.freeze();
      const a = await frames();
      await sleep(700);
      expect(await frames()).toBe(a);
      expect(await isResponsive(s.page, 5000)).toBe(true);
      await f.unfreeze();
      while ((await frames()) <= a) await sleep(100);
    }
    await f.dispose();
    await s.close();
  });

  it('a config switch turns freezing off: the app keeps running while the agent thinks', async () => {
    const { s, f, snap } = await open(false);
    expect(f.enabled).toBe(false);
    await f.freeze();
    const a = await snap();
    await sleep(1000);
    const b = await snap();
    expect(b.n - a.n).toBeGreaterThanOrEqual(6);
    expect(b.css - a.css).toBeGreaterThan(700);
    await s.close();
  });
});
