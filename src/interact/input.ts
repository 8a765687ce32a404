import type { Page } from 'playwright';
import type { Rng } from './random.js';

/**
 * Human-like input on a Playwright page (paper §4.1 Stage 2, "human-like input"; MACHINE.md): the mouse
 * travels to a target along a multi-step path with a seeded jitter and pauses before pressing; typing has
 * a per-character cadence; keys are held for a duration (games poll key state per frame, PITFALLS.md).
 * All randomness comes from the seeded {@link Rng}.
 */
export class HumanInput {
  private x = 640;
  private y = 400;
  constructor(
    private readonly page: Page,
    private readonly rng: Rng,
  ) {}

  /** Move the pointer to (x, y) px along an eased multi-step path. */
  async moveTo(x: number, y: number): Promise<void> {
    const dist = Math.hypot(x - this.x, y - this.y);
    const steps = Math.max(4, Math.min(30, Math.round(dist / 25)));
    await this.page.mouse.move(x, y, { steps });
    this.x = x;
    this.y = y;
  }

  /** Point inside a box, near its centre (seeded jitter of up to 20% of the size). */
  aim(box: { x: number; y: number; width: number; height: number }): { x: number; y: number } {
    return {
      x: box.x + box.width * (0.5 + this.rng.between(-0.2, 0.2)),
      y: box.y + box.height * (0.5 + this.rng.between(-0.2, 0.2)),
    };
  }

  /** Press and release the left button at the current position with a human press duration. */
  async press(): Promise<void> {
    await this.page.mouse.down();
    await this.page.waitForTimeout(this.rng.int(50, 110));
    await this.page.mouse.up();
  }

  /** Type text with a per-character delay of 35–90 ms. */
  async type(text: string): Promise<void> {
    for (const ch of text) {
      await this.page.keyboard.type(ch);
      await this.page.waitForTimeout(this.rng.int(35, 90));
    }
  }

  /** Select everything in the focused field (to replace its content). */
  async selectAll(): Promise<void> {
    await this.page.keyboard.press('ControlOrMeta+A');
  }

  /** Hold a key down for `ms` (no auto-repeat: games poll held state). */
  async hold(key: string, ms: number): Promise<void> {
    await this.page.keyboard.down(key);
    await this.page.waitForTimeout(ms);
    await this.page.keyboard.up(key);
  }

  /** Tap a key with a human press duration. */
  async tap(key: string): Promise<void> {
    await this.hold(key, this.rng.int(60, 120));
  }

  /** Scroll by `deltaY` px in a few wheel notches. */
  async scroll(deltaY: number): Promise<void> {
    const notches = Math.max(1, Math.round(Math.abs(deltaY) / 120));
    for (let i = 0; i < notches; i++) {
      await this.page.mouse.wheel(0, Math.sign(deltaY) * (Math.abs(deltaY) / notches));
      await this.page.waitForTimeout(this.rng.int(30, 70));
    }
  }
}
