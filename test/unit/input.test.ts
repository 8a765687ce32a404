import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { DRAG_TRAVEL_BUDGET_MS, HumanInput, planPointerPath, planScroll, planTyping } from '../../src/interact/input.js';
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

/** A page whose renderer acknowledges each pointer move after `moveMs` (a busy canvas at 1000 / moveMs fps). */
function slowPointerPage(moveMs: number) {
  const calls: string[] = [];
  const page = {
    mouse: {
      move: async (x: number, y: number) => {
        calls.push(`move ${x},${y}`);
        if (moveMs) await new Promise((r) => setTimeout(r, moveMs));
      },
      down: async () => void calls.push('down'),
      up: async () => void calls.push('up'),
    },
    waitForTimeout: async () => undefined,
  };
  return { page: page as unknown as Page, calls };
}

describe('a drag on a renderer that takes each move slowly (found on a busy particle canvas: the drag timed out at 5 s)', () => {
  const from = { x: 100, y: 100 };
  const to = { x: 1000, y: 500 };
  const planned = planPointerPath(from, to, new Rng(5)).length;

  it('presses, travels, arrives at its target and releases, cutting each travel to one direct move after its budget', async () => {
    const { page, calls } = slowPointerPage(60);
    const input = new HumanInput(page, new Rng(5));
    await input.drag(from, to);
    const down = calls.indexOf('down');
    expect(down).toBeGreaterThan(0);
    expect(calls.at(-1)).toBe('up');
    expect(calls.at(-2)).toBe(`move ${to.x},${to.y}`);
    // the travel while the button is held: bounded by its budget (work, not wall time: each move took ≥ 60 ms)
    const held = calls.slice(down + 1, -1);
    expect(held.length).toBeLessThanOrEqual(Math.ceil(DRAG_TRAVEL_BUDGET_MS / 60) + 2);
    expect(held.length).toBeLessThan(planned);
    expect(input.shortcuts).toBeGreaterThanOrEqual(1);
    // nothing of the drag runs on after it returned
    const n = calls.length;
    await new Promise((r) => setTimeout(r, 200));
    expect(calls.length).toBe(n);
  });

  it('on a renderer that keeps up, the whole human path is sent', async () => {
    const { page, calls } = slowPointerPage(0);
    const input = new HumanInput(page, new Rng(5));
    await input.moveTo(from.x, from.y);
    calls.length = 0;
    await input.moveTo(to.x, to.y, DRAG_TRAVEL_BUDGET_MS);
    expect(calls).toHaveLength(planned);
    expect(input.shortcuts).toBe(0);
  });
});
