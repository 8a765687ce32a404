import { pngWritesDone } from '../../src/common/png.js';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { EventLog } from '../../src/browser/session.js';
import type { Decision, ObservedElement } from '../../src/interact/agent.js';
import type { HumanInput } from '../../src/interact/input.js';
import { StepRecorder, type StepClock, type StepOptions } from '../../src/interact/step.js';
import { fakePage, png } from '../fixtures/fake-page.js';
import { tmpDir } from '../helpers.js';

// The step recorder against a scripted stand-in page (no browser): the probe's answers, the screenshots and
// the page's liveness are set per test; the clock logs run/pause and advances the video by 500 ms a pause.

interface AppState {
  mutations: number;
  clicks: number;
  text: string[];
  shot: [number, number][];
  hung: boolean;
  /** false while a document the action navigated to is still being parsed (its body not there yet) */
  parsed: boolean;
}

function rig(over: Partial<StepOptions> = {}, onAct: (s: AppState, log: EventLog) => void = () => {}, selfMutating = false, slowRenderer = false) {
  const dir = tmpDir('cookie-step-');
  fs.mkdirSync(path.join(dir, 'screenshots'));
  const log = new EventLog();
  const state: AppState = { mutations: 10, clicks: 0, text: ['Count: 0'], shot: [], hung: false, parsed: true };
  const act = () => onAct(state, log);
  const { page, calls } = fakePage({
    evaluate: (e) => {
      if (state.hung) return new Promise(() => {});
      if (e === '1') return 1;
      // a page that changes its DOM by itself: one mutation between any two looks
      if (e.includes('snapshot()') && selfMutating) state.mutations++;
      if (e.includes('snapshot()')) return { mutations: state.mutations, clicks: state.clicks, frames: 0, scrollX: 0, scrollY: 0, url: 'http://127.0.0.1:1/', focusBox: null, content: { elements: state.parsed ? 20 : 0, textChars: state.parsed ? state.text.join('').length : 0, ...(state.parsed ? {} : { loading: true }) } };
      if (e.startsWith('window.__cookieProbe.textState(')) return state.text;
      if (e.startsWith('window.__cookieProbe.reveal(')) return { x: 100.4, y: 50.6, width: 80, height: 30, cx: 140, cy: 65, covered: true, coveredBy: 'div.banner', cover: { selector: 'div.banner', tag: 'div', dialog: false, interactive: false, text: 'Sale!', areaShare: 0.2 } };
      if (e.startsWith('window.__cookieProbe.externalSince(')) return [];
      if (e.startsWith('window.__cookieProbe.isActive(')) return false;
      return null;
    },
    screenshot: () => png(state.shot),
    onWait: act,
    onLoadState: (st) => {
      if (st === 'domcontentloaded') state.parsed = true;
    },
  });
  // a slow renderer: the pointer's path is cut short by its budget (HumanInput.moveTo counts it)
  const input = { shortcuts: 0, aim: (b: { x: number; y: number; width: number; height: number }) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 }), moveTo: async function (this: { shortcuts: number }) { if (slowRenderer) this.shortcuts++; }, press: async () => act() } as unknown as HumanInput;
  const events: string[] = [];
  let offset = 0;
  const clock: StepClock = {
    run: async () => void events.push('run'),
    pause: async () => {
      events.push('pause');
      offset += 500;
    },
    pauseVideo: () => void events.push('pauseVideo'),
    videoOffset: () => offset,
  };
  const opts: StepOptions = { url: 'http://127.0.0.1:1/', origin: 'http://127.0.0.1:1', evidenceDir: dir, stepTimeoutMs: 5000, unresponsiveMs: 300, animatedShare: 0, idleMutationsPerSec: 0, ...over };
  return { dir, log, state, calls, events, recorder: new StepRecorder(page, log, input, clock, opts) };
}

const wait: () => Decision = () => ({ action: { kind: 'wait', durationMs: 0 }, reasoning: 'look' });
const addButton: ObservedElement = { ref: 2, name: 'Add', tag: 'button', role: 'button', signature: 'button|b|form|Add|', group: 'button|b|form', box: { x: 0, y: 0, width: 1, height: 1 }, inViewport: true, disabled: false };
const clickAdd = (): Decision => ({ action: { kind: 'click', target: { signature: addButton.signature, name: 'Add', role: 'button', tag: 'button', group: addButton.group, box: addButton.box } }, reasoning: 'add one', ref: 2 });

describe('step recorder: one action and its evidence', () => {
  it('a step that changes nothing: keyframes written, effect none, video offsets, only its own events, the log stamped', async () => {
    const r = rig({}, (_s, log) => log.consoleErrors.push({ text: 'during', origin: 'app', atMs: 1, step: log.step }));
    r.log.consoleErrors.push({ text: 'before the step', origin: 'app', atMs: 0 });
    const s = await r.recorder.record(7, wait(), 42, []);
    expect(s).toMatchObject({ index: 7, thinkMs: 42, outcome: 'ok', screenshotBefore: 'screenshots/step-07-before.png', screenshotAfter: 'screenshots/step-07-after.png' });
    // kept in the background; on disk once the writes are done (the loop waits for them before it returns)
    await pngWritesDone(r.dir);
    for (const f of [s.screenshotBefore!, s.screenshotAfter!]) expect(fs.existsSync(path.join(r.dir, f))).toBe(true);
    expect(s.effect).toMatchObject({ kind: 'none', screenChanged: false, pixelChange: 0, baseline: null });
    expect(s.consoleErrors.map((e) => e.text)).toEqual(['during']);
    expect(s.consoleErrors[0]!.step).toBe(7);
    expect(r.log.step).toBe(7);
    // run for the pointer, pause for "before", run for the action, pause for "after"
    expect(r.events).toEqual(['run', 'pause', 'run', 'pause']);
    expect(s.video).toEqual({ startMs: 0, endMs: 1000 });
    expect(s.durationMs).toBeGreaterThanOrEqual(450);
    expect(r.calls.filter((c) => c === 'screenshot')).toHaveLength(2); // a still page takes no screenshot baseline
  });

  it('a click that adds an item: the target box and the cover recorded, the text change is the effect, the click was delivered', async () => {
    const r = rig({}, (s) => {
      s.clicks += 1;
      s.mutations += 5;
      s.text = ['Count: 1', 'Milk'];
      s.shot = [[5, 5], [6, 5]];
    });
    const d = clickAdd();
    const s = await r.recorder.record(0, d, 10, [addButton]);
    expect(s.action.target!.box).toEqual({ x: 100, y: 51, width: 80, height: 30 });
    expect(s.reasoning).toBe('add one (covered by div.banner: a real pointer hits that instead)');
    expect(s.intercepted).toMatchObject({ selector: 'div.banner' });
    expect(s.clickDelivered).toBe(true);
    expect(s.effect).toMatchObject({ kind: 'changed', why: 'text', screenChanged: true, domMutations: 5, textChanged: 3 }); // 'Count: 0' gone, 'Count: 1' and 'Milk' new
    expect(s.effect!.outsidePixelChange).toBeGreaterThan(0);
    expect(s.content).toEqual({ before: { elements: 20, textChars: 8 }, after: { elements: 20, textChars: 12 } });
    expect(s.pointerPathCut).toBeUndefined();
  });

  it('a click whose pointer path a slow renderer cut short says so in the trace (the input was coarser than planned)', async () => {
    const r = rig({}, (s) => void (s.clicks += 1), false, true);
    const s = await r.recorder.record(0, clickAdd(), 10, [addButton]);
    expect(s.outcome).toBe('ok');
    expect(s.pointerPathCut).toBe(true);
  });

  it('a click that navigates the app (a GET form) is read once the new document is parsed, not from its first bytes (no false "destroyed itself")', async () => {
    const r = rig({}, (s, log) => {
      s.clicks += 1;
      s.parsed = false;
      log.navigations.push({ kind: 'navigation', url: 'http://127.0.0.1:1/?q=soup', offApp: false, atMs: 5, step: log.step });
    });
    const s = await r.recorder.record(0, clickAdd(), 0, [addButton]);
    expect(s.navigations).toHaveLength(1);
    expect(s.content).toEqual({ before: { elements: 20, textChars: 8 }, after: { elements: 20, textChars: 8 } });
    const waited = r.calls.indexOf('waitForLoadState:domcontentloaded');
    expect(waited).toBeGreaterThan(-1);
    expect(r.calls.slice(waited).some((c) => c.includes('snapshot()'))).toBe(true);
    // the navigation committed only after the settle wait: the keyframe read while the new document was being
    // parsed says so, and is taken again once it is parsed
    const late = rig({}, (s) => {
      s.clicks += 1;
      s.parsed = false;
    });
    const l = await late.recorder.record(0, clickAdd(), 0, [addButton]);
    expect(l.content).toEqual({ before: { elements: 20, textChars: 8 }, after: { elements: 20, textChars: 8 } });
    expect(late.calls.filter((c) => c === 'waitForLoadState:domcontentloaded')).toHaveLength(1);
    // a step without a navigation does not wait for a load
    const still = rig();
    await still.recorder.record(0, clickAdd(), 0, [addButton]);
    expect(still.calls.filter((c) => c.startsWith('waitForLoadState'))).toEqual([]);
  });

  it('a page that stops answering during the action: outcome unresponsive, the video stopped, no "after" keyframe', async () => {
    const r = rig({}, (s) => {
      s.hung = true;
    });
    const s = await r.recorder.record(3, wait(), 0, []);
    expect(s).toMatchObject({ outcome: 'unresponsive', error: 'main thread stopped answering after wait', screenshotBefore: 'screenshots/step-03-before.png', screenshotAfter: null, effect: null });
    expect(r.events.at(-1)).toBe('pauseVideo');
    expect(s.video).toEqual({ startMs: 0, endMs: 500 });
  });

  it('the wait for effects ends once the DOM is quiet (after half a second), lasts while it changes, and discounts what the page changes by itself', async () => {
    // timed on a fake clock (Node's timers and Date), so the machine's speed cannot change the answer
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    try {
      const timed = async (r: ReturnType<typeof rig>) => {
        let done = false;
        const p = r.recorder.record(0, wait(), 0, []).finally(() => (done = true));
        while (!done) await vi.advanceTimersByTimeAsync(10);
        return (await p).durationMs;
      };
      // a page whose DOM keeps changing is looked at until the 1.65-s bound
      const busy = await timed(rig({}, () => {}, true));
      expect(busy).toBeGreaterThanOrEqual(1650);
      // a still page until it was quiet for one look after 450 ms: the look at 500 ms (the old wait: 450 ms, then
      // looks 200 ms apart until two agreed, 650 ms)
      const still = await timed(rig());
      expect(still).toBeGreaterThanOrEqual(450);
      expect(still).toBeLessThanOrEqual(550);
      // the same changes are the page's own when static perception saw it mutate at that rate while idle
      const own = await timed(rig({ idleMutationsPerSec: 20 }, () => {}, true));
      expect(own).toBeLessThanOrEqual(550);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a page that animates takes a screenshot baseline first, and learns from a still step that it no longer moves', async () => {
    const r = rig({ animatedShare: 0.05 });
    expect(r.recorder.pageAnimates).toBe(true);
    const s = await r.recorder.record(0, wait(), 0, []);
    expect(r.calls.filter((c) => c === 'screenshot')).toHaveLength(3);
    expect(s.effect!.baseline).toMatchObject({ regions: 0, mutations: 0 });
    expect(r.recorder.pageAnimates).toBe(false);
  });
});
