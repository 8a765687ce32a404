import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EvaluationResult, RunResults } from '../../src/types.js';
import { readResults, runCli, TEST_TIMEOUT, tmpDir, writeFiles } from '../helpers.js';

// Untrusted pages: they reach for the network, open dialogs and popups, navigate away, hang on load.
const page = (body: string, script = '') => `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>t</title>
<style>body{font-family:sans-serif;padding:24px;background:#f6f7fb}button{padding:8px 14px;border-radius:8px;border:0;background:#4455ee;color:#fff}</style></head>
<body><h1>Hostile test page</h1><p>This page exists to test how the evaluator copes with misbehaving applications written by models.</p>${body}<script>${script}</script></body></html>`;

let dir: string;
let out: string;
const victimHits: string[] = [];
let victim: import('node:http').Server;
let run: RunResults;
let cli: Awaited<ReturnType<typeof runCli>>;
const byCandidate = (c: string): EvaluationResult => run.evaluations.find((e) => e.candidate === c)!;

beforeAll(async () => {
  dir = tmpDir('cookie-hostile-');
  out = path.join(dir, 'out');
  // a service on another localhost port that pages must not reach (not even from workers)
  const http = await import('node:http');
  victim = http.createServer((q, r) => (victimHits.push(q.url ?? ''), r.end('SECRET-FROM-HOST')));
  victim.on('upgrade', (q, sock) => (victimHits.push(`ws ${q.url}`), sock.destroy()));
  await new Promise<void>((r) => victim.listen(0, '127.0.0.1', () => r()));
  const vport = (victim.address() as import('node:net').AddressInfo).port;
  writeFiles(dir, {
    'worker.html': page('<pre id="r"></pre>', `const r = document.getElementById('r');
       const w = new Worker('w.js'); w.onmessage = (e) => (r.textContent += e.data + '\\n');
       const s = new SharedWorker('sw.js'); s.port.onmessage = (e) => (r.textContent += e.data + '\\n');
       fetch('/.env').then((x) => x.text()).then((t) => (r.textContent += 'DOTENV ' + t.slice(0, 40) + '\\n'));`),
    'w.js': `fetch('http://127.0.0.1:${vport}/from-worker').then(r => r.text()).then(t => postMessage('W ' + t), () => postMessage('W blocked'));
       const ws = new WebSocket('ws://127.0.0.1:${vport}/ws-worker'); ws.onopen = () => postMessage('W WS OPEN'); ws.onerror = () => postMessage('W WS blocked');`,
    'sw.js': `onconnect = (e) => { const p = e.ports[0]; fetch('http://127.0.0.1:${vport}/from-shared').then(r => r.text()).then(t => p.postMessage('S ' + t), () => p.postMessage('S blocked')); };`,
    '.env': 'API_KEY=sk-sibling-dotenv\n',
    'late-hang.html': page('<p>Loads fine, then locks up.</p>', 'setTimeout(() => { while (true) {} }, 1500);'),
    'alert-loop.html': page('<p>Nag.</p>', 'setInterval(() => alert("Subscribe!"), 20);'),
    // slower, as a hostile reviewer wrote it: fewer than 25 dialogs in a quiet page's short perception
    // breaks Cookie's probe only after its button was pressed: the interaction ends there, and says why
    'late-saboteur.html': page('<h1>Counter</h1><button id="b">Start the counter</button><p id="o">Ready.</p>', `document.getElementById('b').onclick = () => {
         document.getElementById('o').textContent = 'Started.';
         setTimeout(() => { Array.prototype.filter = function () { throw new Error('no filter after start'); }; }, 0);
       };`),
    'alert-nag.html': page('<p>Nag, politely.</p>', 'setInterval(() => alert("Rate us!"), 150);'),
    'network.html': page(
      '<img src="https://images.example.com/hero.jpg" width="300" height="200" alt="hero"><button id="b">Load data</button><div id="r"></div>',
      `fetch('https://api.example.com/secrets').catch(()=>{});
       try { new WebSocket('wss://socket.example.com/live'); } catch (e) {}
       navigator.sendBeacon && navigator.sendBeacon('https://track.example.com/b', 'x');
       document.getElementById('b').onclick = () => fetch('http://8.8.8.8/x').catch(() => { document.getElementById('r').textContent = 'offline'; });`,
    ),
    'dialogs.html': page(
      '<button id="clear">Clear all</button><ul id="l"><li>one</li><li>two</li></ul>',
      `alert('Welcome!');
       document.getElementById('clear').onclick = () => { if (confirm('Really clear?')) document.getElementById('l').innerHTML = ''; };`,
    ),
    'popup.html': page('<button id="p">Open docs</button><a href="https://evil.example.com/away">Leave the app</a><button id="nav">Go away</button>', `document.getElementById('p').onclick = () => window.open('https://docs.example.com', '_blank');
       document.getElementById('nav').onclick = () => { location.href = 'https://evil.example.com/'; };`),
    'saboteur.html': page('<button>Save</button>', `Array.prototype.filter = function () { throw new Error('no filter'); };
       Array.prototype.map = function () { throw new Error('no map'); };
       window.JSON = { parse() { throw new Error('no json'); }, stringify() { throw new Error('no json'); } };`),
    'blinder.html': page('<button>Save</button><button>Load</button><p>Notes</p>', `window.getComputedStyle = () => ({ display: 'none', visibility: 'hidden', opacity: '0', getPropertyValue: () => '' });
       EventTarget.prototype.addEventListener = function () {};
       window.requestAnimationFrame = function () {};`),
    'reloader.html': page('<input placeholder="Your name"><button>Save</button>', 'setTimeout(() => location.reload(), 400);'),
    'hang-on-load.html': page('<p>never shown</p>', 'while (true) {}'),
    'env.html': page('<pre id="o"></pre>', `document.getElementById('o').textContent = typeof process === 'undefined' ? 'no process' : JSON.stringify(process.env);`),
    'hostile.cookie.yaml': `query:\n  id: hostile\n  prompt: A small interactive page with a button.\n  language: en\n  kind: dynamic\ncandidates:\n${['network', 'dialogs', 'popup', 'hang-on-load', 'env', 'worker', 'late-hang', 'alert-loop', 'alert-nag', 'saboteur', 'late-saboteur', 'blinder', 'reloader'].map((c) => `  - { name: ${c}, mode: html, path: ${c}.html }`).join('\n')}\n  - { name: missing, mode: html, path: does-not-exist.html }\n`,
    'broken.cookie.yaml': 'query:\n  id: b\n  prompt: x\n  language: en\n  kind: interactive\ncandidates:\n  - { name: a, mode: html, path: network.html }\n',
  });
  // no video: what is under test is surviving hostile pages, not the recording (recording is asserted by the
  // examples, report and no-ffmpeg tests); the video encoder was a fifth of this file's CPU on 2 cores.
  // Audio capture stays on: its init script is what a saboteur page would break.
  fs.writeFileSync(path.join(dir, 'cookie.config.mjs'), 'export default { recording: { video: false } };\n');
  cli = await runCli(['test', dir, '--config', path.join(dir, 'cookie.config.mjs'), '--output-dir', out, '--concurrency', '2', '--steps', '8'], { env: { OPENAI_API_KEY: 'sk-should-never-leak' } });
  run = readResults(out);
  victim.close();
}, TEST_TIMEOUT);

describe('hostile pages and bad input', () => {
  it('reports the malformed spec in one line and still runs the valid one; exits non-zero', () => {
    expect(cli.stdout + cli.stderr).toMatch(/broken\.cookie\.yaml: query\.kind: .*Fix: use "static" or "dynamic"/);
    expect(run.evaluations).toHaveLength(14);
    expect(cli.code).toBe(1);
  });

  it('a missing artifact is an error at stage load, and the run goes on', () => {
    expect(byCandidate('missing')).toMatchObject({ status: 'error', error: { stage: 'load' }, scores: null, passed: false });
    expect(byCandidate('missing').error!.message).toMatch(/does-not-exist\.html/);
  });

  it('blocks and records every request that leaves localhost, and does not blame the app for blocked images', () => {
    const ev = JSON.parse(fs.readFileSync(path.join(out, byCandidate('network').evidenceDir, 'evidence.json'), 'utf8'));
    const blocked = ev.failedRequests.filter((r: { blocked: boolean }) => r.blocked).map((r: { url: string }) => r.url).join(' ');
    for (const host of ['images.example.com', 'api.example.com', 'socket.example.com', 'track.example.com', '8.8.8.8']) expect(blocked).toContain(host);
    expect(byCandidate('network').status).toBe('scored');
    expect(byCandidate('network').defects.filter((d) => d.rubricItem === '15')).toEqual([]);
  });

  it('answers dialogs (confirm accepted, so "Clear all" works) and records them', () => {
    const ev = JSON.parse(fs.readFileSync(path.join(out, byCandidate('dialogs').evidenceDir, 'evidence.json'), 'utf8'));
    expect(ev.dialogs.map((d: { type: string; message: string }) => `${d.type}:${d.message}`)).toEqual(expect.arrayContaining(['alert:Welcome!', 'confirm:Really clear?']));
    expect(byCandidate('dialogs').defects.filter((d) => /Dead/.test(d.title))).toEqual([]);
  });

  it('records popups and navigation away, returns to the app and keeps exploring', () => {
    const ev = JSON.parse(fs.readFileSync(path.join(out, byCandidate('popup').evidenceDir, 'evidence.json'), 'utf8'));
    const navs = ev.navigations.filter((n: { offApp: boolean }) => n.offApp);
    expect(navs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'popup', url: 'https://docs.example.com/' }),
        expect.objectContaining({ kind: 'navigation', url: 'https://evil.example.com/' }),
      ]),
    );
    expect(ev.interaction.steps.length).toBeGreaterThanOrEqual(2);
    expect(byCandidate('popup').status).toBe('scored');
  });

  // bounded in work, not wall time: the load's own time limit, one question to the page, and nothing more
  it('a page that hangs on load ends with a result and a critical defect, after the load limit and one unanswered question', () => {
    const r = byCandidate('hang-on-load');
    expect(r.status).toBe('scored');
    expect(r.defects[0]).toMatchObject({ severity: 'critical', title: 'Page hangs on load' });
    expect(r.scores!.total).toBe(0);
    const ev = JSON.parse(fs.readFileSync(path.join(out, r.evidenceDir, 'evidence.json'), 'utf8'));
    expect(ev.static.problems.length, ev.static.problems.join('; ')).toBeLessThanOrEqual(2);
    expect(ev.static.problems.at(-1)).toMatch(/did not answer/);
    expect(ev.interaction?.steps ?? []).toEqual([]);
  });

  it('the app cannot see the host environment', () => {
    const ev = JSON.parse(fs.readFileSync(path.join(out, byCandidate('env').evidenceDir, 'evidence.json'), 'utf8'));
    expect(ev.static.inventory.textSample).toContain('no process');
    expect(JSON.stringify(run)).not.toContain('sk-should-never-leak');
  });
});

describe('a page that sabotages the built-ins Cookie measures with', () => {
  it('is an evaluation Cookie could not finish (stage perceive, cause named), not a blank page scored 0', () => {
    const e = byCandidate('saboteur');
    expect(e).toMatchObject({ status: 'error', scores: null, error: { stage: 'perceive' } });
    expect(e.error!.message).toMatch(/in-page probe could not measure this page.*DOM inventory failed/);
  });
  it('a page that breaks the probe after a click ends the interaction with the cause in the evidence, not a bare "error"', () => {
    const e = byCandidate('late-saboteur');
    const ev = JSON.parse(fs.readFileSync(path.join(out, e.evidenceDir, 'evidence.json'), 'utf8'));
    expect(e.status).toBe('scored');
    // the page's timer fires while the step runs (its clock stands still while Cookie observes); the step's own
    // measurement tolerates it, the next observation's element scan does not
    expect(ev.interaction.endedBecause).toBe('error');
    expect(ev.interaction.endDetail).toMatch(/^observation failed: .*no filter after start/);
    expect(ev.stageErrors.map((x: { message: string }) => x.message).join('\n')).toMatch(/interaction ended early after \d+ step\(s\): error: .*no filter after start/);
  });
  it('a page that replaces getComputedStyle, addEventListener and requestAnimationFrame is an evaluation error naming the built-ins (issue 19.6), not "Nothing to interact with"', () => {
    const e = byCandidate('blinder');
    expect(e).toMatchObject({ status: 'error', scores: null, error: { stage: 'perceive' } });
    expect(e.error!.message).toMatch(/in-page probe.*replaced built-ins.*getComputedStyle, addEventListener, requestAnimationFrame/);
  });
});

describe('a page that reloads itself in a loop', () => {
  it('is a critical functionality defect found during static perception', () => {
    const e = byCandidate('reloader');
    expect(e.status, JSON.stringify(e.error)).toBe('scored');
    expect(e.defects.find((d) => d.title === 'Page reloads itself in a loop')).toMatchObject({ severity: 'critical', dimension: 'functionality', phase: 'static' });
    expect(byCandidate('dialogs').defects.map((d) => d.title)).not.toContain('Page reloads itself in a loop');
  });
});

describe('the fence holds against workers, dotfiles, late hangs and dialog floods', () => {
  it('workers and shared workers cannot reach another localhost port, by fetch or WebSocket; dotfiles are not served', () => {
    expect(victimHits).toEqual([]);
    const ev = JSON.parse(fs.readFileSync(path.join(out, byCandidate('worker').evidenceDir, 'evidence.json'), 'utf8'));
    const text: string = ev.static.inventory.textSample;
    expect(text).toMatch(/W blocked/);
    expect(text).toMatch(/W WS blocked/);
    expect(text).toMatch(/S blocked/);
    expect(text).not.toContain('SECRET-FROM-HOST');
    expect(text).not.toContain('sk-sibling-dotenv');
    expect(ev.failedRequests.filter((r: { blocked: boolean; url: string }) => r.blocked && /127\.0\.0\.1/.test(r.url)).length).toBeGreaterThanOrEqual(2);
  });

  // "quickly" is counted in work, not wall time (a busy machine stretches every time limit): perception stops
  // at the first capture that times out on the hung page, and no interaction is attempted against it
  it('a page that locks up after it loaded is a scored hang, found at the first capture that times out', () => {
    const r = byCandidate('late-hang');
    expect(r.status).toBe('scored');
    expect(r.defects[0]).toMatchObject({ severity: 'critical', title: expect.stringMatching(/^Page hangs/) });
    const ev = JSON.parse(fs.readFileSync(path.join(out, r.evidenceDir, 'evidence.json'), 'utf8'));
    const problems: string[] = ev.static.problems;
    expect(problems.filter((p) => /timed out/.test(p)).length, problems.join('; ')).toBeLessThanOrEqual(1);
    expect(problems.at(-1)).toMatch(/stopped answering|did not answer/);
    expect(ev.interaction?.steps ?? []).toEqual([]);
  });

  it('a page that opens a dialog every 150 ms is a dialog loop too (a quiet page is perceived in under 2 s)', () => {
    const r = byCandidate('alert-nag');
    expect(r.status).toBe('scored');
    expect(r.defects[0]).toMatchObject({ severity: 'critical', title: 'Dialogs in an endless loop' });
  });

  it('a page that opens dialogs in an endless loop is a scored failure, not a stuck stage', () => {
    const r = byCandidate('alert-loop');
    expect(r.status).toBe('scored');
    expect(r.defects[0]).toMatchObject({ severity: 'critical', title: 'Dialogs in an endless loop' });
    // bounded in work: perception gives up within two captures that time out, and nothing is played
    const ev = JSON.parse(fs.readFileSync(path.join(out, r.evidenceDir, 'evidence.json'), 'utf8'));
    const problems: string[] = ev.static.problems;
    expect(problems.filter((p) => /timed out/.test(p)).length, problems.join('; ')).toBeLessThanOrEqual(2);
    expect(problems.at(-1)).toMatch(/dialogs in an endless loop/);
    expect(ev.interaction?.steps ?? []).toEqual([]);
  });
});
