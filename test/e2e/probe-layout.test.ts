import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../src/browser/launch.js';
import { measureAfter } from '../../src/interact/measure-after.js';
import { performAction } from '../../src/interact/act.js';
import { HumanInput } from '../../src/interact/input.js';
import { Rng } from '../../src/common/random.js';
import { evalIn, openAppSession, type AppSession } from '../../src/browser/session.js';
import { startStaticServer, type StaticServer } from '../../src/deploy/static-server.js';
import { ROOT, tmpDir } from '../helpers.js';
import { defaultChromium } from '../../src/util/chromium.js';

// The in-page probe's notion of "visible", which every layout check relies on: text a user cannot see must
// not be reported as overlapping or clipped (issue 11: layout checks ignore what is not rendered).
const FAQ = (open: boolean, broken = false) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>FAQ</title>
<style>body{margin:0;font-family:system-ui;background:#f8fafc} main{max-width:720px;margin:50px auto;padding:0 18px}
details{background:#fff;border:1px solid #e2e8f0;border-radius:12px;margin-bottom:10px;padding:14px 18px} summary{font-weight:600}
${broken ? '.q2{margin-top:-70px}' : ''}</style></head><body><main><h1>Frequently asked questions</h1>
<details ${open ? 'open' : ''}><summary>How long does shipping take?</summary><p>Orders ship within two business days and usually arrive within a week.</p></details>
<details class="q2"><summary>Can I return an item?</summary><p>Yes, you can return any unused item within 30 days for a full refund.</p></details>
<details><summary>Do you ship internationally?</summary><p>We ship to over 40 countries; duties are calculated at checkout.</p></details>
</main></body></html>`;

// a landing page's FAQ below a tall hero, as LLMs write it: answers collapsed by \`max-height: 0; overflow: hidden\`
// (their boxes lie over the next question, their text is painted nowhere); \`pulled\` opens the first answer and
// pulls the next question up over it (text really printed over text)
const ACCORDION = (pulled: boolean) => `<!doctype html><html lang="pt"><head><meta charset="utf-8"><title>Fluxo</title><style>
body{margin:0;font-family:system-ui;background:#f8fafc}.hero{height:1100px;background:linear-gradient(135deg,#6366f1,#ec4899);color:#fff;padding:80px}
.faq{max-width:760px;margin:40px auto}.item{background:#fff;border-radius:16px;margin-bottom:12px;overflow:hidden}
.q{width:100%;display:flex;justify-content:space-between;padding:18px 22px;border:none;background:none;font:inherit;font-weight:700}
.a{max-height:0;overflow:hidden;transition:max-height .35s ease}.a p{padding:0 22px 18px;color:#64748b}.item.open .a{max-height:240px}
${pulled ? '.item:nth-child(2){margin-top:-80px;position:relative;overflow:visible;background:none}' : ''}</style></head><body><section class="hero"><h1>Fluxo 🚀</h1></section>
<div class="faq"><div class="item${pulled ? ' open' : ''}"><button class="q">Posso cancelar a qualquer momento?<span>+</span></button><div class="a"><p>Sim! Não há fidelidade. Você pode cancelar direto no painel.</p></div></div>
<div class="item"><button class="q">Como funciona o teste grátis?<span>+</span></button><div class="a"><p>São 14 dias com todos os recursos do plano Pro.</p></div></div>
<div class="item"><button class="q">Quais formas de pagamento vocês aceitam?<span>+</span></button><div class="a"><p>Cartão de crédito, Pix e boleto.</p></div></div></div></body></html>`;

// a three-column board written by an LLM for a new user's trial: cards share rows across columns, not columns
const KANBAN = path.join(ROOT, 'test/precision/pages/kanban-board.html');
// labels and buttons thrown at unrelated positions: no two share a column or a row line
const SCATTERED = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Notes</title><style>body{margin:0;font-family:system-ui}
.x{position:absolute;padding:6px 10px;background:#eef}</style></head><body>${Array.from({ length: 12 }, (_, i) => `<div class="x" style="left:${(i * 97) % 1100 + i * 3}px;top:${(i * 61) % 700 + i * 7}px;width:${60 + i * 9}px">Note ${i + 1}</div>`).join('')}</body></html>`;

// a sales dashboard as LLMs write it: four KPI cards in a fixed-width grid inside a wrapper with
// \`overflow-x: hidden\` (added to "fix" a horizontal scrollbar): whole at 1280 px, the second card cut in half at
// 375 px. Beside it, cropping that is the design: a slider whose track moves by a transform (the next slide
// peeks in), a giant faint word behind a hero, and a scrollable strip of tags (overflow-x: auto)
const DASHBOARD = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sales</title><style>
body{margin:0;font-family:system-ui;background:#0f172a;color:#e2e8f0}.wrap{overflow-x:hidden;padding:20px}
.kpis{display:grid;grid-template-columns:repeat(4,240px);gap:16px}.kpi{background:#1e293b;border-radius:14px;padding:18px}
.orders{min-width:640px;border-collapse:collapse}.orders td,.orders th{padding:10px 14px;text-align:left;white-space:nowrap;border-bottom:1px solid #334155}
.kpi .label{font-size:13px;color:#94a3b8;white-space:nowrap}.kpi .value{font-size:30px;font-weight:700;white-space:nowrap}.kpi .delta{color:#22c55e;white-space:nowrap}
</style></head><body><div class="wrap"><h1>Sales overview</h1><div class="kpis">
<div class="kpi"><div class="label">Total revenue</div><div class="value">$482,910</div><div class="delta">▲ 12.4% vs last month</div></div>
<div class="kpi"><div class="label">Orders this month</div><div class="value">3,846</div><div class="delta">▲ 8.1% vs last month</div></div>
<div class="kpi"><div class="label">Average order value</div><div class="value">$125.56</div><div class="delta">▲ 3.9% vs last month</div></div>
<div class="kpi"><div class="label">New customers</div><div class="value">1,204</div><div class="delta">▲ 5.2% vs last month</div></div>
</div><h2>Recent orders</h2><table class="orders"><tr><th>Order</th><th>Customer</th><th>Date</th><th>Amount</th><th>Status</th></tr>
<tr><td>#10482</td><td>Maria Gonzalez</td><td>Nov 28, 2026</td><td>$249.00</td><td>Shipped</td></tr>
<tr><td>#10481</td><td>James O'Connor</td><td>Nov 28, 2026</td><td>$89.50</td><td>Processing</td></tr>
<tr><td>#10480</td><td>Aiko Tanaka</td><td>Nov 27, 2026</td><td>$1,320.00</td><td>Delivered</td></tr></table></div></body></html>`;
const CROPPED_BY_DESIGN = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Studio</title><style>
body{margin:0;font-family:system-ui}.hero{position:relative;overflow:hidden;height:420px;background:#111;color:#fff;padding:40px}
.ghost{position:absolute;left:-40px;top:120px;font-size:260px;font-weight:900;opacity:.06;white-space:nowrap}
.slider{overflow:hidden;margin:30px 0}.track{display:flex;gap:16px;transform:translateX(0);transition:transform .4s}
.slide{flex:0 0 80%;background:#f1f5f9;border-radius:16px;padding:24px}.slide h3,.slide p{white-space:nowrap}
.tags{display:flex;gap:8px;overflow-x:auto}.tags span{white-space:nowrap;background:#e0e7ff;border-radius:99px;padding:6px 14px}
</style></head><body><section class="hero"><div class="ghost">CREATIVE STUDIO</div><h1>We design brands people love</h1></section>
<div class="slider"><div class="track"><div class="slide"><h3>Branding for Aurora Coffee</h3><p>Identity, packaging and a new website</p></div>
<div class="slide"><h3>Campaign for Nordlys Outdoor</h3><p>A winter campaign across six countries</p></div><div class="slide"><h3>App for Mint Bank</h3><p>Onboarding that halved drop-off</p></div></div></div>
<div class="tags"><span>Brand strategy</span><span>Visual identity</span><span>Packaging design</span><span>Web development</span><span>Motion design</span><span>Photography</span></div>
</body></html>`;

let browser: Browser;
let server: StaticServer;
const sessions: AppSession[] = [];
beforeAll(async () => {
  const dir = tmpDir('cookie-probe-vis-');
  fs.writeFileSync(path.join(dir, 'closed.html'), FAQ(false));
  fs.writeFileSync(path.join(dir, 'open.html'), FAQ(true));
  fs.writeFileSync(path.join(dir, 'overlap.html'), FAQ(true, true));
  fs.writeFileSync(path.join(dir, 'accordion.html'), ACCORDION(false));
  fs.writeFileSync(path.join(dir, 'accordion-pulled.html'), ACCORDION(true));
  fs.copyFileSync(KANBAN, path.join(dir, 'kanban.html'));
  fs.writeFileSync(path.join(dir, 'scattered.html'), SCATTERED);
  fs.writeFileSync(path.join(dir, 'dashboard.html'), DASHBOARD);
  fs.writeFileSync(path.join(dir, 'cropped.html'), CROPPED_BY_DESIGN);
  // a canvas sized in CSS pixels only (no devicePixelRatio): the KCORES solar systems and Mandelbrot sets
  fs.writeFileSync(path.join(dir, 'canvas.html'), `<!doctype html><html><body style="margin:0"><canvas id="c"></canvas><script>const c = document.getElementById('c'); c.width = innerWidth; c.height = innerHeight; const g = c.getContext('2d'); g.fillStyle = '#0b1020'; g.fillRect(0, 0, c.width, c.height); g.fillStyle = '#fc0'; g.beginPath(); g.arc(c.width / 2, c.height / 2, 60, 0, 7); g.fill();</script></body></html>`);
  // a JavaScript quiz (answers that are JS's own values, highlighted code) beside a cart whose total really broke
  fs.writeFileSync(
    path.join(dir, 'quiz.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>JS quiz</title></head><body><main><h1>JavaScript quiz</h1>
<p>What does <code>typeof NaN</code> return?</p><pre><code><span class="kw">let</span> x = <span class="lit">undefined</span>; <span class="lit">NaN</span> === <span class="lit">NaN</span></code></pre>
<div class="answers"><button>"number"</button><button>NaN</button><button>undefined</button><label><input type="radio" name="a"> null</label></div>
<section id="cart"><p>Total: <span id="total">$NaN</span></p><p id="who">Hello, undefined!</p></section></main></body></html>`,
  );
  // a recipe card (a heading spanning the card beside a floated ♥ button), a piano (black keys over the white
  // keys' boxes, not their letters) and two captions really printed over each other
  fs.writeFileSync(
    path.join(dir, 'boxes.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Boxes</title><style>body{margin:0;font-family:system-ui}
.card{width:300px;margin:20px;padding:12px;border:1px solid #ddd;border-radius:12px}.card h3{margin:0}.fav{float:right;border:0;background:none;font-size:20px}
.piano{position:relative;height:160px;margin:20px}.w{position:absolute;top:0;width:48px;height:160px;border:1px solid #333;display:flex;align-items:flex-end;justify-content:center;background:#fff}
.b{position:absolute;top:0;width:30px;height:95px;background:#111;color:#eee;display:flex;align-items:flex-end;justify-content:center;font-size:12px}
.stack{position:relative;height:40px;margin:20px}.stack span{position:absolute;left:0;top:0;font-size:18px}</style></head><body>
<div class="card"><button class="fav">♥</button><h3>Fluffy Pancakes with maple syrup and berries</h3><p>20 min</p></div>
<div class="piano"><div class="w" style="left:0">A</div><div class="w" style="left:48px">S</div><div class="b" style="left:33px">W</div></div>
<div class="stack"><span>Total due today</span><span>Free shipping</span></div>
<section style="margin:20px"><p style="margin:0;font:12px monospace;letter-spacing:2px">MONOCHROME • GRID-NATIVE • NO FLUFF</p><h1 style="margin:4px 0 0;font-size:84px;line-height:0.9;letter-spacing:-3px">SHIP AN API THAT FEELS LIKE A TERMINAL.</h1></section></body></html>`,
  );
  // filter tabs styled by utility classes only: the current one stands out from its look-alike siblings
  fs.writeFileSync(
    path.join(dir, 'tabs.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tasks</title><style>button{padding:6px 12px;border:0;border-radius:8px;margin:2px}
.bg-indigo{background:#4f46e5;color:#fff}.bg-slate{background:#1e293b;color:#cbd5e1}</style></head><body>
<div id="filters"><button class="bg-indigo">All</button><button class="bg-slate">Active</button><button class="bg-slate">Done</button></div>
<div id="plain"><button class="bg-slate">Add</button><button class="bg-slate">Clear</button><button class="bg-slate">Sort</button></div></body></html>`,
  );
  // a memory game: a card face up, a matched one, a hidden one (each listens for clicks)
  fs.writeFileSync(
    path.join(dir, 'cards.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Memory</title><style>.card{display:inline-block;width:80px;height:80px;margin:4px;background:#6366f1;color:#fff;font-size:40px;text-align:center}</style></head><body>
<div class="card flipped" aria-label="🍌">🍌</div><div class="card matched" aria-label="🍎">🍎</div><div class="card" aria-label="Hidden card">?</div>
<script>for (const c of document.querySelectorAll('.card')) c.addEventListener('click', () => { if (!c.classList.contains('flipped') && !c.classList.contains('matched')) c.classList.add('flipped'); });</script></body></html>`,
  );
  // a dashboard with a Chart.js chart (its canvas listens for the pointer, for tooltips) beside a drawing canvas
  fs.copyFileSync(path.join(ROOT, 'node_modules', 'cdn-chartjs', 'dist', 'chart.umd.js'), path.join(dir, 'chart.umd.js'));
  fs.writeFileSync(
    path.join(dir, 'charts.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Steps</title><script src="chart.umd.js"></script></head><body><main style="width:700px">
<canvas id="bars" width="600" height="220"></canvas><canvas id="pad" width="600" height="220" style="border:1px solid #ccc"></canvas></main><script>
new Chart(document.getElementById('bars'), { type: 'bar', data: { labels: ['Mon', 'Tue', 'Wed'], datasets: [{ label: 'Steps', data: [4200, 8100, 6500] }] }, options: { animation: false, responsive: false } });
const pad = document.getElementById('pad'); const g = pad.getContext('2d'); pad.addEventListener('pointerdown', (e) => g.fillRect(e.offsetX, e.offsetY, 3, 3)); pad.addEventListener('pointermove', (e) => { if (e.buttons) g.fillRect(e.offsetX, e.offsetY, 3, 3); });
</script></body></html>`,
  );
  // sticky notes an LLM wrote: each note's words sit in a <textarea> beside a ✕ button; a to-do list reads as text
  fs.writeFileSync(
    path.join(dir, 'notes.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sticky notes</title><style>#board{display:grid;grid-template-columns:repeat(3,200px);gap:16px}
.note{position:relative;min-height:140px;padding:14px;background:#fff59d;transform:rotate(-1deg)}.note textarea{width:100%;height:100px;border:0;background:transparent;font:16px cursive}</style></head><body>
<div id="board"><div class="note"><textarea>Welcome! Click a note to edit it.</textarea><button class="del">✕</button></div><div class="note"><textarea>Water the ferns</textarea><button class="del">✕</button></div><div class="note"><textarea></textarea><button class="del">✕</button></div></div>
<ul id="todo"><li>Buy milk <input type="checkbox"></li><li>Call mum <input type="checkbox"></li></ul></body></html>`,
  );
  // the same snake page with its gradient on <body>, then on a wrapper <div> (the review's snake-ab pair)
  for (const [name, onBody] of [['grad-body', true], ['grad-div', false]] as const) {
    const bg = 'background:linear-gradient(135deg,#0f2027,#2c5364);color:#e0f7fa';
    fs.writeFileSync(path.join(dir, `${name}.html`), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Snake</title><style>body{margin:0;font-family:system-ui;${onBody ? bg : ''}}#w{min-height:100vh;${onBody ? '' : bg}}</style></head><body><div id="w"><h1>Snake</h1><p>Use the arrow keys.</p><canvas width="300" height="300"></canvas></div></body></html>`);
  }
  // a to-do page whose inline handler has a syntax error (an LLM's unclosed call), beside a drop zone and a body key handler written inline
  fs.writeFileSync(
    path.join(dir, 'inline-broken.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tasks</title></head><body onkeydown="move(event.key">
<input id="t" placeholder="New task"><button id="add" onclick="addTask(document.getElementById('t').value">Add</button><button id="ok" onclick="document.title = 'ok'">Clear</button>
<div id="zone" ondrop="dropTask(event" style="width:200px;height:80px;border:2px dashed #999">Drop here</div></body></html>`,
  );
  // a team directory's profile in a <dialog> that closes when its backdrop is clicked (a listener on the dialog)
  fs.writeFileSync(
    path.join(dir, 'dialog.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Team</title><style>dialog{border:0;border-radius:18px;width:440px}dialog::backdrop{background:rgba(15,23,42,.55)}</style></head><body>
<button id="open">Lukas Weber</button><div class="panel" role="dialog" aria-label="Cookie settings"><p>We use cookies.</p><button>Accept</button></div>
<dialog id="d"><button aria-label="Close" onclick="this.closest('dialog').close()">×</button><h2>Lukas Weber</h2><p>Backend Engineer · lukas@acme.io</p><button onclick="this.closest('dialog').close()">Close</button></dialog>
<script>const d = document.getElementById('d'); document.getElementById('open').onclick = () => d.showModal(); d.addEventListener('click', (e) => { if (e.target === d) d.close(); }); document.querySelector('.panel').addEventListener('click', () => {}); d.showModal();</script></body></html>`,
  );
  // a coffee shop's cart of one line, rebuilt with innerHTML on every change (its buttons are replaced)
  fs.writeFileSync(
    path.join(dir, 'cart.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Cart</title></head><body><aside id="cart"></aside>
<script>let qty = 1; const render = () => { document.getElementById('cart').innerHTML = '<ul><li>Espresso Roast <span class="qty"><button aria-label="Decrease Espresso Roast">−</button><span>' + qty + '</span><button aria-label="Increase Espresso Roast">+</button></span> $' + (qty * 12.5).toFixed(2) + '</li></ul>'; };
document.getElementById('cart').addEventListener('click', (e) => { const b = e.target.closest('button'); if (!b) return; qty += /Increase/.test(b.getAttribute('aria-label')) ? 1 : -1; render(); }); render();</script></body></html>`,
  );
  // a countdown to an event the user picks in a datetime-local input (as LLM countdown pages do)
  fs.writeFileSync(
    path.join(dir, 'countdown.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Countdown</title></head><body><label>Event <input id="when" type="datetime-local"></label><input id="name" placeholder="Event name"><p id="out">Pick a date</p>
<script>document.getElementById('when').addEventListener('change', (e) => { const t = new Date(e.target.value); document.getElementById('out').textContent = isNaN(t) ? 'Counting down to Invalid Date: NaN days' : 'Counting down to ' + t.getFullYear(); });</script></body></html>`,
  );
  // a tip calculator as LLMs write it (a new user's trial, 2026-12-07): the chosen tip button gets the class
  // "active", a Tailwind-free row of look-alike buttons
  fs.writeFileSync(
    path.join(dir, 'tips.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tip calculator</title><style>.tip-btn{padding:10px 16px;border:0;border-radius:10px;background:#eef}.tip-btn.active{background:#667eea;color:#fff}</style></head><body>
<label>Bill <input id="bill" type="number"></label><div class="tip-buttons"><button class="tip-btn" data-tip="10">10%</button><button class="tip-btn active" data-tip="15">15%</button><button class="tip-btn" data-tip="20">20%</button><button class="tip-btn" data-tip="25">25%</button></div><p id="out"></p>
<script>document.querySelectorAll('.tip-btn').forEach((b) => b.addEventListener('click', () => { document.querySelectorAll('.tip-btn').forEach((x) => x.classList.remove('active')); b.classList.add('active'); document.getElementById('out').textContent = 'Tip ' + b.dataset.tip + '%'; }));</script></body></html>`,
  );
  // a "save" page that reloads itself every 100 ms (the hostile suite's reload loop, faster)
  fs.writeFileSync(path.join(dir, 'reloader.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Notes</title></head><body><h1>My notes</h1><input placeholder="Your name"><button>Save</button><script>setTimeout(() => location.reload(), 100);</script></body></html>`);
  fs.copyFileSync(path.join(ROOT, 'test/precision/invariants/inbox-search-toolbar-ok.html'), path.join(dir, 'inbox.html'));
  server = await startStaticServer(dir);
  browser = await launchBrowser(defaultChromium());
});
afterAll(async () => {
  for (const s of sessions) await s.close().catch(() => {});
  await browser?.close();
  await server?.close();
});

async function inPage<T>(file: string, expression: string, width = 375): Promise<T> {
  const s = await openAppSession(browser, server.origin, { viewport: { width, height: 812 } });
  sessions.push(s);
  await s.page.goto(`${server.origin}/${file}`);
  return evalIn<T>(s.page, expression, 10_000);
}
const problems = (file: string) => inPage<{ kind: string; selector: string; text: string }[]>(file, 'window.__cookieProbe.textProblems()');

describe('probe: visibility and layout', () => {
  it('the answers inside closed <details> are not rendered: no overlap with the next question at 375 px', async () => {
    expect(await problems('closed.html')).toEqual([]);
  });
  it('an open <details> whose answer the next question really covers is still an overlap', async () => {
    expect(await problems('open.html')).toEqual([]);
    const found = await problems('overlap.html');
    expect(found.some((p) => p.kind === 'overlap' && /Orders ship/.test(p.text))).toBe(true);
  });
  it('answers collapsed by max-height 0 and overflow hidden paint nothing: no overlap with the next question, below the fold too; an open answer under a question pulled over it is one', async () => {
    expect((await problems('accordion.html')).filter((p) => p.kind === 'overlap')).toEqual([]);
    const found = await problems('accordion-pulled.html');
    expect(found.some((p) => p.kind === 'overlap' && /Não há fidelidade/.test(p.text))).toBe(true);
  });
  it('KPI cards cut off by a wrapper with overflow-x hidden are cut text at 375 px and whole at 1280 px; a slider moved by a transform, a faint giant word and a scrollable strip are cropped by design', async () => {
    const cut = (found: { kind: string; text: string }[]) => found.filter((p) => p.kind === 'cut').map((p) => p.text);
    expect(cut(await inPage('dashboard.html', 'window.__cookieProbe.textProblems()', 1280))).toEqual([]);
    const narrow = cut(await inPage('dashboard.html', 'window.__cookieProbe.textProblems()', 375));
    // the second card's lines that do not fit (its value does; the third and fourth cards are out of view
    // entirely: not text cut off), and the orders table's dates, the column the wrapper's edge runs through
    expect(narrow).toEqual(['Orders this month', '▲ 8.1% vs last month', 'Nov 28, 2026', 'Nov 28, 2026', 'Nov 27, 2026']);
    // counted in the per-viewport layout the judge compares across widths (text-clipped-at-viewport: 3 or more
    // than at the widest)
    const layout = (w: number) => inPage<{ clippedText: number }>('dashboard.html', 'window.__cookieProbe.overflow()', w);
    expect((await layout(375)).clippedText).toBe(narrow.length);
    expect((await layout(1280)).clippedText).toBe(0);
    for (const w of [375, 1280]) expect(cut(await inPage('cropped.html', 'window.__cookieProbe.textProblems()', w))).toEqual([]);
  });
  it('JavaScript values named in code or as a whole answer label are not garbled data; a broken value shown as data is', async () => {
    const garbled = (await problems('quiz.html')).filter((p) => p.kind === 'garbled').map((p) => p.text);
    expect(garbled).toEqual(['$NaN', 'Hello, undefined!']);
  });
  it('overlapping text is text painted over text: a heading box beside a floated button, a black key over a white key\'s box and a tightly led headline under a kicker are not; two captions on one spot are', async () => {
    const overlaps = (await problems('boxes.html')).filter((p) => p.kind === 'overlap').map((p) => p.text);
    expect(overlaps).toEqual(['Total due today / Free shipping']);
  });
  it('the current tab of a row styled only by utility classes reads as active; a row of look-alike buttons has none', async () => {
    const active = await inPage<Record<string, boolean>>('tabs.html', `(() => { const inv = window.__cookieProbe.inventory(); const out = {}; for (const e of inv.interactive) out[e.name] = window.__cookieProbe.isActive(e.ref); return out; })()`, 1280);
    expect(active).toEqual({ All: true, Active: false, Done: false, Add: false, Clear: false, Sort: false });
  });
  it('a memory card already face up or matched is in the state a click selects (clicking it again is ignored by design); a hidden card is not', async () => {
    const active = await inPage<Record<string, boolean>>('cards.html', `(() => { const inv = window.__cookieProbe.inventory(); const out = {}; for (const e of inv.interactive) out[e.name] = window.__cookieProbe.isActive(e.ref); return out; })()`, 1280);
    expect(active).toEqual({ '🍌': true, '🍎': true, 'Hidden card': false });
  });
  it('a canvas Chart.js draws into is marked as a chart; a drawing canvas with pointer listeners is not', async () => {
    const inv = await inPage<{ interactive: { tag: string; chart?: string; handlers?: string[]; box: { y: number } }[] }>('charts.html', 'window.__cookieProbe.inventory()', 1280);
    const canvases = inv.interactive.filter((e) => e.tag === 'canvas').sort((a, b) => a.box.y - b.box.y);
    expect(canvases.map((c) => c.chart ?? null)).toEqual(['Chart.js', null]);
    expect(canvases[0]!.handlers!.length).toBeGreaterThan(0);
  });
  it('a collection item is read with its fields\' values (a sticky note\'s words are in its <textarea>), an empty field adds nothing, and a plain item reads as its text', async () => {
    const lists = await inPage<{ lists: { id: string; items: string[] }[] }>('notes.html', 'window.__cookieProbe.listsAndDrag()', 1280).then((r) => r.lists);
    expect(lists.find((l) => l.id.endsWith('#board'))!.items).toEqual(['Welcome! Click a note to edit it. ✕', 'Water the ferns ✕', '✕']);
    expect(lists.find((l) => l.id.endsWith('#todo'))!.items).toEqual(['Buy milk', 'Call mum']);
    // the item a control belongs to is read the same way (the identity check matches it against the list)
    const item = await inPage<{ c: string; i: number; text: string }>('notes.html', `(() => { const del = window.__cookieProbe.scan().filter((e) => e.name === '✕')[1]; return window.__cookieProbe.readings(del.ref, []).item; })()`, 1280);
    expect(item).toMatchObject({ i: 1, text: 'Water the ferns ✕' });
  });
  it('a gradient on <body> counts as styling like the same gradient on a wrapper <div>', async () => {
    const style = (file: string) => inPage<{ style: { gradientElements: number; distinctBackgrounds: number } }>(file, 'window.__cookieProbe.inventory()', 1280).then((i) => i.style);
    const [body, div] = [await style('grad-body.html'), await style('grad-div.html')];
    expect(body.gradientElements).toBe(1);
    expect(div.gradientElements).toBe(1);
  });
  it('alignment counts row lines as well as column lines: a three-column board is aligned, labels strewn at random are not', async () => {
    const layout = (file: string) => inPage<{ layout: { boxes: number; alignedShare: number } }>(file, 'window.__cookieProbe.inventory()', 1280).then((i) => i.layout);
    const board = await layout('kanban.html');
    expect(board.boxes).toBeGreaterThanOrEqual(8);
    expect(board.alignedShare).toBeGreaterThanOrEqual(0.9);
    const strewn = await layout('scattered.html');
    expect(strewn.boxes).toBeGreaterThanOrEqual(8);
    expect(strewn.alignedShare).toBeLessThan(0.5);
  });
  it('the DPR-2 look measures the canvas backing store on a phone and its keyframe shows that phone view (750 px wide), not the desktop window', async () => {
    const s = await openAppSession(browser, server.origin, { viewport: { width: 1280, height: 800 } });
    sessions.push(s);
    await s.page.goto(`${server.origin}/canvas.html`);
    const dir = tmpDir('cookie-dpr-');
    const m = await measureAfter(s.page, 'dpr2', 'dpr2.png', { evidenceDir: dir, unresponsiveMs: 10_000 }, { run: async () => {}, pause: async () => {} });
    const png = fs.readFileSync(path.join(dir, 'dpr2.png'));
    // PNG header: width and height at bytes 16–23
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([750, 1624]);
    expect(m).toMatchObject({ viewport: 375, dpr: 2 });
    expect(s.page.viewportSize()).toEqual({ width: 1280, height: 800 });
  });
});

describe('probe: controls keep their identity', () => {
  it('a button that becomes "active" when clicked keeps its group and signature (the explorer must not take it for a new control); the row is one group', async () => {
    const s = await openAppSession(browser, server.origin, { viewport: { width: 1280, height: 800 } });
    sessions.push(s);
    await s.page.goto(`${server.origin}/tips.html`);
    type Scanned = { name: string; group: string; signature: string }[];
    const scan = () => evalIn<Scanned>(s.page, 'window.__cookieProbe.scan().filter((e) => e.role === "button").map((e) => ({ name: e.name, group: e.group, signature: e.signature }))', 10_000);
    const before = await scan();
    expect(before.map((e) => e.name)).toEqual(['10%', '15%', '20%', '25%']);
    expect(new Set(before.map((e) => e.group)).size).toBe(1);
    await s.page.click('text=25%');
    expect(await s.page.textContent('#out')).toBe('Tip 25%');
    expect(await s.page.getAttribute('[data-tip="25"]', 'class')).toBe('tip-btn active');
    expect(await scan()).toEqual(before);
  });
});

describe('probe: dialogs', () => {
  it('an open modal <dialog> (and a role="dialog" panel) listening for backdrop clicks is not itself a control; its buttons are', async () => {
    const inv = await inPage<{ interactive: { name: string; tag: string }[] }>('dialog.html', 'window.__cookieProbe.inventory()', 1280);
    expect(inv.interactive.filter((e) => e.tag === 'dialog' || /We use cookies/.test(e.name))).toEqual([]);
    expect(inv.interactive.map((e) => e.name)).toEqual(expect.arrayContaining(['Close', 'Accept']));
  });
});

describe('probe: readings around a control', () => {
  it('a stepper\'s "− 1 +" is read before a press and again at the same place after the page re-rendered the buttons away', async () => {
    const s = await openAppSession(browser, server.origin, { viewport: { width: 1280, height: 800 } });
    sessions.push(s);
    await s.page.goto(`${server.origin}/cart.html`);
    const ref = await evalIn<number>(s.page, `window.__cookieProbe.scan().find((e) => e.name === 'Increase Espresso Roast').ref`, 10_000);
    const before = await evalIn<{ scope: { path: string; text: string } }>(s.page, `window.__cookieProbe.readings(${ref}, [])`, 10_000);
    await s.page.click('button[aria-label="Increase Espresso Roast"]');
    const after = await evalIn<{ scope: { path: string; text: string } }>(s.page, `window.__cookieProbe.readings(${ref}, [])`, 10_000);
    expect(before.scope.text).toBe('−1+');
    expect(after.scope).toEqual({ path: before.scope.path, text: '−2+' });
  });
});

describe('input into pickers', () => {
  it('a datetime-local input is picked, not typed key by key (typed, its segments read year 202503 and the page showed NaN); a text field is still typed', async () => {
    const s = await openAppSession(browser, server.origin, { viewport: { width: 1280, height: 800 } });
    sessions.push(s);
    await s.page.goto(`${server.origin}/countdown.html`);
    const els = await evalIn<{ ref: number; name: string; box: { x: number; y: number; width: number; height: number } }[]>(s.page, 'window.__cookieProbe.scan()', 10_000);
    const input = new HumanInput(s.page, new Rng(1));
    for (const [name, value] of [['Event', '2025-03-15T14:30'], ['Event name', 'Launch party']] as const) {
      const e = els.find((x) => x.name === name)!;
      await input.moveTo(e.box.x + e.box.width / 2, e.box.y + e.box.height / 2);
      await performAction(s.page, input, { action: { kind: 'fill', value }, reasoning: 'test', ref: e.ref }, 5000, server.origin, `${server.origin}/countdown.html`);
    }
    expect(await s.page.inputValue('#when')).toBe('2025-03-15T14:30');
    expect(await s.page.textContent('#out')).toBe('Counting down to 2025');
    expect(await s.page.inputValue('#name')).toBe('Launch party');
  });
});

describe('probe: inline handlers', () => {
  it('reading the page does not compile its inline handlers: a syntax error in one is the app\'s, thrown when a user clicks, not the probe\'s', async () => {
    const s = await openAppSession(browser, server.origin, { viewport: { width: 1280, height: 800 } });
    sessions.push(s);
    await s.page.goto(`${server.origin}/inline-broken.html`);
    const inv = await evalIn<{ interactive: { name: string; handlers?: string[] }[]; listenedEvents?: string[] }>(s.page, 'window.__cookieProbe.inventory()', 10_000);
    await evalIn(s.page, 'window.__cookieProbe.listsAndDrag()', 10_000);
    expect(inv.interactive.find((e) => e.name === 'Add')!.handlers).toContain('onclick');
    expect(inv.interactive.find((e) => e.name === 'Clear')!.handlers).toContain('onclick');
    expect(inv.listenedEvents).toContain('keydown');
    expect(s.log.pageErrors).toEqual([]);
    await s.page.click('#add');
    await s.page.waitForFunction(() => true);
    await expect.poll(() => s.log.pageErrors.length).toBeGreaterThan(0);
    expect(s.log.pageErrors.map((e) => [e.origin, e.text.split(':')[0]])).toEqual([['app', 'SyntaxError']]);
  });
});

describe('lists read before and after an action', () => {
  it('a search that leaves one row beside the list\'s one-line toolbar is read as that row (the kind of item the list held before), not as the toolbar', async () => {
    const s = await openAppSession(browser, server.origin, { viewport: { width: 1280, height: 800 } });
    sessions.push(s);
    await s.page.goto(`${server.origin}/inbox.html`);
    type Reading = { collections: { id: string; key?: string; items: { text: string }[] }[] };
    const before = await evalIn<Reading>(s.page, 'window.__cookieProbe.readings(null, [])', 10_000);
    const list = before.collections.find((c) => c.id === '#list')!;
    expect([list.key, list.items.length]).toEqual(['div.mail', 5]);
    await s.page.fill('#q', 'Alexandra');
    const known = JSON.stringify(before.collections.map((c) => ({ id: c.id, key: c.key })));
    const after = await evalIn<Reading>(s.page, `window.__cookieProbe.readings(null, ${known})`, 10_000);
    expect(after.collections.find((c) => c.id === '#list')!.items.map((i) => i.text)).toEqual([expect.stringContaining('Alexandra Konstantinopoulou')]);
    // a bare path (evidence of older runs): the most common kind, as before (here a tie the toolbar wins)
    const bare = await evalIn<Reading>(s.page, `window.__cookieProbe.readings(null, ${JSON.stringify(before.collections.map((c) => c.id))})`, 10_000);
    expect(bare.collections.find((c) => c.id === '#list')!.items.map((i) => i.text)).toEqual(['Inbox 1–1 of 1']);
  });
});

describe('viewport captures', () => {
  it('a capture compared only in memory (compressed for speed) has exactly the pixels of one kept as evidence', async () => {
    const { viewportPng } = await import('../../src/browser/screenshot.js');
    const { decodePng } = await import('../../src/perceive/image.js');
    const s = await openAppSession(browser, server.origin, { viewport: { width: 1280, height: 800 } });
    sessions.push(s);
    // a detailed page: text, borders, gradients of an LLM-written board
    await s.page.goto(`${server.origin}/kanban.html`);
    const kept = await viewportPng(s.page, 10_000);
    const fast = await viewportPng(s.page, 10_000, { fast: true });
    // a different encoding (otherwise the option did nothing) …
    expect(fast.equals(kept)).toBe(false);
    // … of the same image
    const [a, b] = [decodePng(kept), decodePng(fast)];
    expect([b.width, b.height]).toEqual([a.width, a.height]);
    expect(Buffer.compare(Buffer.from(a.data), Buffer.from(b.data))).toBe(0);
  });

  it('every capture of a page that reloads itself in a loop is answered (Chromium drops one its next document overtakes)', async () => {
    const { viewportPng } = await import('../../src/browser/screenshot.js');
    const { decodePng } = await import('../../src/perceive/image.js');
    const s = await openAppSession(browser, server.origin, { viewport: { width: 1280, height: 800 } });
    sessions.push(s);
    await s.page.goto(`${server.origin}/reloader.html`);
    // 40 captures in a row (before the fix, about one in fifteen was never answered and waited out its limit)
    const failed: string[] = [];
    for (let i = 0; i < 40; i++) {
      try {
        const img = decodePng(await viewportPng(s.page, 10_000, { fast: i % 2 === 1 }));
        expect([img.width, img.height]).toEqual([1280, 800]);
      } catch (e) {
        failed.push(String(e));
      }
    }
    expect(failed).toEqual([]);
    // the page did reload under the captures
    expect(s.log.loads.length + (s.log.dropped.loads ?? 0)).toBeGreaterThan(5);
  });
});
