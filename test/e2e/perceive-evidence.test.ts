import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../src/browser/launch.js';
import { openAppSession } from '../../src/browser/session.js';
import { startStaticServer, type StaticServer } from '../../src/deploy/static-server.js';
import { decodePng } from '../../src/perceive/image.js';
import { IDLE_WINDOW_MS, perceive } from '../../src/perceive/perceive.js';
import type { ConsoleEntry, StaticPerception } from '../../src/types.js';
import { defaultChromium } from '../../src/util/chromium.js';
import { tmpDir } from '../helpers.js';

// Static perception waits for what it needs, not for fixed times (issue 13): the DOM's quiet is timed by the
// probe from the page's last change, and the idle window ends early only on a page with nothing that could move
// by itself. And axe-core reaches every page, also one that refuses inline scripts. Pages written the way LLMs
// write them; each assertion is about evidence, not about wall time.
const page = (lang: string, title: string, style: string, body: string, script = '') =>
  `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title><style>
body{margin:0;font-family:system-ui,sans-serif;background:linear-gradient(135deg,#eef2ff,#fdf2f8);color:#1e293b}
main{max-width:880px;margin:48px auto;padding:0 20px} .card{background:#fff;border-radius:16px;box-shadow:0 10px 30px rgba(0,0,0,.08);padding:24px;margin:16px 0;transition:transform .2s}
.card:hover{transform:translateY(-4px)} button{background:#6366f1;color:#fff;border:0;border-radius:10px;padding:12px 20px;font-size:16px}
${style}</style></head><body><main>${body}</main>${script ? `<script>${script}</script>` : ''}</body></html>`;

const PAGES: Record<string, string> = {
  // a pricing page: nothing moves until a user hovers
  still: page('ja', '料金プラン', '', `<h1>シンプルな料金プラン</h1><div class="card"><h2>ベーシック</h2><p>月額 980 円。個人の方におすすめです。</p><button>今すぐ始める</button></div><div class="card"><h2>プロ</h2><p>月額 2,480 円。チームで使えます。</p><button>無料で試す</button></div>`),
  // a flash sale whose countdown changes its text five times a second
  countdown: page('en', 'Flash sale', '.big{font-size:160px;font-weight:800;margin:0}', '<h1>Flash sale</h1><div class="card"><p>Ends in</p><p class="big" id="t">10.0</p><button>Shop now</button></div>', `let n = 100; setInterval(() => { n = n > 0 ? n - 2 : 100; document.getElementById('t').textContent = (n / 10).toFixed(1); }, 200);`),
  // a dashboard still "loading" behind an infinite CSS spinner
  spinner: page('en', 'Analytics', '.spin{width:64px;height:64px;border:8px solid #e0e7ff;border-top-color:#6366f1;border-radius:50%;animation:r 1.7s linear infinite}@keyframes r{to{transform:rotate(360deg)}}', '<h1>Analytics</h1><div class="card"><div class="spin"></div><p>Fetching your numbers…</p></div>'),
  // a sales chart drawn once on a canvas: still, but a canvas can change with no draw call the probe counts (a worker)
  chart: page('de', 'Umsatz', 'canvas{width:100%;height:260px}', '<h1>Umsatz 2026</h1><div class="card"><canvas id="c" width="800" height="260"></canvas></div>', `const g = document.getElementById('c').getContext('2d'); [40, 90, 60, 140, 120, 180].forEach((v, i) => { g.fillStyle = '#6366f1'; g.fillRect(30 + i * 125, 240 - v, 80, v); });`),
  // a hero whose stylesheet rule is rewritten every 60 ms (no DOM change, no animation, no draw call): the
  // probe sees nothing, the window's screenshots do
  cssom: page('fr', 'Aurore', '.hero{height:320px;border-radius:24px;background:hsl(200,80%,60%)}', '<h1>Aurore boréale</h1><div class="hero"></div><p>Une lumière qui danse.</p>', `const rule = [...document.styleSheets[0].cssRules].find((r) => r.selectorText === '.hero'); let h = 200; setInterval(() => { h = (h + 9) % 360; rule.style.setProperty('background', 'hsl(' + h + ',80%,60%)'); }, 60);`),
  // a quiz that renders its first question 450 ms after load (a fake "loading" delay, common in LLM pages)
  late: page('en', 'Capital quiz', '', '<h1>Capital quiz</h1><div id="q" class="card">Loading…</div>', `addEventListener('load', () => setTimeout(() => { document.getElementById('q').innerHTML = '<p>What is the capital of Australia?</p><button>Canberra</button><button>Sydney</button>'; }, 450));`),
  // a Pomodoro timer that counts down in half-second steps (a tick can fall after the window's mid-point check)
  blink: page('es', 'Pomodoro', '.clock{font-size:120px;font-weight:700;font-variant-numeric:tabular-nums}', '<h1>Temporizador Pomodoro</h1><div class="card"><span class="clock" id="c">25:00.0</span><p>Concéntrate en una sola tarea.</p><button>Empezar</button></div>', `let t = 1500; setInterval(() => { t -= 0.5; document.getElementById('c').textContent = String(Math.floor(t / 60)).padStart(2, '0') + ':' + (t % 60).toFixed(1).padStart(4, '0'); }, 500);`),
  // testimonials that rotate every 900 ms
  slides: page('en', 'Reviews', '.quote{font-size:28px;font-style:italic}', '<h1>What our customers say</h1><div class="card"><p class="quote" id="q">“Fast and friendly.”</p></div>', `const q = ['“Fast and friendly.”', '“Best pizza in town!”', '“Delivered in 20 minutes.”']; let i = 0; setInterval(() => { i = (i + 1) % q.length; document.getElementById('q').textContent = q[i]; }, 900);`),
  // a recipe app behind a splash screen that fades out 2.7 s after load (a pattern LLM pages love). Late in
  // LOOK_AFTER_LOAD_MS on purpose: a splash due sooner can fire on a busy machine before perception first asks
  // for the page's timeouts (then nothing is left to wait for, rightly), and the wait could not be seen
  splash: page('pt', 'Receitas', '#splash{position:fixed;inset:0;background:#6366f1;color:#fff;display:flex;align-items:center;justify-content:center;font-size:40px;transition:opacity .3s}', '<div id="splash">A carregar…</div><h1>Receitas rápidas</h1><div class="card"><h2>Bolo de caneca</h2><p>Pronto em cinco minutos no micro-ondas.</p><button>Ver receita</button></div>', `setTimeout(() => { const s = document.getElementById('splash'); s.style.opacity = '0'; setTimeout(() => s.remove(), 300); }, 2700);`),
  // a developer landing page: its only motion is a tooltip that fades in on hover and a terminal cursor that
  // blinks (step-end: transparent half the time); neither may be missed for the phase it is in at the count
  tooltip: page('en', 'DevKit', '.tip{opacity:0;transition:opacity .16s linear}.btn:hover+.tip{opacity:1}.cur{display:inline-block;width:10px;height:14px;border:2px solid #111;opacity:0;animation:blink 1s step-end infinite;animation-play-state:paused}@keyframes blink{50%{opacity:1}}', '<h1>DevKit<span class="cur"></span></h1><div class="card"><button class="btn">Install</button><span class="tip">npm i devkit</span> <button>Docs</button> <button>GitHub</button></div>'),
  // a long article: still, but taller than the viewport
  long: page('it', 'Ricette', 'p{line-height:1.7}', `<h1>Ricette della nonna</h1>${Array.from({ length: 14 }, (_, i) => `<div class="card"><h2>Ricetta ${i + 1}</h2><p>Un classico della cucina italiana: pochi ingredienti, tanta pazienza e un filo d'olio extravergine.</p></div>`).join('')}`),
  // a lumberjack idle game whose own script keeps its state in a global named `axe` (as LLM games do), with
  // pale small print and a logo without alt text: Cookie's axe-core must neither clobber the game's nor use it
  lumberjack: page('en', 'Lumberjack', '.fine{color:#cbd5e1;font-size:12px}', '<h1>Idle Lumberjack</h1><div class="card"><img src="data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 width=%2264%22 height=%2264%22%3E%3Ccircle cx=%2232%22 cy=%2232%22 r=%2230%22 fill=%22%2316a34a%22/%3E%3C/svg%3E"><p>Wood: <b id="w">0</b></p><button id="chop">Chop</button><p class="fine">Progress is saved in your browser.</p></div>', `var axe = { level: 3, damage: 7 }; document.getElementById('chop').onclick = () => { document.getElementById('w').textContent = String(Number(document.getElementById('w').textContent) + axe.damage); };`),
  // a page that reloads itself once a second after its first load (to apply a saved theme), with an image
  // without alt text: axe-core, loaded at the first load, is loaded again into the document that replaced it
  themed: page('en', 'Notes', '', '<h1>My notes</h1><div class="card"><img src="data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 width=%2248%22 height=%2248%22%3E%3Crect width=%2248%22 height=%2248%22 fill=%22%236366f1%22/%3E%3C/svg%3E"><p>Nothing here yet.</p><button>New note</button></div>', `addEventListener('load', () => { if (!sessionStorage.getItem('themed')) setTimeout(() => { sessionStorage.setItem('themed', 'dark'); location.reload(); }, 1000); else document.body.style.background = '#0f172a'; });`),
  // a page that allows only its own scripts (Content-Security-Policy), with grey-on-white small print
  // a recipe page that embeds a video player's frame (srcdoc, as generated pages embed demos): axe-core runs on
  // the page itself and does not wait on the frame, where it is not loaded
  embedded: page('en', 'Recipe', '', '<h1>Tomato soup</h1><div class="card"><img src="data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 width=%2248%22 height=%2248%22%3E%3Crect width=%2248%22 height=%2248%22 fill=%22%23ef4444%22/%3E%3C/svg%3E"><p>Serves four. Ready in 30 minutes.</p><iframe title="How to make it" width="320" height="180" srcdoc="<p>Video coming soon</p>"></iframe><button>Save recipe</button></div>'),
  // a tea house's landing page (zh): its menu cards and "about" text fade in as a user scrolls to them (an
  // IntersectionObserver adds .visible, a pattern LLM landing pages love); the first screen is a hero
  reveal: page('zh-CN', '茶香小馆', '.hero{height:900px;display:flex;align-items:center;justify-content:center;background:#2f4f3f;color:#fff;font-size:48px}.reveal{opacity:0;transform:translateY(50px);transition:all .8s ease}.reveal.visible{opacity:1;transform:none}', `<div class="hero">茶香小馆</div><h2 class="reveal">精选茶品</h2>${['西湖龙井', '安溪铁观音', '云南普洱', '武夷大红袍'].map((t) => `<div class="card reveal"><h3>${t}</h3><p>明前嫩芽，豆香清雅，汤色嫩绿明亮。¥68 / 壶</p></div>`).join('')}<p class="reveal">茶香小馆坐落于杭州西湖畔，二十余年来坚持以传统工艺冲泡每一壶好茶。</p>`, `const io = new IntersectionObserver((es) => es.forEach((e) => { if (e.isIntersecting) { e.target.classList.add('visible'); io.unobserve(e.target); } }), { threshold: 0.15 }); document.querySelectorAll('.reveal').forEach((el) => io.observe(el));`),
  csp: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="script-src 'self'"><title>Newsletter</title>
<style>body{font-family:system-ui;margin:40px} .fine{color:#c8c8c8;font-size:13px}</style></head><body><h1>Join our newsletter</h1><p class="fine">We never share your e-mail address. Unsubscribe at any time.</p></body></html>`,
};

/** Pages whose motion is a timer. */
const TIMED = ['countdown', 'blink', 'slides'];
let browser: Browser;
let server: StaticServer;
const perceived: Record<string, StaticPerception> = {};
/** After perception: the page's own global `axe` (JSON, or its type when it is not an object), its body's background, its vertical scroll (px). */
const after: Record<string, { axe: string; background: string; scrollY: number }> = {};
const dirs: Record<string, string> = {};

beforeAll(async () => {
  const dir = tmpDir('cookie-idle-');
  for (const [name, html] of Object.entries(PAGES)) fs.writeFileSync(path.join(dir, `${name}.html`), html);
  server = await startStaticServer(dir);
  browser = await launchBrowser(defaultChromium());
  // the timer pages also in a session with Playwright's clock installed (how a run with the freeze opens them)
  const runs = [...Object.keys(PAGES).map((name) => ({ name, media: false })), ...[...TIMED, 'still'].map((name) => ({ name, media: true }))];
  for (const { name, media } of runs) {
    const s = await openAppSession(browser, server.origin, { viewport: { width: 1280, height: 800 }, media });
    try {
      const key = media ? `${name}+clock` : name;
      dirs[key] = tmpDir(`cookie-idle-${name}-`);
      perceived[key] = await perceive(s, {
        url: `${server.origin}/${name}.html`,
        evidenceDir: dirs[key],
        viewports: [{ width: 1280, height: 800 }],
        defaultViewport: { width: 1280, height: 800 },
        expectedLanguage: 'en',
        timeouts: { navigation: 15_000, settle: 3000, unresponsive: 5000 },
      });
      after[key] = await s.page.evaluate('({ axe: typeof window.axe === "object" ? JSON.stringify(window.axe) : typeof window.axe, background: document.body.style.background, scrollY })');
    } finally {
      await s.close();
    }
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('static perception waits for what it needs (issue 13)', () => {
  it('a page with nothing that moves ends its idle window early, and shows no animation', () => {
    const p = perceived.still!;
    expect(p.settled).toBe(true);
    // the decision, not the wall time (a busy machine stretches the shortened window too)
    expect(p.idleWindowEndedEarly).toBe(true);
    expect(p.animatedShare).toBe(0);
    expect(p.idleMutationsPerSec).toBe(0);
    // nothing pending after load: settled after the short quiet; it fits 1280 × 800, so its full page is the
    // viewport screenshot (the same bytes)
    expect(p.settledEarly).toBe(true);
    expect(p.fullPageIsViewport).toBe(true);
    expect(fs.readFileSync(path.join(dirs.still!, p.fullPageScreenshot!)).equals(fs.readFileSync(path.join(dirs.still!, 'screenshots/viewport-1280.png')))).toBe(true);
  });

  it('a splash screen the page hides 2.7 s after load is gone before the captures: perception waits for the timeouts due in the first seconds', () => {
    const p = perceived.splash!;
    expect(p.waitedForTimers).toBeGreaterThanOrEqual(1);
    expect(p.inventory?.textSample).toContain('Bolo de caneca');
    expect(p.inventory?.textSample).not.toContain('A carregar');
    // a page with no timeout pending waits for none
    expect(perceived.still!.waitedForTimers).toBeUndefined();
    expect(perceived.long!.waitedForTimers).toBeUndefined();
  });

  it('a transition or animation on a transparent element (a tooltip before it fades in, a cursor mid-blink) is counted', () => {
    const style = perceived.tooltip!.inventory!.style;
    expect(style.transitionElements).toBeGreaterThanOrEqual(1);
    expect(style.animatedElements).toBeGreaterThanOrEqual(1);
  });

  it('a page with a timer due, a frame loop or a canvas that moves waits for the full quiet, and a page taller than the viewport gets its own full-page capture', () => {
    for (const name of ['countdown', 'blink', 'slides', 'cssom']) expect(perceived[name]!.settledEarly, name).toBeUndefined();
    expect(perceived.long!.settledEarly).toBe(true);
    expect(perceived.long!.fullPageIsViewport).toBeUndefined();
    expect(perceived.long!.fullPageScreenshot).toBe('screenshots/fullpage.png');
    expect(fs.readFileSync(path.join(dirs.long!, 'screenshots/fullpage.png')).length).not.toBe(fs.readFileSync(path.join(dirs.long!, 'screenshots/viewport-1280.png')).length);
    expect(perceived.chart!.fullPageIsViewport).toBeUndefined();
  });

  it('a long page is scrolled through before its inventory and full-page capture: sections it reveals on scroll are shown, not blank; a page that fits is not scrolled', () => {
    const p = perceived.reveal!;
    expect(p.scrolledThrough?.screens).toBeGreaterThanOrEqual(1);
    // the last card and the closing text, far below the first screen, are read as visible text
    expect(p.inventory?.textSample).toContain('武夷大红袍');
    expect(p.inventory?.textSample).toContain('二十余年来');
    // and drawn in the full-page screenshot: below the hero, the band of cards has the cards' dark text on white
    const img = decodePng(fs.readFileSync(path.join(dirs.reveal!, p.fullPageScreenshot!)));
    let dark = 0;
    for (let y = 900; y < img.height; y++) for (let x = 0; x < img.width; x++) { const i = (y * img.width + x) * 4; if (img.data[i]! < 80 && img.data[i + 1]! < 80 && img.data[i + 2]! < 80) dark++; }
    expect(dark).toBeGreaterThan(2000);
    // the page is back at its top for the captures that follow
    expect(after.reveal!.scrollY).toBe(0);
    expect(perceived.still!.scrolledThrough).toBeUndefined();
    expect(perceived.long!.scrolledThrough?.screens).toBeGreaterThanOrEqual(1);
  });

  it('a page that changes its DOM, runs an animation or has a canvas is watched through the whole window', () => {
    for (const name of ['countdown', 'spinner', 'chart']) {
      expect(perceived[name]!.idleWindowEndedEarly, name).toBeUndefined();
      expect(perceived[name]!.frameTiming?.windowMs, name).toBeGreaterThanOrEqual(IDLE_WINDOW_MS);
    }
    expect(perceived.countdown!.idleMutationsPerSec).toBeGreaterThan(0);
    expect(perceived.countdown!.animatedShare).toBeGreaterThan(0);
    expect(perceived.spinner!.animatedShare).toBeGreaterThan(0);
    expect(perceived.chart!.animatedShare).toBe(0);
  });

  it('a page with a live timer is watched through the whole window, whether or not a tick fell before the mid-point check, with and without Playwright\'s clock', () => {
    for (const name of TIMED.flatMap((n) => [n, `${n}+clock`])) {
      expect(perceived[name]!.idleWindowEndedEarly, name).toBeUndefined();
      expect(perceived[name]!.frameTiming?.windowMs, name).toBeGreaterThanOrEqual(IDLE_WINDOW_MS);
    }
    // a tick every 500 ms always falls inside a 700-ms window, and each one shows a new time
    expect(perceived.blink!.animatedShare).toBeGreaterThan(0);
    expect(perceived['blink+clock']!.animatedShare).toBeGreaterThan(0);
    // the still page ends early in a clock session too (the clock's own timers are not the page's)
    expect(perceived['still+clock']!.idleWindowEndedEarly).toBe(true);
    expect(perceived['still+clock']!.animatedShare).toBe(0);
  });

  it('a page that moves in a way the probe does not see is caught by the window\'s screenshots', () => {
    expect(perceived.cssom!.animatedShare).toBeGreaterThan(0.05);
    expect(perceived.cssom!.idleWindowEndedEarly).toBeUndefined();
  });

  it('the DOM\'s quiet restarts at a change after load: a question rendered 450 ms after load is what perception sees', () => {
    const p = perceived.late!;
    expect(p.settled).toBe(true);
    expect(p.inventory?.textSample).toContain('capital of Australia');
    expect(p.inventory?.interactive.map((e) => e.name)).toEqual(expect.arrayContaining(['Canberra', 'Sydney']));
  });
});

describe('axe-core findings', () => {
  /** The ids of a page's axe-core findings, after checking that axe-core ran on it. */
  const axeIds = (p: StaticPerception): string[] => {
    expect(p.problems.join('; ')).not.toMatch(/axe-core failed/);
    return (p.axe ?? []).map((f) => f.id);
  };
  it('axe-core runs on a page whose Content-Security-Policy refuses inline scripts, and finds its low contrast', () => {
    expect(axeIds(perceived.csp!)).toContain('color-contrast');
  });

  it('axe-core runs in a world of its own: a page\'s global named axe is neither replaced nor used, and pages without one never get one', () => {
    expect(axeIds(perceived.lumberjack!).sort()).toEqual(['color-contrast', 'image-alt']);
    expect(after.lumberjack!.axe).toBe('{"level":3,"damage":7}');
    // a page without one: axe-core is not in its main world (the page cannot see Cookie's tools), and was run
    expect(after.still!.axe).toBe('undefined');
    expect(perceived.still!.axe).not.toBeNull();
  });

  it('a page with a frame gets its own axe-core findings (the frame is not asked, axe-core is not in it)', () => {
    expect(axeIds(perceived.embedded!)).toContain('image-alt');
  });

  it('a page that replaced its document after axe-core was loaded gets it loaded again, and its findings', () => {
    // the page perception ended on is the second document (the reload came a second after the first load)
    expect(after.themed!.background).toMatch(/rgb\(15, 23, 42\)|#0f172a/);
    expect(axeIds(perceived.themed!)).toContain('image-alt');
  });
});

describe('a page that gives no frame', () => {
  // a to-do app whose head calls window.stop() (a "cancel slow ads" snippet pasted in the wrong place): the
  // parser stops before <body>, and Chromium paints nothing, ever. Each capture used to wait out its 15 s (85 s
  // of perception for a blank page); the first one that gets no frame now stands for all of them
  it('is captured once: the other captures are not attempted, and the evidence says why', async () => {
    const { p } = await perceiveAtThreeWidths('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>To-do</title><script>window.stop();</script></head><body><h1>My to-dos</h1><input id="t"><button>Add</button><ul></ul></body></html>', 'en', { navigation: 3000, settle: 1000, unresponsive: 5000 });
    expect(p.unresponsive).toBe(false);
    expect(p.noFrame).toBe(true);
    expect(p.viewports).toEqual([]);
    expect(p.fullPageScreenshot).toBeNull();
    const captures = p.problems.filter((x) => /screenshot|viewport \d+px check failed/.test(x));
    expect(captures, p.problems.join('\n')).toHaveLength(1);
    expect(captures[0]).toMatch(/no frame to capture/);
    // the DOM was still read: the judge's blank-page rule has its evidence
    expect(p.inventory?.textSample ?? '').not.toContain('My to-dos');
  });
});

describe('a page whose resize handler throws', () => {
  // a solar system on a dark canvas, written the way the KCORES pages are: sized to the window at load, drawn
  // every frame, with a resize handler that assigns a `const` (TypeError on every resize). It loads and draws
  // fine; perception's resizes (to 375 and 768 px) make it throw. The evidence says when each screenshot was taken
  // and when the resizing began, so the judge can tell an error that left the screen empty from one that came after
  it('records when each screenshot was taken and when resizing began; the errors all come after the first screenshot', async () => {
    const { p, pageErrors } = await perceiveAtThreeWidths(`<!DOCTYPE html><html lang="zh"><head><meta charset="utf-8"><title>太阳系模拟</title>
<style>html,body{margin:0;height:100%;background:#000;overflow:hidden}canvas{display:block}#hud{position:fixed;top:10px;left:10px;color:#ccc;font:13px monospace;background:rgba(60,60,60,.7);padding:6px 10px;border-radius:6px}</style></head>
<body><canvas id="c"></canvas><div id="hud">FPS: 0 | 地球日: 0</div><script>
(() => {
  const canvas = document.getElementById('c'); const ctx = canvas.getContext('2d');
  let width = canvas.width = innerWidth, height = canvas.height = innerHeight;
  const centerX = width / 2; const centerY = height / 2;
  const planets = [['水星', 40, 3, '#b1a7a0', 0.88], ['金星', 70, 5, '#e3bb76', 2.25], ['地球', 100, 5, '#4f7cac', 3.65], ['火星', 130, 4, '#c1440e', 6.87], ['木星', 190, 12, '#d8ca9d', 43.3], ['土星', 250, 10, '#e3d9a0', 107.6]];
  let last = 0, days = 0;
  function frame(t) {
    const dt = last ? t - last : 16; last = t; days += dt / 100;
    ctx.fillStyle = '#000'; ctx.fillRect(0, 0, width, height);
    ctx.strokeStyle = 'rgba(255,255,255,.25)';
    for (const [, r] of planets) { ctx.beginPath(); ctx.arc(centerX, centerY, r, 0, Math.PI * 2); ctx.stroke(); }
    const sun = ctx.createRadialGradient(centerX, centerY, 2, centerX, centerY, 22); sun.addColorStop(0, '#fff4a3'); sun.addColorStop(1, '#ff8c00');
    ctx.fillStyle = sun; ctx.beginPath(); ctx.arc(centerX, centerY, 22, 0, Math.PI * 2); ctx.fill();
    ctx.font = '12px sans-serif'; ctx.textAlign = 'center';
    for (const [name, r, size, colour, period] of planets) {
      const a = days / period; const x = centerX + Math.cos(a) * r, y = centerY + Math.sin(a) * r;
      ctx.fillStyle = colour; ctx.beginPath(); ctx.arc(x, y, size, 0, Math.PI * 2); ctx.fill();
      ctx.fillStyle = '#ddd'; ctx.fillText(name, x, y + size + 12);
    }
    document.getElementById('hud').textContent = 'FPS: ' + Math.round(1000 / dt) + ' | 地球日: ' + Math.floor(days);
    requestAnimationFrame(frame);
  }
  addEventListener('resize', () => { width = canvas.width = innerWidth; height = canvas.height = innerHeight; centerX = width / 2; centerY = height / 2; });
  requestAnimationFrame(frame);
})();
</script></body></html>`, 'zh', { navigation: 15_000, settle: 3000, unresponsive: 5000 });
    const errors = pageErrors.filter((e) => /Assignment to constant variable/.test(e.text));
    expect(errors.length, JSON.stringify(pageErrors)).toBeGreaterThanOrEqual(2);
    const desktop = p.viewports.find((v) => v.width === 1280)!;
    expect(p.resizesFromMs).toBeTypeOf('number');
    expect(desktop.shotAtMs).toBeTypeOf('number');
    // the desktop screenshot is the first one, taken before any resize, and before any error
    expect(desktop.shotAtMs!).toBeLessThan(p.resizesFromMs!);
    for (const e of errors) expect(e.atMs).toBeGreaterThanOrEqual(p.resizesFromMs!);
    // the narrower screenshots were taken after resizing began
    for (const v of p.viewports.filter((x) => x.width !== 1280)) expect(v.shotAtMs!).toBeGreaterThanOrEqual(p.resizesFromMs!);
  });
});

/**
 * Static perception of one page, served alone, at 375, 768 and 1280 px (1280 the default), in a session of its
 * own on the shared browser: the perception and the page errors its session logged.
 */
async function perceiveAtThreeWidths(html: string, language: string, timeouts: { navigation: number; settle: number; unresponsive: number }): Promise<{ p: StaticPerception; pageErrors: ConsoleEntry[] }> {
  const dir = tmpDir('cookie-perceive-');
  fs.writeFileSync(path.join(dir, 'index.html'), html);
  const srv = await startStaticServer(dir);
  const s = await openAppSession(browser, srv.origin, { viewport: { width: 1280, height: 800 } });
  try {
    const p = await perceive(s, {
      url: `${srv.origin}/index.html`,
      evidenceDir: tmpDir('cookie-perceive-ev-'),
      viewports: [{ width: 375, height: 812 }, { width: 768, height: 1024 }, { width: 1280, height: 800 }],
      defaultViewport: { width: 1280, height: 800 },
      expectedLanguage: language,
      timeouts,
    });
    return { p, pageErrors: [...s.log.pageErrors] };
  } finally {
    await s.close();
    await srv.close();
  }
}
