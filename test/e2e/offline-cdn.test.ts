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
});
