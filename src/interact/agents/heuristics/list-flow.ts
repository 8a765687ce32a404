import type { Decision, Observation, ObservedElement } from '../../agent.js';
import { clickOn, distance, isPressable, isTextField, target, usable, type Heuristic } from './types.js';
import { ADD_WORDS, COMPLETE_WORDS, DELETE_WORDS, SEARCH_WORDS } from './words.js';

/** The value typed when adding an item: distinctive, so its appearance can be recognised. */
export const ADD_VALUE = 'Water the ferns';

/**
 * "Add, then complete, then delete an item" (issue 11 point 3; issue 18 invariants add and identity): type a
 * distinctive value into the field next to an Add button and press it (check `add`: an item showing the
 * value appears, counters follow), mark an item done through its own checkbox or Done control, then delete
 * one item of a list of ≥ 2 through a delete control inside that item — the middle one when there are ≥ 3
 * (check `identity`: exactly that item disappears; counters and totals follow). Each part runs once.
 */
export class ListFlowHeuristic implements Heuristic {
  readonly name = 'list-flow';
  private phase: 'fill' | 'add' | 'complete' | 'delete' | 'done' = 'fill';

  next(obs: Observation): Decision | null {
    const els = usable(obs);
    for (let guard = 0; guard < 4; guard++) {
      if (this.phase === 'fill') {
        const pair = findAddPair(els);
        if (!pair) {
          this.phase = 'complete';
          continue;
        }
        this.phase = 'add';
        return { action: { kind: 'fill', target: target(pair.field), value: ADD_VALUE }, reasoning: `Careful tester (add): type "${ADD_VALUE}" into "${pair.field.name || 'the field'}".`, ref: pair.field.ref, key: `fill|${pair.field.signature}` };
      }
      if (this.phase === 'add') {
        this.phase = 'complete';
        const pair = findAddPair(els);
        if (pair) return clickOn(pair.button, `Careful tester (add): press "${pair.button.name}"; an item showing "${ADD_VALUE}" should appear.`, { check: { invariant: 'add', subject: pair.button.name, params: { value: ADD_VALUE } } });
        continue;
      }
      if (this.phase === 'complete') {
        this.phase = 'delete';
        const toggles = els.filter((e) => e.item && (e.role === 'checkbox' || (isPressable(e) && COMPLETE_WORDS.test(e.name) && !DELETE_WORDS.test(e.name))));
        const t = toggles.find((e) => e.item!.text.includes(ADD_VALUE)) ?? toggles[0];
        if (t) return { action: { kind: t.role === 'checkbox' ? 'check' : 'click', target: target(t) }, reasoning: `Careful tester (complete): mark "${t.item!.text.slice(0, 40)}" done.`, ref: t.ref, key: `${t.role === 'checkbox' ? 'fill' : 'click'}|${t.signature}` };
        continue;
      }
      if (this.phase === 'delete') {
        this.phase = 'done';
        const d = pickDelete(els);
        if (d) return clickOn(d, `Careful tester (delete): delete item ${d.item!.i + 1} ("${d.item!.text.slice(0, 40)}") with its own "${d.name || 'delete'}" control; exactly that item should disappear.`, { check: { invariant: 'identity', subject: d.name || 'delete', params: { index: d.item!.i, item: d.item!.text.slice(0, 120) } } });
      }
      return null;
    }
    return null;
  }
}

/** A text field (not a search field) and the Add button nearest to it (same form, or within 400 px). */
export function findAddPair(els: ObservedElement[]): { field: ObservedElement; button: ObservedElement } | null {
  for (const f of els.filter((e) => isTextField(e) && !e.numericOnly && e.type !== 'search' && !SEARCH_WORDS.test(e.name) && !e.item)) {
    const b = els
      .filter((e) => isPressable(e) && ADD_WORDS.test(e.name) && !e.item)
      .map((e) => ({ e, d: f.form !== undefined && e.form === f.form ? 0 : distance(e, f) }))
      .filter((x) => x.d < 400)
      .sort((a, b) => a.d - b.d)[0];
    if (b) return { field: f, button: b.e };
  }
  return null;
}

/** A delete control inside an item of a collection of ≥ 2 items: the middle item's when there are ≥ 3. */
export function pickDelete(els: ObservedElement[]): ObservedElement | null {
  const dels = els.filter((e) => e.item && isPressable(e) && (DELETE_WORDS.test(e.name) || /delete|remove|trash/i.test(e.signature)));
  const byC = new Map<string, ObservedElement[]>();
  for (const d of dels) byC.set(d.item!.c, [...(byC.get(d.item!.c) ?? []), d]);
  const best = [...byC.values()].filter((g) => g.length >= 2).sort((a, b) => b.length - a.length)[0];
  if (!best) return null;
  const sorted = [...best].sort((a, b) => a.item!.i - b.item!.i);
  return sorted[sorted.length >= 3 ? 1 : sorted.length - 1]!;
}
