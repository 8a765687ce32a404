import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright';
import { launchBrowser } from '../../src/browser/launch.js';
import { measureMachineFrameRate } from '../../src/perceive/machine-frame-rate.js';
import { runCookie } from '../../src/runner/run.js';
import type { Evidence } from '../../src/types.js';
import { defaultChromium } from '../../src/util/chromium.js';
import { TEST_TIMEOUT, readResults, tmpDir, writeFiles } from '../helpers.js';

// The machine's own frame rate (the judge's excuse for a slow page on a slow machine) is measured only when the
// evidence has a slowness it could explain, after the app's page closed (issue 13: an evaluation near the floor).
// Two pages as LLMs write them: a particle "nebula" whose every frame computes for 250 ms (under 4 fps on any
// machine), and a still Spanish bakery menu.
const NEBULA = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Nebula</title><style>html,body{margin:0;height:100%;background:#05010f}canvas{display:block;width:100vw;height:100vh}h1{position:fixed;top:24px;left:32px;color:#e9d5ff;font:600 32px system-ui}</style></head>
<body><h1>✨ Particle Nebula</h1><canvas id="c"></canvas><script>
const c = document.getElementById('c'), g = c.getContext('2d'); c.width = innerWidth; c.height = innerHeight;
const ps = Array.from({ length: 400 }, () => ({ x: Math.random() * c.width, y: Math.random() * c.height, vx: Math.random() - .5, vy: Math.random() - .5, h: 260 + Math.random() * 60 }));
function frame() {
  const t0 = performance.now(); while (performance.now() - t0 < 250) {} // "physics": far too much work per frame
  g.fillStyle = 'rgba(5,1,15,.25)'; g.fillRect(0, 0, c.width, c.height);
  for (const p of ps) { p.x = (p.x + p.vx * 4 + c.width) % c.width; p.y = (p.y + p.vy * 4 + c.height) % c.height; g.fillStyle = 'hsl(' + p.h + ',90%,70%)'; g.fillRect(p.x, p.y, 3, 3); }
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);
</script></body></html>`;
const MENU = `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Panadería Luna</title><style>body{font-family:Georgia,serif;background:#fff7ed;color:#431407;max-width:720px;margin:40px auto;padding:0 20px}li{display:flex;justify-content:space-between;border-bottom:1px dashed #fdba74;padding:10px 0}</style></head>
<body><h1>Panadería Luna</h1><p>Pan recién horneado cada mañana.</p><ul><li><span>Croissant de mantequilla</span><b>1,80 €</b></li><li><span>Pan de masa madre</span><b>4,20 €</b></li><li><span>Ensaimada</span><b>2,50 €</b></li></ul></body></html>`;

let evidence: Record<string, Evidence> = {};
let browser: Browser;

beforeAll(async () => {
  const dir = tmpDir('cookie-machine-fps-');
  writeFiles(dir, {
    'nebula.html': NEBULA,
    'menu.html': MENU,
    'fps.cookie.yaml': 'query:\n  id: fps\n  prompt: A page.\n  language: en\n  kind: dynamic\ncandidates:\n  - { name: nebula, mode: html, path: nebula.html }\n  - { name: menu, mode: html, path: menu.html }\n',
    'cookie.config.mjs': 'export default { recording: { video: false, audio: false } };\n',
  });
  const out = path.join(dir, 'out');
  await runCookie({ paths: ['.'], cwd: dir, configFile: path.join(dir, 'cookie.config.mjs'), outputDir: out, silent: true, steps: 1, concurrency: 1, cache: false });
  process.exitCode = undefined;
  for (const e of readResults(out).evaluations) evidence[e.candidate] = JSON.parse(fs.readFileSync(path.join(out, e.evidenceDir, 'evidence.json'), 'utf8')) as Evidence;
  browser = await launchBrowser(defaultChromium());
}, TEST_TIMEOUT);
afterAll(async () => {
  await browser?.close();
  evidence = {};
});

describe("the machine's own frame rate", () => {
  it('is measured for a page whose frames are slow, and not for a still page (it would answer no question there)', () => {
    const neb = evidence.nebula!.static!;
    expect(neb.frameTiming?.fps).toBeLessThan(20);
    expect(neb.machineFrameRate?.fps).toBeGreaterThan(0);
    // the probe's window: at least 60 ms and 4 frames, at most 300 ms (plus the frame that ends it)
    expect(neb.machineFrameRate?.windowMs).toBeGreaterThanOrEqual(60);
    const menu = evidence.menu!.static!;
    expect(menu.unresponsive).toBe(false);
    expect(menu.machineFrameRate).toBeUndefined();
    expect(menu.problems.join('\n')).not.toMatch(/frame rate/);
  });

  it('is taken in a context of its own, closed afterwards: the browser is left as it was', async () => {
    const before = browser.contexts().length;
    const m = await measureMachineFrameRate(browser);
    expect(m?.fps).toBeGreaterThan(0);
    expect(browser.contexts().length).toBe(before);
  });
});
