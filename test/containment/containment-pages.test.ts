import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluationResult, RunResults } from '../../src/types.js';
import { startCanary, watchProcesses, type Canary } from '../fixtures/canary.js';
import { BIN, readResults, ROOT, tmpDir, writeFiles, scaled } from '../helpers.js';

// The containment suite for pages (issue 19): hostile pages of each class run through the real CLI with a
// canary listening on another local port (TCP; UDP on 127.0.0.1 and ::1; a Unix socket), a secret planted in
// Cookie's environment and a root-only secret file. A control page is evaluated first and right after each group of
// hostile pages (concurrency 1, so the order is the spec's).

const page = (title: string, lang: string, body: string, script = '') => `<!DOCTYPE html><html lang="${lang}"><head><meta charset="utf-8"><title>${title}</title>
<style>body{font-family:system-ui,sans-serif;margin:0;padding:28px;background:linear-gradient(135deg,#fdf2f8,#eef2ff);color:#1e1b4b}
h1{font-size:28px;margin:0 0 8px}.card{background:#fff;border-radius:14px;padding:18px;box-shadow:0 6px 24px #6366f122;max-width:560px}
button{padding:9px 16px;border-radius:10px;border:0;background:#6366f1;color:#fff;font-size:15px;cursor:pointer}pre{white-space:pre-wrap;font-size:12px}</style></head>
<body><div class="card"><h1>${title}</h1>${body}<pre id="log"></pre></div><script>const log = (m) => (document.getElementById('log').textContent += m + '\\n');\n${script}</script></body></html>`;

let dir: string;
let out: string;
let canary: Canary & { udp6: boolean };
let run: RunResults;
let code: number | null;
let stdout = '';
let survivors: ReturnType<ReturnType<typeof watchProcesses>['survivors']> = [];
let maxBrowsers = 0;
let overlaps: string[] = [];
const byCandidate = (c: string): EvaluationResult => run.evaluations.find((e) => e.candidate === c)!;
const evidenceOf = (c: string) => JSON.parse(fs.readFileSync(path.join(out, byCandidate(c).evidenceDir, 'evidence.json'), 'utf8'));

const HOSTILE = ['reach', 'workers', 'webrtc', 'paths', 'fifo', 'flood', 'busy'] as const;

beforeAll(async () => {
  canary = await startCanary();
  dir = tmpDir('cookie-containment-');
  out = path.join(dir, 'out');
  const c = `http://127.0.0.1:${canary.tcpPort}`;
  const token = canary.secrets[2]!;
  writeFiles(dir, {
    // a control page: a small bilingual counter with a canvas sparkline
    'control.html': page('Compteur / Counter', 'fr', '<p>Cliquez pour compter.</p><button id="b">+1</button> <span id="n">0</span><canvas id="c" width="300" height="60"></canvas>', `
      const pts = []; const ctx = document.getElementById('c').getContext('2d');
      document.getElementById('b').onclick = () => { const n = ++document.getElementById('n').textContent; pts.push(n);
        ctx.clearRect(0, 0, 300, 60); ctx.beginPath(); pts.forEach((v, i) => ctx.lineTo(i * 20, 60 - v * 5)); ctx.strokeStyle = '#6366f1'; ctx.stroke(); };`),
    // everything a page can send from its own document
    'reach.html': page('Weather dashboard', 'en', '<p>Live forecasts.</p><img src="' + c + '/img.png" alt="radar" width="120" height="80"><button id="r">Refresh</button>', `
      fetch('${c}/fetch').then((r) => r.text()).then((t) => log('FETCH ' + t), () => log('fetch blocked'));
      fetch('http://localhost:${canary.tcpPort}/fetch-localhost').catch(() => log('localhost blocked'));
      fetch('http://[::1]:${canary.tcpPort}/fetch-v6').catch(() => log('v6 blocked'));
      const x = new XMLHttpRequest(); x.open('GET', '${c}/xhr'); x.onload = () => log('XHR ' + x.responseText); x.onerror = () => log('xhr blocked'); x.send();
      const ws = new WebSocket('ws://127.0.0.1:${canary.tcpPort}/ws'); ws.onopen = () => log('WS OPEN'); ws.onerror = () => log('ws blocked');
      new EventSource('${c}/sse').onerror = () => log('sse blocked');
      navigator.sendBeacon('${c}/beacon', 'x');
      const s = document.createElement('script'); s.src = '${c}/script.js'; document.head.appendChild(s);
      const f = document.createElement('iframe'); f.src = '${c}/frame'; document.body.appendChild(f);
      fetch('file://${canary.secretFile}').then((r) => r.text()).then((t) => log('FILE ' + t), () => log('file blocked'));
      document.getElementById('r').onclick = () => fetch('${c}/click').catch(() => log('click blocked'));`),
    // workers and shared workers
    'workers.html': page('Prime finder', 'en', '<p>Finds primes in a worker.</p>', `
      const w = new Worker('w.js'); w.onmessage = (e) => log(e.data);
      const s = new SharedWorker('sw.js'); s.port.onmessage = (e) => log(e.data);`),
    'w.js': `fetch('${c}/from-worker').then((r) => r.text()).then((t) => postMessage('W ' + t), () => postMessage('W blocked'));
      const ws = new WebSocket('ws://127.0.0.1:${canary.tcpPort}/ws-worker'); ws.onopen = () => postMessage('W WS OPEN'); ws.onerror = () => postMessage('W WS blocked');`,
    'sw.js': `onconnect = (e) => { const p = e.ports[0]; fetch('${c}/from-shared').then((r) => r.text()).then((t) => p.postMessage('S ' + t), () => p.postMessage('S blocked')); };`,
    // WebRTC: STUN and TURN to the UDP canary on 127.0.0.1 and ::1, TURN over TCP to the TCP canary, and a
    // constructor taken from a fresh about:blank iframe (before any init script could wrap it)
    'webrtc.html': page('视频聊天', 'zh', '<p>点对点视频通话演示。</p>', `
      const servers = [{ urls: ['stun:127.0.0.1:${canary.udpPort}', 'stun:[::1]:${canary.udpPort}'] },
        { urls: ['turn:127.0.0.1:${canary.udpPort}?transport=udp', 'turn:[::1]:${canary.udpPort}?transport=udp', 'turn:127.0.0.1:${canary.tcpPort}?transport=tcp'], username: 'u', credential: 'p' }];
      const go = (PC, tag) => { const pc = new PC({ iceServers: servers }); pc.createDataChannel('d');
        pc.onicecandidate = (e) => log(tag + ' candidate ' + (e.candidate ? e.candidate.type : 'end'));
        pc.createOffer().then((o) => pc.setLocalDescription(o)).catch((e) => log(tag + ' ' + e.name)); };
      go(RTCPeerConnection, 'page');
      const fr = document.createElement('iframe'); document.body.appendChild(fr); go(fr.contentWindow.RTCPeerConnection, 'iframe');
      setInterval(() => go(RTCPeerConnection, 'again'), 700);`),
    // its own origin: spec, config, dotfile and output-dir paths spelled every way
    'paths.html': page('Docs browser', 'en', '<p>Reads files next to it.</p>', `
      const tries = ['/.env', '/.env/', '/%2eenv', '//.env', '/x/..%2f.env', '/decoy.cookie.yaml', '/decoy.cookie.yaml/', '/DECOY.COOKIE.YAML', '/decoy%2ecookie%2eyaml', '/decoy.cookie.yaml.', '/decoy%EF%BC%8Ecookie.yaml',
        '/containment.cookie.yaml', '/cookie.config.ts', '/out/results.json', '/out/', '/Out/results.json', '/innocent.txt', '/.git/config', '/sub/../.env', '/%5c.env'];
      for (const t of tries) fetch(t).then((r) => r.text().then((x) => log(t + ' ' + r.status + ' ' + x.slice(0, 80))), () => log(t + ' failed'));`),
    '.env': `API_KEY=${token}\n`,
    '.git/config': `[remote] url = ${token}\n`,
    'decoy.cookie.yaml': `# ${token}\nquery: {}\n`,
    'cookie.config.ts': `export default { secret: '${token}' };\n`,
    // a folder candidate whose data file and stylesheet are named pipes (FIFOs)
    'fifo/index.html': page('Recettes', 'fr', '<link rel="stylesheet" href="style.css"><p>Chargement des recettes…</p><ul id="l"></ul>', `
      for (let i = 0; i < 8; i++) fetch('data.json?i=' + i).then((r) => log('data ' + r.status), () => log('data failed'));
      fetch('recipes.json').then((r) => r.json()).then((j) => j.forEach((x) => { const li = document.createElement('li'); li.textContent = x; document.getElementById('l').appendChild(li); }));`),
    'fifo/recipes.json': JSON.stringify(['Ratatouille', 'Crêpes', 'Quiche lorraine']),
    // history.pushState flood (100,000 entries), then it keeps going
    'flood.html': page('Router demo', 'en', '<p>A single-page router.</p><nav><a href="#a">A</a> <a href="#b">B</a></nav>', `
      for (let i = 0; i < 100000; i++) history.pushState({ i }, '', '?page=' + i);
      setInterval(() => { for (let i = 0; i < 5000; i++) history.pushState({ i }, '', '?again=' + i); }, 50);`),
    // busy loops: on a timer after load, and on a click
    'busy.html': page('Fractal', 'en', '<canvas id="f" width="240" height="160"></canvas><button id="go">Zoom</button>', `
      const g = document.getElementById('f').getContext('2d'); for (let x = 0; x < 240; x += 4) { g.fillStyle = 'hsl(' + x + ',70%,55%)'; g.fillRect(x, 0, 4, 160); }
      document.getElementById('go').onclick = () => { for (;;) {} };
      setTimeout(() => { for (;;) {} }, 2500);`),
  });
  fs.symlinkSync('decoy.cookie.yaml', path.join(dir, 'innocent.txt'));
  execFileSync('mkfifo', [path.join(dir, 'fifo', 'data.json'), path.join(dir, 'fifo', 'style.css')]);
  // a control after each group of hostile pages: the network and file reachers, then each page that keeps a
  // renderer busy (the history flood, the busy loops) on its own
  const order = ['control-0', 'reach', 'workers', 'webrtc', 'paths', 'fifo', 'control-1', 'flood', 'control-2', 'busy', 'control-3'];
  fs.writeFileSync(
    path.join(dir, 'containment.cookie.yaml'),
    `# canary ${token}\nquery:\n  id: containment\n  prompt: A small interactive page.\n  language: en\n  kind: dynamic\nthresholds:\n  total: 0\ncandidates:\n${order
      .map((n) => `  - { name: ${n}, mode: html, path: ${n.startsWith('control') ? 'control.html' : n === 'fifo' ? 'fifo' : `${n}.html`} }`)
      .join('\n')}\n`,
  );
  // no video (what is under test is containment, not recording; it keeps the suite affordable on 2 cores); one
  // step of exploration (the offline explorer keeps 3 of the budget in reserve), so a click reaches each page
  const config = path.join(tmpDir('cookie-containment-config-'), 'cookie.config.mjs');
  fs.writeFileSync(config, 'export default { recording: { video: false, audio: false } };\n');
  // the real CLI, with the secret in its environment; every process it starts is watched
  const child = spawn(process.execPath, [BIN, 'test', dir, '--config', config, '--output-dir', out, '--concurrency', '1', '--steps', '4', '--no-cache'], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', ...canary.env },
  });
  const watch = watchProcesses(child.pid!);
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stdout += d));
  code = await new Promise<number | null>((r) => child.on('close', (c) => r(c)));
  // give the kernel a moment to reap, then look (a bounded number of looks, not a timer that decides)
  for (let i = 0; i < 20 && watch.survivors().length; i++) await new Promise((r) => setTimeout(r, 250));
  watch.stop();
  survivors = watch.survivors();
  maxBrowsers = watch.maxGroupsAlive(/--cookie-evaluation=/);
  overlaps = watch.overlaps(/--cookie-evaluation=/);
  run = readResults(out);
}, scaled(1_500_000));

afterAll(async () => {
  await canary?.close();
});

describe('containment of hostile pages (issue 19)', () => {
  it('the run finished every evaluation', () => {
    expect(run.evaluations.map((e) => e.candidate).sort(), stdout.slice(-2000)).toEqual(['busy', 'control-0', 'control-1', 'control-2', 'control-3', 'fifo', 'flood', 'paths', 'reach', 'webrtc', 'workers']);
    expect(code).not.toBeNull();
  });

  it('no page reached the canary: 0 TCP connections, 0 UDP datagrams (127.0.0.1 and ::1), 0 Unix socket contacts', () => {
    expect(canary.hits, JSON.stringify(canary.hits.slice(0, 5))).toEqual([]);
    expect(canary.udp6).toBe(true);
  });

  it('every attempt is in the evidence as a refused request: fetch, XHR, WebSocket, img, workers, WebRTC', () => {
    const blocked = (c: string) => evidenceOf(c).failedRequests.filter((r: { blocked: boolean }) => r.blocked).map((r: { url: string }) => r.url).join(' ');
    for (const p of ['/fetch', '/xhr', '/img.png', '/sse', '/script.js', '/ws', '/frame']) expect(blocked('reach')).toContain(p);
    expect(blocked('workers')).toMatch(/from-worker|from-shared|tunnel 127\.0\.0\.1/);
    const rtc = evidenceOf('webrtc').failedRequests.filter((r: { resourceType: string }) => r.resourceType === 'webrtc').map((r: { url: string }) => r.url);
    expect(rtc).toEqual(expect.arrayContaining([`stun:127.0.0.1:${canary.udpPort}`, `stun:[::1]:${canary.udpPort}`, `turn:127.0.0.1:${canary.udpPort}?transport=udp`]));
    const text: string = evidenceOf('reach').static.inventory.textSample;
    expect(text).not.toMatch(/FETCH|XHR canary|WS OPEN|FILE /);
  });

  it('no secret in any output byte: neither the environment secret, the root-only file, nor the served folder\'s spec, config and dotfiles', () => {
    expect(canary.findSecrets(out)).toEqual([]);
    // the paths page did ask, and got nothing
    const text: string = evidenceOf('paths').static.inventory.textSample;
    expect(text).toMatch(/decoy\.cookie\.yaml\/ 404/);
  });

  it('a FIFO in a folder candidate neither blocks the run nor its evaluation', () => {
    const r = byCandidate('fifo');
    expect(r.status).toBe('scored');
    expect(evidenceOf('fifo').static.inventory.textSample).toMatch(/Ratatouille/);
    expect(byCandidate('control-1').status).toBe('scored');
  });

  it('every evaluation finishes within its bounds; hostile pages end as findings, not stalls', () => {
    for (const e of run.evaluations) {
      expect(e.status, `${e.candidate}: ${e.error?.message}`).toBe('scored');
      // deploy 30 s + session opening 60 s + perceive 90 s + interact (300 + 60) s + judge: the configured bounds
      expect(e.timings.total!, e.candidate).toBeLessThan(600_000);
    }
    // the busy page's timer loop starts 2.5 s after load: in static perception on a slow machine (a hang at load),
    // in the first interaction step (a click on "Zoom", which loops too) on a fast one (a freeze at that step);
    // either way its first defect is that critical hang, with the evidence of the stage that saw it
    const busy = evidenceOf('busy');
    const hung = busy.interaction?.steps.find((s: { outcome: string }) => s.outcome === 'unresponsive');
    expect(byCandidate('busy').defects[0], JSON.stringify(busy.static.problems)).toMatchObject(busy.static.unresponsive
      ? { severity: 'critical', title: expect.stringMatching(/^Page hangs/) }
      : { severity: 'critical', title: 'Page freezes', evidence: expect.objectContaining({ step: hung?.index }) });
    if (!busy.static.unresponsive) expect(hung, 'a page that answered in perception hung in interaction').toBeDefined();
    // a page known to hang is not given the ten seconds a hung renderer takes to close its context: its browser
    // is replaced anyway (the flood's close took 11.4 s when it waited for the context). Asserted on the bound
    // Cookie gave the close, which its evidence records, not on wall time (a loaded machine took 9.2 s for the
    // flood's session opening and teardown together)
    const flood = evidenceOf('flood');
    expect(flood.static.unresponsive || flood.interaction?.endedBecause === 'unresponsive', JSON.stringify(flood.static.problems)).toBe(true);
    expect(flood.sessionEnd).toMatchObject({ closeLimitMs: 1_000, browserRecycled: true });
    // a page that answered to the end gets the full bound, and its browser is reused
    expect(evidenceOf('control-0').sessionEnd).toEqual({ closeLimitMs: 10_000, contextClosed: true, browserRecycled: false });
  });

  it('a control page right after each group of hostile pages is unaffected: same defects, time within a generous multiple of the first control run', () => {
    const base = byCandidate('control-0');
    const titles = (e: EvaluationResult) => e.defects.map((d) => d.title).sort();
    for (const c of ['control-1', 'control-2', 'control-3']) {
      const e = byCandidate(c);
      expect(e.status, c).toBe('scored');
      expect(titles(e), c).toEqual(titles(base));
      // stage by stage, against the same page run alone in this run (the 427 s vs 31 s of issue 19 fails this)
      for (const s of ['perceive', 'interact'] as const) expect(e.timings[s]!, `${c} ${s}`).toBeLessThan(3 * base.timings[s]! + 20_000);
    }
  });

  it('one browser at a time at concurrency 1, and no process left behind once Cookie exited', () => {
    expect(maxBrowsers).toBeGreaterThanOrEqual(1);
    expect(maxBrowsers, overlaps.slice(0, 5).join('\n')).toBeLessThanOrEqual(1);
    expect(survivors.map((s) => `${s.pid} ${s.cmd}`)).toEqual([]);
  });
});
