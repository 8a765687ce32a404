import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EvaluationResult, LoadTiming } from '../../src/types.js';
import { readResults, runCli, tmpDir, writeFiles } from '../helpers.js';

// A page that answers slowly but is not hung: like a Mandelbrot page of KCORES (ERNIE-4.5) that redraws
// every pixel in its resize handler, each resize blocks the main thread for 9 s. With a 20-s perception
// budget the viewports that no longer fit are skipped and recorded; the evaluation is scored with what was
// captured, never a harness error ("perceive stage timed out"), and the skipped viewports are not assessed.
let result: EvaluationResult;
let evidence: { static: { incomplete?: { skipped: string[]; spentMs: number }; viewports: { width: number }[]; unresponsive: boolean; loadMs: number; loadTiming?: LoadTiming } };

beforeAll(async () => {
  const dir = tmpDir('cookie-budget-');
  writeFiles(dir, {
    'mandel.html': `<!DOCTYPE html><html lang="zh"><head><meta charset="utf-8"><title>曼德博集合与李白</title>
<style>body{margin:0;background:#0b1020;color:#f5e6c8;font-family:serif}h1{position:fixed;top:12px;left:16px;font-size:22px;margin:0}canvas{display:block}</style></head>
<body><h1>床前明月光，疑是地上霜</h1><canvas id="c"></canvas><script>
const c = document.getElementById('c'), g = c.getContext('2d');
function draw() {
  c.width = innerWidth; c.height = innerHeight;
  for (let y = 0; y < c.height; y += 4) for (let x = 0; x < c.width; x += 4) {
    let zx = 0, zy = 0, i = 0; const cx = (x - c.width * 0.65) / (c.height * 0.4), cy = (y - c.height / 2) / (c.height * 0.4);
    while (zx * zx + zy * zy < 4 && i < 60) { const t = zx * zx - zy * zy + cx; zy = 2 * zx * zy + cy; zx = t; i++; }
    g.fillStyle = 'hsl(' + (200 + i * 3) + ',70%,' + (i === 60 ? 5 : 20 + i) + '%)'; g.fillRect(x, y, 4, 4);
  }
}
// the first draw "warms up" the palette: 400 ms of the page's own work before its load event
{ const end = performance.now() + 400; while (performance.now() < end); }
draw();
// every resize redraws "at full precision": 9 s of main-thread work
addEventListener('resize', () => { const end = performance.now() + 9000; while (performance.now() < end); draw(); });
</script></body></html>`,
    'budget.cookie.yaml': 'query: { id: mandel, prompt: "画一个曼德博集合，并配上李白的诗句。", language: zh, kind: static }\ncandidates: [ { name: slow, mode: html, path: mandel.html } ]\n',
    'cookie.config.mjs': "export default { timeouts: { perceive: 20000 }, recording: { video: false, audio: false }, agent: { steps: 2 } };\n",
  });
  const out = path.join(dir, 'out');
  const cli = await runCli(['test', dir, '--config', path.join(dir, 'cookie.config.mjs'), '--output-dir', out, '--no-cache'], { cwd: dir });
  result = readResults(out).evaluations[0]!;
  evidence = JSON.parse(fs.readFileSync(path.join(out, result.evidenceDir, 'evidence.json'), 'utf8'));
  if (result.status !== 'scored') console.error(cli.stdout.slice(-2000), cli.stderr.slice(-2000));
});

describe('perception keeps to its time budget on a page that answers slowly', () => {
  it('scores the page with what was captured instead of failing the stage', () => {
    expect(result.status, JSON.stringify(result.error)).toBe('scored');
    expect(result.error).toBeUndefined();
  });
  it('records the captures it skipped, and leaves the responsive check not assessed', () => {
    expect(evidence.static.incomplete?.skipped, JSON.stringify(evidence.static.viewports.map((v) => v.width))).toEqual(expect.arrayContaining([expect.stringMatching(/^viewport (375|768)$/)]));
    expect(evidence.static.viewports.map((v) => v.width)).toContain(1280);
    expect(evidence.static.unresponsive).toBe(false);
    expect(result.rubric?.find((r) => r.id === '6')).toMatchObject({ verdict: 'not-assessed', reason: expect.stringMatching(/not captured/) });
    expect(result.defects.map((d) => d.code)).not.toContain('page-freeze');
  });
  it('records what the load time was made of: the server\'s wait for the entry document, the page\'s own work, the CPU pressure', () => {
    const lt = evidence.static.loadTiming!;
    // the page's 400-ms loop before its load event is its own work, and part of the load
    expect(lt.workMs).toBeGreaterThanOrEqual(380);
    expect(evidence.static.loadMs).toBeGreaterThanOrEqual(lt.workMs! - 20);
    expect(lt.documentWaitMs).toBeGreaterThanOrEqual(0);
    expect(lt.documentWaitMs).toBeLessThan(evidence.static.loadMs);
    if (fs.existsSync('/proc/pressure/cpu')) {
      expect(lt.cpuPressure).toBeGreaterThanOrEqual(0);
      expect(lt.cpuPressure).toBeLessThanOrEqual(1);
    }
  });
});
