import { describe, expect, it } from 'vitest';
import { changedLines, changedRegions, countRegions, decideEffect, lastingMotionChange, lineShape, motionChange, type EffectInput } from '../../src/interact/effect.js';
import type { Rgba } from '../../src/perceive/image.js';

/** A 320×320 white image with black squares at the given cells (32-px grid). */
function img(cells: [number, number][]): Rgba {
  const w = 320, h = 320;
  const data = Buffer.alloc(w * h * 4, 255);
  for (const [cx, cy] of cells)
    for (let y = cy * 32; y < cy * 32 + 32; y++)
      for (let x = cx * 32; x < cx * 32 + 32; x++) data.fill(0, (y * w + x) * 4, (y * w + x) * 4 + 3);
  return { width: w, height: h, data };
}

const base = (over: Partial<EffectInput>): EffectInput => ({
  action: null, idle: null, idleMs: 500, actionMs: 600, mutations: 0, idleMutations: 0, staticIdleMutations: 0,
  outsidePixelChange: 0, noise: 0, textChanged: [], idleTextChanged: [], scrolled: false, dialogs: 0, navigations: 0,
  urlChanged: false, external: [], targetName: 'Go', targetInItem: false, empty: null, ...over,
});

describe('effect measurement (counterfactual)', () => {
  it('finds the changed regions and ignores masked ones', () => {
    const g = changedRegions(img([]), img([[1, 1], [5, 5]]));
    expect(countRegions(g)).toBe(2);
    expect(countRegions(changedRegions(img([]), img([[1, 1], [5, 5]]), [{ x: 30, y: 30, width: 40, height: 40 }]))).toBe(1);
  });

  it('a button on a self-animating page works when it changes regions the animation leaves alone', () => {
    const idle = changedRegions(img([[0, 0]]), img([[1, 0]])); // a logo drifting along the top row
    const action = changedRegions(img([[2, 0]]), img([[3, 0], [6, 8], [7, 8]])); // drift + a panel opening below
    expect(decideEffect(base({ idle, action })).kind).toBe('changed');
    // the same drift alone is the page's own animation, not the action's effect
    const driftOnly = changedRegions(img([[2, 0]]), img([[3, 0]]));
    expect(decideEffect(base({ idle: changedRegions(img([[1, 0]]), img([[2, 0]])), action: driftOnly })).kind).toBe('none');
  });

  it('a ticking clock is not an effect, a counter that moves is', () => {
    const v = decideEffect(base({ idleTextChanged: ['Time 12:00:01', 'Time 12:00:02'], textChanged: ['Time 12:00:02', 'Time 12:00:03'] }));
    expect(v.kind).toBe('none');
    expect(decideEffect(base({ idleTextChanged: ['Time 12:00:01', 'Time 12:00:02'], textChanged: ['Count: 1', 'Count: 2'] })).kind).toBe('changed');
    expect(lineShape('Total $12.50 (3 items)')).toBe('Total $# (# items)');
    expect(changedLines(['a', 'b', 'b'], ['a', 'b', 'c']).sort()).toEqual(['b', 'c']);
  });

  it('records downloads and clipboard writes as effects that leave the page, not as nothing', () => {
    const v = decideEffect(base({ targetName: 'Save PNG', external: [{ kind: 'download', detail: 'drawing.png' }] }));
    expect(v.kind).toBe('external');
    expect(v.why).toBe('download');
  });

  it('a clear on an empty canvas, a delete with nothing selected and the current tab have nothing to do; a dead reset at 5 is none', () => {
    expect(decideEffect(base({ targetName: 'Clear', empty: { canvasBlank: true, fieldsEmpty: true, zeros: false, selection: false } })).kind).toBe('nothing-to-do');
    expect(decideEffect(base({ targetName: 'Delete selected', empty: { canvasBlank: null, fieldsEmpty: false, zeros: false, selection: false } })).kind).toBe('nothing-to-do');
    expect(decideEffect(base({ targetName: 'EN', targetActive: true })).kind).toBe('nothing-to-do');
    expect(decideEffect(base({ targetName: 'Reset', targetInItem: true, empty: { canvasBlank: null, fieldsEmpty: true, zeros: false, selection: false } })).kind).toBe('none');
    expect(decideEffect(base({ targetName: 'Löschen', targetInItem: true, empty: { canvasBlank: null, fieldsEmpty: false, zeros: false, selection: false } })).kind).toBe('none');
  });

  it('a calculator\'s 0, ± and % on a zero display have nothing to do; the same keys on 7, or a dead 5, are none', () => {
    const zero = { canvasBlank: null, fieldsEmpty: true, zeros: true, selection: false };
    for (const key of ['0', '00', '±', '+/-', '+/−', '%']) expect(decideEffect(base({ targetName: key, empty: zero })), key).toMatchObject({ kind: 'nothing-to-do', why: expect.stringMatching(/zero/) });
    expect(decideEffect(base({ targetName: '0', empty: { ...zero, zeros: false } })).kind).toBe('none');
    expect(decideEffect(base({ targetName: '5', empty: zero })).kind).toBe('none');
    expect(decideEffect(base({ targetName: '10', empty: zero })).kind).toBe('none');
  });

  it('pause and play on an animating page show as motion stopping or starting', () => {
    expect(motionChange(12, 0)).toBe('stopped');
    expect(motionChange(0, 10)).toBe('started');
    expect(motionChange(10, 9)).toBeNull();
  });

  it('a motion change counts only when a second look shows it again: a pause holds, an ease-in-out drift slowing at its turning point does not', () => {
    expect(lastingMotionChange(12, 0, 0)).toBe('stopped');
    expect(lastingMotionChange(0, 10, 12)).toBe('started');
    // measured on a yoga landing page's drifting sun as a button with no handler was clicked: 38.9 → 8.4 regions/s,
    // then back at its pace
    expect(lastingMotionChange(38.9, 8.4, 31)).toBeNull();
    expect(lastingMotionChange(0, 10, 1)).toBeNull();
    expect(lastingMotionChange(10, 9, 0)).toBeNull();
  });

  it('on a still page, any outside pixel change or DOM mutation beyond idle churn counts', () => {
    const action = changedRegions(img([]), img([[4, 4]]));
    expect(decideEffect(base({ action, outsidePixelChange: 0.01 })).kind).toBe('changed');
    expect(decideEffect(base({ mutations: 3, staticIdleMutations: 0 })).kind).toBe('changed');
    expect(decideEffect(base({})).kind).toBe('none');
  });
});
