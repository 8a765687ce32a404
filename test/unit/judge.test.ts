import { describe, expect, it } from 'vitest';
import { nothingInDom } from '../../src/judge/offline/checks.js';
import { FULL, judgeOffline } from '../../src/judge/offline/judge.js';
import { RUBRIC } from '../../src/judge/rubric.js';
import { click, evidence, inventory, perception } from '../fixtures/evidence.js';
import type { TraceStep } from '../../src/types.js';

const titles = (j: ReturnType<typeof judgeOffline>) => j.defects.map((d) => d.title);

describe('offline judge: static scores', () => {
  it('gives a clean, working page full functionality and a styled baseline with bonuses', () => {
    const j = judgeOffline(evidence({}, [click('Add', true)]));
    expect(j.defects).toEqual([]);
    expect(j.final8.functionality).toBe(8);
    expect(j.final8.aesthetics).toBeGreaterThanOrEqual(5);
    expect(j.scores.total).toBe((j.scores.functionality + j.scores.aesthetics) / 2);
  });

  it('records every rubric item with a verdict and a method (never silently skipped)', () => {
    const j = judgeOffline(evidence());
    expect(j.rubric.map((r) => r.id)).toEqual(RUBRIC.map((r) => r.id));
    for (const r of j.rubric) {
      expect(r.method.length).toBeGreaterThan(5);
      if (r.verdict === 'not-assessed') expect(r.reason.length).toBeGreaterThan(5);
    }
  });

  it('blank page: aesthetics 0 and functionality ≤ 0.5 (blank-screen rule); its load error is not a second penalty', () => {
    const st = perception();
    for (const v of st.viewports) v.blank = { isBlank: true, variance: 0, colours: 1, meanBrightness: 255 };
    const j = judgeOffline(evidence({ static: st, pageErrors: [{ text: 'SyntaxError: Invalid or unexpected token', origin: 'app', atMs: 5 }] }, null));
    expect(j.final8).toEqual({ functionality: 0.5, aesthetics: 0 });
    expect(titles(j)).toContain('Blank page');
    expect(j.defects.find((d) => d.rubricItem === '5')!.deduction).toBe(0);
  });

  it('a blank screen after the page navigated to another site says so in the defect', () => {
    const st = perception();
    for (const v of st.viewports) v.blank = { isBlank: true, variance: 0, colours: 1, meanBrightness: 255 };
    st.viewports[2]!.shotAtMs = 4000;
    const j = judgeOffline(evidence({ static: st, navigations: [{ kind: 'navigation', url: 'https://example.com/', offApp: true, atMs: 3135 }] }, null));
    expect(j.defects[0]).toMatchObject({ title: 'Blank page', detail: expect.stringContaining('navigated away from itself to https://example.com/ 3.1 s after the session began') });
    // no navigation: the detail is as before
    const plain = perception();
    for (const v of plain.viewports) v.blank = { isBlank: true, variance: 0, colours: 1, meanBrightness: 255 };
    expect(judgeOffline(evidence({ static: plain }, null)).defects[0]!.detail).toBe('Nothing renders at 1280 px.');
  });

  it('an error thrown when perception resized the window is not "core content does not render" (KCORES solar system, human 85/90)', () => {
    // a dark canvas scene (4% of the screen differs from black) whose resize handler assigns a const: the
    // default viewport's screenshot, taken before any resize, shows it drawn; the errors come with the resizes
    const dark = () => {
      const st = perception({ resizesFromMs: 3000 });
      for (const v of st.viewports) Object.assign(v, { contentShare: 0.042, shotAtMs: v.width === 1280 ? 900 : 3200 });
      return st;
    };
    const onResize = [3051, 3264, 3541].map((atMs) => ({ text: 'TypeError: Assignment to constant variable.', origin: 'app' as const, atMs, location: 'at page.html:323:25' }));
    const j = judgeOffline(evidence({ static: dark(), pageErrors: onResize }, null));
    expect(titles(j)).not.toContain('Core content does not render');
    // the error is still a defect, named for when it came
    expect(j.defects.find((d) => d.rubricItem === '5')).toMatchObject({ title: 'Runtime error after a window resize', severity: 'major' });
    expect(j.defects.find((d) => d.rubricItem === '5')!.detail).toMatch(/first logged after the window was resized/);
    // the same error thrown before that screenshot (at load): the empty screen is its doing
    const atLoad = judgeOffline(evidence({ static: dark(), pageErrors: [{ ...onResize[0]!, atMs: 400 }, ...onResize] }, null));
    expect(atLoad.defects[0]).toMatchObject({ severity: 'critical', title: 'Core content does not render' });
    expect(atLoad.defects.find((d) => d.rubricItem === '5')).toMatchObject({ title: 'Runtime error on load' });
    // a page broken at load (an exception in its first frame, reported on the console) whose resize handler
    // also throws (KCORES GPT-4.1-nano, human 0): the load's error is the major one, the resize's comes after
    const both = judgeOffline(evidence({ static: dark(), pageErrors: onResize, consoleErrors: [{ text: 'ReferenceError: code is not defined\n    at animate (page.html:106:13)', origin: 'app', atMs: 692 }] }, null));
    expect(both.defects[0]).toMatchObject({ title: 'Core content does not render' });
    expect(both.defects[0]!.detail).toMatch(/code is not defined/);
    expect(both.defects.filter((d) => d.rubricItem === '5').map((d) => [d.title, d.severity])).toEqual([['Runtime error on load', 'major'], ['Further runtime error after a window resize', 'minor']]);
    // evidence written before the times were recorded is judged as before
    const old = dark();
    delete old.resizesFromMs;
    for (const v of old.viewports) delete v.shotAtMs;
    expect(titles(judgeOffline(evidence({ static: old, pageErrors: onResize }, null)))).toContain('Core content does not render');
  });

  it('page that hangs on load scores 0 with a critical defect', () => {
    const j = judgeOffline(evidence({ static: perception({ unresponsive: true, viewports: [], inventory: null }) }, null));
    expect(j.final8).toEqual({ functionality: 0, aesthetics: 0 });
    expect(j.defects[0]).toMatchObject({ severity: 'critical', title: 'Page hangs on load' });
  });

  it('why a page stopped answering comes from the evidence\'s typed cause, and evidence written before it (problem lines only) is judged the same', () => {
    const hung = (st: Parameters<typeof perception>[0]) => judgeOffline(evidence({ static: perception({ unresponsive: true, viewports: [], inventory: null, ...st }) }, null)).defects[0];
    expect(hung({ unresponsiveCause: 'dialog-loop', dialogLoopCount: 12 })).toMatchObject({ severity: 'critical', title: 'Dialogs in an endless loop', detail: expect.stringContaining('(12 so far)') });
    expect(hung({ unresponsiveCause: 'hang-after-load' })).toMatchObject({ title: 'Page hangs soon after load' });
    expect(hung({ unresponsiveCause: 'hang-at-load' })).toMatchObject({ title: 'Page hangs on load' });
    expect(hung({ unresponsiveCause: 'crash' })).toMatchObject({ title: 'Page crashes' });
    // a problem line alone no longer decides when the cause is typed (the line's wording is not an interface)
    expect(hung({ unresponsiveCause: 'hang-at-load', problems: ['the page opens dialogs in an endless loop (3 so far)'] })).toMatchObject({ title: 'Page hangs on load' });
    // evidence of before 2026-12-05
    expect(hung({ problems: ['the page opens dialogs in an endless loop (12 so far)'] })).toMatchObject({ title: 'Dialogs in an endless loop' });
    expect(hung({ problems: ['main thread stopped answering during perception (after load)'] })).toMatchObject({ title: 'Page hangs soon after load' });
    expect(hung({ problems: ['the page crashed (its renderer process died)'] })).toMatchObject({ title: 'Page crashes' });
  });

  it('an entry document that answered an HTTP error is not a rendered page, by its typed status or (older evidence) its problem line', () => {
    const rendered = (st: Parameters<typeof perception>[0]) => judgeOffline(evidence({ static: perception(st) }, [click('Add', true)])).final8.functionality;
    const ok = rendered({});
    expect(rendered({ entryStatus: 404 })).toBeLessThan(ok);
    expect(rendered({ problems: ['entry document answered HTTP 404'] })).toBeLessThan(ok);
  });

  it('language mismatch: −2, or −4 when an English query gets a non-English page (decided from the stored text)', () => {
    const withQuery = (language: string, text: string) => {
      const ev = evidence({ static: perception({ inventory: inventory({ textSample: text }) }) });
      ev.task.query.language = language;
      return judgeOffline(ev).static8.functionality;
    };
    const english = 'Welcome to the task list. Add what you need to do and tick it off when it is done.';
    expect(withQuery('zh', english)).toBe(6);
    expect(withQuery('en', 'Bienvenue dans la liste des tâches. Ajoutez ce que vous devez faire et cochez-le une fois terminé.')).toBe(4);
    expect(withQuery('en', english)).toBe(8);
  });

  it('overflow at 375 px is a responsive failure on aesthetics (critical when large)', () => {
    const st = perception();
    st.viewports[0]!.overflowPx = 525;
    const j = judgeOffline(evidence({ static: st }));
    const d = j.defects.find((x) => x.rubricItem === '6')!;
    expect(d).toMatchObject({ severity: 'critical', dimension: 'aesthetics', deduction: 2 });
  });

  it('overflow seen only right after a resize (a fresh load at 375 px fits) is a minor resize note, not a page too wide for a phone', () => {
    const st = perception();
    st.viewports[0]!.overflowPx = 0;
    st.viewports[0]!.overflowAfterResizePx = 434;
    const j = judgeOffline(evidence({ static: st }));
    expect(j.defects.filter((x) => x.rubricItem === '6').map((x) => `${x.severity}:${x.code}`)).toEqual(['minor:overflow-after-resize']);
    st.viewports[0]!.overflowPx = 434;
    expect(judgeOffline(evidence({ static: st })).defects.find((x) => x.rubricItem === '6')).toMatchObject({ severity: 'critical', code: 'horizontal-overflow' });
  });

  it('harness-caused errors (blocked CDN script, then "X is not defined") are not blamed on the app', () => {
    const j = judgeOffline(
      evidence({
        failedRequests: [{ url: 'https://cdn.jsdelivr.net/npm/three', resourceType: 'script', blocked: true, atMs: 1 }],
        pageErrors: [{ text: 'ReferenceError: THREE is not defined', origin: 'app', atMs: 2 }],
      }),
    );
    expect(j.defects.filter((d) => d.rubricItem === '5')).toEqual([]);
    expect(j.rubric.find((r) => r.id === '5')!.reason).toMatch(/offline environment/);
  });

  it('an error thrown inside a CDN library while another library could not be loaded offline (Bootstrap 4 without Popper) is the environment\'s; thrown in the app\'s own code it is the app\'s', () => {
    const popper = [{ url: 'https://cdn.jsdelivr.net/npm/popper.js@1.16.1/dist/umd/popper.min.js', resourceType: 'script', blocked: true, atMs: 1 }];
    const inLib = { text: "TypeError: Bootstrap's dropdowns require Popper (https://popper.js.org)", origin: 'app' as const, atMs: 5, location: 'at t.toggle (https://stackpath.bootstrapcdn.com/bootstrap/4.5.2/js/bootstrap.min.js:6:12345)' };
    const sort = click('Sort by: Featured', true, { pageErrors: [inLib] });
    const shop = (steps: ReturnType<typeof click>[]) => {
      const ev = evidence({ failedRequests: popper }, steps);
      ev.task.query.prompt = 'A shop page with products I can sort by price';
      return judgeOffline(ev);
    };
    expect(shop([sort]).defects.filter((d) => /Error when using/.test(d.title))).toEqual([]);
    const own = { ...inLib, text: 'TypeError: Cannot read properties of null (reading "sort")', location: 'at sortProducts (http://127.0.0.1:1/shop.html:88:9)' };
    expect(shop([click('Sort by: Featured', true, { pageErrors: [own] })]).defects.map((d) => d.title)).toContain('Error when using button "Sort by: Featured"');
  });

  it('a library version mismatch the offline CDN caused (another version served) is not blamed on the app; the same error with the asked-for version is', () => {
    const err = { text: "TypeError: Chart.register is not a function", origin: 'app' as const, atMs: 2 };
    const cdn = (exact: boolean) => ({ rewrites: [{ url: 'https://cdn.jsdelivr.net/npm/chart.js@3.9.1/dist/chart.min.js', servedFrom: exact ? 'chart.js@3.9.1/dist/chart.min.js' : 'chart.js@4.6.1/dist/chart.umd.js', exact }], unresolved: [] });
    const substituted = judgeOffline(evidence({ pageErrors: [err], cdn: cdn(false) }));
    expect(substituted.defects.filter((d) => d.rubricItem === '5')).toEqual([]);
    expect(substituted.reasons.join(' ')).toMatch(/served offline in another version than the page asked for/);
    // a font stylesheet served inexactly is no excuse for a script error
    const fonts = { rewrites: [{ url: 'https://fonts.googleapis.com/css2?family=Inter', servedFrom: 'system fonts (empty stylesheet)', exact: false }], unresolved: [] };
    expect(judgeOffline(evidence({ pageErrors: [err], cdn: fonts })).defects.find((d) => d.rubricItem === '5')).toMatchObject({ title: 'Runtime error on load' });
    expect(judgeOffline(evidence({ pageErrors: [err], cdn: cdn(true) })).defects.find((d) => d.rubricItem === '5')).toMatchObject({ title: 'Runtime error on load' });
  });

  it('a step whose new document was still being parsed when read (the action navigated) is not "Page destroys itself"; an emptied body is', () => {
    const nav = (loading: boolean) => click('Search', true, { navigations: [{ kind: 'navigation', url: 'http://127.0.0.1:1/?q=vegan', offApp: false, atMs: 3 }], content: { before: { elements: 40, textChars: 2326 }, after: { elements: 0, textChars: 0, ...(loading ? { loading: true } : {}) } } });
    expect(judgeOffline(evidence({}, [click('Pasta', true), nav(true)])).defects.filter((d) => d.code === 'page-self-destructs')).toEqual([]);
    expect(judgeOffline(evidence({}, [click('Pasta', true), nav(false)])).defects.map((d) => d.code)).toContain('page-self-destructs');
  });

  it('"Nothing to interact with" only when nothing answered and nothing moves: a board whose cards are dragged answers input; a live clock may be all its brief asks for (not assessed)', () => {
    const bare = inventory({ interactive: [], canvases: [], listenedEvents: [] });
    const item2 = (j: ReturnType<typeof judgeOffline>) => j.rubric.find((r) => r.id === '2')!;
    // a still page with no control, canvas or key handler, where no action changed anything: the defect stands
    const still = judgeOffline(evidence({ static: perception({ inventory: bare }) }, [click('Body', false)]));
    expect(titles(still)).toContain('Nothing to interact with');
    // a kanban board: its cards are draggable <div>s (no control in the inventory), and the drag moved one
    const drag = click('Card', true, { action: { kind: 'drag', target: { signature: 'clickable|div|card|Write report|', name: 'Write report', role: 'clickable', tag: 'div', group: 'clickable|div|card', box: { x: 20, y: 120, width: 200, height: 60 } }, to: { x: 420, y: 140 } } as never });
    drag.effect = { ...drag.effect!, kind: 'changed', why: 'text' };
    const board = judgeOffline(evidence({ static: perception({ inventory: bare }) }, [drag]));
    expect(titles(board)).not.toContain('Nothing to interact with');
    expect(item2(board)).toMatchObject({ verdict: 'pass', reason: expect.stringMatching(/step 0 \(drag on clickable "Write report"\) changed the page/) });
    // an action whose change is only the page's own motion is no answer
    const own = click('Body', true);
    own.effect = { ...own.effect!, kind: 'none' };
    expect(titles(judgeOffline(evidence({ static: perception({ inventory: bare }) }, [own])))).toContain('Nothing to interact with');
    // a clock that ticks every second (DOM changes while nobody touches it): not assessed, with the reason
    const clock = judgeOffline(evidence({ static: perception({ inventory: bare, idleMutationsPerSec: 1 }) }, [click('Body', false)]));
    expect(titles(clock)).not.toContain('Nothing to interact with');
    expect(item2(clock)).toMatchObject({ verdict: 'not-assessed', reason: expect.stringMatching(/updates by itself .*model-backed judge/) });
    // a static brief never needed input
    const staticBrief = evidence({ static: perception({ inventory: bare }) }, [click('Body', false)]);
    staticBrief.task.query.kind = 'static';
    expect(titles(judgeOffline(staticBrief))).not.toContain('Nothing to interact with');
  });

  it('raw HTML gets aesthetics baseline 1; a canvas page is read from its pixels', () => {
    const raw = perception({ inventory: inventory({ style: { fontFamilies: ['Times New Roman'], defaultFont: true, distinctColors: 1, distinctBackgrounds: 0, roundedElements: 0, shadowedElements: 0, gradientElements: 0, transitionElements: 0, animatedElements: 0, fontSizes: [16], elementCount: 10 } }) });
    expect(judgeOffline(evidence({ static: raw })).static8.aesthetics).toBe(1);
    const canvas = (colours: number) => {
      const st = perception({ inventory: inventory({ canvases: [{ width: 1280, height: 800, areaShare: 1 }] }), animatedShare: 0.1 });
      for (const v of st.viewports) v.blank.colours = colours;
      return judgeOffline(evidence({ static: st })).static8.aesthetics;
    };
    expect(canvas(900)).toBeGreaterThanOrEqual(5);
    expect(canvas(150)).toBe(3.2); // between raw (1) and polished (5) on a log scale: 2.2, + live animation
    expect(canvas(30)).toBe(2);
  });
  it('a DOM page\'s baseline grows with its styling signals without a two-point cliff: 2 signals 3, 3 signals 4, 4 signals 5', () => {
    const styled = (n: number) => {
      const style = { fontFamilies: ['Inter'], defaultFont: false, distinctColors: 2, distinctBackgrounds: n >= 2 ? 3 : 1, roundedElements: n >= 3 ? 6 : 0, shadowedElements: n >= 4 ? 2 : 0, gradientElements: 0, transitionElements: 0, animatedElements: 0, fontSizes: [14, 16], elementCount: 80 };
      return judgeOffline(evidence({ static: perception({ inventory: inventory({ style }) }) })).static8.aesthetics;
    };
    // a flat dark weather dashboard: its own font, card backgrounds, rounded corners — no shadow, gradient or transition
    expect([styled(2), styled(3), styled(4)]).toEqual([3, 4, 5]);
  });
  it('a canvas scene\'s baseline moves with its colour count, without steps: two frames of one solar system (384 and 407 colours, measured on the same KCORES page in two runs) score within 0.2', () => {
    const canvas = (colours: number) => {
      const st = perception({ inventory: inventory({ canvases: [{ width: 1280, height: 800, areaShare: 1 }] }), animatedShare: 0 });
      for (const v of st.viewports) v.blank.colours = colours;
      return judgeOffline(evidence({ static: st })).static8.aesthetics;
    };
    expect(Math.abs(canvas(407) - canvas(384))).toBeLessThanOrEqual(0.2);
    const scale = [100, 150, 250, 384, 400, 2000].map(canvas);
    expect(scale).toEqual([...scale].sort((x, y) => x - y));
    // 2,000 colours over ≥ 5% of the screen: the rich-colour bonus in full
    expect([scale[0], scale[4], scale[5]]).toEqual([1, 5, 6]);
    // the live-animation bonus grows with the moving share: 0.002 and 0.003 (one solar system's planets in two
    // runs) are about a quarter point apart (in tenths), not a whole one; a still scene gets none, planets crossing it all
    const moving = (animatedShare: number) => {
      const st = perception({ inventory: inventory({ canvases: [{ width: 1280, height: 800, areaShare: 1 }] }), animatedShare });
      for (const v of st.viewports) v.blank.colours = 500;
      return judgeOffline(evidence({ static: st })).static8.aesthetics;
    };
    const step = moving(0.003) - moving(0.002);
    expect(step).toBeGreaterThan(0);
    expect(step).toBeLessThanOrEqual(0.3 + 1e-9);
    expect(moving(0.02) - moving(0)).toBe(1);
  });
});

describe('offline judge: dynamic adjustment rules', () => {
  it('a control is dead only after two tries without effect (one try is not proof)', () => {
    expect(judgeOffline(evidence({}, [click('Apply', false)])).defects).toEqual([]);
    const j = judgeOffline(evidence({}, [click('Apply', false), click('Other', true), click('Apply', false)]));
    expect(j.defects).toHaveLength(1); // "Other" works, so this is one dead button, not a dead app
    // the brief ("todo app") names no action "Apply" serves: a secondary control, minor
    expect(j.defects[0]).toMatchObject({ code: 'dead-control', severity: 'minor', dimension: 'functionality', title: 'Dead button "Apply"', deduction: 0.5, phase: 'interaction', evidence: { step: 2 } });
    expect(j.final8.functionality).toBe(7.5);
  });

  it('a canvas that answered another input (a drag that rotated the scene, the game\'s keys) is not a dead control because clicks on it did nothing', () => {
    const canvasClick = (changed: boolean) => click('', changed, { action: { kind: 'click', target: { signature: 'clickable|canvas|body||gl', name: '', role: 'clickable', tag: 'canvas', group: 'clickable|canvas|body', box: { x: 0, y: 0, width: 1280, height: 800 } } } });
    const st = perception({ inventory: inventory({ canvases: [{ width: 1280, height: 800, areaShare: 1 }], interactive: [{ ref: 0, signature: 'clickable|canvas|body||gl', tag: 'canvas', role: 'clickable', name: '', box: { x: 0, y: 0, width: 1280, height: 800 }, inViewport: true, disabled: false, group: 'clickable|canvas|body', handlers: ['pointerdown', 'pointermove'] }] }) });
    const drag = click('', true, { action: { kind: 'drag', from: { x: 600, y: 400 }, to: { x: 800, y: 420 } } as never });
    drag.effect = { ...drag.effect!, kind: 'changed', why: 'regions' };
    const rotated = judgeOffline(evidence({ static: st }, [drag, canvasClick(false), canvasClick(false)]));
    expect(rotated.defects.map((d) => d.title)).toEqual([]);
    expect(rotated.rubric.find((r) => r.id === '3a')!.reason).toMatch(/the canvas answered other input \(step 0: drag\)/);
    // no input ever changed it: clicked twice for nothing, it is dead
    const still = judgeOffline(evidence({ static: st }, [canvasClick(false), click('Other', true), canvasClick(false)]));
    expect(still.defects.map((d) => d.title)).toEqual(['Dead control "canvas"']);
  });

  it('a colour swatch clicked twice while already selected is not dead when the same swatch, unselected, changed the page (its signature carries its classes)', () => {
    const swatch = (selected: boolean, changed: boolean) => click('Colour #fff59d', changed, { action: { kind: 'click', target: { signature: `button|swatch${selected ? ' sel' : ''}|div.colors|Colour #fff59d|`, name: 'Colour #fff59d', role: 'button', tag: 'button', group: 'button|swatch|div.colors', box: { x: 10, y: 10, width: 32, height: 32 } } } });
    const other = click('Colour #ffab91', true);
    expect(judgeOffline(evidence({}, [swatch(true, false), swatch(true, false), other, swatch(false, true)])).defects).toEqual([]);
    // never changed anything under any signature: dead
    expect(judgeOffline(evidence({}, [swatch(true, false), swatch(true, false), other, swatch(false, false), swatch(false, false)])).defects.map((d) => d.title)).toEqual(['Dead button "Colour #fff59d"']);
  });

  it('an alert the page opens by itself again and again is a major defect; a dialog an action opened, or one greeting at load, is not', () => {
    const alert = (atMs: number, step?: number, message = 'Thanks for visiting!') => ({ type: 'alert', message, answer: 'accepted' as const, atMs, ...(step === undefined ? {} : { step }) });
    const nag = judgeOffline(evidence({ dialogs: [alert(6659), alert(8089), alert(10454, 0), alert(14202, 0)] }, [click('+1', true), click('+1', true)]));
    expect(nag.defects.find((d) => d.title === 'Dialogs keep opening by themselves')).toMatchObject({ severity: 'major', rubricItem: '14', deduction: 1, detail: expect.stringContaining('"Thanks for visiting!" 4 times in all, 2 of them while nobody touched it (about every 1.4 s)') });
    // one welcome alert at load, then a "Saved!" after each click: not recurring by itself
    const ok = judgeOffline(evidence({ dialogs: [alert(900, undefined, 'Welcome!'), alert(5000, 0, 'Saved!'), alert(7000, 1, 'Saved!')] }, [click('Save', true), click('Save', true)]));
    expect(ok.defects.map((d) => d.title)).not.toContain('Dialogs keep opening by themselves');
  });

  it('a keypad key pressed twice in one state ("0" on a display reading 0) is not proof it is dead; tried in two states it is', () => {
    const key = (name: string, changed: boolean) => click(name, changed);
    const sameState = judgeOffline(evidence({}, [key('7', true), key('AC', true), key('0', false), key('0', false), key('±', false), key('±', false)]));
    expect(sameState.defects).toEqual([]);
    expect(sameState.rubric.find((r) => r.id === '3a')!.reason).toMatch(/"0" \(a keypad key tried only in one state/);
    const twoStates = judgeOffline(evidence({}, [key('0', false), key('7', true), key('0', false)]));
    expect(twoStates.defects.map((d) => d.title)).toEqual(['Dead button "0"']);
    // a keypad where no key ever does anything (its script failed to parse): every key is dead, the app is
    const none = judgeOffline(evidence({}, [key('7', false), key('7', false), key('+', false), key('+', false), key('=', false), key('=', false)]));
    expect(none.defects.map((d) => d.title)).toContain('No control works');
    // a named control pressed twice in a row is still dead (the rule is for keypad keys only)
    expect(judgeOffline(evidence({}, [key('7', true), key('Apply', false), key('Apply', false)])).defects.map((d) => d.title)).toEqual(['Dead button "Apply"']);
  });

  it('an interaction the harness cut short is said to be incomplete, and not scored as a defect of the app', () => {
    const ev = evidence({}, [click('Add', true)]);
    ev.stageErrors.push({ stage: 'interact', message: 'interaction ended early after 1 step(s): error: page.evaluate: Target closed' });
    const j = judgeOffline(ev);
    expect(j.defects).toEqual([]);
    expect(j.final8.functionality).toBe(8);
    expect(j.reasons.join('\n')).toMatch(/Interaction incomplete \(interaction ended early after 1 step\(s\)/);
  });

  it('a page that reloads itself while only looked at is a critical −4; Cookie\'s own single load is not', () => {
    const ev = evidence({}, [click('Add', true)]);
    ev.documentLoads = [{ atMs: 100 }, { atMs: 5000, step: 0 }];
    expect(judgeOffline(ev).defects).toEqual([]);
    ev.documentLoads = [100, 500, 900, 1300].map((atMs) => ({ atMs }));
    const j = judgeOffline(ev);
    expect(j.defects).toEqual([expect.objectContaining({ title: 'Page reloads itself in a loop', severity: 'critical', deduction: 4 })]);
    expect(j.final8.functionality).toBe(4);
  });

  it('Cookie\'s own fresh loads (a viewport loaded afresh during perception) are not the page reloading itself', () => {
    const ev = evidence({}, [click('Add', true)]);
    ev.documentLoads = [{ atMs: 100 }, { atMs: 3000, byCookie: true }, { atMs: 4000, byCookie: true }, { atMs: 5200, byCookie: true }];
    expect(judgeOffline(ev).defects).toEqual([]);
  });

  it('untested controls are not broken', () => {
    const ev = evidence({}, [click('Add', true)]);
    ev.interaction!.untested = ['button "Export"', 'button "Import"'];
    const j = judgeOffline(ev);
    expect(j.defects).toEqual([]);
    expect(j.final8.functionality).toBe(8);
    expect(j.reasons.join(' ')).toMatch(/2 control\(s\) untested: not counted as broken/);
  });

  it('no double penalty: an error already counted at load is not counted again when it repeats on click', () => {
    const err = { text: 'TypeError: Cannot read properties of null (reading "x") at 12:5', origin: 'app' as const, atMs: 1 };
    const j = judgeOffline(evidence({ pageErrors: [err] }, [click('Add', true, { pageErrors: [{ ...err, text: err.text.replace('12:5', '40:7'), step: 0 }] })]));
    expect(j.defects.filter((d) => d.rubricItem === '5')).toHaveLength(1);
    expect(j.defects.filter((d) => d.rubricItem === '3')).toHaveLength(0);
  });

  it('a control that throws is one defect, not also a dead control', () => {
    const e = { text: 'TypeError: boom', origin: 'app' as const, atMs: 3, step: 0 };
    const j = judgeOffline(evidence({}, [click('Other', true), click('Add', false, { pageErrors: [e] }), click('Add', false, { pageErrors: [{ ...e, step: 2 }] })]));
    expect(titles(j)).toEqual(['Error when using button "Add"']);
  });

  it('a throwing control is critical when it serves the brief (todo: Add) and minor when secondary (a placeholder social link), like a dead one', () => {
    const e = { text: "SyntaxError: Failed to execute 'querySelector' on 'Document': '#' is not a valid selector.", origin: 'app' as const, atMs: 3, step: 1 };
    const j = judgeOffline(evidence({}, [click('Add', true), click('facebook', false, { pageErrors: [e] })]));
    expect(j.defects.find((d) => d.title.startsWith('Error when using'))).toMatchObject({ code: 'interaction-error', severity: 'minor' });
    const ev = evidence({}, [click('Other', true), click('Add', false, { pageErrors: [{ ...e, text: 'TypeError: list is null' }] })]);
    ev.task.query.prompt = 'A todo list where I can add tasks and delete them.';
    const k = judgeOffline(ev);
    expect(k.defects.find((d) => d.title.startsWith('Error when using'))).toMatchObject({ code: 'core-feature-error', severity: 'critical' });
  });

  it('typing into an input the brief asks for by name that throws is major; a console message there, or an error in a field the brief does not name, stays minor', () => {
    const typed = (name: string, errors: Partial<TraceStep>) => click(name, false, { action: { kind: 'fill', value: '120', target: { signature: `textbox|input|form|${name}|`, name, role: 'textbox', tag: 'input', group: 'textbox|input|form', box: { x: 10, y: 10, width: 300, height: 30 } } }, ...errors });
    const e = { text: "TypeError: totalPer.toFixd is not a function", origin: 'app' as const, atMs: 3, step: 1 };
    const judged = (prompt: string, name: string, errors: Partial<TraceStep>) => {
      const ev = evidence({}, [click('Reset', true), typed(name, errors)]);
      ev.task.query.prompt = prompt;
      return judgeOffline(ev).defects.find((d) => d.title.startsWith('Error when using'));
    };
    const tip = 'Build a tip calculator - bill amount, tip percentage buttons, number of people, and show tip per person and total per person, with a reset button.';
    expect(judged(tip, 'Bill', { pageErrors: [e] })).toMatchObject({ code: 'interaction-error', severity: 'major', detail: expect.stringContaining('an input the brief asks for') });
    expect(judged(tip, 'Bill', { consoleErrors: [{ ...e, text: 'Please enter a valid amount' }] })).toMatchObject({ severity: 'minor' });
    expect(judged(tip, 'Coupon code', { pageErrors: [e] })).toMatchObject({ severity: 'minor' });
    expect(judged('做一个小费计算器：输入账单金额和人数', '账单金额', { pageErrors: [e] })).toMatchObject({ severity: 'major' });
  });

  it('a control the brief names in quotes is core whatever its verb: a throwing "✨ New quote" is critical', () => {
    const e = { text: 'ReferenceError: QUOTE is not defined', origin: 'app' as const, atMs: 3, step: 1 };
    const steps = () => [click('Copy', true), click('✨ New quote', false, { pageErrors: [e] })];
    const ev = evidence({}, steps());
    ev.task.query.prompt = 'Make a random quote generator with a "New quote" button, a copy button and a counter of quotes seen.';
    expect(judgeOffline(ev).defects.find((d) => d.title.startsWith('Error when using'))).toMatchObject({ code: 'core-feature-error', severity: 'critical' });
    // the same control, unnamed by the brief, stays secondary
    const plain = evidence({}, steps());
    plain.task.query.prompt = 'Make a page that shows inspiring quotes.';
    expect(judgeOffline(plain).defects.find((d) => d.title.startsWith('Error when using'))).toMatchObject({ severity: 'minor' });
  });

  it('"No control works" needs two failing controls or nothing left to try: one dead Add beside untested filters is a dead Add; a ticked checkbox that changed the page is a working control', () => {
    // typing into the field: measured without a screen change, as in the examples' dead-button run
    const fill = (value: string) => click('New task', false, { action: { kind: 'fill', value, target: { signature: 'textbox|input|form|New task|', name: 'New task', role: 'textbox', tag: 'input', group: 'textbox|input|form', box: { x: 10, y: 10, width: 300, height: 30 } } } });
    const dead = () => [fill('Call mum'), click('Add task', false), click('Add task', false)];
    const others = evidence({}, dead());
    others.interaction!.untested = ['button "Done"', 'button "Open"', 'button "All"'];
    expect(judgeOffline(others).defects.map((d) => d.title)).toEqual(['Dead button "Add task"']);
    // clicked, but without a measured effect (the step timed out): untested as well
    const unmeasured = evidence({}, [...dead(), { ...click('Done', true), outcome: 'timeout' as const, effect: null }]);
    unmeasured.interaction!.untested = [];
    expect(judgeOffline(unmeasured).defects.map((d) => d.title)).toEqual(['Dead button "Add task"']);
    // a one-button page whose button is dead, nothing else to try: none works
    const alone = evidence({}, [click('Generate', false), click('Generate', false)]);
    alone.interaction!.untested = [];
    expect(judgeOffline(alone).defects.map((d) => d.title)).toContain('No control works');
    // two controls dead: none works, whatever is left
    const two = evidence({}, [...dead(), click('Theme', false), click('Theme', false)]);
    two.interaction!.untested = ['button "Done"'];
    expect(judgeOffline(two).defects.map((d) => d.title)).toContain('No control works');
    // a checkbox ticked that changed the page: the app answers
    const ticked = evidence({}, [...dead(), { ...click('Water the plants', true), action: { kind: 'check' as const, target: click('Water the plants', true).action.target } }, click('Theme', false), click('Theme', false)]);
    expect(judgeOffline(ticked).defects.map((d) => d.title)).not.toContain('No control works');
  });

  it('when no control works at all, the app is broken: one critical −4 in place of the per-control deductions', () => {
    const e = { text: 'TypeError: boom', origin: 'app' as const, atMs: 3, step: 0 };
    const j = judgeOffline(evidence({}, [click('Calculate', false, { pageErrors: [e] })]));
    expect(j.defects.find((d) => d.title === 'No control works')).toMatchObject({ severity: 'critical', deduction: 4 });
    expect(j.defects.find((d) => d.title.startsWith('Error when using'))!.deduction).toBe(0);
    expect(j.final8.functionality).toBe(4);
  });

  it('all buttons dead costs about 4 points, not 8 (METHOD.md §9); many dead buttons beside working ones are capped at 4', () => {
    const steps = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'].flatMap((n) => [click(n, false), click(n, false)]);
    const j = judgeOffline(evidence({}, steps));
    expect(j.defects.filter((d) => d.deduction > 0).reduce((s, d) => s + d.deduction, 0)).toBe(4);
    expect(j.final8.functionality).toBe(4);
    const k = judgeOffline(evidence({}, [click('Works', true), ...steps]));
    // ten secondary dead buttons at −0.5 each are capped at 4
    expect(k.defects.filter((d) => d.deduction > 0).reduce((s, d) => s + d.deduction, 0)).toBe(4);
    expect(k.defects.filter((d) => d.deduction === 0)).toHaveLength(2);
  });

  it('a freeze is critical (−4) and final functionality never exceeds the static score', () => {
    const j = judgeOffline(evidence({}, [click('Go', true), click('Freeze', false, { outcome: 'unresponsive', effect: null })]));
    expect(j.defects[0]).toMatchObject({ severity: 'critical', title: 'Page freezes', deduction: 4 });
    expect(j.final8.functionality).toBe(4);
    expect(j.final8.functionality).toBeLessThanOrEqual(j.static8.functionality);
  });

  it('controls that do nothing because a CDN library could not load offline are not blamed on the app', () => {
    const cdn = [{ url: 'https://cdnjs.cloudflare.com/ajax/libs/p5.js/1.7.0/min/p5.min.js', resourceType: 'script', blocked: true, atMs: 1 }];
    const j = judgeOffline(evidence({ failedRequests: cdn }, [click('Run', false), click('Run', false)]));
    expect(j.defects).toEqual([]);
    expect(j.rubric.find((r) => r.id === '13')).toMatchObject({ verdict: 'exempt' });
    expect(j.reasons.join(' ')).toMatch(/could not be loaded offline/);
    // the same page without the blocked library: the dead control is the app's
    expect(titles(judgeOffline(evidence({}, [click('Other', true), click('Run', false), click('Run', false)])))).toEqual(['Dead button "Run"']);
  });

  it('a page that stays blank without its CDN library is unscorable, not a model failure', () => {
    const st = perception();
    for (const v of st.viewports) v.blank = { isBlank: true, variance: 0, colours: 1, meanBrightness: 255 };
    const j = judgeOffline(evidence({ static: st, failedRequests: [{ url: 'https://unpkg.com/react@18/umd/react.production.min.js', resourceType: 'script', blocked: true, atMs: 1 }] }, null));
    expect(j.unscorable).toMatch(/unpkg\.com/);
    expect(j.rubric.find((r) => r.id === '1')!.verdict).toBe('exempt');
  });

  it('a page that answered but of which no view was captured is not assessed (unscorable), never "does not render"', () => {
    // every viewport check failed (a page replacing its document under each call on a loaded machine); the
    // inventory shows text, nothing shows it blank: the score of 0 for "does not render" would blame the app
    const st = perception({ viewports: [], problems: ['viewport 1280px check failed: page.evaluate: Execution context was destroyed'] });
    const j = judgeOffline(evidence({ static: st }, null));
    expect(j.unscorable).toMatch(/captured no view of the page.*Execution context was destroyed/);
    // a page shown blank, or one that hung at load, is still judged as such
    expect(judgeOffline(evidence({ static: perception({ unresponsive: true, viewports: [], inventory: null }) }, null)).unscorable).toBeNull();
    const blank = perception({ viewports: [], inventory: inventory({ visibleTextLength: 0, canvases: [], images: [], svgCount: 0, style: { ...inventory().style, elementCount: 2, distinctBackgrounds: 0, gradientElements: 0 } }) });
    expect(judgeOffline(evidence({ static: blank }, null)).unscorable).toBeNull();
  });

  it('nothing in the DOM: no text, image, canvas or SVG, and no shapes drawn with CSS (CSS art is content, an empty shell is not)', () => {
    const empty = { visibleTextLength: 0, canvases: [], images: [], svgCount: 0 };
    const style = (elementCount: number, distinctBackgrounds: number, gradientElements = 0) => ({ ...inventory().style, elementCount, distinctBackgrounds, gradientElements });
    // a cat drawn with 7 styled <div>s in 3 colours
    expect(nothingInDom(inventory({ ...empty, style: style(7, 3) }))).toBe(false);
    // shapes painted only with gradients
    expect(nothingInDom(inventory({ ...empty, style: style(4, 0, 2) }))).toBe(false);
    // an app shell of empty containers, and a single painted card with nothing in it
    expect(nothingInDom(inventory({ ...empty, style: style(5, 0) }))).toBe(true);
    expect(nothingInDom(inventory({ ...empty, style: style(1, 1) }))).toBe(true);
    // any text, image, canvas or SVG is content
    expect(nothingInDom(inventory({ ...empty, visibleTextLength: 3, style: style(1, 0) }))).toBe(false);
    expect(nothingInDom(null)).toBe(false);
  });

  it('CSS art with a clean screenshot is content, not "Blank page", also without vision (ablation)', () => {
    const st = perception({ inventory: inventory({ visibleTextLength: 0, canvases: [], images: [], svgCount: 0, interactive: [], style: { ...inventory().style, elementCount: 7, distinctBackgrounds: 3, gradientElements: 0 } }) });
    expect(titles(judgeOffline(evidence({ static: st }, null)))).not.toContain('Blank page');
    expect(judgeOffline(evidence({ static: st }, null)).rubric.find((r) => r.id === '1')!.verdict).toBe('pass');
    expect(titles(judgeOffline(evidence({ static: st }, null), { ...FULL, vision: false }))).not.toContain('Blank page');
    // the same DOM with its shapes gone is blank (the screenshot shows only the background)
    const gone = perception({ inventory: inventory({ visibleTextLength: 0, canvases: [], images: [], svgCount: 0, interactive: [], style: { ...inventory().style, elementCount: 1, distinctBackgrounds: 0, gradientElements: 0 } }) });
    expect(titles(judgeOffline(evidence({ static: gone }, null)))).toContain('Blank page');
  });

  it('a library warning printed with console.error (React 18 deprecation) is one minor note, not a major runtime error', () => {
    const warn = { text: 'Warning: ReactDOM.render is no longer supported in React 18. Use createRoot instead.', origin: 'app' as const, atMs: 5 };
    const j = judgeOffline(evidence({ consoleErrors: [warn] }, [click('Add', true)]));
    expect(j.defects.map((d) => `${d.severity}:${d.title}`)).toEqual(['minor:Library warning logged as an error on load']);
    expect(j.rubric.find((r) => r.id === '5')!.verdict).toBe('pass');
    // a real error beside it is still the major defect
    const err = { text: 'TypeError: Cannot read properties of null (reading "addEventListener")', origin: 'app' as const, atMs: 6 };
    const k = judgeOffline(evidence({ consoleErrors: [warn], pageErrors: [err] }, [click('Add', true)]));
    expect(k.defects.find((d) => d.rubricItem === '5')).toMatchObject({ severity: 'major', title: 'Runtime error on load' });
  });

  it('alert-only handlers are placeholders', () => {
    const alert = { type: 'alert', message: 'Coming soon!', answer: 'accepted' as const, atMs: 1 };
    const steps = [click('Buy', true, { dialogs: [alert], effect: { pixelChange: 0, targetPixelChange: 0, domMutations: 0, scrolled: false, screenChanged: true } }), click('Rent', true, { dialogs: [alert], effect: { pixelChange: 0, targetPixelChange: 0, domMutations: 0, scrolled: false, screenChanged: true } })];
    expect(titles(judgeOffline(evidence({}, steps)))).toContain('Placeholder handlers');
  });
  it('an alert that explains an empty state or a missing input is feedback, not a placeholder (GPT-5 camping checklist: "No saved list selected.")', () => {
    const only = (message: string) => ({ dialogs: [{ type: 'alert', message, answer: 'accepted' as const, atMs: 1 }], effect: { pixelChange: 0, targetPixelChange: 0, domMutations: 0, scrolled: false, screenChanged: true } });
    const run = (m: string) => titles(judgeOffline(evidence({}, [click('Load', true, only(m)), click('Delete', true, only(m)), click('Export', true, only(m))])));
    for (const m of ['No saved list selected.', 'Please enter a name first', '请先选择一个清单', 'Veuillez choisir une liste', 'Bitte zuerst eine Liste wählen']) expect(run(m), m).not.toContain('Placeholder handlers');
    for (const m of ['Coming soon!', 'Button clicked', 'Feature under construction']) expect(run(m), m).toContain('Placeholder handlers');
  });
});

describe('offline judge: ablation switches', () => {
  const canvasClick = (changed: boolean) => click('Canvas', changed, { effect: { pixelChange: 0.2, targetPixelChange: 0.2, outsidePixelChange: 0.2, domMutations: 0, scrolled: false, screenChanged: changed } });
  it('vision: false judges from DOM evidence only (a canvas that changes pixels but not the DOM looks dead)', () => {
    const steps = () => [click('Menu', true), canvasClick(true), canvasClick(true)];
    expect(judgeOffline(evidence({}, steps())).defects).toEqual([]);
    const j = judgeOffline(evidence({}, steps()), { vision: false, video: true, staticScore: true, deferredScoring: true });
    expect(j.defects.map((d) => d.title)).toEqual(['Dead button "Canvas"']);
    expect(j.ablation!.vision).toBe(false);
  });
  it('video: false ignores the interaction evidence', () => {
    const steps = [click('Ok', true), click('Apply', false), click('Apply', false)];
    expect(judgeOffline(evidence({}, steps)).defects).toHaveLength(1);
    expect(judgeOffline(evidence({}, steps), { vision: true, video: false, staticScore: true, deferredScoring: true }).defects).toEqual([]);
  });
  it('deferredScoring: false takes the verdict after the last step, which cannot wait for a second try', () => {
    const steps = [click('Add', true), click('Apply', false)];
    expect(judgeOffline(evidence({}, steps)).defects).toEqual([]);
    const j = judgeOffline(evidence({}, steps), { vision: true, video: true, staticScore: true, deferredScoring: false });
    expect(j.defects.map((d) => d.title)).toEqual(['No control works', 'Dead button "Apply"']);
    expect(j.reasons.join(' ')).toMatch(/last of 2 steps stands/);
  });
  it('staticScore: false says there is no Stage-1 prior', () => {
    expect(judgeOffline(evidence(), { vision: true, video: true, staticScore: false, deferredScoring: true }).reasons.join(' ')).toMatch(/no Stage-1 prior/);
  });
});

describe('contrast weighs what a reader loses (issue 11: size the deduction by the loss)', () => {
  const contrast = (texts: { text: string; chars: number; ratio: number }[]) => {
    const axe = [{ id: 'color-contrast', impact: 'serious', nodes: texts.length, help: 'contrast', texts: texts.map((t) => ({ ...t, fontSizePx: 12 })), chars: texts.reduce((a, t) => a + t.chars, 0) }];
    return judgeOffline(evidence({ static: perception({ axe, inventory: inventory({ visibleTextLength: 600 }) }) })).defects.filter((d) => d.code === 'poor-contrast');
  };
  it('three faint timestamps (2.7:1, 24 of 600 characters) are a minor defect that names them', () => {
    const d = contrast([1, 2, 3].map(() => ({ text: 'Just now', chars: 8, ratio: 2.72 })));
    expect(d.map((x) => x.severity)).toEqual(['minor']);
    expect(d[0]!.detail).toMatch(/24 of 600 characters.*2\.72:1.*"Just now"/);
  });
  it('the body text failing (a fifth of the page or more), or text below 2:1, is major; older evidence without texts stays major', () => {
    expect(contrast([1, 2, 3].map(() => ({ text: 'A long paragraph of body copy', chars: 60, ratio: 3.9 }))).map((x) => x.severity)).toEqual(['major']);
    expect(contrast([1, 2, 3].map(() => ({ text: 'Save', chars: 4, ratio: 1.4 }))).map((x) => x.severity)).toEqual(['major']);
    // near misses (4.46:1 against 4.5:1) are not a loss a reader sees: they do not count toward the share
    expect(contrast([1, 2, 3].map(() => ({ text: 'A long paragraph of body copy', chars: 60, ratio: 4.46 }))).map((x) => x.severity)).toEqual(['minor']);
    const old = [{ id: 'color-contrast', impact: 'serious', nodes: 3, help: 'contrast' }];
    expect(judgeOffline(evidence({ static: perception({ axe: old }) })).defects.filter((d) => d.code === 'poor-contrast').map((x) => x.severity)).toEqual(['major']);
  });
  it('the detail\'s example is the faintest text, and its count never exceeds the page\'s text (a French notes app read "125 of 119 characters… faintest at 2.19:1, e.g." a 3.41:1 text)', () => {
    const texts = [{ text: 'Vos notes sont enregistrées automatiquement', chars: 70, ratio: 3.41 }, { text: 'Ajouter la note', chars: 15, ratio: 2.19 }, { text: '0 note', chars: 40, ratio: 3.1 }];
    const axe = [{ id: 'color-contrast', impact: 'serious', nodes: 3, help: 'contrast', texts: texts.map((t) => ({ ...t, fontSizePx: 14 })), chars: 125 }];
    const d = judgeOffline(evidence({ static: perception({ axe, inventory: inventory({ visibleTextLength: 119 }) }) })).defects.find((x) => x.code === 'poor-contrast')!;
    expect(d.detail).toMatch(/119 of 119 characters of text, the faintest at 2\.19:1: "Ajouter la note"/);
  });
});
