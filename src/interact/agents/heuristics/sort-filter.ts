import type { Decision, Observation, ObservedElement } from '../../agent.js';
import { clickOn, isPressable, isTextField, target, usable, type Heuristic } from './types.js';
import { FILTER_DONE_WORDS, FILTER_OPEN_WORDS, SEARCH_WORDS, SORT_WORDS } from './words.js';
import { normText, onlyInStamps, tokensOf } from '../../../common/words.js';

/** Most sort controls tried per page. */
const MAX_SORTS = 3;

/**
 * "Claims of the controls" for sorting (issue 18 invariant ordering): press each control labelled as
 * sorting (buttons, column headers, options of a sort `<select>`), at most 3, and record the collections
 * before and after with the control's label (check `ordering`).
 */
export class SortHeuristic implements Heuristic {
  readonly name = 'sort';
  private tried = 0;
  private readonly seen = new Set<string>();

  next(obs: Observation): Decision | null {
    if (this.tried >= MAX_SORTS) return null;
    for (const e of usable(obs)) {
      if (e.tag === 'select' && e.options && (SORT_WORDS.test(e.name) || e.options.filter((o) => SORT_WORDS.test(o)).length >= 2)) {
        for (let i = 0; i < e.options.length && i < 6; i++) {
          const label = e.options[i]!;
          const k = `sort|${e.signature}|${i}`;
          if (this.seen.has(k) || !SORT_WORDS.test(label) && !SORT_WORDS.test(e.name)) continue;
          if (i === 0) continue; // the option shown at load: choosing it changes nothing
          this.seen.add(k);
          this.tried++;
          return { action: { kind: 'select', target: target(e), value: String(i) }, reasoning: `Careful tester (sort): choose "${label}" in "${e.name}"; the list should be ordered that way.`, ref: e.ref, key: k, check: { invariant: 'ordering', subject: `${e.name}: ${label}`, params: { label } } };
        }
        continue;
      }
      // a column header is an item of its header row; a control inside a data row is not a sort control
      if (!isPressable(e) || !SORT_WORDS.test(e.name) || (e.item && e.item.text.length > e.name.length + 20)) continue;
      const k = `sort|${e.signature}`;
      if (this.seen.has(k)) continue;
      this.seen.add(k);
      this.tried++;
      return clickOn(e, `Careful tester (sort): press "${e.name}"; the list should be ordered as it says.`, { check: { invariant: 'ordering', subject: e.name, params: { label: e.name } } });
    }
    return null;
  }
}

/**
 * A word of 4+ letters from an item's text that not every item contains: a query with a real answer. Words
 * of the item's date, time or count stamps ({@link onlyInStamps}) and of its controls' labels (`labels`:
 * "Supprimer", "Pin") are not its content, so they are not searched for.
 */
export function queryFrom(items: string[], labels: ReadonlySet<string> = new Set()): string | null {
  const words = (t: string) => tokensOf(t).filter((w) => w.length >= 4 && !/^\d+$/.test(w) && !labels.has(normText(w)) && !onlyInStamps(t, w));
  for (const it of [items[1], items[2], items[0], ...items.slice(3)]) {
    if (!it) continue;
    for (const w of words(it)) {
      const lw = w.toLowerCase();
      const hits = items.filter((x) => x.toLowerCase().includes(lw)).length;
      if (hits >= 1 && hits < items.length) return w;
    }
  }
  return null;
}

/**
 * "Claims of the controls" for searching and filtering (issue 18): type into a search/filter field a word
 * taken from one of the listed items (so the right answer is not empty; check `filter` with the query), and
 * press filter buttons labelled Done/Completed or Active/Open (check `filter-state`). Each once.
 */
export class SearchFilterHeuristic implements Heuristic {
  readonly name = 'search-filter';
  private searched = false;
  private readonly pressed = new Set<string>();

  next(obs: Observation): Decision | null {
    const els = usable(obs);
    if (!this.searched) {
      const f = els.find((e) => isTextField(e) && (e.type === 'search' || SEARCH_WORDS.test(e.name)) && !e.item);
      if (f) {
        this.searched = true;
        // items of the collection nearest below the field, from the elements observed inside items
        const byC = new Map<string, Map<number, string>>();
        // (a table's header row is a row of column names — "Area ↕" — not of the items a search finds)
        const header = (id: string) => /\bthead\b/i.test(id);
        for (const e of els) if (e.item && !header(e.item.c)) (byC.get(e.item.c) ?? byC.set(e.item.c, new Map()).get(e.item.c)!).set(e.item.i, e.item.text);
        // a list whose items hold no control (book cards, table rows of text) comes from the page's lists
        const fromControls = [...byC.values()].sort((a, b) => b.size - a.size)[0];
        const fromLists = (obs.lists ?? []).filter((l) => l.items.length >= 2 && !header(l.id)).sort((a, b) => b.items.length - a.items.length)[0];
        const items = fromControls && fromControls.size >= 2 ? [...fromControls.values()] : fromLists?.items;
        // the labels of the controls inside items (✕, "Supprimer", "Pin"), not the items' own text
        const labels = new Set(els.filter((e) => e.item && normText(e.name) !== normText(e.item.text) && normText(e.name).length < normText(e.item.text).length / 2).flatMap((e) => tokensOf(normText(e.name))));
        const q = items ? queryFrom(items, labels) : null;
        if (q) return { action: { kind: 'fill', target: target(f), value: q }, reasoning: `Careful tester (search): search "${f.name}" for "${q}", a word of a listed item; matching items should remain, others go.`, ref: f.ref, key: `fill|${f.signature}`, check: { invariant: 'filter', subject: f.name, params: { query: q } } };
      }
    }
    for (const [re, want] of [[FILTER_DONE_WORDS, 'done'], [FILTER_OPEN_WORDS, 'open']] as const) {
      const b = els.find((e: ObservedElement) => isPressable(e) && re.test(e.name) && !e.item);
      if (b && !this.pressed.has(want)) {
        this.pressed.add(want);
        return clickOn(b, `Careful tester (filter): press "${b.name}"; only ${want} items should be listed.`, { check: { invariant: 'filter-state', subject: b.name, params: { want } } });
      }
    }
    return null;
  }
}
