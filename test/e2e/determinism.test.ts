import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readResults, runCli, tmpDir, writeFiles } from '../helpers.js';

// A page whose look depends on its randomness and the date: confetti positions, a "lucky number", a UUID
// and today's date, as generated pages often have.
const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Lucky day</title>
<style>body{font-family:system-ui;background:#fff7ed;margin:0;padding:2rem}.dot{position:absolute;width:10px;height:10px;border-radius:50%}</style></head>
<body><h1>Your lucky day</h1><p>Lucky number: <b id="n"></b></p><p>Ticket: <code id="u"></code></p><p>Bytes: <code id="b"></code></p><p>Today: <time id="d"></time></p>
<script>
n.textContent = Math.floor(Math.random() * 1e9);
u.textContent = crypto.randomUUID();
b.textContent = Array.from(crypto.getRandomValues(new Uint8Array(6))).join('-');
d.textContent = new Date().toISOString().slice(0, 10);
for (let i = 0; i < 30; i++) { const e = document.createElement('div'); e.className = 'dot';
  e.style.left = Math.random() * 90 + 'vw'; e.style.top = 40 + Math.random() * 50 + 'vh'; e.style.background = 'hsl(' + Math.random() * 360 + ',80%,60%)'; document.body.appendChild(e); }
</script></body></html>`;
const spec = 'query: { id: lucky, prompt: "A page that shows a lucky number and a ticket for today.", language: en, kind: static }\ncandidates: [ { name: lucky, mode: html, path: lucky.html } ]\n';

/** The values the page rendered, read back from the evidence (never from a browser). */
function rendered(out: string): { text: string; shot: Buffer; env: unknown } {
  const r = readResults(out);
  const e = r.evaluations[0]!;
  const ev = JSON.parse(fs.readFileSync(path.join(out, e.evidenceDir, 'evidence.json'), 'utf8'));
  return { text: ev.static.inventory.textSample as string, shot: fs.readFileSync(path.join(out, e.evidenceDir, 'screenshots', 'viewport-1280.png')), env: r.environment?.determinism };
}

describe('determinism', () => {
  it("seeds the page's randomness and fixes its clock per evaluation, records what is pinned, and can be switched off", async () => {
    const dir = tmpDir('cookie-determinism-');
    writeFiles(dir, { 'lucky.html': page, 'lucky.cookie.yaml': spec, 'cookie.config.ts': 'export default { recording: { video: false, audio: false } };\n' });
    const run = (out: string, extra: string[] = []) => runCli(['test', dir, '--output-dir', path.join(dir, out), '--steps', '3', '--no-cache', '--silent', ...extra], { cwd: dir });
    await run('a');
    await run('b');
    const a = rendered(path.join(dir, 'a'));
    const b = rendered(path.join(dir, 'b'));
    expect(a.text).toMatch(/Lucky number: \d+/);
    expect(a.text).toMatch(/Today: 2026-01-15/);
    expect(a.text).toMatch(/Ticket: [0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/);
    expect(b.text).toBe(a.text);
    expect(b.shot.equals(a.shot)).toBe(true); // the confetti lands on the same pixels
    expect(a.env).toMatchObject({ randomSeed: 1, dateOrigin: '2026-01-15T09:00:00Z', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, locale: 'en-US', timezoneId: 'UTC' });
    expect((a.env as { fontFamilies: number }).fontFamilies).toBeGreaterThan(0);

    // opted out: the page gets real randomness and the real date
    writeFiles(dir, { 'cookie.config.ts': 'export default { recording: { video: false, audio: false }, determinism: { random: false, date: false } };\n' });
    await run('c');
    const c = rendered(path.join(dir, 'c'));
    expect(c.text).not.toBe(a.text);
    expect(c.text).toContain(`Today: ${new Date().toISOString().slice(0, 10)}`);
    expect(c.env).toMatchObject({ randomSeed: null, dateOrigin: null });
  });
});
