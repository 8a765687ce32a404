import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MEASURE_INVARIANT, measureAfter, withMeasurement } from '../../src/interact/measure-after.js';
import { fakePage } from '../fixtures/fake-page.js';
import { tmpDir } from '../helpers.js';

function setup(evaluate: (e: string) => unknown) {
  const dir = tmpDir('cookie-measure-');
  fs.mkdirSync(path.join(dir, 'screenshots'));
  const fake = fakePage({ evaluate, viewport: { width: 1280, height: 800 } });
  const clock = { events: [] as string[], run: async () => void clock.events.push('run'), pause: async () => void clock.events.push('pause') };
  return { dir, ...fake, clock, opts: { evidenceDir: dir, unresponsiveMs: 500 } };
}

describe("a careful tester's second look after an action", () => {
  it('layout-375: phone width, overflow and text problems, a screenshot; the viewport restored; the app ran meanwhile', async () => {
    const problems = [...Array.from({ length: 12 }, (_, i) => ({ kind: 'clipped', selector: `p${i}`, text: 't' })), { kind: 'overlap', selector: 'a', text: '' }, { kind: 'overlap', selector: 'b', text: '' }];
    const s = setup((e) => (e.includes('overflow()') ? { overflowPx: 42, offenders: [{ selector: 'nav', right: 417 }] } : e.includes('textProblems()') ? problems : null));
    const m = await measureAfter(s.page, 'layout-375', 'screenshots/step-01-layout-375.png', s.opts, s.clock);
    expect(m).toMatchObject({ viewport: 375, overflowPx: 42, offenders: [{ selector: 'nav', right: 417 }], overlapping: 2, screenshot: 'screenshots/step-01-layout-375.png' });
    expect(m.clipped).toHaveLength(10);
    expect(fs.existsSync(path.join(s.dir, 'screenshots/step-01-layout-375.png'))).toBe(true);
    expect(s.calls.filter((c) => c.startsWith('setViewportSize'))).toEqual(['setViewportSize:375x812', 'setViewportSize:1280x800']);
    expect(s.clock.events).toEqual(['run', 'pause']);
  });

  it('resize: canvas ink before and after a shrink-and-restore of the window', async () => {
    let n = 0;
    const s = setup((e) => (e.includes('canvasInk()') ? { ink: n++ === 0 ? 0.3 : 0 } : null));
    const m = await measureAfter(s.page, 'resize', 'screenshots/step-02-resize.png', s.opts, s.clock);
    expect(m).toEqual({ inkBefore: 0.3, inkAfter: 0, resizedTo: { width: 960, height: 680 }, screenshot: 'screenshots/step-02-resize.png' });
    expect(s.calls.filter((c) => c.startsWith('setViewportSize'))).toEqual(['setViewportSize:960x680', 'setViewportSize:1280x800', 'setViewportSize:1280x800']);
  });

  it('dpr2: canvas backing stores under a DPR-2 phone override, which is cleared and detached after', async () => {
    const s = setup((e) => (e.includes('canvasBacking()') ? [{ width: 375, backing: 375 }] : null));
    const m = await measureAfter(s.page, 'dpr2', 'screenshots/step-03-dpr2.png', s.opts, s.clock);
    expect(m).toEqual({ viewport: 375, dpr: 2, canvases: [{ width: 375, backing: 375 }], screenshot: 'screenshots/step-03-dpr2.png' });
    // the keyframe is captured by the overriding session itself (what was measured), then the override is cleared
    expect(s.calls.filter((c) => c.startsWith('cdp'))).toEqual(['cdp:Emulation.setDeviceMetricsOverride', 'cdp:Page.captureScreenshot', 'cdp:Emulation.clearDeviceMetricsOverride', 'cdp.detach']);
  });

  it('a probe that fails throws, and still the viewport is restored and the app frozen again', async () => {
    const s = setup((e) => (e.includes('overflow()') ? Promise.reject(new Error('probe gone')) : null));
    await expect(measureAfter(s.page, 'layout-375', 'x.png', s.opts, s.clock)).rejects.toThrow(/probe gone/);
    expect(s.calls.at(-1)).toBe('setViewportSize:1280x800');
    expect(s.clock.events).toEqual(['run', 'pause']);
  });

  it("adds the measurement to the decision's check, or makes a check of the measurement's invariant", () => {
    const d = { action: { kind: 'click' as const, target: { signature: 's', name: 'Dark mode', role: 'button', tag: 'button', group: 'g', box: { x: 0, y: 0, width: 1, height: 1 } } }, reasoning: '', measure: 'layout-375' as const };
    expect(withMeasurement(undefined, d, { overflowPx: 0 })).toEqual({ invariant: MEASURE_INVARIANT['layout-375'], subject: 'Dark mode', measured: { overflowPx: 0 } });
    expect(withMeasurement(undefined, { ...d, action: { kind: 'press' }, measure: 'dpr2' }, {})).toMatchObject({ invariant: 'dpr-sharp', subject: 'dpr2' });
    expect(withMeasurement({ invariant: 'resize-keeps', subject: 'Canvas', before: null }, d, { inkAfter: 0 })).toEqual({ invariant: 'resize-keeps', subject: 'Canvas', before: null, measured: { inkAfter: 0 } });
  });
});
