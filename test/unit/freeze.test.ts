import type { Page } from 'playwright';
import { describe, expect, it, vi } from 'vitest';
import { Freezer } from '../../src/interact/freeze.js';

// The freeze pauses the app's clock, its CSS/Web animations and its media together; one that fails in part
// must not leave the app half paused (animations stopped behind a running clock).

function rig(pauseFails: boolean) {
  const sent: string[] = [];
  const page = {
    evaluate: async (e: string) => (sent.push(`eval:${e.includes('unfreeze') ? 'media-unfreeze' : e.includes('freeze') ? 'media-freeze' : e}`), e === 'Date.now()' ? 1000 : null),
    clock: {
      pauseAt: async () => {
        sent.push('clock.pauseAt');
        if (pauseFails) throw new Error('Cannot fast-forward to the past');
      },
      resume: async () => void sent.push('clock.resume'),
    },
    context: () => ({ newCDPSession: async () => ({ send: async (m: string, p?: { playbackRate?: number }) => void sent.push(`${m}:${p?.playbackRate ?? ''}`) }) }),
  } as unknown as Page;
  return { page, sent };
}

describe('freezing the app', () => {
  it('pauses clock, animations and media, and resumes all three', async () => {
    const { page, sent } = rig(false);
    const f = await Freezer.attach(page, true);
    await f.freeze(500);
    expect(f.isFrozen).toBe(true);
    expect(sent).toEqual(expect.arrayContaining(['clock.pauseAt', 'Animation.setPlaybackRate:0', 'eval:media-freeze']));
    await f.unfreeze(500);
    expect(f.isFrozen).toBe(false);
    expect(sent.slice(-3)).toEqual(expect.arrayContaining(['Animation.setPlaybackRate:1', 'eval:media-unfreeze', 'clock.resume']));
  });

  it('a clock that cannot be paused: the freeze throws and the animations and media run again', async () => {
    const { page, sent } = rig(true);
    const f = await Freezer.attach(page, true);
    await expect(f.freeze(500)).rejects.toThrow(/to the past/);
    expect(f.isFrozen).toBe(false);
    expect(sent.filter((c) => c === 'clock.pauseAt')).toHaveLength(3);
    const last = sent.lastIndexOf('Animation.setPlaybackRate:0');
    expect(sent.slice(last)).toEqual(expect.arrayContaining(['Animation.setPlaybackRate:1', 'eval:media-unfreeze', 'clock.resume']));
  });

  it('pauses the clock in place when the page has Playwright clock controller, without the public fast-forwarding pause', async () => {
    const { page, sent } = rig(false);
    const evaluate = page.evaluate as unknown as (e: string) => Promise<unknown>;
    Object.assign(page, { evaluate: async (e: string) => (e.includes('_innerPause') ? (sent.push('eval:pause-in-place'), true) : evaluate(e)) });
    const f = await Freezer.attach(page, true);
    await f.freeze(500);
    expect(f.isFrozen).toBe(true);
    expect(sent).toContain('eval:pause-in-place');
    expect(sent).not.toContain('clock.pauseAt');
    await f.unfreeze(500);
    expect(sent).toContain('clock.resume');
  });

  // a page whose main thread hangs answers nothing, and neither does the Animation domain its renderer serves:
  // the freeze must still end (it throws, bounded by its limits) — an unbounded clean-up call held a whole
  // interaction stage until the stage's own 6-minute limit, and the hang was never recorded (issue 13)
  it('a page that hangs: the freeze throws within its limits instead of waiting forever on the clean-up', async () => {
    vi.useFakeTimers();
    try {
      const never = new Promise<never>(() => {});
      let hung = false;
      const page = {
        evaluate: async (e: string) => (hung ? never : e === 'Date.now()' ? 1000 : null),
        clock: { pauseAt: async () => undefined, resume: async () => (hung ? never : undefined) },
        context: () => ({ newCDPSession: async () => ({ send: async (m: string) => (hung && m.startsWith('Animation.') ? never : undefined) }) }),
      } as unknown as Page;
      const f = await Freezer.attach(page, true);
      hung = true;
      let settled: string | null = null;
      f.freeze(500).then(() => (settled = 'resolved'), (e: Error) => (settled = `rejected: ${e.message}`));
      // the freeze's own bound (2 × 500 ms) and its clean-up's (500 ms), in fake time: no wall clock involved
      await vi.advanceTimersByTimeAsync(2000);
      expect(settled).toMatch(/^rejected: .*timed out/);
      expect(f.isFrozen).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
