import { describe, expect, it } from 'vitest';
import { countRegions } from '../../src/interact/effect.js';
import type { Capture } from '../../src/interact/record/keyframe.js';
import { assembleEffect, compareKeyframes, grow, MASK_MARGIN_PX, regionsPerSecond, ringOf, round4, stepMasks, stillAnimating, type Shot } from '../../src/interact/step-effect.js';
import type { Rgba } from '../../src/perceive/image.js';

/** A 320×320 white image with black 32-px squares at the given cells. */
function img(cells: [number, number][]): Rgba {
  const w = 320;
  const data = Buffer.alloc(w * w * 4, 255);
  for (const [cx, cy] of cells)
    for (let y = cy * 32; y < cy * 32 + 32; y++)
      for (let x = cx * 32; x < cx * 32 + 32; x++) data.fill(0, (y * w + x) * 4, (y * w + x) * 4 + 3);
  return { width: w, height: w, data };
}
const snap = (mutations: number, over: Partial<NonNullable<Capture['snap']>> = {}): Capture['snap'] => ({ mutations, scrollX: 0, scrollY: 0, url: 'u', focusBox: null, ...over });
const shot = (cells: [number, number][], at: number, s: Capture['snap'] = snap(0), text: string[] | null = null): Shot => ({ png: Buffer.alloc(0), img: img(cells), snap: s, text, at });
const none: Capture = { png: null, img: null, snap: null, text: null, at: 0 };

describe('keyframe comparison of one step', () => {
  it('grows masks by the margin around the target and the previous focus ring', () => {
    expect(grow({ x: 10, y: 20, width: 30, height: 40 }, 8)).toEqual({ x: 2, y: 12, width: 46, height: 56 });
    const before = shot([], 1000, snap(0, { focusBox: { x: 200, y: 200, width: 20, height: 20 } }));
    const d = compareKeyframes(none, before, shot([], 1500), { x: 0, y: 0, width: 32, height: 32 });
    expect(d.masks).toEqual([grow({ x: 0, y: 0, width: 32, height: 32 }, MASK_MARGIN_PX), grow({ x: 200, y: 200, width: 20, height: 20 }, MASK_MARGIN_PX)]);
  });

  it('a key pressed on a focused canvas game: what changes inside the canvas is the key\'s effect (only the ring is masked); a focused text field is masked whole', () => {
    // the canvas (tabindex=0, focused by the game) covers cells 2–7; "Paused" is drawn in cells 4 and 5 of row 4
    const canvas = { x: 64, y: 64, width: 192, height: 192 };
    const paused = (focusText: boolean | undefined) => compareKeyframes(none, shot([], 1000, snap(0, { focusBox: canvas, ...(focusText === undefined ? {} : { focusText }) })), shot([[4, 4], [5, 4]], 1600), null);
    expect(countRegions(paused(false).actionGrid)).toBe(2);
    expect(paused(false).outsidePixelChange).toBeGreaterThan(0);
    // its ring stays masked: a focus-visible outline appearing around it is no effect
    const ring = compareKeyframes(none, shot([], 1000, snap(0, { focusBox: canvas, focusText: false })), shot([[2, 2], [7, 7], [2, 7]], 1600), null);
    expect(countRegions(ring.actionGrid)).toBe(0);
    // a focused text field (its caret blinks inside), and a probe that did not say: the whole box, as before
    expect(countRegions(paused(true).actionGrid)).toBe(0);
    expect(countRegions(paused(undefined).actionGrid)).toBe(0);
    expect(stepMasks(null, snap(0, { focusBox: canvas, focusText: false }))).toEqual(ringOf(canvas));
    expect(ringOf({ x: 10, y: 10, width: 6, height: 40 })).toEqual([grow({ x: 10, y: 10, width: 6, height: 40 }, MASK_MARGIN_PX)]);
  });

  it('a change only on the target is inside the target, not outside it, and no region counts', () => {
    const box = { x: 64, y: 64, width: 32, height: 32 };
    const d = compareKeyframes(none, shot([], 1000), shot([[2, 2]], 1600), box);
    expect(d.pixelChange).toBeCloseTo(1 / 100, 4);
    expect(d.targetPixelChange).toBe(1);
    expect(d.outsidePixelChange).toBe(0);
    expect(countRegions(d.actionGrid)).toBe(0);
  });

  it('a panel opening elsewhere shows outside the target; without a target the outside share is the whole change', () => {
    const d = compareKeyframes(none, shot([], 1000), shot([[7, 7], [8, 7]], 1600), { x: 0, y: 0, width: 32, height: 32 });
    expect(d.outsidePixelChange).toBeGreaterThan(0);
    expect(countRegions(d.actionGrid)).toBe(2);
    const free = compareKeyframes(none, shot([], 1000), shot([[7, 7]], 1600), null);
    expect(free.targetPixelChange).toBeNull();
    expect(free.outsidePixelChange).toBe(free.pixelChange);
  });

  it('DOM mutations and scroll come from the probe counters; no idle baseline without a baseline screenshot', () => {
    const d = compareKeyframes({ ...none, snap: snap(2) }, shot([], 1000, snap(5)), shot([], 1500, snap(12, { scrollY: 300 })), null);
    expect(d.domMutations).toBe(7);
    expect(d.scrolled).toBe(true);
    expect(d.idleGrid).toBeNull();
    expect(d.idleMs).toBe(0);
    expect(d.idleMutations).toBe(3);
  });

  it('the idle baseline holds what the page changed on its own before the action, over how long', () => {
    const d = compareKeyframes(shot([[0, 0]], 400, snap(1)), shot([[1, 0]], 1000, snap(4)), shot([[1, 0], [5, 5]], 1500), null);
    expect(countRegions(d.idleGrid!)).toBe(2);
    expect(d.idleMs).toBe(600);
    expect(d.idleMutations).toBe(3);
  });
});

describe('motion belief and the recorded effect', () => {
  it('regions per second, one decimal', () => {
    const g = compareKeyframes(none, shot([], 0), shot([[1, 1], [3, 3], [5, 5]], 1), null).actionGrid;
    expect(regionsPerSecond(g, 600)).toBe(5);
    expect(regionsPerSecond(g, 0)).toBe(3000);
  });

  it('the page moves by itself when the baseline changed; without a baseline screenshot the counters tell; else unknown', () => {
    const still = compareKeyframes(shot([], 0), shot([], 500), shot([], 900), null);
    expect(stillAnimating(shot([], 0), shot([], 500), still)).toBe(false);
    expect(stillAnimating(shot([], 0), shot([], 500), { idleGrid: still.idleGrid, idleMutations: 1 })).toBe(true);
    expect(stillAnimating({ ...none, snap: snap(0, { draws: 3 }) }, { ...none, snap: snap(0, { draws: 9 }) }, { idleGrid: null, idleMutations: 0 })).toBe(true);
    expect(stillAnimating({ ...none, snap: snap(4) }, { ...none, snap: snap(4) }, { idleGrid: null, idleMutations: 0 })).toBe(false);
    expect(stillAnimating(none, { ...none, snap: snap(4) }, { idleGrid: null, idleMutations: 0 })).toBeUndefined();
  });

  it('assembles the trace effect: rounded shares, verdict, baseline, regions, motion and external only when present', () => {
    const base = shot([[0, 0]], 400, snap(0), ['Time 1']);
    const before = shot([[1, 0]], 1000, snap(0), ['Time 2']);
    const d = compareKeyframes(base, before, shot([[1, 0], [6, 6]], 1500), null);
    const e = assembleEffect(d, { kind: 'changed', why: 'regions', changed: 1, novel: 1, textChanged: 0 }, base, before, undefined, []);
    expect(e).toEqual({
      pixelChange: round4(d.pixelChange),
      targetPixelChange: null,
      domMutations: 0,
      scrolled: false,
      outsidePixelChange: round4(d.outsidePixelChange),
      screenChanged: true,
      kind: 'changed',
      why: 'regions',
      baseline: { ms: 600, regions: 2, mutations: 0, textLines: 2 },
      regions: { changed: 1, novel: 1, total: 100 },
      textChanged: 0,
    });
    const quiet = assembleEffect(d, { kind: 'external', why: 'download', changed: 0, novel: 0, textChanged: 0 }, base, before, { before: 3, after: 0 }, [{ kind: 'download', detail: 'a.csv' }]);
    expect(quiet).toMatchObject({ screenChanged: false, motion: { before: 3, after: 0 }, external: [{ kind: 'download', detail: 'a.csv' }] });
    expect(round4(0.123456)).toBe(0.1235);
  });
});
