import { describe, expect, it } from 'vitest';
import { canSettleEarly, EARLY_QUIET_MS, earlySettleInMs, isDialogFlood, isStillSince, shareOf } from '../../src/perceive/perceive.js';

// Static perception's rules that decide how long it watches a page (issue 13), as pure functions.
describe('isStillSince: the idle window\'s test for a page that cannot have moved', () => {
  const snap = { mutations: 4, draws: 0, animations: 0, scrollX: 0, scrollY: 0 };
  it('still only with no change, draw call, running animation, scroll or motion source', () => {
    expect(isStillSince(snap, { ...snap }, 0)).toBe(true);
    expect(isStillSince(snap, { ...snap, mutations: 5 }, 0)).toBe(false);
    expect(isStillSince(snap, { ...snap, draws: 1 }, 0)).toBe(false);
    expect(isStillSince(snap, { ...snap, animations: 1 }, 0)).toBe(false);
    expect(isStillSince({ ...snap, animations: 1 }, { ...snap, animations: 0 }, 0)).toBe(false);
    expect(isStillSince(snap, { ...snap, scrollY: 40 }, 0)).toBe(false);
    expect(isStillSince(snap, { ...snap }, 1)).toBe(false);
  });
  it('a probe that does not count draws or animations is never taken for still', () => {
    expect(isStillSince({ mutations: 1 }, { mutations: 1 }, 0)).toBe(false);
  });
});

describe('isDialogFlood: dialogs opened with no user input during static perception', () => {
  const every = (gapMs: number, n: number, from = 300) => Array.from({ length: n }, (_, i) => from + i * gapMs);
  it('a page that greets with an alert or two is not a flood, however long perception took', () => {
    expect(isDialogFlood([200], 1, 400)).toBe(false);
    expect(isDialogFlood([200, 210, 220], 3, 1000)).toBe(false);
  });
  it('an alert every 20 ms or every 150 ms is a flood once 8 came in a row and it is still going, on a fast machine or a slow one', () => {
    expect(isDialogFlood(every(20, 40), 40, 300 + 39 * 20 + 20)).toBe(true);
    expect(isDialogFlood(every(150, 8), 8, 300 + 7 * 150 + 100)).toBe(true);
    // a loaded machine answers each alert slowly: one every 450 ms, 2.2 a second, is still the same loop
    expect(isDialogFlood(every(450, 9), 9, 300 + 8 * 450 + 300)).toBe(true);
    expect(isDialogFlood(every(150, 7), 7, 300 + 6 * 150 + 100)).toBe(false);
    expect(isDialogFlood(every(150, 101), 101, 600_000)).toBe(true);
  });
  it('a finite chain of alerts at load is over by the time perception asks; alerts far apart are not a loop', () => {
    // eight alerts one after another at load, answered at once, then nothing for 2 s
    expect(isDialogFlood(every(15, 8), 8, 300 + 7 * 15 + 2000)).toBe(false);
    // a reminder every 2 s
    expect(isDialogFlood(every(2000, 10), 10, 300 + 9 * 2000 + 500)).toBe(false);
    // the last eight in a row count, not older ones
    expect(isDialogFlood([100, 5000, ...every(150, 8, 6000)], 10, 6000 + 7 * 150 + 50)).toBe(true);
    expect(isDialogFlood([...every(150, 7, 100), 5000], 8, 5050)).toBe(false);
  });
});

describe('canSettleEarly: the settle wait\'s test for a page with nothing left that could change its DOM', () => {
  const quiet = { quietMs: EARLY_QUIET_MS, timers: 0, complete: true, inFlight: 0, openSockets: 0, netQuietMs: EARLY_QUIET_MS, workers: 0 };
  it('settled early (100 ms) only when the DOM and the network were quiet that long and nothing is pending', () => {
    expect(canSettleEarly(quiet)).toBe(true);
    expect(canSettleEarly({ ...quiet, quietMs: EARLY_QUIET_MS - 1 })).toBe(false);
    expect(canSettleEarly({ ...quiet, netQuietMs: EARLY_QUIET_MS - 1 })).toBe(false);
  });
  it('anything that could still change the DOM keeps the full wait: a timer, a request, a socket, a worker, a document still loading', () => {
    expect(canSettleEarly({ ...quiet, timers: 1 })).toBe(false);
    expect(canSettleEarly({ ...quiet, inFlight: 1 })).toBe(false);
    expect(canSettleEarly({ ...quiet, openSockets: 1 })).toBe(false);
    expect(canSettleEarly({ ...quiet, workers: 1 })).toBe(false);
    expect(canSettleEarly({ ...quiet, complete: false })).toBe(false);
  });
});

describe('earlySettleInMs: when the settle wait asks again on a page that may settle early', () => {
  const quiet = { quietMs: EARLY_QUIET_MS, timers: 0, complete: true, inFlight: 0, openSockets: 0, netQuietMs: EARLY_QUIET_MS, workers: 0 };
  it('0 when it can settle now; otherwise the longer of what the DOM\'s and the network\'s quiet still need', () => {
    expect(earlySettleInMs(quiet)).toBe(0);
    expect(earlySettleInMs({ ...quiet, quietMs: 500 })).toBe(0);
    // the document request ended 40 ms ago, the DOM has been quiet for 110 ms: ask again in 60 ms, not at the next 150-ms poll
    expect(earlySettleInMs({ ...quiet, quietMs: 110, netQuietMs: 40 })).toBe(EARLY_QUIET_MS - 40);
    expect(earlySettleInMs({ ...quiet, quietMs: 30, netQuietMs: 90 })).toBe(EARLY_QUIET_MS - 30);
  });
  it('null (no early end to wait for) whenever canSettleEarly would be false for a reason time does not cure', () => {
    for (const over of [{ timers: 1 }, { inFlight: 1 }, { openSockets: 1 }, { workers: 1 }, { complete: false }]) {
      expect(earlySettleInMs({ ...quiet, ...over })).toBeNull();
      expect(canSettleEarly({ ...quiet, ...over, quietMs: 1000, netQuietMs: 1000 })).toBe(false);
    }
  });
});

describe('shareOf: the animated share of the viewport as the evidence records it', () => {
  it('3 decimals, and a change too small for them is 0.001, not "nothing moved"', () => {
    // a 64-px spinner between two shots near a whole turn apart: 34 changed pixels of 1280 × 800
    expect(shareOf(34 / (1280 * 800))).toBe(0.001);
    expect(shareOf(0.000641)).toBe(0.001);
    expect(shareOf(0.0123)).toBe(0.012);
    expect(shareOf(1)).toBe(1);
    expect(shareOf(0)).toBe(0);
  });
});
