import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readResults, runCli, tmpDir, writeFiles } from '../helpers.js';

describe('offline CDN', () => {
  it('a React + Tailwind v3 page (Play CDN with `tailwind.config`) loaded from unpkg and cdn.tailwindcss.com renders offline with its own theme; an unknown library stays unresolved and is not blamed', async () => {
    const dir = tmpDir('cookie-cdn-');
    writeFiles(dir, {
      'app.html': `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Menu</title>
<script src="https://cdn.tailwindcss.com"></script>
<script>tailwind.config = { theme: { extend: { colors: { night: '#0b1020', ember: '#f59e0b' } } } };</script>
<script crossorigin src="https://unpkg.com/react@18/umd/react.production.min.js"></script>
<script crossorigin src="https://unpkg.com/react-dom@18/umd/react-dom.production.min.js"></script>
<script src="https://cdn.jsdelivr.net/npm/not-a-real-library@1.0.0/dist/nope.min.js"></script>
<link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Inter:wght@400;700&display=swap">
</head><body><div id="root"></div><script>
const e = React.createElement;
function App() {
  const [n, setN] = React.useState(0);
  return e('main', { className: 'min-h-screen bg-night text-white p-10' },
    e('h1', { className: 'text-4xl font-bold mb-4' }, 'Nocturne bistro'),
    e('p', { className: 'text-slate-300 mb-6' }, 'Seasonal plates and natural wines, served late into the night.'),
    e('button', { className: 'px-4 py-2 rounded-lg bg-ember text-night', onClick: () => setN(n + 1) }, 'Reserve (' + n + ')'));
}
ReactDOM.createRoot(document.getElementById('root')).render(e(App));
</script></body></html>`,
      's.cookie.yaml': `query:\n  id: q\n  prompt: A dark landing page for a bistro with a reservation button.\n  language: en\n  kind: static\ncandidates:\n  - { name: c, mode: html, path: app.html }\n`,
      'cookie.config.ts': 'export default { agent: { steps: 5 }, recording: { video: false, audio: false } };\n',
    });
    const r = await runCli(['test', '.'], { cwd: dir });
    expect(r.code).toBe(0);
    const e = readResults(path.join(dir, 'cookie-results')).evaluations[0]!;
    expect(e.status).toBe('scored');
    const ev = JSON.parse(fs.readFileSync(path.join(dir, 'cookie-results', e.evidenceDir, 'evidence.json'), 'utf8'));
    expect(ev.static.inventory.textSample).toContain('Nocturne bistro');
    const from = ev.cdn.rewrites.map((x: { servedFrom: string }) => x.servedFrom).join(' ');
    // the v3 Play CDN, not Tailwind v4's browser build (which has no `tailwind` global: the config line threw
    // "tailwind is not defined" and the theme's colours never existed)
    expect(from).toMatch(/tailwindcss-cdn@3\.[\d.]+\/tailwindcss\.js/);
    expect(ev.cdn.rewrites.find((x: { url: string }) => x.url.startsWith('https://cdn.tailwindcss.com')).exact).toBe(true);
    expect(JSON.stringify(ev.consoleErrors)).not.toMatch(/tailwind is not defined/);
    expect(from).toMatch(/react@18\.\d+\.\d+\/umd\/react\.production\.min\.js/);
    expect(from).toMatch(/react-dom@18/);
    expect(from).toMatch(/system fonts/);
    expect(ev.cdn.unresolved).toEqual(['https://cdn.jsdelivr.net/npm/not-a-real-library@1.0.0/dist/nope.min.js']);
    // Tailwind ran with the page's config: the page is dark (its `bg-night`), not unstyled
    expect(ev.static.viewports.find((v: { width: number }) => v.width === 1280).blank.meanBrightness).toBeLessThan(80);
    expect(e.defects.filter((d) => d.rubricItem === '5')).toEqual([]);
    expect(e.reasons.join(' ')).toMatch(/library script\(s\) from public CDNs could not be loaded offline/);
  });

  it('a Bootstrap page copied with its integrity hashes is served its CSS and JS offline (the hashes pin another build), and the evidence says the hashes were not enforced', async () => {
    const dir = tmpDir('cookie-cdn-sri-');
    writeFiles(dir, {
      'shop.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Night market</title>
<link href="https://cdn.jsdelivr.net/npm/bootstrap@5.3.2/dist/css/bootstrap.min.css" rel="stylesheet" integrity="sha384-T3c6CoIi6uLrA9TneNEoa7RxnatzjcDSCmG1MXxSR1GAsXEV/Dwwykc2MPK8M2HN" crossorigin="anonymous">
</head><body class="bg-dark text-light"><main class="container py-5"><h1 class="display-5">Night market</h1><p class="lead">Street food stalls open until 2 am, every Friday.</p>
<button class="btn btn-warning" data-bs-toggle="modal" data-bs-target="#m">Get the map</button>
<div class="modal fade" id="m" tabindex="-1"><div class="modal-dialog"><div class="modal-content text-dark"><div class="modal-body">Stalls are along the river.</div></div></div></div></main>
<script src="https://cdn.jsdelivr.net/npm/bootstrap@5.3.2/dist/js/bootstrap.bundle.min.js" integrity="sha384-C6RzsynM9kWDrMNeT87bh95OGNyZPhcTNXj1NW7RuBCsyN/o0jlpcV8Qyq46cDfL" crossorigin="anonymous"></script></body></html>`,
      's.cookie.yaml': `query:\n  id: q\n  prompt: A dark landing page for a night market with a button that shows the map.\n  language: en\n  kind: dynamic\ncandidates:\n  - { name: c, mode: html, path: shop.html }\n`,
      'cookie.config.ts': 'export default { agent: { steps: 3 }, recording: { video: false, audio: false } };\n',
    });
    const r = await runCli(['test', '.'], { cwd: dir });
    expect(r.code).toBe(0);
    const e = readResults(path.join(dir, 'cookie-results')).evaluations[0]!;
    const ev = JSON.parse(fs.readFileSync(path.join(dir, 'cookie-results', e.evidenceDir, 'evidence.json'), 'utf8'));
    // the browser took both files (no "Failed to find a valid digest" refusal), and the page is Bootstrap-dark
    expect(JSON.stringify(ev.consoleErrors)).not.toMatch(/integrity/);
    expect(ev.cdn.rewrites.filter((x: { note?: string }) => /integrity hash was not enforced/.test(x.note ?? '')).map((x: { servedFrom: string }) => x.servedFrom)).toEqual([
      expect.stringMatching(/^bootstrap@5\.[\d.]+\/dist\/css\/bootstrap\.min\.css$/),
      expect.stringMatching(/^bootstrap@5\.[\d.]+\/dist\/js\/bootstrap\.bundle\.min\.js$/),
    ]);
    expect(ev.static.viewports.find((v: { width: number }) => v.width === 1280).blank.meanBrightness).toBeLessThan(80);
    // the modal is Bootstrap's (hidden until asked for), not an unstyled block on the page
    expect(ev.static.inventory.textSample).not.toMatch(/Stalls are along the river/);
  });

  it('a Chart.js dashboard whose charts keep their desktop width after a resize, and fit when loaded at 375 px, is a minor resize note, not a page too wide for a phone', async () => {
    const dir = tmpDir('cookie-cdn-resize-');
    writeFiles(dir, {
      'sales.html': `<!doctype html><html lang="zh"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>销售看板</title>
<script src="https://cdn.jsdelivr.net/npm/chart.js"></script>
<style>body{margin:0;font-family:system-ui;background:#0f172a;color:#e2e8f0}main{padding:20px}.grid2{display:grid;grid-template-columns:2fr 1fr;gap:16px}
@media (max-width:900px){.grid2{grid-template-columns:1fr}}.panel{background:#1e293b;border-radius:14px;padding:16px}</style></head>
<body><main><h1>二〇二六年销售看板</h1><p>按月与按渠道的销售额一览。</p><div class="grid2"><div class="panel"><canvas id="trend" height="140"></canvas></div><div class="panel"><canvas id="channel"></canvas></div></div></main>
<script>
new Chart(document.getElementById('trend'), { type: 'line', data: { labels: ['一月', '二月', '三月', '四月', '五月', '六月'], datasets: [{ label: '销售额', data: [120, 150, 138, 190, 210, 240], borderColor: '#38bdf8' }] }, options: { animation: false } });
new Chart(document.getElementById('channel'), { type: 'doughnut', data: { labels: ['线上', '门店', '批发'], datasets: [{ data: [55, 30, 15], backgroundColor: ['#38bdf8', '#a78bfa', '#f472b6'] }] }, options: { animation: false } });
</script></body></html>`,
      's.cookie.yaml': `query:\n  id: q\n  prompt: 做一个销售数据看板，包含月度趋势和渠道占比图表。\n  language: zh\n  kind: static\ncandidates:\n  - { name: c, mode: html, path: sales.html }\n`,
      'cookie.config.ts': 'export default { agent: { steps: 2 }, recording: { video: false, audio: false } };\n',
    });
    const r = await runCli(['test', '.'], { cwd: dir });
    expect(r.code).toBe(0);
    const e = readResults(path.join(dir, 'cookie-results')).evaluations[0]!;
    const ev = JSON.parse(fs.readFileSync(path.join(dir, 'cookie-results', e.evidenceDir, 'evidence.json'), 'utf8'));
    const phone = ev.static.viewports.find((v: { width: number }) => v.width === 375);
    // right after the resize the charts kept the desktop grid wide; loaded at 375 px the page fits
    expect(phone.overflowAfterResizePx).toBeGreaterThan(8);
    expect(phone.overflowPx).toBeLessThanOrEqual(8);
    expect(e.defects.filter((d) => d.code === 'horizontal-overflow')).toEqual([]);
    expect(e.defects.filter((d) => d.code === 'overflow-after-resize').map((d) => d.severity)).toContain('minor');
    // Cookie's own fresh loads are not the page reloading itself
    expect(ev.documentLoads.filter((l: { byCookie?: boolean }) => l.byCookie).length).toBeGreaterThanOrEqual(2);
    expect(e.defects.map((d) => d.code)).not.toContain('reload-loop');
  });
});
