import { describe, expect, it } from 'vitest';
import { planPointerPath, planScroll, planTyping } from '../../src/interact/input.js';
import { Rng, seedFor } from '../../src/common/random.js';

describe('human-like input is seeded', () => {
  it('the same seed gives the same pointer path and timings; another seed does not', () => {
    const a = planPointerPath({ x: 0, y: 0 }, { x: 600, y: 300 }, new Rng(42));
    const b = planPointerPath({ x: 0, y: 0 }, { x: 600, y: 300 }, new Rng(42));
    const c = planPointerPath({ x: 0, y: 0 }, { x: 600, y: 300 }, new Rng(43));
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    expect(planTyping('hello, world', new Rng(7))).toEqual(planTyping('hello, world', new Rng(7)));
    expect(seedFor(1, 'q/a')).toBe(seedFor(1, 'q/a'));
    expect(seedFor(1, 'q/a')).not.toBe(seedFor(1, 'q/b'));
  });

  it('pointer paths are multi-step, end on the target and ease in and out', () => {
    const p = planPointerPath({ x: 0, y: 0 }, { x: 900, y: 0 }, new Rng(1));
    expect(p.length).toBeGreaterThanOrEqual(20);
    expect(p[p.length - 1]).toMatchObject({ x: 900, y: 0 });
    const steps = p.map((q, i) => Math.hypot(q.x - (p[i - 1]?.x ?? 0), q.y - (p[i - 1]?.y ?? 0)));
    const mid = steps[Math.floor(steps.length / 2)]!;
    expect(mid).toBeGreaterThan(steps[0]! * 2);
    expect(mid).toBeGreaterThan(steps[steps.length - 1]! * 2);
    for (const q of p) expect(q.delayMs).toBeGreaterThanOrEqual(8);
  });

  it('typing has a per-character cadence; scrolling eases out and sums to the distance', () => {
    const d = planTyping('ab c', new Rng(3));
    expect(d).toHaveLength(4);
    expect(Math.min(...d)).toBeGreaterThanOrEqual(45);
    const s = planScroll(800);
    expect(s.reduce((x, y) => x + y, 0)).toBeGreaterThanOrEqual(795);
    expect(s[0]!).toBeGreaterThan(s[s.length - 1]!);
  });
});
