import { describe, expect, it } from 'vitest';
import { isResponsive } from '../../src/browser/session.js';
import { fakePage } from '../fixtures/fake-page.js';

// The hang question on a page that reloads itself every few hundred ms, on a loaded machine: Playwright's
// trivial evaluation can land in a document that is already being replaced, every time, until the window
// ends. A renderer that keeps parsing new documents is not hung (PITFALLS.md: never blame the app for the
// machine); one that parses nothing and never answers is. Bounded by the window (50 ms), not by a timer
// of the test's own.
const never = new Promise<never>(() => {});

describe('isResponsive: the hang question', () => {
  it('a page whose evaluation never lands but that parses a new document during the window answers', async () => {
    const { page, events } = fakePage({
      evaluate: () => {
        setTimeout(() => events.emit('domcontentloaded'), 5);
        return never;
      },
    });
    expect(await isResponsive(page, 50)).toBe(true);
    expect(events.listenerCount('domcontentloaded')).toBe(0);
  });

  it('a page that never answers and parses nothing is hung', async () => {
    const { page, events } = fakePage({ evaluate: () => never });
    expect(await isResponsive(page, 50)).toBe(false);
    expect(events.listenerCount('domcontentloaded')).toBe(0);
  });

  it('a document replaced under the call is asked again; an answer from the next one counts', async () => {
    let n = 0;
    const { page } = fakePage({
      evaluate: () => {
        if (++n < 3) throw new Error('page.evaluate: Execution context was destroyed, most likely because of a navigation');
        return 1;
      },
    });
    expect(await isResponsive(page, 1000)).toBe(true);
    expect(n).toBe(3);
  });

  it('any other failure is no answer', async () => {
    const { page } = fakePage({
      evaluate: () => {
        throw new Error('page.evaluate: Target crashed');
      },
    });
    expect(await isResponsive(page, 1000)).toBe(false);
  });
});
