// Cookie's in-page probe, added as an init script before any app code runs.
// Plain JavaScript on purpose: functions compiled by tsx/esbuild carry `__name` helpers that do not
// exist in the page, so the harness calls these methods with string expressions only.
// It observes and measures; it never changes what the app renders.
(() => {
  if (window.__cookieProbe) return;
  const state = { mutations: 0, refs: [], listeners: new WeakMap(), globalEvents: new Set() };

  // ── listener registry: which event types the page listens to, and on which elements ──
  const origAdd = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, fn, opts) {
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
      new MutationObserver((list) => { for (const m of list) if (!noop(m)) state.mutations++; })
        .observe(document, { subtree: true, childList: true, attributes: true, characterData: true, attributeOldValue: true, characterDataOldValue: true });
    } catch (e) { /* ignore */ }
  };
  if (document.documentElement) startObserver(); else document.addEventListener('DOMContentLoaded', startObserver);

  // ── frame timing: a frame counter on requestAnimationFrame (it stalls when the app blocks the main
  // thread) and long animation frames (> 50 ms) reported by the browser ──
  const frames = { count: 0, long: 0, longMs: 0 };
  const raf = window.requestAnimationFrame.bind(window);
  const tick = () => { frames.count++; raf(tick); };
  raf(tick);
  try {
    const type = PerformanceObserver.supportedEntryTypes.includes('long-animation-frame') ? 'long-animation-frame' : 'longtask';
    new PerformanceObserver((list) => { for (const e of list.getEntries()) { frames.long++; frames.longMs += e.duration; } }).observe({ type, buffered: true });
  } catch (e) { /* unsupported */ }

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
    cs = cs || getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility === 'hidden' || cs.visibility === 'collapse') return false;
    if (parseFloat(cs.opacity) === 0) return false;
    const r = el.getBoundingClientRect();
    return r.width >= 2 && r.height >= 2;
  }
  function text(el, n) { return ((el.innerText || el.textContent || '') + '').replace(/\s+/g, ' ').trim().slice(0, n || 80); }
  function accName(el) {
    const a = el.getAttribute('aria-label'); if (a) return a.trim().slice(0, 80);
    const lb = el.getAttribute('aria-labelledby');
    if (lb) { const t = lb.split(/\s+/).map((id) => { const e = document.getElementById(id); return e ? text(e) : ''; }).join(' ').trim(); if (t) return t.slice(0, 80); }
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
  function classKey(el) {
    const c = (typeof el.className === 'string' ? el.className : (el.getAttribute('class') || '')).split(/\s+/).filter(Boolean).sort().slice(0, 3).join('.');
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
    const cs = getComputedStyle(el);
    if (cs.cursor !== 'pointer') return false;
    const p = el.parentElement;
    return !p || getComputedStyle(p).cursor !== 'pointer';
  }

  function interactiveElements() {
    const set = new Set(document.querySelectorAll(INTERACTIVE));
    // custom clickables: pointer cursor (topmost) or a click listener registered on the element
    const all = document.body ? document.body.getElementsByTagName('*') : [];
    for (let i = 0; i < all.length && i < MAX_ELEMENTS; i++) {
      const el = all[i];
      if (set.has(el) || el.closest('a[href],button')) continue;
      const ls = state.listeners.get(el);
      if ((ls && (ls.has('click') || ls.has('mousedown') || ls.has('pointerdown'))) || hasPointerCursor(el)) {
        // a container covering most of the screen (React's root, an app shell) listens on behalf of its
        // children (event delegation): it is not a control
        const r = el.getBoundingClientRect();
        if (r.width * r.height > 0.4 * innerWidth * innerHeight && el.childElementCount > 0) continue;
        set.add(el);
      }
    }
    return [...set];
  }

  function scan() {
    state.refs = [];
    const vw = innerWidth, vh = innerHeight;
    const out = [];
    const forms = [...document.forms];
    for (const el of interactiveElements()) {
      if (out.length >= 400) break;
      const cs = getComputedStyle(el);
      if (!visible(el, cs)) continue;
      const r = el.getBoundingClientRect();
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
        handlers: [...(state.listeners.get(el) || [])].concat(el.onclick ? ['onclick'] : []),
      });
    }
    return out;
  }

  function box(ref) {
    const el = state.refs[ref];
    if (!el || !el.isConnected) return null;
    const r = el.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  }
  function reveal(ref) {
    const el = state.refs[ref];
    if (!el || !el.isConnected) return null;
    const r0 = el.getBoundingClientRect();
    if (r0.top < 0 || r0.bottom > innerHeight || r0.left < 0 || r0.right > innerWidth) el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    const r = el.getBoundingClientRect();
    const cx = Math.min(Math.max(r.x + r.width / 2, 1), innerWidth - 1), cy = Math.min(Math.max(r.y + r.height / 2, 1), innerHeight - 1);
    const top = document.elementFromPoint(cx, cy);
    const covered = !!top && top !== el && !el.contains(top) && !top.contains(el);
    return { x: r.x, y: r.y, width: r.width, height: r.height, cx, cy, covered, coveredBy: covered ? classKey(top) : null };
  }
  function valueOf(ref) {
    const el = state.refs[ref];
    if (!el) return null;
    return { value: 'value' in el ? String(el.value) : null, checked: 'checked' in el ? !!el.checked : null, focused: document.activeElement === el };
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

  function visibleText() {
    const b = document.body; if (!b) return '';
    return (b.innerText || '').replace(/[ \t\f\v]+/g, ' ').replace(/\n\s*\n+/g, '\n').trim();
  }

  function styleSignals() {
    const fonts = new Set(), colors = new Set(), bgs = new Set(), sizes = new Set();
    let rounded = 0, shadowed = 0, gradients = 0, transitions = 0, animated = 0, n = 0;
    const all = document.body ? document.body.getElementsByTagName('*') : [];
    for (let i = 0; i < all.length && n < 3000; i++) {
      const el = all[i];
      const cs = getComputedStyle(el);
      if (!visible(el, cs)) continue;
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
    const bodyFont = document.body ? getComputedStyle(document.body).fontFamily : '';
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
  function textProblems() {
    const out = [];
    const leaves = [];
    const all = document.body ? document.body.getElementsByTagName('*') : [];
    for (let i = 0; i < all.length && i < MAX_ELEMENTS; i++) {
      const el = all[i];
      if (['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEXTAREA', 'INPUT', 'CODE', 'PRE', 'SVG'].includes(el.tagName.toUpperCase())) continue;
      const own = [...el.childNodes].filter((c) => c.nodeType === 3).map((c) => c.textContent).join('').trim();
      if (!own) continue;
      const cs = getComputedStyle(el);
      if (!visible(el, cs)) continue;
      const r = el.getBoundingClientRect();
      leaves.push({ el, r, own });
      if (GARBLED.test(own) && out.length < 30) out.push({ kind: 'garbled', selector: cssPath(el), text: own.slice(0, 80) });
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
        if (small > 0 && (w * h) / small > 0.4 && overlaps < 10) {
          overlaps++;
          out.push({ kind: 'overlap', selector: cssPath(a.el) + ' ⟷ ' + cssPath(b.el), text: (a.own + ' / ' + b.own).slice(0, 80) });
        }
      }
    }
    return out;
  }

  function inventory() {
    const vw = innerWidth, vh = innerHeight, area = vw * vh;
    const txt = visibleText();
    const images = [...document.images].slice(0, 200).map((img) => {
      const r = img.getBoundingClientRect();
      const cs = getComputedStyle(img);
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
    const canvases = [...document.querySelectorAll('canvas')].filter((c) => visible(c)).map((c) => {
      const r = c.getBoundingClientRect();
      return { width: Math.round(r.width), height: Math.round(r.height), areaShare: Math.round((Math.min(r.width * r.height, area) / area) * 1000) / 1000 };
    });
    const listened = new Set(state.globalEvents);
    for (const t of ['keydown', 'keyup', 'keypress', 'mousemove', 'click', 'touchstart']) {
      if (window['on' + t] || document['on' + t] || (document.body && document.body['on' + t])) listened.add(t);
    }
    return {
      title: document.title || '',
      htmlLang: document.documentElement.getAttribute('lang') || '',
      visibleTextLength: txt.replace(/\s/g, '').length,
      textSample: txt.slice(0, 4000),
      headings: [...document.querySelectorAll('h1,h2,h3,h4,h5,h6')].filter((h) => visible(h)).slice(0, 40)
        .map((h) => ({ level: +h.tagName[1], text: text(h, 100) })),
      interactive: scan(),
      images, canvases,
      svgCount: [...document.querySelectorAll('svg')].filter((s) => visible(s)).length,
      videoCount: document.querySelectorAll('video').length,
      audioCount: document.querySelectorAll('audio').length,
      formCount: document.forms.length,
      listenedEvents: [...listened].sort(),
      style: styleSignals(),
      textProblems: textProblems(),
      layout: layoutMetrics(),
      canvasText: canvasText(),
      scrollHeight: Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0),
    };
  }

  function overflow() {
    const vw = document.documentElement.clientWidth || innerWidth;
    const sw = Math.max(document.documentElement.scrollWidth, document.body ? document.body.scrollWidth : 0);
    const offenders = [];
    if (sw > vw + 1) {
      const all = document.body ? document.body.getElementsByTagName('*') : [];
      for (let i = 0; i < all.length && i < MAX_ELEMENTS && offenders.length < 5; i++) {
        const el = all[i];
        const r = el.getBoundingClientRect();
        if (r.right > vw + 1 && r.width > 0 && r.height > 0) {
          // report the outermost offender only
          const p = el.parentElement;
          if (p && p.getBoundingClientRect().right > vw + 1 && p !== document.body) continue;
          offenders.push({ selector: cssPath(el), right: Math.round(r.right) });
        }
      }
    }
    const clipped = textProblems().filter((t) => t.kind === 'clipped' || t.kind === 'overlap').length;
    return { overflowPx: Math.max(0, sw - vw), offenders, clippedText: clipped, visibleTextLength: visibleText().replace(/\s/g, '').length, canvases: document.querySelectorAll('canvas').length, images: document.images.length, svgs: document.querySelectorAll('svg').length };
  }

  /** Alignment and spacing of visible content boxes (interface regularity, rubric item 8). */
  function layoutMetrics() {
    const boxes = [];
    const spacings = new Set();
    const all = document.body ? document.body.getElementsByTagName('*') : [];
    for (let i = 0; i < all.length && boxes.length < 400 && i < MAX_ELEMENTS; i++) {
      const el = all[i];
      const tag = el.tagName;
      const leaf = ['IMG', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'CANVAS', 'SVG', 'VIDEO'].includes(tag.toUpperCase()) ||
        [...el.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim().length > 1);
      if (!leaf) continue;
      const cs = getComputedStyle(el);
      if (!visible(el, cs) || cs.display === 'inline') continue;
      const r = el.getBoundingClientRect();
      if (r.width < 8 || r.height < 8 || r.right < 0 || r.left > innerWidth) continue;
      boxes.push({ left: Math.round(r.left), right: Math.round(r.right), top: Math.round(r.top), width: Math.round(r.width) });
      for (const k of ['marginTop', 'marginBottom', 'paddingTop', 'paddingLeft', 'rowGap', 'columnGap']) {
        const v = Math.round(parseFloat(cs[k]) || 0);
        if (v > 0) spacings.add(v);
      }
    }
    const near = (a, b) => Math.abs(a - b) <= 2;
    let aligned = 0;
    for (const b of boxes) if (boxes.some((o) => o !== b && (near(o.left, b.left) || near(o.right, b.right) || near(o.left + o.width / 2, b.left + b.width / 2)))) aligned++;
    return { boxes: boxes.length, alignedShare: boxes.length ? Math.round((aligned / boxes.length) * 1000) / 1000 : 1, spacingValues: [...spacings].sort((a, b) => a - b).slice(0, 40) };
  }

  function snapshot() {
    const a = document.activeElement;
    const r = a && a !== document.body && a !== document.documentElement ? a.getBoundingClientRect() : null;
    return { mutations: state.mutations, frames: frames.count, longFrames: frames.long, longFrameMs: Math.round(frames.longMs), scrollX: Math.round(scrollX), scrollY: Math.round(scrollY), url: location.href,
      active: a ? classKey(a) : null, focusBox: r ? { x: r.x, y: r.y, width: r.width, height: r.height } : null };
  }

  Object.defineProperty(window, '__cookieProbe', {
    value: Object.freeze({ scan, box, reveal, valueOf, selectIndex, inventory, overflow, snapshot, visibleText }),
    enumerable: false, configurable: false, writable: false,
  });
})();
