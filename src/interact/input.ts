import type { Page } from 'playwright';
import type { Rng } from '../common/random.js';

/** A point of a planned pointer path and the pause before moving to it (ms). */
export interface PathPoint {
  x: number;
  y: number;
  delayMs: number;
}

const easeInOut = (t: number) => (t < 0.5 ? 4 * t * t * t : 1 - Math.pow(-2 * t + 2, 3) / 2);

/**
 * Plan a human pointer path from `from` to `to` (px): a quadratic Bézier curve with a seeded sideways bow,
 * sampled with ease-in-out spacing (slow start, fast middle, slow arrival), 6–30 points by distance, with
 * 8–16 ms between points. Pure: the same seed gives the same path and timings.
 */
export function planPointerPath(from: { x: number; y: number }, to: { x: number; y: number }, rng: Rng): PathPoint[] {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const dist = Math.hypot(dx, dy);
  const n = Math.max(6, Math.min(30, Math.round(dist / 30)));
  const bow = rng.between(-0.15, 0.15) * dist;
  const cx = from.x + dx / 2 - (dy / (dist || 1)) * bow;
  const cy = from.y + dy / 2 + (dx / (dist || 1)) * bow;
  const pts: PathPoint[] = [];
  for (let i = 1; i <= n; i++) {
    const t = easeInOut(i / n);
    const x = (1 - t) * (1 - t) * from.x + 2 * (1 - t) * t * cx + t * t * to.x;
    const y = (1 - t) * (1 - t) * from.y + 2 * (1 - t) * t * cy + t * t * to.y;
    pts.push({ x: Math.round(x * 10) / 10, y: Math.round(y * 10) / 10, delayMs: rng.int(8, 16) });
  }
  pts[pts.length - 1] = { x: to.x, y: to.y, delayMs: pts[pts.length - 1]!.delayMs };
  return pts;
}

/** Per-character typing delays (ms): 45–110 ms, longer after spaces and punctuation. Pure and seeded. */
export function planTyping(text: string, rng: Rng): number[] {
  return [...text].map((ch) => rng.int(45, 110) + (/[\s.,!?;:，。！？]/.test(ch) ? rng.int(40, 120) : 0));
}

/** Wheel deltas for a scroll of `deltaY` px with velocity: fast first notches, easing out. Pure. */
export function planScroll(deltaY: number): number[] {
  const notches = Math.max(2, Math.min(12, Math.round(Math.abs(deltaY) / 100)));
  const weights = Array.from({ length: notches }, (_, i) => notches - i);
  const total = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => Math.round((deltaY * w) / total));
}

/**
 * Time budget of each of a drag's two pointer travels, ms (a human drag across a screen takes well under a
 * second; two travels, the press and the release fit a step's 5-s action limit with room for slow moves).
 */
export const DRAG_TRAVEL_BUDGET_MS = 1200;

/**
 * Human-like input on a Playwright page (paper §4.1 Stage 2 "human-like input"; MACHINE.md): the pointer
 * travels along eased, slightly curved multi-step paths and pauses before pressing; typing has a
 * per-character cadence; keys are held for a duration (games poll key state per frame, PITFALLS.md);
 * scrolls and drags have velocity. All randomness comes from a seeded {@link Rng}, so the same seed gives
 * the same input timings. `timings` records every pause for reproducibility checks.
 */
export class HumanInput {
  private x = 640;
  private y = 400;
  /** Every pause taken, in order (ms). */
  readonly timings: number[] = [];
  /** Pointer paths cut short by their time budget ({@link moveTo}). */
  shortcuts = 0;

  constructor(
    private readonly page: Page,
    private readonly rng: Rng,
  ) {}

  private async pause(ms: number): Promise<void> {
    this.timings.push(ms);
    await this.page.waitForTimeout(ms);
  }

  /**
   * Move the pointer to (x, y) px along a planned human path. A renderer that takes each move slowly (a busy
   * canvas answering at 20 fps) would make the path last seconds: once `budgetMs` has passed, the rest of the
   * path is one direct move to (x, y), so the travel ends at its target and no move is left running after it.
   * `shortcuts` counts the paths cut this way.
   */
  async moveTo(x: number, y: number, budgetMs = Infinity): Promise<void> {
    const start = Date.now();
    const path = planPointerPath({ x: this.x, y: this.y }, { x, y }, this.rng);
    for (let i = 0; i < path.length; i++) {
      if (i > 0 && Date.now() - start > budgetMs) {
        this.shortcuts++;
        await this.page.mouse.move(x, y);
        break;
      }
      const p = path[i]!;
      await this.page.mouse.move(p.x, p.y);
      await this.pause(p.delayMs);
    }
    this.x = x;
    this.y = y;
  }

  /** A point inside a box near its centre (seeded jitter of up to 20% of its size). */
  aim(box: { x: number; y: number; width: number; height: number }): { x: number; y: number } {
    return {
      x: Math.round((box.x + box.width * (0.5 + this.rng.between(-0.2, 0.2))) * 10) / 10,
      y: Math.round((box.y + box.height * (0.5 + this.rng.between(-0.2, 0.2))) * 10) / 10,
    };
  }

  /** Press and release a button (default left) where the pointer is, `clicks` times (2 = double click), with human press durations. */
  async press(button: 'left' | 'right' | 'middle' = 'left', clicks = 1): Promise<void> {
    for (let i = 1; i <= clicks; i++) {
      await this.page.mouse.down({ button, clickCount: i });
      await this.pause(this.rng.int(55, 120));
      await this.page.mouse.up({ button, clickCount: i });
      if (i < clicks) await this.pause(this.rng.int(60, 110));
    }
  }

  /** Type text with a per-character cadence. */
  async type(text: string): Promise<void> {
    const delays = planTyping(text, this.rng);
    let i = 0;
    for (const ch of text) {
      await this.page.keyboard.type(ch);
      await this.pause(delays[i++]!);
    }
  }

  /** Select everything in the focused field (to replace its content). */
  async selectAll(): Promise<void> {
    await this.page.keyboard.press('ControlOrMeta+A');
  }

  /** Hold a key (or a chord such as `Control+a`: pressed in order, released in reverse) down for `ms` (no auto-repeat: games poll held state). */
  async hold(key: string, ms: number): Promise<void> {
    const keys = key.length > 1 && key.includes('+') ? key.split('+').filter(Boolean) : [key];
    for (const k of keys) await this.page.keyboard.down(k);
    await this.pause(ms);
    for (const k of [...keys].reverse()) await this.page.keyboard.up(k);
  }

  /** Tap a key with a human press duration. */
  async tap(key: string): Promise<void> {
    await this.hold(key, this.rng.int(60, 120));
  }

  /** Scroll by `deltaY` px with velocity (easing-out wheel notches). */
  async scroll(deltaY: number, deltaX = 0): Promise<void> {
    const ys = deltaY ? planScroll(deltaY) : [];
    const xs = deltaX ? planScroll(deltaX) : [];
    for (let i = 0; i < Math.max(ys.length, xs.length); i++) {
      await this.page.mouse.wheel(xs[i] ?? 0, ys[i] ?? 0);
      await this.pause(this.rng.int(25, 60));
    }
  }

  /**
   * Drag from one point to another: press, travel along a human path, release. Each of the two travels gets
   * {@link DRAG_TRAVEL_BUDGET_MS} (see {@link moveTo}): on a renderer that answers each move slowly the drag
   * still presses, moves, arrives and releases within its step, instead of timing out half-way with the
   * button held.
   */
  async drag(from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
    await this.moveTo(from.x, from.y, DRAG_TRAVEL_BUDGET_MS);
    await this.page.mouse.down();
    await this.pause(this.rng.int(80, 160));
    await this.moveTo(to.x, to.y, DRAG_TRAVEL_BUDGET_MS);
    await this.pause(this.rng.int(40, 90));
    await this.page.mouse.up();
  }
}
