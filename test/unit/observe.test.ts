import { describe, expect, it } from 'vitest';
import type { ObservedElement } from '../../src/interact/agent.js';
import { observe } from '../../src/interact/observe.js';
import { click } from '../fixtures/evidence.js';
import { fakePage } from '../fixtures/fake-page.js';

const button: ObservedElement = { ref: 0, name: 'Add', tag: 'button', role: 'button', signature: 's', group: 'g', box: { x: 1, y: 2, width: 3, height: 4 }, inViewport: true, disabled: false };
const lists = [{ id: 'ul.items', items: ['Milk', 'Eggs'] }];
const probe = (expr: string) => (expr.includes('.scan()') ? [button] : expr.includes('.listsAndDrag()') ? { lists, dragPlan: null } : null);

describe('observe: what the agent is shown', () => {
  it('an agent that neither looks nor asks for lists gets the elements only (no screenshot taken)', async () => {
    const { page, calls } = fakePage({ evaluate: probe, url: 'http://127.0.0.1:9/#a', viewport: { width: 800, height: 600 } });
    const prev = click('Add', true);
    const obs = await observe(page, { wantsScreenshot: false }, { step: 3, budget: 10, previous: prev }, 500);
    expect(obs).toEqual({ step: 3, budget: 10, url: 'http://127.0.0.1:9/#a', elements: [button], screenshot: null, viewport: { width: 800, height: 600 }, previous: prev });
    expect('lists' in obs).toBe(false);
    expect(calls).not.toContain('screenshot');
    expect(calls.some((c) => c.includes('listsAndDrag()'))).toBe(false);
  });

  it('an agent that looks gets a screenshot; one that asks gets the lists; a page without a viewport reports 1280×800', async () => {
    const { page } = fakePage({ evaluate: probe, viewport: null });
    const obs = await observe(page, { wantsScreenshot: true, wantsLists: true }, { step: 0, budget: 5, previous: null }, 500);
    expect(obs.screenshot?.subarray(1, 4).toString()).toBe('PNG');
    expect(obs.lists).toEqual(lists);
    expect(obs.viewport).toEqual({ width: 1280, height: 800 });
  });

  it('a failed screenshot or list read still gives the observation; a failed scan throws', async () => {
    const broken = fakePage({ evaluate: (e) => (e.includes('.listsAndDrag()') ? Promise.reject(new Error('no')) : probe(e)), screenshot: () => { throw new Error('crashed'); } });
    const obs = await observe(broken.page, { wantsScreenshot: true, wantsLists: true }, { step: 0, budget: 5, previous: null }, 500);
    expect(obs.screenshot).toBeNull();
    expect('lists' in obs).toBe(false);
    expect(obs.elements).toEqual([button]);
    const hung = fakePage({ evaluate: () => new Promise(() => {}) });
    await expect(observe(hung.page, { wantsScreenshot: false }, { step: 0, budget: 5, previous: null }, 100)).rejects.toThrow(/scan/);
  });
});
