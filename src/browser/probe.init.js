// Cookie's in-page probe, added as an init script before any app code runs.
// Plain JavaScript on purpose: functions compiled by tsx/esbuild carry `__name` helpers that do not
// exist in the page, so the harness calls these methods with string expressions only.
// It observes and measures; it never changes what the app renders.
(() => {
  if (window.__cookieProbe) return;
  const state = { mutations: 0, refs: [], scopePaths: [], listeners: new WeakMap(), globalEvents: new Set() };
  // the built-ins the probe measures with, taken before any app code runs: a page that replaces them
  // later cannot blind the probe, and a replacement that changes what they answer is reported (tampered)
  const nat = {
    gcs: window.getComputedStyle, rect: Element.prototype.getBoundingClientRect,
    textRect: Range.prototype.getBoundingClientRect, createRange: Document.prototype.createRange,
    raf: window.requestAnimationFrame,
    // the browser's own Performance object: Playwright's clock later replaces window.performance with a fake
    // whose getEntries* answer nothing
    perf: window.performance,
  };
  const gcs = (el) => nat.gcs.call(window, el);
  const rectOf = (el) => nat.rect.call(el);

  // ── listener registry: which event types the page listens to, and on which elements ──
  const origAdd = EventTarget.prototype.addEventListener;
  const wrappedAdd = function (type, fn, opts) {
    try {
      if (this === window || this === document || this === document.documentElement || this === document.body ||
          (this instanceof HTMLCanvasElement)) state.globalEvents.add(String(type));
      if (this instanceof Element) {
        let s = state.listeners.get(this);
        if (!s) { s = new Set(); state.listeners.set(this, s); }
        s.add(String(type));
      }
    } catch (e) { /* never break the app */ }
    return origAdd.call(this, type, fn, opts);
  };
  EventTarget.prototype.addEventListener = wrappedAdd;

  // ── shadow roots: a web component renders into one (closed ones are invisible to the page's own DOM
  // queries), and a reviewer sees what it renders; every root the page attaches is kept, with its host ──
  const shadow = { roots: [], byHost: new WeakMap() };
  const MO_OPTIONS = { subtree: true, childList: true, attributes: true, characterData: true, attributeOldValue: true, characterDataOldValue: true };
  try {
    const origAttach = Element.prototype.attachShadow;
    if (typeof origAttach === 'function') {
      Element.prototype.attachShadow = function (init) {
        const root = origAttach.call(this, init);
        try {
          if (shadow.roots.length < 2000) shadow.roots.push(root);
          shadow.byHost.set(this, root);
          if (state.mo) state.mo.observe(root, MO_OPTIONS);
        } catch (e) { /* never break the app */ }
        return root;
      };
    }
  } catch (e) { /* never break the app */ }
  /** The shadow root of a host (a closed one too, when the page attached it after the probe), else null. */
  function shadowOf(el) {
    try { return shadow.byHost.get(el) || el.shadowRoot || null; } catch (e) { return null; }
  }
  /**
   * Every shadow root in the document now, nested ones too: those the page attached (open or closed) whose
   * host is in the document, and open ones declared in its HTML (found through their hosts).
   */
  function shadowRoots() {
    const out = [], seen = new Set();
    const add = (r) => { if (r && !seen.has(r) && out.length < 500) { seen.add(r); out.push(r); } };
    for (const r of shadow.roots) if (r.host && r.host.isConnected) add(r);
    const hosts = (list) => { for (let i = 0; i < list.length && i < MAX_ELEMENTS; i++) { let r = null; try { r = list[i].shadowRoot; } catch (e) { /* a page's getter */ } if (r) add(r); } };
    hosts(document.getElementsByTagName('*'));
    for (let k = 0; k < out.length; k++) hosts(out[k].querySelectorAll('*'));
    return out;
  }
  /** `querySelectorAll(sel)` over the document and every shadow root in it ({@link shadowRoots}). */
  function qsaDeep(sel, roots) {
    const out = [...document.querySelectorAll(sel)];
    for (const r of roots || shadowRoots()) for (const el of r.querySelectorAll(sel)) out.push(el);
    return out;
  }
  /** The elements of the body and of every shadow root in the document, in that order. */
  function allElements(roots) {
    const out = document.body ? [...document.body.getElementsByTagName('*')] : [];
    for (const r of roots || shadowRoots()) { if (out.length >= MAX_ELEMENTS) break; for (const el of r.querySelectorAll('*')) out.push(el); }
    return out;
  }
  /** The innermost element at a point, through shadow roots (the document answers with the host). */
  function deepElementFromPoint(x, y) {
    let top = document.elementFromPoint(x, y);
    for (let i = 0; top && i < 20; i++) {
      const r = shadowOf(top);
      const inner = r && r.elementFromPoint ? r.elementFromPoint(x, y) : null;
      if (!inner || inner === top) break;
      top = inner;
    }
    return top;
  }
  /** Whether `a` contains `b`, across shadow boundaries (a host contains what its shadow root renders). */
  function composedContains(a, b) {
    for (let n = b, i = 0; n && i < 400; n = n.parentNode || n.host, i++) if (n === a) return true;
    return false;
  }
  /** The focused element, inside shadow roots too (the document names the host). */
  function deepActiveElement() {
    let a = document.activeElement;
    for (let i = 0; a && i < 20; i++) {
      const r = shadowOf(a);
      if (!r || !r.activeElement) break;
      a = r.activeElement;
    }
    return a;
  }

  // ── effects that leave the page (download, print, clipboard, new tab): recorded, never blocked ──
  const external = [];
  const noteExternal = (kind, detail) => { if (external.length < 200) external.push({ kind, detail: String(detail || '').slice(0, 120) }); };
  try {
    const origPrint = window.print;
    window.print = function () { noteExternal('print', ''); return undefined; };
    void origPrint;
    const origOpen = window.open;
    window.open = function (u) { noteExternal('new-tab', u); return origOpen.apply(window, arguments); };
    if (navigator.clipboard) {
      for (const m of ['writeText', 'write']) {
        const f = navigator.clipboard[m];
        if (typeof f === 'function') navigator.clipboard[m] = function (t) { noteExternal('clipboard', typeof t === 'string' ? t : ''); return f.apply(navigator.clipboard, arguments).catch(() => undefined); };
      }
    }
    const origExec = document.execCommand;
    document.execCommand = function (cmd) { if (/^(copy|cut)$/i.test(String(cmd))) noteExternal('clipboard', cmd); return origExec.apply(document, arguments); };
    const origAClick = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function () {
      if (this.hasAttribute('download')) noteExternal('download', this.getAttribute('download') || this.href);
      else if (this.target === '_blank') noteExternal('new-tab', this.href);
      return origAClick.call(this);
    };
    document.addEventListener('click', (e) => {
      const a = e.target && e.target.closest ? e.target.closest('a[download],a[target=_blank]') : null;
      if (a && e.isTrusted) noteExternal(a.hasAttribute('download') ? 'download' : 'new-tab', a.getAttribute('download') || a.href);
    }, true);
  } catch (e) { /* never break the app */ }

  // ── DOM mutation counter. No-op writes are not changes: a text set to the same value, an attribute
  // set to the same value, a text node replaced by an identical one (render loops that rewrite an
  // unchanged score every frame would otherwise look like constant activity).
  const noop = (m) => {
    if (m.type === 'characterData') return m.oldValue === m.target.data;
    if (m.type === 'attributes') return m.oldValue === m.target.getAttribute(m.attributeName);
    if (m.type === 'childList' && m.addedNodes.length === 1 && m.removedNodes.length === 1) {
      const a = m.addedNodes[0], r = m.removedNodes[0];
      return a.nodeType === 3 && r.nodeType === 3 && a.data === r.data;
    }
    return false;
  };
  const startObserver = () => {
    try {
      state.mo = new MutationObserver((list) => { let n = 0; for (const m of list) if (!noop(m)) n++; if (n) { state.mutations += n; state.lastMutationAt = nat.perf.now(); } });
      state.mo.observe(document, MO_OPTIONS);
      // roots attached before (each later one is observed as it is attached)
      for (const r of shadow.roots) state.mo.observe(r, MO_OPTIONS);
    } catch (e) { /* ignore */ }
  };
  if (document.documentElement) startObserver(); else document.addEventListener('DOMContentLoaded', startObserver);

  // ── trusted clicks the page received (window, capture phase, registered before any page script): tells
  // a click the app ignored from a click that never reached it ──
  const clicks = { n: 0 };
  try { window.addEventListener('click', (e) => { if (e.isTrusted) clicks.n++; }, true); } catch (e) { /* never break the app */ }

  // ── frame timing: a frame counter on requestAnimationFrame (it stalls when the app blocks the main
  // thread) and long animation frames (> 50 ms) reported by the browser, with the part of them the page's
  // own main thread worked (scripts, animation-frame callbacks, style and layout, blocking time): a frame can also be long because the
  // compositor waited for raster (software rendering here, no GPU), which is the machine, not the app ──
  // (loadWorkMs: the part of workMs in frames that began before the load event ended — the page's own share of
  // its load time; an entry is delivered after its frame, so it is read a frame or more after load)
  const frames = { count: 0, long: 0, longMs: 0, workMs: 0, loadWorkMs: 0 };
  const beforeLoad = (e) => { let n; try { n = nat.perf.getEntriesByType('navigation')[0]; } catch (x) { /* none */ } return !n || !n.loadEventEnd || e.startTime < n.loadEventEnd; };
  const workOf = (e) => {
    if (e.entryType !== 'long-animation-frame') return e.duration; // a long task is main-thread work throughout
    let scripts = 0;
    for (const s of e.scripts || []) scripts += s.duration;
    // the rendering update runs requestAnimationFrame callbacks, then style and layout, on the main thread
    const rendering = e.renderStart ? Math.max(0, e.startTime + e.duration - e.renderStart) : 0;
    return Math.min(e.duration, Math.max(scripts + rendering, e.blockingDuration || 0));
  };
  const raf = (cb) => nat.raf.call(window, cb);
  const tick = () => { frames.count++; raf(tick); };
  raf(tick);
  try {
    const type = PerformanceObserver.supportedEntryTypes.includes('long-animation-frame') ? 'long-animation-frame' : 'longtask';
    new PerformanceObserver((list) => { for (const e of list.getEntries()) { frames.long++; frames.longMs += e.duration; const w = workOf(e); frames.workMs += w; if (beforeLoad(e)) frames.loadWorkMs += w; } }).observe({ type, buffered: true });
  } catch (e) { /* unsupported */ }

  // ── timers the page keeps: a live interval, a timeout due soon or a frame loop can change the picture
  // later even when nothing changed yet (a countdown ticking every 200 ms, checked 150 ms after its last
  // tick). Only registrations are noted; callbacks are never wrapped (an app error's stack stays the app's).
  // Playwright's clock, when installed, replaces these after the probe; its own timer list is read instead ──
  const pending = { intervals: new Map(), timeouts: new Map(), frameAt: -1, idleAt: -1 };
  try {
    const setI = window.setInterval, clrI = window.clearInterval, setT = window.setTimeout, clrT = window.clearTimeout;
    const rafNow = window.requestAnimationFrame;
    window.setInterval = function (fn, ms) {
      const id = setI.apply(this, arguments);
      try { pending.intervals.set(id, Number(ms) || 0); } catch (e) { /* never break the app */ }
      return id;
    };
    window.clearInterval = function (id) { pending.intervals.delete(id); pending.timeouts.delete(id); return clrI.apply(this, arguments); };
    window.setTimeout = function (fn, ms) {
      const id = setT.apply(this, arguments);
      try {
        const now = nat.perf.now();
        if (pending.timeouts.size > 500) for (const [k, due] of pending.timeouts) if (due < now) pending.timeouts.delete(k);
        pending.timeouts.set(id, now + (Number(ms) || 0));
      } catch (e) { /* never break the app */ }
      return id;
    };
    window.clearTimeout = function (id) { pending.timeouts.delete(id); pending.intervals.delete(id); return clrT.apply(this, arguments); };
    window.requestAnimationFrame = function (cb) { pending.frameAt = nat.perf.now(); return rafNow.apply(this, arguments); };
    nat.wrappedRaf = window.requestAnimationFrame;
    const ric = window.requestIdleCallback;
    if (ric) window.requestIdleCallback = function () { pending.idleAt = nat.perf.now(); return ric.apply(this, arguments); };
  } catch (e) { /* never break the app */ }
  /**
   * Timers that may change the page within `horizonMs`: intervals of at most 1 s, timeouts due by then, a
   * frame loop (a frame requested in the last 100 ms), an idle callback requested in the last `horizonMs`.
   */
  function pendingTimers(horizonMs) {
    let n = 0;
    try {
      const c = window.__pwClock && window.__pwClock.controller;
      if (c && c._timers && c._now) {
        for (const t of c._timers.values()) {
          if (t.type === 'Interval' ? t.delay <= 1000 : t.type === 'Timeout' ? t.callAt - c._now.ticks <= horizonMs : /AnimationFrame|IdleCallback/.test(t.type)) n++;
        }
        return n;
      }
      const now = nat.perf.now();
      for (const ms of pending.intervals.values()) if (ms <= 1000) n++;
      for (const due of pending.timeouts.values()) if (due >= now - 50 && due <= now + horizonMs) n++;
      if (pending.frameAt >= 0 && now - pending.frameAt < 100) n++;
      if (pending.idleAt >= 0 && now - pending.idleAt < horizonMs) n++;
    } catch (e) { return 1; }
    return n;
  }

  /** ms until the page's earliest pending timeout (of at least 0), or null when none is due within `horizonMs`. */
  function nextTimeoutIn(horizonMs) {
    let best = null;
    try {
      const c = window.__pwClock && window.__pwClock.controller;
      if (c && c._timers && c._now) {
        for (const t of c._timers.values()) if (t.type === 'Timeout') { const d = Math.max(0, t.callAt - c._now.ticks); if (d <= horizonMs && (best === null || d < best)) best = d; }
        return best;
      }
      const now = nat.perf.now();
      for (const due of pending.timeouts.values()) { const d = due - now; if (d >= -50 && d <= horizonMs) { const x = Math.max(0, d); if (best === null || x < best) best = x; } }
    } catch (e) { return null; }
    return best;
  }

  // ── canvas draw calls (a page that redraws on its own animates, whatever it draws) ──
  const draws = { n: 0 };
  try {
    for (const name of ['clearRect', 'fillRect', 'drawImage', 'fill', 'stroke', 'putImageData']) {
      const orig = CanvasRenderingContext2D.prototype[name];
      CanvasRenderingContext2D.prototype[name] = function () { draws.n++; return orig.apply(this, arguments); };
    }
    for (const P of [window.WebGLRenderingContext, window.WebGL2RenderingContext]) {
      if (!P) continue;
      for (const name of ['drawArrays', 'drawElements']) { const o = P.prototype[name]; P.prototype[name] = function () { draws.n++; return o.apply(this, arguments); }; }
    }
  } catch (e) { /* no canvas */ }

  // ── text drawn on canvases (fillText/strokeText): a reviewer reads it like any other text ──
  const drawn = new Map();
  try {
    for (const name of ['fillText', 'strokeText']) {
      const orig = CanvasRenderingContext2D.prototype[name];
      CanvasRenderingContext2D.prototype[name] = function (text, ...rest) {
        try {
          const t = String(text);
          if (t.trim() && drawn.size < 5000) drawn.set(t, (drawn.get(t) || 0) + 1);
        } catch (e) { /* ignore */ }
        return orig.call(this, text, ...rest);
      };
    }
  } catch (e) { /* no canvas */ }
  function canvasText() {
    return [...drawn.keys()].join(' ').replace(/\s+/g, ' ').slice(0, 4000);
  }

  const MAX_ELEMENTS = 6000;
  const INTERACTIVE = 'a[href],button,input:not([type=hidden]),select,textarea,summary,[role=button],[role=tab],' +
    '[role=link],[role=checkbox],[role=switch],[role=menuitem],[role=option],[role=radio],[role=slider],' +
    '[onclick],[contenteditable=""],[contenteditable=true],[tabindex]:not([tabindex="-1"])';

  function visible(el, cs) {
    cs = cs || gcs(el);
    return parseFloat(cs.opacity) !== 0 && rendered(el, cs);
  }
  /** Laid out with a box a user could see but for its opacity (a tooltip before it fades in, a cursor mid-blink). */
  function rendered(el, cs) {
    cs = cs || gcs(el);
    if (cs.display === 'none' || cs.visibility === 'hidden' || cs.visibility === 'collapse') return false;
    // the content of a closed <details> (all but its summary) is not rendered, though it may still report a box
    const closed = el.closest ? el.closest('details:not([open])') : null;
    if (closed && closed !== el) {
      const sum = closed.querySelector(':scope > summary');
      if (!sum || !sum.contains(el)) return false;
    }
    const r = rectOf(el);
    return r.width >= 2 && r.height >= 2;
  }
  function text(el, n) { return ((el.innerText || el.textContent || '') + '').replace(/\s+/g, ' ').trim().slice(0, n || 80); }
  function accName(el) {
    const a = el.getAttribute('aria-label'); if (a) return a.trim().slice(0, 80);
    const lb = el.getAttribute('aria-labelledby');
    if (lb) { const t = lb.split(/\s+/).map((id) => { const rn = el.getRootNode ? el.getRootNode() : document; const e = (rn && rn.getElementById ? rn : document).getElementById(id); return e ? text(e) : ''; }).join(' ').trim(); if (t) return t.slice(0, 80); }
    if (el.labels && el.labels.length) { const t = text(el.labels[0]); if (t) return t; }
    const t = text(el); if (t) return t;
    for (const k of ['value', 'placeholder', 'title', 'alt', 'name']) { const v = el.getAttribute(k); if (v) return v.trim().slice(0, 80); }
    const img = el.querySelector && el.querySelector('img[alt],svg title'); if (img) return (img.getAttribute('alt') || img.textContent || '').trim().slice(0, 80);
    return '';
  }
  function role(el) {
    const r = el.getAttribute('role'); if (r) return r;
    const tag = el.tagName.toLowerCase();
    if (tag === 'a') return 'link';
    if (tag === 'button' || tag === 'summary') return 'button';
    if (tag === 'select') return 'combobox';
    if (tag === 'textarea') return 'textbox';
    if (tag === 'input') {
      const t = (el.type || 'text').toLowerCase();
      if (['button', 'submit', 'reset', 'image'].includes(t)) return 'button';
      if (t === 'checkbox') return 'checkbox';
      if (t === 'radio') return 'radio';
      if (t === 'range') return 'slider';
      return 'textbox';
    }
    if (el.isContentEditable) return 'textbox';
    return 'clickable';
  }
  // classes that say what state an element is in, not what it is: a tip button that becomes "active" when clicked
  // is the same button (its group and signature must not change, or the explorer takes it for a new control and
  // clicks it again: a new user's trial on 2026-12-07)
  const STATE_CLASS = /^(?:active|selected|current|open|opened|show|shown|visible|hidden|hide|disabled|enabled|checked|focus|focused|hover|hovered|pressed|on|off|expanded|collapsed|done|completed?|correct|wrong|incorrect|invalid|valid|success|playing|paused|running|loading|loaded|flipped|matched|revealed|highlighted?|chosen|picked|toggled|(?:is|has)-[\w-]+)$/i;
  function classKey(el) {
    const c = (typeof el.className === 'string' ? el.className : (el.getAttribute('class') || '')).split(/\s+/).filter((k) => k && !STATE_CLASS.test(k)).sort().slice(0, 3).join('.');
    return el.tagName.toLowerCase() + (c ? '.' + c : '');
  }
  function cssPath(el) {
    if (el.id) return '#' + CSS.escape(el.id);
    const parts = [];
    for (let e = el; e && e.nodeType === 1 && parts.length < 4; e = e.parentElement) {
      if (e.id) { parts.unshift('#' + CSS.escape(e.id)); break; }
      const p = e.parentElement;
      const idx = p ? Array.prototype.indexOf.call(p.children, e) + 1 : 1;
      parts.unshift(e.tagName.toLowerCase() + ':nth-child(' + idx + ')');
    }
    return parts.join(' > ');
  }
  function hasPointerCursor(el) {
    const cs = gcs(el);
    if (cs.cursor !== 'pointer') return false;
    const p = el.parentElement;
    return !p || gcs(p).cursor !== 'pointer';
  }

  // an item's kind: its tag and first class (state classes such as "done" or "active" come after it)
  function itemKey(el) {
    const c = (typeof el.className === 'string' ? el.className : (el.getAttribute('class') || '')).split(/\s+/).filter(Boolean)[0];
    return el.tagName.toLowerCase() + (c ? '.' + c : '');
  }
  function repeatedChildren(el) {
    const counts = new Map();
    for (const k of el.children) { const ck = itemKey(k); counts.set(ck, (counts.get(ck) || 0) + 1); }
    let key = null, n = 0;
    for (const [k, c] of counts) if (c > n) { key = k; n = c; }
    return n >= 2 ? [...el.children].filter((k) => itemKey(k) === key).slice(0, 60) : [];
  }
  function isDelegatingContainer(el) {
    if (/^(UL|OL|TBODY|TABLE|SECTION|FORM|MAIN|NAV|ARTICLE|DL)$/.test(el.tagName) && el.childElementCount > 0) return true;
    return repeatedChildren(el).length >= 3 && !!text(el, 2);
  }

  function interactiveElements() {
    const roots = shadowRoots();
    const set = new Set(qsaDeep(INTERACTIVE, roots));
    // custom clickables: pointer cursor (topmost) or a click listener registered on the element
    const all = allElements(roots);
    for (let i = 0; i < all.length && i < MAX_ELEMENTS; i++) {
      const el = all[i];
      if (set.has(el) || el.closest('a[href],button')) continue;
      const ls = state.listeners.get(el);
      if ((ls && (ls.has('click') || ls.has('mousedown') || ls.has('pointerdown'))) || hasPointerCursor(el)) {
        // a container covering most of the screen (React's root, an app shell) listens on behalf of its
        // children (event delegation): it is not a control
        const r = rectOf(el);
        if (r.width * r.height > 0.4 * innerWidth * innerHeight && el.childElementCount > 0) continue;
        // a modal dialog listens for clicks on its backdrop (to close): its box is content, not a control
        if ((el.tagName === 'DIALOG' || /^(dialog|alertdialog)$/.test(el.getAttribute('role') || '')) && el.childElementCount > 0) continue;
        // a list body, table or section that listens for its items (delegation) is not a control: its
        // repeated children are what a user clicks
        if (isDelegatingContainer(el)) {
          for (const k of repeatedChildren(el)) if (!k.closest('a[href],button') && text(k, 2)) set.add(k);
          continue;
        }
        set.add(el);
      }
    }
    return [...set];
  }

  function scan() {
    state.refs = [];
    state.scopePaths = [];
    const vw = innerWidth, vh = innerHeight;
    const out = [];
    const forms = [...document.forms];
    for (const el of interactiveElements()) {
      if (out.length >= 400) break;
      const cs = gcs(el);
      if (!visible(el, cs)) continue;
      const r = rectOf(el);
      const name = accName(el);
      const rl = role(el);
      const parent = el.parentElement ? classKey(el.parentElement) : '';
      const group = rl + '|' + classKey(el) + '|' + parent;
      const ref = state.refs.push(el) - 1;
      const form = el.form ? forms.indexOf(el.form) : (el.closest('form') ? forms.indexOf(el.closest('form')) : -1);
      out.push({
        ref, tag: el.tagName.toLowerCase(), role: rl, name,
        type: el.type ? String(el.type).toLowerCase() : undefined,
        href: el.getAttribute('href') || undefined,
        box: { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) },
        inViewport: r.bottom > 0 && r.right > 0 && r.top < vh && r.left < vw,
        disabled: !!(el.disabled || el.getAttribute('aria-disabled') === 'true'),
        group, signature: group + '|' + name + '|' + (el.id || ''),
        form: form >= 0 ? form : undefined,
        handlers: [...(state.listeners.get(el) || [])].concat(inlineHandler(el, 'click') ? ['onclick'] : []),
        chart: el.tagName === 'CANVAS' ? chartOf(el) : undefined,
        item: itemOf(el) || undefined,
        numericOnly: rl === 'textbox' ? numericOnly(el) : undefined,
        options: el.tagName === 'SELECT' ? [...el.options].slice(0, 12).map((o) => o.text.trim().slice(0, 40)) : undefined,
      });
    }
    return out;
  }

  /**
   * Whether `el` has an inline `on<type>` handler, as an attribute or set as a property. The attribute is
   * checked first and the property read only without one: reading `el.onclick` compiles the attribute's
   * code, and a syntax error in it would then be thrown from this probe (recorded as the harness's error)
   * instead of when a user clicks (the app's error, as a human would meet it).
   */
  function inlineHandler(el, type) {
    return el.hasAttribute('on' + type) || typeof el['on' + type] === 'function';
  }

  /** The chart library that draws into a canvas (Chart.js marks its canvases with `$chartjs`; ECharts its container with `_echarts_instance_`), else undefined. */
  function chartOf(el) {
    try {
      if (el.$chartjs !== undefined) return 'Chart.js';
      if (el.closest('[_echarts_instance_]')) return 'ECharts';
    } catch (e) {
      /* a page that broke the DOM API */
    }
    return undefined;
  }

  /** Does a text field declare a digits-only rule (inputmode, pattern, name)? */
  function numericOnly(el) {
    const im = (el.getAttribute('inputmode') || '').toLowerCase();
    const pat = el.getAttribute('pattern') || '';
    const hint = ((el.name || '') + ' ' + (el.id || '') + ' ' + (el.getAttribute('placeholder') || '') + ' ' + (el.getAttribute('autocomplete') || '')).toLowerCase();
    return im === 'numeric' || /^\^?(\\d|\[0-9)/.test(pat) || /cc-number|card|cvv|cvc|zip|postal|kartennummer|tarjeta|carte|卡号/.test(hint);
  }

  /**
   * Whether an element is (inside) a passing notice: a live status message (role status, alert or log,
   * aria-live, <output>) or an element named toast, snackbar or notification, within three levels up.
   */
  function isNotice(el) {
    if (el.closest('[role=status],[role=alert],[role=log],[aria-live=polite],[aria-live=assertive],output')) return true;
    for (let e = el, i = 0; e && e !== document.body && i < 4; e = e.parentElement, i++) {
      const name = (e.id || '') + ' ' + (typeof e.className === 'string' ? e.className : (e.getAttribute('class') || ''));
      if (/toast|snack|notif/i.test(name)) return true;
    }
    return false;
  }
  function box(ref) {
    const el = state.refs[ref];
    if (!el || !el.isConnected) return null;
    const r = rectOf(el);
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  }
  function reveal(ref) {
    const el = state.refs[ref];
    if (!el || !el.isConnected) return null;
    const r0 = rectOf(el);
    if (r0.top < 0 || r0.bottom > innerHeight || r0.left < 0 || r0.right > innerWidth) el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    const r = rectOf(el);
    const cx = Math.min(Math.max(r.x + r.width / 2, 1), innerWidth - 1), cy = Math.min(Math.max(r.y + r.height / 2, 1), innerHeight - 1);
    const top = deepElementFromPoint(cx, cy);
    const covered = !!top && top !== el && !composedContains(el, top) && !composedContains(top, el) && !(el.labels && [...el.labels].some((l) => l === top || l.contains(top)));
    let cover = null;
    if (covered) {
      const tr = rectOf(top);
      cover = { selector: cssPath(top), tag: top.tagName.toLowerCase(),
        dialog: !!top.closest('dialog,[role=dialog],[role=alertdialog],[aria-modal=true]'),
        interactive: !!(top.matches(INTERACTIVE) || top.querySelector('button,a[href],input,select,textarea,[role=button]') || top.closest('button,a[href],label')),
        text: text(top, 60), areaShare: Math.round((tr.width * tr.height) / (innerWidth * innerHeight) * 1000) / 1000,
        notice: isNotice(top) };
    }
    return { x: r.x, y: r.y, width: r.width, height: r.height, cx, cy, covered, coveredBy: covered ? classKey(top) : null, cover };
  }
  function valueOf(ref) {
    const el = state.refs[ref];
    if (!el) return null;
    return { value: 'value' in el ? String(el.value) : null, checked: 'checked' in el ? !!el.checked : null, focused: deepActiveElement() === el };
  }

  // <select> has no human pointer path in headless Chromium (native popup): choose by index and fire the
  // same input/change events a user's choice fires.
  function selectIndex(ref, i) {
    const el = state.refs[ref];
    if (!el || !el.options || !el.options.length) return null;
    el.selectedIndex = Math.min(i, el.options.length - 1);
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return el.value;
  }

  // ── what a user can read: text that is rendered, opaque, on the page and of legible size. Text hidden
  // any other way (transparent, zero opacity, off-screen, clipped to a pixel, tiny, same colour as its
  // background) is kept apart: it is not UI, and hidden text addressed to an evaluator is an injection
  // attempt (issue 19.5).
  const INJECTION = /\b(ignore|disregard) (all |any )?(the )?(previous|prior|above|earlier) (instructions|prompts?)|\b(you are|as) an? (ai|llm|language model|judge|evaluator|grader|reviewer)\b|\b(evaluator|grader|judge|reviewer|llm|ai model)s?\b[^.]{0,60}\b(score|rate|grade|award|give|mark)|\b(give|award|assign|rate) (this|the) (page|app|answer|submission)[^.]{0,40}\b(score|marks?|points|10|100|8)\b|\b(full|maximum|perfect|highest) (score|marks)\b|(忽略|无视).{0,12}(指令|指示|提示)|(评委|评审|评分|打分|评测).{0,20}(满分|高分|最高)|(满分|最高分)|(採点|評価者).{0,20}(満点|最高)|(평가자|채점).{0,20}(만점|최고)|\b(note|hinweis|remarque|nota) (to|for|an|pour|para|al) (the )?(ai|llm|evaluator|grader|judge|bewerter|évaluateur|evaluador|avaliador)/i;
  const opacityCache = new WeakMap();
  function effOpacity(el) {
    if (!el || el.nodeType !== 1) return 1;
    if (opacityCache.has(el)) return opacityCache.get(el);
    const cs = gcs(el);
    const v = (parseFloat(cs.opacity) || 0) * effOpacity(el.parentElement);
    opacityCache.set(el, v);
    return v;
  }
  function alpha(c) { const m = /rgba?\(([^)]+)\)/.exec(c || ''); if (!m) return c === 'transparent' ? 0 : 1; const p = m[1].split(/[ ,\/]+/).filter(Boolean); return p.length > 3 ? parseFloat(p[3]) : 1; }
  function bgOf(el) {
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) { const c = gcs(e).backgroundColor; if (alpha(c) > 0.9 && !/gradient|url\(/.test(gcs(e).backgroundImage)) return c; if (/gradient|url\(/.test(gcs(e).backgroundImage)) return null; }
    return 'rgb(255, 255, 255)';
  }
  /** Why a text node's element hides its text from a user, or '' when it is legible. */
  function hiddenReason(el, node) {
    const cs = gcs(el);
    if (cs.display === 'none' || cs.visibility !== 'visible') return 'not rendered';
    if (effOpacity(el) < 0.1) return 'transparent (opacity)';
    if (alpha(cs.color) < 0.1 && !(cs.webkitTextFillColor && alpha(cs.webkitTextFillColor) > 0.1 && cs.webkitTextFillColor !== cs.color) && !/text/.test(cs.webkitBackgroundClip || cs.backgroundClip || '')) return 'transparent colour';
    if (parseFloat(cs.fontSize) < 6) return 'too small to read (' + cs.fontSize + ')';
    for (let e = el, i = 0; e && e.nodeType === 1 && i < 6; e = e.parentElement, i++) {
      const c = gcs(e);
      const r = rectOf(e);
      if (/(hidden|clip)/.test(c.overflowX + c.overflowY) && (r.width < 3 || r.height < 3)) return 'clipped to a few pixels';
      if (/rect\(0(px)?,? 0(px)?,? 0(px)?,? 0(px)?\)/.test(c.clip) || /inset\((50|100)%\)/.test(c.clipPath)) return 'clipped away';
    }
    let tr = null;
    try { const range = nat.createRange.call(document); range.selectNodeContents(node); tr = nat.textRect.call(range); } catch (e) { /* ignore */ }
    if (tr) {
      const W = Math.max(document.documentElement.scrollWidth, innerWidth), H = Math.max(document.documentElement.scrollHeight, innerHeight);
      if (tr.width < 2 || tr.height < 2) return 'no visible size';
      if (tr.right + scrollX <= 0 || tr.bottom + scrollY <= 0 || tr.left + scrollX >= W || tr.top + scrollY >= H) return 'off-screen';
    }
    const bg = bgOf(el);
    if (bg && bg.replace(/\s/g, '') === cs.color.replace(/\s/g, '')) return 'same colour as its background';
    return '';
  }
  function textParts() {
    const b = document.body;
    const out = { visible: [], hidden: [], reasons: {} };
    if (!b) return out;
    const skip = /^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE|TITLE)$/i;
    let n = 0, lastParent = null, line = [];
    const flush = () => { if (line.length) out.visible.push(line.join(' ')); line = []; };
    // the body's text, then what each shadow root renders (a web component's text is the page's text)
    for (const top of [b, ...shadowRoots()]) {
    const walker = document.createTreeWalker(top, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node && n < 8000; node = walker.nextNode()) {
      n++;
      const t = node.data.replace(/\s+/g, ' ').trim();
      if (!t) continue;
      const el = node.parentElement;
      if (!el || skip.test(el.tagName)) continue;
      let why;
      try { why = hiddenReason(el, node); } catch (e) { why = ''; }
      if (why === 'not rendered') continue;
      if (why) { out.hidden.push(t); out.reasons[why] = (out.reasons[why] || 0) + 1; continue; }
      const block = el.closest('p,li,h1,h2,h3,h4,h5,h6,button,a,label,td,th,div,section,span') || el;
      if (block !== lastParent) { flush(); lastParent = block; }
      line.push(t);
    }
    flush();
    }
    return out;
  }
  /** The visible text, one line per block (`parts`: a walk already made by {@link textParts}). */
  function visibleText(parts) {
    return (parts || textParts()).visible.join('\n').replace(/[ \t\f\v]+/g, ' ').trim();
  }
  /** The hidden text, why it is hidden, and an injection attempt in it (`parts` as in visibleText). */
  function hiddenText(parts) {
    const p = parts || textParts();
    const all = p.hidden.join('\n');
    const m = INJECTION.exec(all);
    let injection = null;
    if (m) {
      const hit = p.hidden.find((h) => INJECTION.test(h)) || m[0];
      injection = { text: hit.slice(0, 300), matched: m[0].slice(0, 80) };
    }
    return { sample: all.slice(0, 2000), length: all.replace(/\s/g, '').length, reasons: p.reasons, injection };
  }

  /** Built-ins the probe relies on that the page replaced so that they answer differently (sabotage). */
  function tampered() {
    const out = [];
    try {
      if (window.getComputedStyle !== nat.gcs) {
        const b = document.body || document.documentElement;
        const a = window.getComputedStyle(b);
        if (!a || a.display !== gcs(b).display || a.visibility !== gcs(b).visibility) out.push('getComputedStyle');
      }
    } catch (e) { out.push('getComputedStyle'); }
    try {
      if (Element.prototype.getBoundingClientRect !== nat.rect) {
        const b = document.body || document.documentElement;
        const a = b.getBoundingClientRect();
        if (!a || Math.round(a.width) !== Math.round(rectOf(b).width)) out.push('getBoundingClientRect');
      }
    } catch (e) { out.push('getBoundingClientRect'); }
    try {
      if (EventTarget.prototype.addEventListener !== wrappedAdd) {
        const d = document.createElement('div');
        d.addEventListener('cookieprobe', () => {});
        const s = state.listeners.get(d);
        if (!s || !s.has('cookieprobe')) out.push('addEventListener');
      }
    } catch (e) { out.push('addEventListener'); }
    try {
      if (window.requestAnimationFrame !== nat.raf && window.requestAnimationFrame !== nat.wrappedRaf && !/\[native code\]/.test(Function.prototype.toString.call(window.requestAnimationFrame))) {
        // a replaced frame clock: the page's own animation runs on it, the probe's counter does not
        let called = false;
        const id = window.requestAnimationFrame(() => { called = true; });
        if (id === undefined || id === null) out.push('requestAnimationFrame');
        void called;
      }
    } catch (e) { out.push('requestAnimationFrame'); }
    try { if (typeof document.querySelectorAll('*').length !== 'number') out.push('querySelectorAll'); } catch (e) { out.push('querySelectorAll'); }
    return out;
  }

  function styleSignals() {
    const fonts = new Set(), colors = new Set(), bgs = new Set(), sizes = new Set();
    let rounded = 0, shadowed = 0, gradients = 0, transitions = 0, animated = 0, n = 0;
    // the page's own background is styling too: a gradient on <body> (a common LLM pattern) counts like one on a wrapper <div>
    const all = [document.documentElement, document.body].filter(Boolean).concat(allElements());
    for (let i = 0; i < all.length && n < 3000; i++) {
      const el = all[i];
      const cs = gcs(el);
      if (!visible(el, cs)) {
        // a transparent element with a box is a fade's start (a tooltip, a toast) or a blink's off phase: the
        // transition or animation it carries is seen when it shows (counted whatever the phase at this moment)
        if (parseFloat(cs.opacity) === 0 && rendered(el, cs)) {
          if (cs.transitionDuration.split(',').some((d) => parseFloat(d) > 0)) transitions++;
          if (cs.animationName !== 'none') animated++;
        }
        continue;
      }
      n++;
      fonts.add(cs.fontFamily.split(',')[0].replace(/["']/g, '').trim());
      if (el.childNodes.length && [...el.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim())) { colors.add(cs.color); sizes.add(Math.round(parseFloat(cs.fontSize))); }
      if (cs.backgroundColor !== 'rgba(0, 0, 0, 0)' && cs.backgroundColor !== 'transparent') bgs.add(cs.backgroundColor);
      if (parseFloat(cs.borderTopLeftRadius) > 0) rounded++;
      if (cs.boxShadow !== 'none') shadowed++;
      if (/gradient\(/.test(cs.backgroundImage)) gradients++;
      if (cs.transitionDuration.split(',').some((d) => parseFloat(d) > 0)) transitions++;
      if (cs.animationName !== 'none') animated++;
    }
    const bodyFont = document.body ? gcs(document.body).fontFamily : '';
    return {
      fontFamilies: [...fonts].slice(0, 12),
      defaultFont: /^\s*"?(Times New Roman|Times|serif)"?\s*$/i.test(bodyFont),
      distinctColors: colors.size, distinctBackgrounds: bgs.size,
      roundedElements: rounded, shadowedElements: shadowed, gradientElements: gradients,
      transitionElements: transitions, animatedElements: animated,
      fontSizes: [...sizes].filter((s) => s > 0).sort((a, b) => a - b), elementCount: n,
    };
  }

  const GARBLED = /\uFFFD|Ã[\u0080-\u00BF©¨§¤ª«®]|â€[™œ\u009d“”¦]|\[object Object\]|\bundefined\b|\bNaN\b|\{\{[^}]*\}\}|\$\{[^}]*\}|&(?:amp|lt|gt|nbsp|quot);/;
  // an overlap a user sees needs both texts painted there: a flip card's back face (backface-visibility),
  // a transparent or faint decorative layer, text under an intentional overlay (dialog, consent banner, start screen, toast)
  // or text off-screen is not "overlapping text" (issues 11 and 18)
  function overlayOf(el) {
    for (let e = el; e && e.nodeType === 1 && e !== document.body; e = e.parentElement) {
      const c = gcs(e);
      const r = e.getAttribute('role');
      if (e.tagName === 'DIALOG' || r === 'dialog' || r === 'alertdialog' || r === 'alert' || r === 'status' || e.getAttribute('aria-modal') === 'true') return e;
      if (c.position === 'fixed' || c.position === 'sticky') return e;
      if (c.position === 'absolute' && (parseInt(c.zIndex, 10) || 0) >= 10) return e;
    }
    return null;
  }
  function backHidden(el) {
    for (let e = el, i = 0; e && e.nodeType === 1 && i < 8; e = e.parentElement, i++) if (gcs(e).backfaceVisibility === 'hidden') return true;
    return false;
  }
  // a faint or aria-hidden, click-through layer is a decorative backdrop (a watermark terminal at 17 %
  // opacity behind a hero title): the text in front stays legible, a careful reader sees no overlap
  function decorative(el) {
    if (effOpacity(el) < 0.35) return true;
    for (let e = el; e && e.nodeType === 1 && e !== document.body; e = e.parentElement) if (e.getAttribute('aria-hidden') === 'true' && gcs(e).pointerEvents === 'none') return true;
    return false;
  }
  function bothSeen(a, b, x, y) {
    if (decorative(a.el) || decorative(b.el)) return false;
    if (backHidden(a.el) || backHidden(b.el)) return false;
    const oa = overlayOf(a.el), ob = overlayOf(b.el);
    if (oa !== ob) return false;
    if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return true;
    const top = deepElementFromPoint(x, y);
    if (!top) return false;
    return composedContains(a.el, top) || composedContains(b.el, top) || composedContains(top, a.el) || composedContains(top, b.el);
  }
  // text that names JavaScript's values rather than shows a broken one: inside code (a <span> of highlighted
  // code in <pre>), or a control whose whole label is the word (a quiz answer "NaN", a button "undefined")
  function mentionsToken(el, own) {
    if (el.closest('code, pre, kbd, samp, var')) return true;
    const bare = /^(?:NaN|undefined|null)$/.test(own.replace(/[\s"'`“”‘’]/g, ''));
    return bare && !!el.closest('button, a, label, option, summary, [role="button"], [role="radio"], [role="option"], [role="tab"]');
  }
  // where an element's own text is painted (the union of its text nodes' boxes), not its whole box: a heading
  // spanning a card beside a floated ♥ button, or a piano key's letter under a black key's box, touch nothing
  function ownTextRect(el) {
    let u = null;
    try {
      for (const c of el.childNodes) {
        if (c.nodeType !== 3 || !c.textContent.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(c);
        for (const q of range.getClientRects()) {
          if (q.width <= 0 || q.height <= 0) continue;
          u = u ? { left: Math.min(u.left, q.left), top: Math.min(u.top, q.top), right: Math.max(u.right, q.right), bottom: Math.max(u.bottom, q.bottom) } : { left: q.left, top: q.top, right: q.right, bottom: q.bottom };
        }
      }
    } catch (e) { return null; }
    if (!u) return null;
    // within the element's own box: a glyph box of a big, tightly led heading reaches above its line box, into
    // the line above, where nothing is painted over anything
    const b = rectOf(el);
    const left = Math.max(u.left, b.left), right = Math.min(u.right, b.right), top = Math.max(u.top, b.top), bottom = Math.min(u.bottom, b.bottom);
    if (right <= left || bottom <= top) return null;
    return { left, top, right, bottom, width: right - left, height: bottom - top };
  }
  // the ancestors that may clip a box, nearest first, each with its computed style, up to (not including) \`stop\`:
  // an absolute box escapes the clipping of ancestors up to its containing block, a fixed one all of them.
  // \`visit(e, c, clips)\` (clips: false for an ancestor the box escapes) returns false to stop the walk
  function eachAncestor(el, stop, visit) {
    let pos = gcs(el).position;
    for (let e = el.parentElement, i = 0; e && e !== document.documentElement && e !== stop && i < 40; e = e.parentElement, i++) {
      if (pos === 'fixed') return;
      const c = gcs(e);
      const clips = !(pos === 'absolute' && c.position === 'static' && c.transform === 'none');
      if (visit(e, c, clips) === false) return;
      if (clips) pos = c.position !== 'static' ? c.position : c.transform !== 'none' ? 'relative' : pos;
    }
  }
  // the part of a box its ancestors let be painted: an ancestor whose overflow is not visible clips it (a closed
  // accordion's answer inside \`max-height: 0; overflow: hidden\` paints nothing, though its box lies over the next
  // question). An absolutely placed box escapes the clipping of ancestors up to its containing block, a fixed one all
  // of it. Null when nothing is left.
  function clippedRect(el, r) {
    const box = { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    let gone = false;
    eachAncestor(el, null, (e, c, clips) => {
      if (!clips) return true;
      const b = rectOf(e);
      if (c.overflowX !== 'visible') { box.left = Math.max(box.left, b.left); box.right = Math.min(box.right, b.right); }
      if (c.overflowY !== 'visible') { box.top = Math.max(box.top, b.top); box.bottom = Math.min(box.bottom, b.bottom); }
      gone = box.right - box.left < 1 || box.bottom - box.top < 1;
      return !gone;
    });
    return gone ? null : { ...box, width: box.right - box.left, height: box.bottom - box.top };
  }
  // how much of a text's box the ancestors that hide their overflow cut off sideways, px: only ancestors a user
  // cannot scroll (overflow-x hidden or clip; the viewport's own, <html> and <body>, is the page's overflow,
  // measured apart). 0 when something between them moves its content by a transform (a carousel's track, a
  // ticker: its slides are meant to be cut) or the clipping box was scrolled by script (a slider), and for text
  // a user is not meant to read (aria-hidden, faint): a page's KPI cards cut by \`overflow-x: hidden\` at 375 px
  // are, a giant decorative word cropped by its section is not
  function cutSideways(el, r) {
    if (el.closest('[aria-hidden="true"]') || effOpacity(el) < 0.35) return 0;
    let left = r.left, right = r.right;
    let moved = gcs(el).transform !== 'none';
    let designed = false;
    eachAncestor(el, document.body, (e, c, clips) => {
      if (clips && c.overflowX !== 'visible') {
        // a box a user can scroll, or whose content a transform or a script moved: cut by design
        if (!/(hidden|clip)/.test(c.overflowX) || moved || e.scrollLeft > 0) {
          designed = true;
          return false;
        }
        const b = rectOf(e);
        left = Math.max(left, b.left);
        right = Math.min(right, b.right);
      }
      if (c.transform !== 'none') moved = true;
      return true;
    });
    return designed || right <= left ? 0 : Math.max(0, r.width - (right - left));
  }
  function textProblems() {
    const out = [];
    const leaves = [];
    const all = allElements();
    for (let i = 0; i < all.length && i < MAX_ELEMENTS; i++) {
      const el = all[i];
      if (['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEXTAREA', 'INPUT', 'CODE', 'PRE', 'SVG'].includes(el.tagName.toUpperCase())) continue;
      const own = [...el.childNodes].filter((c) => c.nodeType === 3).map((c) => c.textContent).join('').trim();
      if (!own) continue;
      const cs = gcs(el);
      if (!visible(el, cs)) continue;
      // text its ancestors clip away entirely is painted nowhere: it overlaps nothing
      const tr = ownTextRect(el) || rectOf(el);
      const painted = clippedRect(el, tr);
      if (painted) leaves.push({ el, r: painted, own });
      // partly cut off sideways by a box that hides its overflow (a whole character or more); text cut away
      // entirely is a slide or a panel out of view, not text cut off
      if (painted && el.childElementCount === 0 && out.length < 30) {
        const cut = cutSideways(el, tr);
        if (cut >= 12 && cut >= 0.1 * tr.width) out.push({ kind: 'cut', selector: cssPath(el), text: own.slice(0, 80) });
      }
      if (GARBLED.test(own) && !mentionsToken(el, own) && out.length < 30) out.push({ kind: 'garbled', selector: cssPath(el), text: own.slice(0, 80) });
      const clipsX = /(hidden|clip)/.test(cs.overflowX) && el.scrollWidth > el.clientWidth + 2 && cs.textOverflow !== 'ellipsis';
      const clipsY = /(hidden|clip)/.test(cs.overflowY) && el.scrollHeight > el.clientHeight + 4 && !cs.webkitLineClamp;
      if ((clipsX || clipsY) && el.childElementCount === 0 && out.length < 30) out.push({ kind: 'clipped', selector: cssPath(el), text: own.slice(0, 80) });
    }
    let overlaps = 0;
    for (let i = 0; i < leaves.length && i < 400; i++) {
      for (let j = i + 1; j < leaves.length && j < 400; j++) {
        const a = leaves[i], b = leaves[j];
        if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
        const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
        const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
        if (w <= 0 || h <= 0) continue;
        const small = Math.min(a.r.width * a.r.height, b.r.width * b.r.height);
        if (small > 0 && (w * h) / small > 0.4 && overlaps < 10 && bothSeen(a, b, Math.max(a.r.left, b.r.left) + w / 2, Math.max(a.r.top, b.r.top) + h / 2)) {
          overlaps++;
          out.push({ kind: 'overlap', selector: cssPath(a.el) + ' ⟷ ' + cssPath(b.el), text: (a.own + ' / ' + b.own).slice(0, 80) });
        }
      }
    }
    return out;
  }

  function inventory() {
    const vw = innerWidth, vh = innerHeight, area = vw * vh;
    const parts = textParts(); // one walk of the text nodes for the visible and the hidden text
    const txt = visibleText(parts);
    const roots = shadowRoots();
    const images = qsaDeep('img', roots).slice(0, 200).map((img) => {
      const r = rectOf(img);
      const cs = gcs(img);
      const natural = img.naturalWidth && img.naturalHeight ? img.naturalWidth / img.naturalHeight : 0;
      const rendered = r.width && r.height ? r.width / r.height : 0;
      const fit = cs.objectFit;
      const distortion = !natural || !rendered || (fit && fit !== 'fill') ? 1 : rendered / natural;
      return {
        src: (img.currentSrc || img.src || '').slice(0, 300), loaded: img.complete && img.naturalWidth > 0,
        naturalWidth: img.naturalWidth, naturalHeight: img.naturalHeight, width: Math.round(r.width), height: Math.round(r.height),
        distortion: Math.round(distortion * 100) / 100, areaShare: Math.round(((r.width * r.height) / area) * 1000) / 1000,
        visible: visible(img, cs),
      };
    }).filter((i) => i.visible || !i.loaded);
    const canvases = qsaDeep('canvas', roots).filter((c) => visible(c)).map((c) => {
      const r = rectOf(c);
      return { width: Math.round(r.width), height: Math.round(r.height), areaShare: Math.round((Math.min(r.width * r.height, area) / area) * 1000) / 1000 };
    });
    const listened = new Set(state.globalEvents);
    for (const t of ['keydown', 'keyup', 'keypress', 'mousemove', 'click', 'touchstart']) {
      if (window['on' + t] || document['on' + t] || (document.body && inlineHandler(document.body, t))) listened.add(t);
    }
    return {
      title: document.title || '',
      htmlLang: document.documentElement.getAttribute('lang') || '',
      visibleTextLength: txt.replace(/\s/g, '').length,
      textSample: txt.slice(0, 4000),
      headings: qsaDeep('h1,h2,h3,h4,h5,h6', roots).filter((h) => visible(h)).slice(0, 40)
        .map((h) => ({ level: +h.tagName[1], text: text(h, 100) })),
      interactive: scan(),
      images, canvases,
      svgCount: qsaDeep('svg', roots).filter((s) => visible(s)).length,
      videoCount: qsaDeep('video', roots).length,
      audioCount: qsaDeep('audio', roots).length,
      formCount: document.forms.length,
      listenedEvents: [...listened].sort(),
      style: styleSignals(),
      textProblems: textProblems(),
      layout: layoutMetrics(),
      canvasText: canvasText(),
      hiddenText: hiddenText(parts),
      tampered: tampered(),
      scrollHeight: Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0),
    };
  }

  function overflow() {
    const vw = document.documentElement.clientWidth || innerWidth;
    // a page that cannot scroll sideways (overflow-x hidden/clip on the root or body) loses the user nothing
    const clipsX = (e) => !!e && /(hidden|clip)/.test(gcs(e).overflowX);
    const noSideScroll = clipsX(document.documentElement) || (clipsX(document.body) && !clipsX(document.documentElement) && gcs(document.documentElement).overflowX === 'visible');
    const sw = noSideScroll ? vw : Math.max(document.documentElement.scrollWidth, document.body ? document.body.scrollWidth : 0);
    const offenders = [];
    if (sw > vw + 1) {
      const all = allElements();
      for (let i = 0; i < all.length && i < MAX_ELEMENTS && offenders.length < 5; i++) {
        const el = all[i];
        const r = rectOf(el);
        if (r.right > vw + 1 && r.width > 0 && r.height > 0 && effOpacity(el) >= 0.1 && gcs(el).visibility === 'visible') {
          // report the outermost offender only
          const p = el.parentElement;
          if (p && rectOf(p).right > vw + 1 && p !== document.body) continue;
          offenders.push({ selector: cssPath(el), right: Math.round(r.right) });
        }
      }
    }
    const clipped = textProblems().filter((t) => t.kind === 'clipped' || t.kind === 'overlap' || t.kind === 'cut').length;
    return { overflowPx: Math.max(0, sw - vw), offenders, clippedText: clipped, visibleTextLength: visibleText().replace(/\s/g, '').length, canvases: qsaDeep('canvas').length, images: qsaDeep('img').length, svgs: qsaDeep('svg').length };
  }

  /** Alignment and spacing of visible content boxes (interface regularity, rubric item 8). */
  function layoutMetrics() {
    const boxes = [];
    const spacings = new Set();
    const all = allElements();
    for (let i = 0; i < all.length && boxes.length < 400 && i < MAX_ELEMENTS; i++) {
      const el = all[i];
      const tag = el.tagName;
      const leaf = ['IMG', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'CANVAS', 'SVG', 'VIDEO'].includes(tag.toUpperCase()) ||
        [...el.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim().length > 1);
      if (!leaf) continue;
      const cs = gcs(el);
      if (!visible(el, cs) || cs.display === 'inline') continue;
      const r = rectOf(el);
      if (r.width < 8 || r.height < 8 || r.right < 0 || r.left > innerWidth) continue;
      boxes.push({ left: Math.round(r.left), right: Math.round(r.right), top: Math.round(r.top), bottom: Math.round(r.bottom), width: Math.round(r.width) });
      for (const k of ['marginTop', 'marginBottom', 'paddingTop', 'paddingLeft', 'rowGap', 'columnGap']) {
        const v = Math.round(parseFloat(cs[k]) || 0);
        if (v > 0) spacings.add(v);
      }
    }
    const near = (a, b) => Math.abs(a - b) <= 2;
    let aligned = 0;
    // aligned on either axis: a column line (left, right, centre) or a row line (top, bottom, middle) shared
    // with another box — the cards of a three-column board share rows, not columns, and are a clean grid
    const lines = (o, b) => near(o.left, b.left) || near(o.right, b.right) || near(o.left + o.width / 2, b.left + b.width / 2) ||
      near(o.top, b.top) || near(o.bottom, b.bottom) || near((o.top + o.bottom) / 2, (b.top + b.bottom) / 2);
    for (const b of boxes) if (boxes.some((o) => o !== b && lines(o, b))) aligned++;
    return { boxes: boxes.length, alignedShare: boxes.length ? Math.round((aligned / boxes.length) * 1000) / 1000 : 1, spacingValues: [...spacings].sort((a, b) => a - b).slice(0, 40) };
  }

  // ── readings for invariant checks (typed evidence; the judge decides) ──
  const DONE_CLASS = /(^|[\s_-])(done|completed|complete|checked|finished|erledigt|terminad[oa]|termin[ée]e?|conclu[ií]d[oa])($|[\s_-])/i;
  function isDone(item) {
    if (item.querySelector('input[type=checkbox]:checked,[aria-checked=true]')) return true;
    const cands = [item, ...item.querySelectorAll('*')].slice(0, 12);
    for (const c of cands) {
      const cls = typeof c.className === 'string' ? c.className : '';
      if (DONE_CLASS.test(cls)) return true;
      if (c.childNodes.length && [...c.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()) && /line-through/.test(gcs(c).textDecorationLine)) return true;
    }
    return false;
  }
  /**
   * What a user reads in a collection item: the text of its fields (a sticky note's <textarea>, an editable
   * row's <input>) before its other text — innerText leaves field values out, and a note reading only "✕" was
   * called "added item does not show the typed value".
   */
  const TEXT_FIELD = /^(text|search|email|url|tel|number|)$/i;
  function itemText(k) {
    const t = text(k, 120);
    const fields = [...(k.matches('textarea,input') ? [k] : []), ...k.querySelectorAll('textarea,input')].slice(0, 6);
    const values = fields.filter((f) => (f.tagName === 'TEXTAREA' || TEXT_FIELD.test(f.getAttribute('type') || '')) && f.value && visible(f)).slice(0, 3).map((f) => String(f.value).replace(/\s+/g, ' ').trim()).filter(Boolean);
    return values.length ? `${values.join(' ')} ${t}`.trim().slice(0, 120) : t;
  }
  /** Containers of ≥ 2 visible children of one kind (tag + classes) with text: lists, tables, card grids. */
  // known: the collections read before the action, as { id, key } (a bare path: kind unknown). A list read
  // again is read by the kind of item it held before while any child is still of that kind: a search that
  // leaves one row beside a one-line toolbar lists that row, not the toolbar (a tie of one each)
  function collections(known) {
    const found = new Map();
    const add = (el, knownKey) => {
      if (!el || found.size >= 10) return;
      const path = cssPath(el);
      if (found.has(path)) return;
      const kids = [...el.children].filter((k) => visible(k));
      const counts = new Map();
      for (const k of kids) counts.set(itemKey(k), (counts.get(itemKey(k)) || 0) + 1);
      let key = null, n = 0;
      if (knownKey && counts.has(knownKey)) key = knownKey;
      else for (const [k, c] of counts) if (c > n) { key = k; n = c; }
      const items = kids.filter((k) => itemKey(k) === key).slice(0, 60).map((k) => ({ text: itemText(k), done: isDone(k) }));
      found.set(path, key ? { id: path, key, items } : { id: path, items });
    };
    for (const k of known || []) {
      const p = typeof k === 'string' ? k : k.id;
      try { const el = document.querySelector(p); if (el) add(el, typeof k === 'string' ? undefined : k.key); else found.set(p, { id: p, items: [], missing: true }); } catch (e) { /* bad path */ }
    }
    const all = allElements();
    const cands = [];
    for (let i = 0; i < all.length && i < MAX_ELEMENTS; i++) {
      const el = all[i];
      if (el.childElementCount < 2 || /^(SCRIPT|STYLE|SELECT|SVG|HEAD)$/i.test(el.tagName)) continue;
      const counts = new Map();
      for (const k of el.children) { const ck = itemKey(k); counts.set(ck, (counts.get(ck) || 0) + 1); }
      let best = 0; for (const c of counts.values()) best = Math.max(best, c);
      if (best < 2) continue;
      if (!visible(el) || !text(el, 4)) continue;
      cands.push({ el, best });
    }
    cands.sort((a, b) => b.best - a.best);
    for (const c of cands.slice(0, 10)) add(c.el);
    return [...found.values()];
  }
  /** Short visible texts holding a number (counters, totals, badges, displays), with the text around them. */
  function numbers() {
    const out = [];
    const all = allElements();
    for (let i = 0; i < all.length && i < MAX_ELEMENTS && out.length < 60; i++) {
      const el = all[i];
      if (/^(SCRIPT|STYLE|OPTION|SELECT|BUTTON)$/i.test(el.tagName)) continue;
      let own;
      if (el.tagName === 'INPUT' || el.tagName === 'OUTPUT') own = el.tagName === 'INPUT' ? (el.readOnly || el.disabled ? String(el.value) : '') : text(el, 60);
      else { if (el.childElementCount > 0 && [...el.children].some((c) => !/^(SPAN|B|STRONG|SMALL|SUP|SUB|EM|I)$/.test(c.tagName))) continue; own = text(el, 60); }
      if (!own || own.length > 40 || !/\d/.test(own)) continue;
      if (!visible(el)) continue;
      const p = el.parentElement;
      out.push({ id: cssPath(el), text: own, label: p ? text(p, 80) : '' });
    }
    return out;
  }
  /** Everything a user could read or set, as lines: visible text, field values (but the target's), title, hash. */
  function textState(ref) {
    const skip = ref === undefined || ref === null ? null : state.refs[ref];
    const lines = visibleText().split('\n').map((l) => l.trim()).filter(Boolean).slice(0, 400);
    const fields = qsaDeep('input,textarea,select').slice(0, 100);
    for (const f of fields) {
      if (f === skip || (skip && skip.contains && skip.contains(f))) continue;
      if (!visible(f)) continue;
      const v = f.type === 'checkbox' || f.type === 'radio' ? (f.checked ? 'on' : 'off') : String(f.value).slice(0, 80);
      lines.push('⟨' + (f.name || f.id || f.type || f.tagName) + '⟩ ' + v);
    }
    lines.push('⟨title⟩ ' + document.title, '⟨hash⟩ ' + location.hash);
    return lines;
  }
  /**
   * A drag-and-drop a careful tester would try (issue 11 point 3): the first visible element the page made
   * draggable (draggable=true, not a plain image or link) and a visible drop zone (an element with its own
   * drop or dragover listener) that does not hold it. Points are viewport px (centres); null when the page has
   * no such pair.
   */
  function dragPlan() {
    const all = allElements();
    let source = null;
    const zones = [];
    for (let i = 0; i < all.length && i < MAX_ELEMENTS; i++) {
      const el = all[i];
      const ls = state.listeners.get(el);
      if (!source && el.getAttribute('draggable') === 'true' && visible(el) && text(el, 2)) source = el;
      if ((ls && (ls.has('drop') || ls.has('dragover'))) || inlineHandler(el, 'drop')) if (visible(el)) zones.push(el);
    }
    if (!source) return null;
    const zone = zones.find((z) => !z.contains(source) && !source.contains(z));
    if (!zone) return null;
    const a = rectOf(source), b = rectOf(zone);
    const to = { x: Math.round(b.left + b.width / 2), y: Math.round(Math.min(b.bottom - 12, Math.max(b.top + 12, b.top + b.height / 2))) };
    if (to.x < 0 || to.y < 0 || to.x > innerWidth || to.y > innerHeight) return null;
    return { from: { x: Math.round(a.left + a.width / 2), y: Math.round(a.top + a.height / 2) }, to, text: text(source, 60), zone: cssPath(zone) };
  }
  /** What an agent that asks sees beyond the controls: the page's lists (each collection's path and its items' texts) and a drag plan. */
  function listsAndDrag() {
    return { lists: collections([]).map((c) => ({ id: c.id, items: c.items.map((i) => i.text) })), dragPlan: dragPlan() };
  }
  function readings(ref, known) {
    const el = ref === undefined || ref === null ? null : state.refs[ref];
    return {
      collections: collections(known), numbers: numbers(),
      field: el && 'value' in el ? { value: String(el.value).slice(0, 200), valid: el.checkValidity ? el.checkValidity() : null } : null,
      item: el ? itemOf(el) : null,
      scope: el ? scopeOf(el, ref) : null,
      text: visibleText().slice(0, 3000),
    };
  }
  /**
   * The text of the element's parent (a stepper's "− 1 +"), with the parent's path: read before an action
   * while the element is in the page, and after it from the same path when the page re-rendered the element
   * away (a cart rebuilt with innerHTML on every change).
   */
  function scopeOf(el, ref) {
    const paths = state.scopePaths;
    let p = el.isConnected ? el.parentElement : null;
    if (p) paths[ref] = cssPath(p);
    else if (paths[ref]) { try { p = document.querySelector(paths[ref]); } catch (e) { p = null; } }
    return p && paths[ref] ? { path: paths[ref], text: itemText(p).slice(0, 200) } : null;
  }
  /** The item of a collection an element belongs to: its container's path, its index among its kind, its text. */
  function itemOf(el) {
    for (let a = el, d = 0; a && a.parentElement && d < 8; a = a.parentElement, d++) {
      const p = a.parentElement;
      const key = itemKey(a);
      const same = [...p.children].filter((k) => itemKey(k) === key && visible(k));
      if (same.length >= 2 && a !== el) return { c: cssPath(p), i: same.indexOf(a), text: itemText(a) };
      if (same.length >= 2 && a === el && el.childElementCount > 0) return { c: cssPath(p), i: same.indexOf(a), text: itemText(a) };
    }
    return null;
  }
  function externalSince(n) { return external.slice(n); }
  /** Share of a 2D canvas's pixels that differ from its most common colour (ink); null when unreadable. */
  function canvasInk() {
    const cs = qsaDeep('canvas').filter((c) => visible(c));
    if (!cs.length) return null;
    const c = cs.sort((a, b) => b.clientWidth * b.clientHeight - a.clientWidth * a.clientHeight)[0];
    try {
      const ctx = c.getContext('2d');
      if (!ctx || !c.width || !c.height) return null;
      const d = ctx.getImageData(0, 0, c.width, c.height).data;
      const step = Math.max(1, Math.floor(d.length / 4 / 60000));
      const hist = new Map(); let n = 0;
      for (let i = 0; i < d.length; i += 4 * step) { const k = (d[i] >> 3) << 10 | (d[i + 1] >> 3) << 5 | (d[i + 2] >> 3) | (d[i + 3] < 16 ? 1 << 15 : 0); hist.set(k, (hist.get(k) || 0) + 1); n++; }
      let top = 0; for (const v of hist.values()) top = Math.max(top, v);
      return { ink: Math.round((1 - top / n) * 10000) / 10000, width: c.width, height: c.height, cssWidth: Math.round(c.clientWidth), cssHeight: Math.round(c.clientHeight) };
    } catch (e) { return null; }
  }
  /** Backing-store size of visible canvases against their CSS size × devicePixelRatio. */
  function canvasBacking() {
    return qsaDeep('canvas').filter((c) => visible(c)).slice(0, 10).map((c) => {
      const r = rectOf(c);
      return { width: c.width, height: c.height, cssWidth: Math.round(r.width), cssHeight: Math.round(r.height), dpr: devicePixelRatio,
        areaShare: Math.round((r.width * r.height) / (innerWidth * innerHeight) * 1000) / 1000 };
    });
  }
  /** Is there nothing for a clear/reset/delete control to act on: blank canvases, empty fields, zero counters, no selection. */
  function emptyState() {
    const ink = canvasInk();
    const fields = qsaDeep('input:not([type=checkbox]):not([type=radio]):not([type=range]):not([type=color]):not([type=button]):not([type=submit]),textarea').filter((f) => visible(f) && !f.readOnly);
    const nums = numbers().map((n) => n.text);
    return {
      canvasBlank: ink ? ink.ink < 0.002 : null,
      fieldsEmpty: fields.every((f) => !String(f.value).trim()),
      zeros: nums.length > 0 && nums.every((t) => !/[1-9]/.test(t)),
      selection: !!document.querySelector('[aria-selected=true]:not([role=tab]):not([role=option]),.selected,.is-selected'),
    };
  }
  /** Is the control already in the state it selects (the current tab, the active language or filter, a card already turned face up)? */
  function isActive(ref) {
    const el = state.refs[ref];
    if (!el) return false;
    if (el.matches('.active,.on,.selected,.is-active,.current,.is-selected,[aria-pressed=true],[aria-selected=true],[aria-current]:not([aria-current=false]),[aria-checked=true]')) return true;
    // a memory game's card that is face up or matched: clicking it again is ignored by design
    if (el.matches('.flipped,.is-flipped,.revealed,.is-revealed,.matched,.is-matched')) return true;
    return standsOut(el);
  }
  // a segmented control styled by utility classes (Tailwind's bg-indigo-600 on the current filter): the one
  // button of its row that looks different from all its siblings, which look alike, is the selected one
  function standsOut(el) {
    const parent = el.parentElement;
    if (!parent) return false;
    const kin = [...parent.children].filter((c) => c.tagName === el.tagName);
    if (kin.length < 3 || kin.length > 12) return false;
    const key = (c) => { const cs = gcs(c); return [cs.backgroundColor, cs.color, cs.fontWeight, cs.borderTopColor].join('|'); };
    const mine = key(el);
    const others = kin.filter((c) => c !== el).map(key);
    return others.every((k) => k === others[0]) && others[0] !== mine;
  }
  /** Put text into a field the way a paste or autofill does: a paste event, then an insert without key events. */
  /**
   * Set the value of a picker input (date, time, datetime-local, month, week, color, range) as its picker
   * would, with the input and change events a pick fires; null for any other element (typed into instead).
   * Typing "2026-03-15T14:30" key by key into a datetime-local's segments gives year "202603": Cookie's
   * garbled input, which the page would then be blamed for.
   */
  function fillPicker(ref, v) {
    const el = state.refs[ref];
    if (!el || el.tagName !== 'INPUT' || !/^(date|time|datetime-local|month|week|color|range)$/.test(el.type)) return null;
    const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
    set.call(el, v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return String(el.value);
  }
  function pasteInto(ref, t) {
    const el = state.refs[ref];
    if (!el) return null;
    el.focus();
    if (el.select) el.select();
    let dt = null;
    try { dt = new DataTransfer(); dt.setData('text/plain', t); } catch (e) { /* old engine */ }
    const ev = new ClipboardEvent('paste', { bubbles: true, cancelable: true, clipboardData: dt });
    const go = el.dispatchEvent(ev);
    if (go) document.execCommand('insertText', false, t);
    return 'value' in el ? String(el.value) : null;
  }

  // what can change the picture with no DOM change, draw call or animation the probe has counted yet: timers
  // due within `horizonMs` (see pendingTimers), canvases (drawn from a worker), videos, frames, SMIL,
  // marquees, images in formats that animate
  function motionSources(horizonMs) {
    try {
      const roots = shadowRoots();
      let n = pendingTimers(typeof horizonMs === 'number' ? horizonMs : 600) + qsaDeep('canvas, video, iframe, frame, embed, object, marquee, animate, animateTransform, animateMotion, set, animateColor', roots).length;
      for (const img of qsaDeep('img', roots)) if (/\.(gif|webp|apng)(?:[?#]|$)|^data:image\/(?:gif|webp|apng)/i.test(img.currentSrc || img.src || '')) n++;
      return n;
    } catch (e) { return 1; }
  }

  function snapshot() {
    const a = deepActiveElement();
    const r = a && a !== document.body && a !== document.documentElement ? rectOf(a) : null;
    let anims = 0; let finite = 0;
    try {
      for (const x of document.getAnimations()) {
        if (x.playState !== 'running') continue;
        anims++;
        const t = x.effect && x.effect.getComputedTiming ? x.effect.getComputedTiming() : null;
        if (t && Number.isFinite(t.endTime)) finite++;
      }
    } catch (e) { /* old engine */ }
    // how long the DOM has been quiet, ms (since the document started when it never changed)
    const quietMs = Math.round(nat.perf.now() - (state.lastMutationAt || 0));
    return { mutations: state.mutations, quietMs, draws: draws.n, animations: anims, settling: finite, external: external.length, frames: frames.count, longFrames: frames.long, longFrameMs: Math.round(frames.longMs), longFrameWorkMs: Math.round(frames.workMs), loadWorkMs: Math.round(frames.loadWorkMs), clicks: clicks.n, scrollX: Math.round(scrollX), scrollY: Math.round(scrollY), url: location.href,
      active: a ? classKey(a) : null, focusBox: r ? { x: r.x, y: r.y, width: r.width, height: r.height } : null,
      // whether the focused element takes text (its caret blinks inside it; what is typed shows inside it)
      focusText: r ? !!(a.isContentEditable || a.tagName === 'TEXTAREA' || a.tagName === 'SELECT' || (a.tagName === 'INPUT' && !/^(button|submit|reset|checkbox|radio|range|color|file|image)$/i.test(a.type))) : null,
      content: contentSize() };
  }
  /** Elements and characters of text in the body and in the shadow roots the page attached (no walk: each snapshot asks). */
  function contentSize() {
    let elements = document.body ? document.body.getElementsByTagName('*').length : 0;
    let textChars = document.body ? (document.body.textContent || '').replace(/\s/g, '').length : 0;
    for (const r of shadow.roots) {
      if (!r.host || !r.host.isConnected) continue;
      elements += r.querySelectorAll('*').length;
      textChars += (r.textContent || '').replace(/\s/g, '').length;
    }
    return { elements, textChars, loading: document.readyState === 'loading' };
  }

  Object.defineProperty(window, '__cookieProbe', {
    value: Object.freeze({ scan, box, reveal, valueOf, selectIndex, fillPicker, inventory, overflow, snapshot, motionSources, pendingTimers, nextTimeoutIn, visibleText, readings, listsAndDrag, textState, externalSince, canvasInk, canvasBacking, emptyState, pasteInto, textProblems, isActive }),
    enumerable: false, configurable: false, writable: false,
  });
})();
