// Benchmark: what isolating evaluations costs (issue 19). Compares (a) one shared browser, a fresh context per
// evaluation, with (b) a browser per evaluation killed with its process group at the end — first with a plain
// control page, then with the control page right after a hostile page (history.pushState flood of 100,000
// entries, then a busy loop) whose context was closed after 5 s.
// Run: npx tsx bench/isolation.bench.ts [--rounds N]   (prints its figures; asserts nothing)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright';
import { BrowserPool, launchBrowser } from '../src/browser/launch.js';
import { openAppSession } from '../src/browser/session.js';
import { startStaticServer } from '../src/deploy/static-server.js';
import { timebox } from '../src/util/timebox.js';
import { defaultChromium } from '../src/util/chromium.js';

const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1] || 3);
const chromium = defaultChromium();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cookie-isolation-'));
fs.writeFileSync(path.join(dir, 'control.html'), '<!doctype html><title>control</title><h1>Compteur</h1><button onclick="this.textContent++">0</button>');
fs.writeFileSync(path.join(dir, 'flood.html'), '<!doctype html><title>flood</title><script>for (let i = 0; i < 100000; i++) history.pushState({ i }, "", "?p=" + i); while (true) {}</script>');
const server = await startStaticServer(dir);

/** One control evaluation's browser work: open a session, load, read the DOM, close. */
async function control(browser: Browser): Promise<number> {
  const t = Date.now();
  const s = await timebox(openAppSession(browser, server.origin, { viewport: { width: 1280, height: 800 }, media: false }), 120_000, 'session open');
  await s.page.goto(`${server.origin}/control.html`);
  await s.page.click('button');
  await s.close();
  return Date.now() - t;
}
async function hostile(browser: Browser): Promise<void> {
  const s = await openAppSession(browser, server.origin, { viewport: { width: 1280, height: 800 }, media: false });
  await s.page.goto(`${server.origin}/flood.html`, { timeout: 5000 }).catch(() => {});
  await new Promise((r) => setTimeout(r, 5000));
  await s.close();
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const shared = await launchBrowser(chromium);
const a: number[] = [];
const aAfter: number[] = [];
for (let i = 0; i < rounds; i++) a.push(await control(shared));
for (let i = 0; i < rounds; i++) {
  await hostile(shared);
  aAfter.push(await control(shared).catch(() => 120_000));
}
await shared.close();

/** Browser per evaluation (recycle every time) or pooled (renderers killed; recycled only after the hostile page). */
async function pooled(recycleAlways: boolean): Promise<[number[], number[]]> {
  const pool = new BrowserPool(chromium);
  const plain: number[] = [];
  const after: number[] = [];
  const one = async () => {
    const t = Date.now();
    const e = await pool.acquire();
    await control(e.browser);
    await e.close({ recycle: recycleAlways });
    return Date.now() - t;
  };
  await pool.acquire().then((e) => e.close()); // the worker's first launch is not part of a control evaluation
  for (let i = 0; i < rounds; i++) plain.push(await one());
  for (let i = 0; i < rounds; i++) {
    const h = await pool.acquire();
    await hostile(h.browser);
    await h.close({ recycle: true });
    after.push(await one());
  }
  await pool.closeAll();
  return [plain, after];
}
const [b, bAfter] = await pooled(true);
const [c, cAfter] = await pooled(false);
await server.close();
console.log(`load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}, ${os.cpus().length} cores, ${rounds} rounds (median ms)`);
console.log(`shared browser, fresh context:        control ${median(a)}  control after hostile ${median(aAfter)}`);
console.log(`browser per evaluation (incl. launch): control ${median(b)}  control after hostile ${median(bAfter)}`);
console.log(`pooled browser, renderers killed:      control ${median(c)}  control after hostile ${median(cAfter)} (recycled after it)`);
