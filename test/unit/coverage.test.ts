import { describe, expect, it } from 'vitest';
import { Coverage, UNTESTED_LIMIT } from '../../src/interact/coverage.js';
import type { ObservedElement } from '../../src/interact/agent.js';

const el = (name: string, group = 'button|b|div', over: Partial<ObservedElement> = {}): ObservedElement => ({
  ref: 0, name, tag: 'button', role: 'button', signature: `${group}|${name}`, group, box: { x: 0, y: 0, width: 10, height: 10 }, inViewport: true, disabled: false, ...over,
});
const target = (e: ObservedElement) => ({ signature: e.signature, name: e.name, role: e.role, tag: e.tag, group: e.group, box: e.box });

describe('coverage bookkeeping (controls seen and tried)', () => {
  it('counts distinct controls seen and tried per group, groups in first-seen order', () => {
    const c = new Coverage();
    const keys = ['1', '2', '3'].map((n) => el(n, 'button|key|pad'));
    const clear = el('Clear', 'button|clear|div');
    c.see([clear, ...keys]);
    c.see([...keys, clear]); // seen again: not counted twice
    c.tried(target(keys[0]!));
    c.tried(target(keys[0]!)); // tried twice: one control
    c.tried(target(keys[2]!));
    expect(c.byGroup()).toEqual([
      { group: 'button|clear|div', seen: 1, tried: 0 },
      { group: 'button|key|pad', seen: 3, tried: 2 },
    ]);
  });

  it('lists the untested controls by role and name (the tag when nameless), in first-seen order, with the latest label', () => {
    const c = new Coverage();
    const save = el('Save');
    c.see([save, el('', 'canvas|c|main', { tag: 'canvas', role: 'img', signature: 'canvas-sig' }), el('Load')]);
    c.see([{ ...save, name: 'Save now' }]); // same signature, new label
    c.tried(target(el('Load')));
    expect(c.untested()).toEqual(['button "Save now"', 'img "canvas"']);
  });

  it('a control clicked and then seen as "active" (another signature, same name) was tried; a label is listed once', () => {
    const c = new Coverage();
    const tokyo = el('Tokyo', 'button|city|div.tabs', { signature: 'button|city|div.tabs|Tokyo' });
    c.see([tokyo, el('Paris', 'button|city|div.tabs')]);
    c.tried(target(tokyo));
    c.see([{ ...tokyo, signature: 'button|city.active|div.tabs|Tokyo' }, el('Paris', 'button|city|div.tabs'), el('Paris', 'button|city.active|div.tabs')]);
    expect(c.untested()).toEqual(['button "Paris"']);
  });

  it('an action without a target element changes nothing; a tried control never seen adds no group', () => {
    const c = new Coverage();
    c.see([el('A')]);
    c.tried(undefined);
    expect(c.untested()).toEqual(['button "A"']);
    c.tried(target(el('Ghost', 'button|ghost|div')));
    expect(c.byGroup()).toEqual([{ group: 'button|b|div', seen: 1, tried: 0 }]);
    expect(c.untested()).toEqual(['button "A"']);
  });

  it(`keeps at most ${UNTESTED_LIMIT} untested controls`, () => {
    const c = new Coverage();
    c.see(Array.from({ length: UNTESTED_LIMIT + 10 }, (_, i) => el(`b${i}`)));
    c.tried(target(el('b0')));
    const u = c.untested();
    expect(u).toHaveLength(UNTESTED_LIMIT);
    expect(u[0]).toBe('button "b1"');
    expect(c.byGroup()).toEqual([{ group: 'button|b|div', seen: UNTESTED_LIMIT + 10, tried: 1 }]);
  });
});
