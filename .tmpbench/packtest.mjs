import { chromium } from 'playwright';
import { PNG } from 'pngjs';
import fs from 'node:fs';
import { CHROMIUM_ARGS } from '/work/main/dist/src/browser/launch.js';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
const p = await b.newPage({ viewport: { width: 1280, height: 800 } });
await p.goto('file:///work/main/' + (process.argv[2] || 'bench/floor/form.html'));
await p.waitForTimeout(1000);
const cdp = await p.context().newCDPSession(p);
const fast = Buffer.from((await cdp.send('Page.captureScreenshot', { format: 'png', optimizeForSpeed: true })).data, 'base64');
const img = PNG.sync.read(fast);
for (const [ft, lvl] of [[2, 9], [2, 6], [-1, 9], [4, 9]]) {
  const png = new PNG({ width: img.width, height: img.height, filterType: ft, deflateLevel: lvl, deflateStrategy: 0, colorType: 2, inputHasAlpha: true });
  png.data = img.data;
  let maxGap = 0, last = performance.now(); const iv = setInterval(() => { const n = performance.now(); maxGap = Math.max(maxGap, n - last); last = n; }, 1);
  const t0 = performance.now();
  const chunks = [];
  const s = png.pack();
  const tSync = performance.now() - t0;
  await new Promise((r) => { s.on('data', (c) => chunks.push(c)); s.on('end', r); });
  clearInterval(iv);
  const out = Buffer.concat(chunks);
  const back = PNG.sync.read(out);
  console.log('filter', ft, 'level', lvl, 'size', out.length, 'sync part', tSync.toFixed(0), 'ms total', (performance.now() - t0).toFixed(0), 'ms, longest event-loop block', maxGap.toFixed(0), 'ms same pixels', Buffer.compare(back.data, img.data) === 0);
}
await b.close();
