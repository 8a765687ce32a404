import type { CollectionReading, Evidence, Readings, RubricVerdict, TraceStep } from '../../types.js';
import { rubricItem } from '../rubric.js';
import { briefFeatures } from './brief.js';
import type { CheckResult, DraftDefect } from './checks.js';
import { normText, onlyInStamps } from '../../common/words.js';

/**
 * Invariant oracles without a reference (issue 18 point 1; issue 11 point 3): small judges that hold the app
 * to what its own controls claim, reading only the typed readings the interaction recorded before and after
 * each purposeful action (`TraceStep.check`). Each returns `pass`, `violated` (a defect) or `not-assessed`
 * with its reason; a value that cannot be read reliably is never a defect.
 */
export interface InvariantFinding {
  invariant: string;
  status: 'pass' | 'violated' | 'not-assessed';
  reason: string;
  step: number;
  defect?: DraftDefect;
}

type Judge = (s: TraceStep, steps: TraceStep[], ev: Evidence) => InvariantFinding[];

const norm = normText;
/** A text's shape: numbers replaced by '#' (an item renumbered after a removal is the same item). */
const shape = (t: string) => norm(t).replace(/\d+(?:[.,:]\d+)*/g, '#');

/** Items present in `a` and not in `b`, as multisets, compared by `key`. */
export function missingFrom(a: string[], b: string[], key: (t: string) => string = (t) => t): string[] {
  const left = new Map<string, number>();
  for (const t of b) left.set(key(t), (left.get(key(t)) ?? 0) + 1);
  const out: string[] = [];
  for (const t of a) {
    const k = key(t);
    const n = left.get(k) ?? 0;
    if (n > 0) left.set(k, n - 1);
    else out.push(t);
  }
  return out;
}

/** Parse a displayed number: "1,234.50", "1.234,50", "€12", "15" → number; null when none. */
export function parseNumber(t: string): number | null {
  const m = t.replace(/\s/g, '').match(/-?\d[\d.,]*/);
  if (!m) return null;
  let s = m[0].replace(/[.,]$/, '');
  const lastComma = s.lastIndexOf(','), lastDot = s.lastIndexOf('.');
  if (lastComma > lastDot) s = /,\d{3}$/.test(s) && lastDot < 0 && s.split(',').length > 1 && !/,\d{1,2}$/.test(s) ? s.replace(/,/g, '') : s.replace(/\./g, '').replace(',', '.');
  else s = s.replace(/,/g, '');
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

/** A price in an item's text (a number next to a currency sign), or null. */
export function priceOf(t: string): number | null {
  const m = t.match(/(?:[$€£¥₩]|R\$|US\$)\s?(\d[\d.,]*)|(\d[\d.,]*)\s?(?:[$€£¥₩円元원]|EUR|USD|€)/);
  return m ? parseNumber(m[1] ?? m[2]!) : null;
}

function collection(r: Readings | null | undefined, id: string): CollectionReading | undefined {
  return r?.collections.find((c) => c.id === id);
}

function defect(code: string, title: string, detail: string, s: TraceStep, feature: string, severity: DraftDefect['severity'] = 'major', dimension: DraftDefect['dimension'] = 'functionality', rubric = '3'): DraftDefect {
  return { severity, dimension, title, detail, rubricItem: rubric, points: severity === 'critical' ? 2 : severity === 'major' ? 1 : 0.5, cap: 'invariants', phase: 'interaction', evidence: { step: s.index, screenshot: s.screenshotAfter ?? undefined }, code, feature };
}

const na = (invariant: string, s: TraceStep, reason: string): InvariantFinding => ({ invariant, status: 'not-assessed', reason, step: s.index });
const ok = (invariant: string, s: TraceStep, reason: string): InvariantFinding => ({ invariant, status: 'pass', reason, step: s.index });
const bad = (invariant: string, s: TraceStep, reason: string, d: DraftDefect): InvariantFinding => ({ invariant, status: 'violated', reason, step: s.index, defect: d });

/**
 * Identity (issue 18): after deleting through a control inside an item, the item that disappears is that
 * one, and only one disappears. Items are matched by text (then by shape, for renumbered lists); items
 * whose text changed otherwise, or duplicates, leave it not assessed.
 */
export const identity: Judge = (s) => {
  const c = s.check!;
  const item = c.before?.item;
  if (!item) return [na('identity', s, 'the deleted control was not inside a readable list item')];
  const b = collection(c.before, item.c);
  const a = collection(c.after, item.c);
  if (!b || !a) return [na('identity', s, 'the list could not be read before and after')];
  const bt = b.items.map((i) => i.text);
  const at = a.missing ? [] : a.items.map((i) => i.text);
  if (bt.length < 2) return [na('identity', s, 'fewer than 2 items: identity cannot be told')];
  if (at.length === bt.length) return [na('identity', s, 'no item disappeared (a control that does nothing is the dead-control check\'s)')];
  for (const key of [norm, shape]) {
    const removed = missingFrom(bt, at, key);
    const added = missingFrom(at, bt, key);
    if (added.length) continue; // texts changed beyond the removal: try shapes, else not assessed
    const target = key(item.text);
    if (bt.filter((t) => key(t) === target).length > 1) return [na('identity', s, 'several items read the same: which one went cannot be told')];
    if (removed.length === 1 && key(removed[0]!) === target) return [ok('identity', s, `"${item.text.slice(0, 60)}" and only it disappeared`)];
    const gone = removed.map((t) => `"${t.slice(0, 50)}"`).join(', ');
    if (!removed.some((t) => key(t) === target))
      return [bad('identity', s, `deleted "${item.text.slice(0, 60)}", ${gone} disappeared`, defect('invariant-identity', `Delete removes the wrong item`, `"${c.subject}" on item ${item.i + 1} ("${item.text.slice(0, 80)}") removed ${gone} instead; the item it belongs to is still listed.`, s, c.subject))];
    return [bad('identity', s, `${removed.length} items disappeared`, defect('invariant-identity', `Delete removes more than one item`, `"${c.subject}" on item ${item.i + 1} ("${item.text.slice(0, 80)}") removed ${removed.length} items: ${gone}.`, s, c.subject))];
  }
  return [na('identity', s, 'item texts changed beyond the removal: identity cannot be told')];
};

/**
 * Add (issue 18): after adding an item with a typed value, an item showing that value appears. Nothing new
 * at all is the dead-control check's, not this one's; a new item without the value is a defect.
 */
export const add: Judge = (s) => {
  const c = s.check!;
  const v = String(c.params?.value ?? '');
  if (!v || !c.before || !c.after) return [na('add', s, 'no readings')];
  const had = norm(c.before.text ?? '').includes(norm(v));
  const has = norm(c.after.text ?? '').includes(norm(v));
  if (has && !had) return [ok('add', s, `"${v}" appears after adding`)];
  if (had) return [na('add', s, `"${v}" was on the page before`)];
  const grew = c.after.collections.find((a) => {
    const b = collection(c.before, a.id);
    return b && a.items.length === b.items.length + 1;
  });
  if (!grew) return [na('add', s, 'no item appeared (a dead Add button is the dead-control check\'s)')];
  const b = collection(c.before, grew.id)!;
  const fresh = missingFrom(grew.items.map((i) => i.text), b.items.map((i) => i.text));
  // the new item holds the value in a field (a sticky note's textarea; items read with their fields' values)
  if (fresh.some((t) => norm(t).includes(norm(v)))) return [ok('add', s, `a new item shows "${v}"`)];
  return [bad('add', s, `a new item appeared without "${v}"`, defect('invariant-add', 'Added item does not show the typed value', `After typing "${v}" and pressing "${c.subject}", a new item appeared reading "${(fresh[0] ?? '').slice(0, 80)}".`, s, c.subject))];
};

const COUNT_LABEL = /\b(items?|tasks?|todos?|left|remaining|total|count|products?|selected|entries|notes?|in cart|cart|songs?|tracks?|lieder|titel|canciones|chansons|músicas|faixas)\b|件|个|個|项|項|剩|共|合计|总|首|曲|개|곡|총|항목|남음|tâches?|éléments?|articles?|restantes?|tareas?|elementos?|artículos?|quedan|pendientes?|aufgaben|einträge|elemente|artikel|übrig|offen|itens|tarefas|restam|produtos/i;
const SUM_LABEL = /\b(total|sum|subtotal|amount|grand total)\b|合计|总计|总价|小計|合計|gesamt|summe|montant|importe|suma|합계|총|soma/i;

/**
 * The words that label one number inside its parent's text: "Total check-ins this week: 6 Best current
 * streak: 3 🔥" labels 3 with "Best current streak" and " 🔥", not with "Total" — the text between the
 * previous number and the next, or only the text before it when that ends in a colon ("Streak: 3"). The whole
 * parent text when the number is not found in it.
 */
export function ownLabel(label: string, numberText: string): string {
  const at = label.indexOf(numberText.trim());
  if (at < 0 || !numberText.trim()) return label;
  const before = label.slice(0, at).split(/\d[\d.,]*/).pop() ?? '';
  const after = label.slice(at + numberText.trim().length).split(/\d[\d.,]*/)[0] ?? '';
  return /[:：]\s*$/.test(before) ? before : `${before} ${after}`;
}

/**
 * Totals and counters (issue 18): around an add or a removal that changed a list by ±1, a visible counter
 * that equalled the list's size (or its open items) before must follow it after, and a total that equalled
 * the sum of the listed prices before must equal their sum after. Only numbers labelled as counts or totals.
 */
export const totals: Judge = (s) => {
  const c = s.check!;
  if (!c.before || !c.after) return [];
  const out: InvariantFinding[] = [];
  for (const b of c.before.collections) {
    const a = collection(c.after, b.id);
    if (!a || a.missing || Math.abs(a.items.length - b.items.length) !== 1) continue;
    const openB = b.items.filter((i) => !i.done).length, openA = a.items.filter((i) => !i.done).length;
    const pricesB = b.items.map((i) => priceOf(i.text)), pricesA = a.items.map((i) => priceOf(i.text));
    const sumB = pricesB.every((p) => p !== null) ? pricesB.reduce((x, y) => x + y!, 0) : null;
    const sumA = pricesA.every((p) => p !== null) ? pricesA.reduce((x, y) => x + y!, 0) : null;
    for (const nb of c.before.numbers) {
      const na2 = c.after.numbers.find((x) => x.id === nb.id);
      if (!na2) continue;
      const vb = parseNumber(nb.text), va = parseNumber(na2.text);
      if (vb === null || va === null) continue;
      const ctx = `${nb.text} ${ownLabel(nb.label, nb.text)}`;
      if (SUM_LABEL.test(ctx) && sumB !== null && sumA !== null && b.items.length >= 2 && Math.abs(vb - sumB) < 0.01 && Math.abs(sumB - sumA) > 0.009) {
        if (Math.abs(va - sumA) < 0.01) out.push(ok('totals', s, `total ${nb.text} → ${na2.text} follows the listed prices`));
        else out.push(bad('totals', s, `total ${na2.text} ≠ ${sumA}`, defect('invariant-totals', 'Total does not follow the list', `"${ownLabel(nb.label, nb.text).trim().slice(0, 60)}" read ${nb.text} (the sum of the listed prices) before "${c.subject}" and ${na2.text} after, but the listed prices now sum to ${Math.round(sumA * 100) / 100}.`, s, c.subject)));
        continue;
      }
      if (!COUNT_LABEL.test(ctx) || Number.isInteger(vb) === false || priceOf(nb.text) !== null) continue;
      const countsAll = vb === b.items.length, countsOpen = vb === openB && openB !== b.items.length;
      if (!countsAll && !countsOpen) continue;
      const want = countsAll ? a.items.length : openA;
      if (va === want || (countsAll && va === openA) || (countsOpen && va === a.items.length)) out.push(ok('totals', s, `counter ${nb.text} → ${na2.text} follows the list`));
      else out.push(bad('totals', s, `counter ${na2.text} ≠ ${want}`, defect('invariant-totals', 'Counter does not follow the list', `"${ownLabel(nb.label, nb.text).trim().slice(0, 60)}" read ${nb.text} (the list's ${countsAll ? 'size' : 'open items'}) before "${c.subject}" and ${na2.text} after, but the list now has ${want}.`, s, c.subject)));
    }
  }
  return out.slice(0, 1);
};

const DESC = /\b(desc|descending|high(est)?\s*(to|→|-)\s*low|z\s*[-–→]\s*a|newest|latest|most)\b|[↓▼]|降序|从高到低|由高到低|décroissant|du plus (cher|récent)|descendente|mayor a menor|降順|高い順|新しい順|absteigend|내림차순|높은\s*순|decrescente|maior para menor/i;
const ASC = /\b(asc|ascending|low(est)?\s*(to|→|-)\s*high|a\s*[-–→]\s*z|oldest|cheapest|least)\b|[↑▲]|升序|从低到高|由低到高|croissant|du moins cher|ascendente|menor a mayor|昇順|安い順|古い順|aufsteigend|오름차순|낮은\s*순|crescente|menor para maior/i;
const NUMERIC_KEY = /\b(price|cost|rating|score|date|year|size|age|amount|number|votes|stars|popular|population|distance|time|duration|km|kg)\b|价格|价|评分|日期|年|prix|note|précio|precio|fecha|puntuación|価格|値段|評価|日付|preis|bewertung|datum|가격|평점|날짜|preço|avaliação|data/i;
const ALPHA_KEY = /\b(name|title|alphabet|alphabetical|a\s*[-–→]\s*z|z\s*[-–→]\s*a)\b|名称|名字|标题|nom|titre|nombre|título|名前|タイトル|名|이름|제목|nome|titel/i;

/** Ordering of a sequence: 'asc', 'desc', 'flat' (all equal) or null (neither). */
export function orderOf(keys: (number | string)[], cmp: (a: number | string, b: number | string) => number): 'asc' | 'desc' | 'flat' | null {
  let up = true, down = true, flat = true;
  for (let i = 1; i < keys.length; i++) {
    const d = cmp(keys[i - 1]!, keys[i]!);
    if (d > 0) up = false;
    if (d < 0) down = false;
    if (d !== 0) flat = false;
  }
  return flat ? 'flat' : up ? 'asc' : down ? 'desc' : null;
}

/** Lists of ≥ 3 items that a step reordered (same items, another order). */
function reordered(c: NonNullable<TraceStep['check']>): CollectionReading[] {
  return (c.after?.collections ?? []).filter((a) => {
    const b = collection(c.before, a.id);
    if (!b || a.items.length < 3 || a.items.length !== b.items.length) return false;
    const at = a.items.map((i) => i.text), bt = b.items.map((i) => i.text);
    return missingFrom(at, bt).length === 0 && at.some((t, i) => t !== bt[i]);
  });
}

/**
 * Ordering (issue 18): after a control labelled as sorting, the list it reordered is ordered as the label
 * says — numbers compared as numbers (prices by their currency-marked figure), names by the locale's
 * collation; the direction enforced only when the label names one (words, not bare arrows). A list that did
 * not move is held to a named direction only when an earlier sort control reordered it; otherwise, and when
 * items have no readable keys, it is not assessed.
 */
export const ordering: Judge = (s, steps) => {
  const c = s.check!;
  const label = String(c.params?.label ?? c.subject);
  if (!c.before || !c.after) return [na('ordering', s, 'no readings')];
  const wordsDir = DESC.test(label.replace(/[↑↓▲▼]/g, '')) ? 'desc' : ASC.test(label.replace(/[↑↓▲▼]/g, '')) ? 'asc' : null;
  let moved = reordered(c);
  if (!moved.length && wordsDir) {
    // the list did not move: still held to the label when an earlier sort control reordered this same list
    // (pressing "Z-A" after "A-Z" on a page whose Z-A sorts A-Z changes nothing)
    const sorted = new Set(steps.filter((p) => p.index < s.index && p.check?.invariant === 'ordering').flatMap((p) => reordered(p.check!).map((x) => x.id)));
    moved = c.after.collections.filter((a) => sorted.has(a.id) && a.items.length >= 3);
  }
  if (!moved.length) return [na('ordering', s, 'no list was reordered by the control')];
  const list = moved.sort((x, y) => y.items.length - x.items.length)[0]!;
  const texts = list.items.map((i) => i.text);
  const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
  const tries: { kind: string; keys: (number | string)[] | null }[] = [];
  const price = texts.map(priceOf);
  const firstNum = texts.map((t) => parseNumber(t.replace(/^\s*#?\d+[.)]\s+/, '')));
  if (!ALPHA_KEY.test(label) || NUMERIC_KEY.test(label)) {
    tries.push({ kind: 'price', keys: price.every((p) => p !== null) ? (price as number[]) : null });
    tries.push({ kind: 'number', keys: firstNum.every((p) => p !== null) ? (firstNum as number[]) : null });
  }
  if (!NUMERIC_KEY.test(label) || ALPHA_KEY.test(label)) tries.push({ kind: 'name', keys: texts.map((t) => t.replace(/^[^\p{L}\p{N}]+/u, '').trim()) }); // icons and emoji before a name are not part of it
  const readable = tries.filter((t) => t.keys);
  if (!readable.length) return [na('ordering', s, 'the sort keys could not be read from the items')];
  const cmp = (a: number | string, b: number | string) => (typeof a === 'number' && typeof b === 'number' ? a - b : collator.compare(String(a), String(b)));
  for (const t of readable) {
    const o = orderOf(t.keys!, cmp);
    if (o === 'flat' || (o && (!wordsDir || o === wordsDir))) return [ok('ordering', s, `"${label}": items ordered ${o} by ${t.kind}`)];
  }
  const t0 = readable[0]!;
  const o = orderOf(t0.keys!, cmp);
  const shown = t0.keys!.slice(0, 6).join(', ');
  return [bad('ordering', s, `"${label}" left the items ${o ?? 'unordered'}`, defect('invariant-ordering', 'Sort control does not sort as labelled', `After "${label}" the items read (by ${t0.kind}) ${shown}${t0.keys!.length > 6 ? ', …' : ''}: ${o ? `ordered ${o}, the label says ${wordsDir}` : 'in no order'}.`, s, c.subject))];
};

/**
 * Search / filter claims (issue 18): after typing a query taken from a listed item into a search field, a
 * list that changed keeps every item whose visible text contains the query, and shows at least one. A list
 * that did not change (search on submit) is not assessed; shown items without the query are tolerated (they
 * may match on hidden fields).
 */
export const filter: Judge = (s) => {
  const c = s.check!;
  const q = norm(String(c.params?.query ?? ''));
  if (!q || !c.before || !c.after) return [na('filter', s, 'no query or readings')];
  const b = [...c.before.collections].sort((x, y) => y.items.length - x.items.length).find((x) => x.items.some((i) => norm(i.text).includes(q)));
  const a = b && collection(c.after, b.id);
  if (!b || !a) return [na('filter', s, 'the list could not be read before and after')];
  const bt = b.items.map((i) => i.text), at = a.missing ? [] : a.items.map((i) => i.text);
  if (missingFrom(bt, at).length === 0 && missingFrom(at, bt).length === 0) return [na('filter', s, 'the list did not change while typing (search may need a submit)')];
  const matches = bt.filter((t) => norm(t).includes(q));
  const lost = missingFrom(matches, at).filter((t) => !onlyInStamps(t, q));
  // hidden items holding the query only in a date, time or count stamp: a search need not cover those
  const stampOnly = missingFrom(matches, at).filter((t) => onlyInStamps(t, q));
  if (!lost.length && stampOnly.length) return [na('filter', s, `the hidden item(s) contain "${c.params?.query}" only in a date, time or count stamp (e.g. "${stampOnly[0]!.slice(0, 60)}"), which a search need not cover`)];
  if (lost.length) return [bad('filter', s, `${lost.length} matching item(s) hidden`, defect('invariant-filter', 'Search hides matching items', `Searching "${c.params?.query}" in "${c.subject}" hid ${lost.length} item(s) that contain it, e.g. "${lost[0]!.slice(0, 80)}".`, s, c.subject))];
  if (at.length && !at.some((t) => norm(t).includes(q))) return [bad('filter', s, 'no shown item matches', defect('invariant-filter', 'Search shows only non-matching items', `Searching "${c.params?.query}" in "${c.subject}" lists ${at.length} item(s), none containing it.`, s, c.subject))];
  return [ok('filter', s, `${matches.length} matching item(s) kept`)];
};

/**
 * Filter buttons (issue 18): after "Done"/"Completed" only done items are listed, after "Active"/"Open" only
 * open ones — assessed only when the list read both states before (so "done" is readable on this page) and
 * changed.
 */
export const filterState: Judge = (s) => {
  const c = s.check!;
  const want = c.params?.want === 'done';
  if (!c.before || !c.after) return [na('filter-state', s, 'no readings')];
  const b = c.before.collections.find((x) => x.items.some((i) => i.done) && x.items.some((i) => !i.done));
  const a = b && collection(c.after, b.id);
  if (!b || !a || a.missing) return [na('filter-state', s, 'no list with both done and open items was readable')];
  if (a.items.length === b.items.length && a.items.every((i, k) => i.text === b.items[k]!.text)) return [na('filter-state', s, 'the list did not change')];
  const wrong = a.items.filter((i) => i.done !== want);
  if (!wrong.length) return [ok('filter-state', s, `only ${want ? 'done' : 'open'} items listed`)];
  return [bad('filter-state', s, `${wrong.length} wrong item(s)`, defect('invariant-filter', `Filter "${c.subject}" lists the wrong items`, `After "${c.subject}" the list shows ${wrong.length} ${want ? 'open' : 'done'} item(s), e.g. "${wrong[0]!.text.slice(0, 80)}".`, s, c.subject))];
};

/**
 * Calculation (issue 11 "enter a calculation and press equals"): after 7 + 8 =, the page shows 15. Assessed
 * only when the operand 8 was readable before "=".
 */
export const calc: Judge = (s) => {
  const c = s.check!;
  const want = Number(c.params?.expected ?? NaN);
  if (!c.before || !c.after || !Number.isFinite(want)) return [na('calc', s, 'no readings')];
  const shows = (r: Readings, n: number) => r.numbers.some((x) => parseNumber(x.text.replace(/^.*=/, '')) === n || new RegExp(`(^|[^\\d.,])${n}([^\\d.,]|$)`).test(x.text)) || new RegExp(`(^|\\n|=\\s*)${n}(\\s*\\n|$)`).test(c.after!.text ?? '');
  if (!c.before.numbers.some((x) => /8/.test(x.text))) return [na('calc', s, 'the display with the operand could not be read')];
  if (shows(c.after, want)) return [ok('calc', s, `7 + 8 = shows ${want}`)];
  const disp = c.after.numbers.find((x) => /8/.test(x.text))?.text ?? c.after.numbers[0]?.text ?? '';
  return [bad('calc', s, `7 + 8 = does not show ${want}`, defect('invariant-calc', `"${c.subject}" does not compute`, `Pressed 7 + 8 ${c.subject}; the display reads "${disp.slice(0, 40)}", not ${want}.`, s, c.subject))];
};

/**
 * CPU pressure (Linux PSI share of a step, 0-1) from which a step counts as starved by the machine when its long
 * frames hold little of the page's own work. Two evaluations at once on 2 cores reach 0.6-0.7 by themselves;
 * 0.9 and more means other work held the CPUs nearly throughout.
 */
export const STARVED_PRESSURE = 0.9;

/** First-click failure (issue 11): a control that did nothing on its first click and responded to the second, right after. */
export const firstClick: Judge = (s, steps, ev) => {
  const prev = steps.find((p) => p.index === s.index - 1);
  if (!prev || prev.action.target?.signature !== s.action.target?.signature || prev.effect?.kind !== 'none' || !s.effect) return [];
  if (s.effect.kind !== 'changed') return [];
  // on a canvas, or a page that moves by itself (a game's bubbles, a chart that animates), two clicks at the
  // same point are not the same action: what lies under the pointer changed in between
  const tag = (s.action.target?.tag ?? '').toLowerCase();
  if (tag === 'canvas' || (ev.static?.animatedShare ?? 0) >= 0.005 || ev.interaction?.gameLike) return [na('first-click', s, 'the target moves or is a drawing surface: the two clicks did not hit the same thing')];
  // a first click that never reached the page (no trusted click event arrived) was lost by Cookie's input
  if (prev.clickDelivered === false) return [na('first-click', s, 'the first click never reached the page (no click event arrived): not the app\'s doing')];
  // a first click whose step the machine starved: tasks waited for a CPU through >= 90 % of it and the long
  // frames held little of the page's own work; its effect (a smooth scroll, a transition) may simply not
  // have been drawn (PITFALLS.md: the machine's slowness is not the app's)
  const ft = prev.frameTiming;
  if (ft && (ft.cpuPressure ?? 0) >= STARVED_PRESSURE && ft.longFrames > 0 && (ft.longFrameWorkMs ?? ft.longFrameMs) < 0.4 * ft.longFrameMs) {
    return [na('first-click', s, `during the first click other work held this machine's CPUs (tasks waited for a CPU ${Math.round(ft.cpuPressure! * 100)}% of the step) and its long frames held ${ft.longFrameWorkMs ?? 0} ms of the page's own work in ${ft.longFrameMs} ms: the machine, not the app, may have kept its effect from showing`)];
  }
  // the second click must have shown the user something: a DOM-only change no larger than the first click's
  // (focusing a field that already had focus: one attribute) is the same nothing twice, not a lost click
  const e = s.effect;
  const shown = e.pixelChange > 0.0005 || (e.targetPixelChange ?? 0) > 0.001 || (e.textChanged ?? 0) > 0 || e.scrolled;
  if (!shown && e.domMutations <= (prev.effect.domMutations ?? 0)) return [na('first-click', s, 'the second click changed nothing visible, and no more of the DOM than the first')];
  // ... and something the page would not have done by itself meanwhile. On a page that moves or ticks while
  // nobody touches it, three readings of the second click are the page's own doing as likely as the click's: its
  // animation slowing or speeding up ('motion stopped/started': an ease-in-out drift near its turning point),
  // a few changed regions with no DOM change (a slow decorative drift reaching new cells), and a text change on
  // a page whose text changes by itself in other steps' idle looks (a music player's 0:13 → 0:14 falling
  // between two ticks of a short look). Measured on a helper's yoga landing page and music player (2026-12-07):
  // buttons with no handler at all were "needs two clicks", major
  const moving = !!e.baseline && e.baseline.regions > 0;
  const ticking = steps.some((p) => (p.effect?.baseline?.textLines ?? 0) > 0);
  const quiet = (e.targetPixelChange ?? 0) <= 0.001 && !e.scrolled;
  if (/^motion /.test(e.why ?? '')) return [na('first-click', s, `the second click's only effect was the page's own animation changing pace (${e.why}): it may be the animation's own rhythm, not the click`)];
  if (moving && quiet && e.domMutations === 0 && (e.why === 'regions' || e.why === 'more motion') && e.pixelChange < 0.002) return [na('first-click', s, `the second click changed ${(e.pixelChange * 100).toFixed(2)}% of the screen away from the control and no DOM, on a page that moves by itself: its own motion, as likely as the click`)];
  if (ticking && quiet && e.why === 'text') return [na('first-click', s, "the page changes its own text while nobody touches it (a clock, a timer: seen in other steps' idle looks), and the second click changed only text away from the control: that may be a tick, not the click")];
  const name = s.check!.subject;
  return [bad('first-click', s, 'the first click did nothing, the second worked', defect('first-click-failure', `"${name}" needs two clicks`, `The first click on "${name}" changed nothing; the same click right after worked. A user's first click is lost.`, s, name))];
};

/** Paste bypass (issue 11): a digits-only field that keeps letters out when typed but not when pasted. */
export const pasteBypass: Judge = (s, steps) => {
  if (s.check!.params?.mode !== 'pasted') return [];
  const typed = steps.find((p) => p.check?.invariant === 'paste-bypass' && p.check.params?.mode === 'typed' && p.check.subject === s.check!.subject);
  const tv = typed?.check?.after?.field?.value, pv = s.check!.after?.field?.value;
  if (tv === undefined || pv === undefined) return [na('paste-bypass', s, 'field values not readable')];
  if (/[a-z]/i.test(tv)) return [na('paste-bypass', s, 'typing does not keep letters out either: no digits-only rule to bypass')];
  if (/[a-z]/i.test(pv)) return [bad('paste-bypass', s, `pasted value kept letters ("${pv}")`, defect('paste-bypass', `"${s.check!.subject}" accepts letters when pasted`, `Typed "${s.check!.params?.value}" became "${tv}" (digits only), but the same text pasted stayed "${pv}".`, s, s.check!.subject))];
  return [ok('paste-bypass', s, 'letters kept out when typed and when pasted')];
};

/** Resize keeps the drawing (issue 11): a canvas with ink before a window resize still has most of it after. */
export const resizeKeeps: Judge = (s) => {
  const m = s.check!.measured as { inkBefore?: number | null; inkAfter?: number | null } | undefined;
  if (!m || typeof m.inkBefore !== 'number' || typeof m.inkAfter !== 'number') return [na('resize-keeps', s, 'canvas not readable')];
  if (m.inkBefore < 0.002) return [na('resize-keeps', s, 'nothing was drawn')];
  if (m.inkAfter < m.inkBefore * 0.35) return [bad('resize-keeps', s, `ink ${m.inkBefore} → ${m.inkAfter}`, defect('resize-erases', 'Drawing erased when the window is resized', `The canvas held ${(m.inkBefore * 100).toFixed(1)}% ink after drawing and ${(m.inkAfter * 100).toFixed(1)}% after the window was resized and restored.`, s, 'canvas'))];
  return [ok('resize-keeps', s, 'the drawing survived a resize')];
};

/** Layout after a language/theme switch (issue 11): the 375-px layout gains no overflow or clipped text. */
export const layoutAfterToggle: Judge = (s, _steps, ev) => {
  const m = s.check!.measured as { overflowPx?: number; clipped?: { text: string }[]; offenders?: { selector: string; right: number }[] } | undefined;
  if (!m || typeof m.overflowPx !== 'number') return [na('layout-after-toggle', s, 'layout at 375 px not measured')];
  const v = ev.static?.viewports.find((x) => x.width === 375);
  const base = v?.overflowPx ?? 0;
  const baseClipped = v?.clippedText ?? 0;
  const clipped = m.clipped?.length ?? 0;
  if (m.overflowPx > Math.max(24, base + 24)) return [bad('layout-after-toggle', s, `overflow ${m.overflowPx} px`, defect('layout-after-toggle', `Layout breaks at 375 px after "${s.check!.subject}"`, `After switching "${s.check!.subject}" the page is ${m.overflowPx} px wider than a 375-px screen (${base} px before)${m.offenders?.[0] ? `; ${m.offenders[0].selector} ends at ${m.offenders[0].right} px` : ''}.`, s, s.check!.subject, 'major', 'functionality', '6'))];
  if (clipped > baseClipped + 1) return [bad('layout-after-toggle', s, `${clipped} clipped`, defect('layout-after-toggle', `Text cut off at 375 px after "${s.check!.subject}"`, `After switching "${s.check!.subject}" ${clipped} text element(s) are cut off at 375 px, e.g. "${m.clipped![0]!.text}".`, s, s.check!.subject, 'major', 'functionality', '6'))];
  return [ok('layout-after-toggle', s, 'the 375-px layout holds after the switch')];
};

/**
 * Canvas sharpness at DPR 2 (issue 11): a large canvas whose backing store is below 75% of CSS size × DPR is
 * blurry on phones. The phone viewport is emulated on the running page, so a canvas still wider than it (sized
 * once at load for the desktop window) says nothing about how the page draws when loaded on a phone: such a
 * canvas is not judged, and when no other is left the check is not assessed.
 */
export const dprSharp: Judge = (s) => {
  const m = s.check!.measured as { viewport?: number; canvases?: { width: number; height: number; cssWidth: number; cssHeight: number; dpr: number; areaShare: number }[] } | undefined;
  const large = (m?.canvases ?? []).filter((c) => c.areaShare >= 0.1 && c.cssWidth >= 50);
  if (!large.length) return [na('dpr-sharp', s, 'no large canvas measured at DPR 2')];
  const big = large.filter((c) => c.cssWidth <= (m?.viewport ?? 375) * 1.05);
  if (!big.length) return [na('dpr-sharp', s, `the canvas kept its desktop size (${large[0]!.cssWidth} CSS px in a ${m?.viewport ?? 375}-px viewport: laid out once at load), so how it draws on a phone cannot be told without reloading`)];
  const blurry = big.find((c) => c.width < c.cssWidth * c.dpr * 0.75);
  if (!blurry) return [ok('dpr-sharp', s, 'canvases render at the device pixel ratio')];
  return [bad('dpr-sharp', s, `backing ${blurry.width} px for ${blurry.cssWidth} CSS px at DPR ${blurry.dpr}`, defect('canvas-blurry', 'Canvas is blurry on high-density screens', `At device pixel ratio ${blurry.dpr} a ${blurry.cssWidth}×${blurry.cssHeight}-px canvas draws into ${blurry.width}×${blurry.height} pixels (it should be ${blurry.cssWidth * blurry.dpr} wide): upscaled and soft on phones.`, s, 'canvas', 'minor', 'aesthetics', '10'))];
};

/**
 * Whether a click swallowed by a cover changed nothing of the app: no effect at all, or only pixels moving
 * (an animated overlay — the cover itself often is the animation) with no DOM mutation, no text change, no
 * change of content size, no dialog and no navigation. A canvas cover may draw on a click without touching the
 * DOM, so pixels under a canvas are never called "nothing".
 */
function swallowed(s: TraceStep, cov: NonNullable<TraceStep['intercepted']>): boolean {
  const e = s.effect!;
  if (e.kind === 'none') return true;
  if (cov.tag === 'canvas' || e.domMutations > 0 || (e.textChanged ?? 0) > 0 || e.scrolled) return false;
  if (s.dialogs.length || s.navigations.length) return false;
  const c = s.content;
  return !c || (c.before.elements === c.after.elements && c.before.textChars === c.after.textChars);
}

/** SVG shapes: the centre of a ring's, a slice's or a line's box is often not on the shape (a donut's hole). */
const SVG_SHAPE = /^(circle|ellipse|path|polygon|polyline|line)$/;

/**
 * Clicks intercepted (issue 11): a real pointer at a control's centre hits another element that is neither
 * a dialog nor interactive (a decorative overlay), and the click changed nothing of the app ({@link swallowed}).
 * Not judged: a cover that is a passing notice (a toast the tester's own last action raised, gone seconds
 * later), and an SVG shape as the target (its box's centre may lie off the shape: a donut chart's ring is
 * clicked in its hole, where its label is).
 */
export function intercepted(steps: TraceStep[]): InvariantFinding[] {
  const out: InvariantFinding[] = [];
  for (const s of steps) {
    const cov = s.intercepted;
    if (!cov || s.action.kind !== 'click' || cov.dialog || cov.interactive || cov.notice || SVG_SHAPE.test(s.action.target?.tag ?? '') || !s.effect || !swallowed(s, cov) || out.length) continue;
    const name = s.action.target?.name || s.action.target?.tag || 'control';
    out.push(bad('intercept', s, `covered by ${cov.selector}`, defect('click-intercepted', `Clicks on "${name}" hit an overlay`, `A click at the centre of "${name}" lands on ${cov.selector} (<${cov.tag}>${cov.text ? ` "${cov.text.slice(0, 40)}"` : ''}, covering ${Math.round(cov.areaShare * 100)}% of the screen), which swallows it: nothing happened.`, s, name)));
  }
  return out;
}

/** Letters and digits of a text, lower case, single-spaced: a card's words without its ✕ or drag handle. */
const words = (t: string) => norm(t).replace(/[^\p{L}\p{N} ]/gu, ' ').replace(/\s+/g, ' ').trim();

/**
 * Drag and drop moves (issue 18, after issue 11's drag-and-drop sequence): the dragged element leaves the
 * list it was in and is still on the page. Still in its list with no list changed at all: the drop did
 * nothing (violated). Not found in a list before, gone from the page after, or a list changed while it stayed
 * (a reorder inside its own list): not assessed.
 */
export const move: Judge = (s) => {
  const c = s.check!;
  const v = words(String(c.params?.value ?? ''));
  if (v.length < 2 || !c.before || !c.after) return [na('move', s, 'no readings')];
  const holds = (k: CollectionReading) => k.items.some((i) => {
    const w = words(i.text);
    return w.length >= 2 && (w === v || w.includes(v) || v.includes(w));
  });
  const from = c.before.collections.find(holds);
  if (!from) return [na('move', s, `"${c.subject}" is not an item of a list before the drag`)];
  const stayed = collection(c.after, from.id);
  if (stayed && holds(stayed)) {
    const changed = c.after.collections.some((a) => {
      const b = collection(c.before, a.id);
      return !b || a.items.map((i) => i.text).join('\n') !== b.items.map((i) => i.text).join('\n');
    });
    if (changed) return [na('move', s, `"${c.subject}" stayed in its list while a list changed (a reorder?)`)];
    return [bad('move', s, `"${c.subject}" stayed in ${from.id}`, defect('invariant-move', 'Drag and drop does nothing', `"${c.subject}" was dragged onto a drop zone the page declares (it listens for drop); afterwards it is still in its list (${from.id}) and no list changed.`, s, c.subject))];
  }
  if (!words(c.after.text ?? '').includes(v)) return [na('move', s, `"${c.subject}" is not on the page after the drop`)];
  return [ok('move', s, `"${c.subject}" left ${from.id} and is still on the page`)];
};

/** An item's words without its numbers: what stays when only a quantity changed. */
const letters = (t: string) => norm(t).replace(/[^\p{L}]+/gu, ' ').trim();

/** The numbers of an item's text, in order (prices, quantities, counts). */
function numbersIn(t: string): number[] {
  return (t.match(/\d[\d.,]*/g) ?? []).map((x) => parseNumber(x)).filter((n): n is number => n !== null);
}

/**
 * Steppers (a cart line's "+" and "−"): after "+" the item's numbers that changed went up, after "−" down. A
 * "−" whose every changed number rose (quantity 1 → 2, line total $12.50 → $25.00), or a "+" whose every
 * changed number fell, is wired the wrong way. An item that disappeared, changed its words, or whose numbers
 * did not move (a quantity at its floor) is not assessed.
 */
export const stepper: Judge = (s) => {
  const c = s.check!;
  if (!c.before || !c.after) return [na('stepper', s, 'no readings')];
  // the control's item in a list (a cart line), else the stepper around it ("− 1 +": a cart of one line)
  const item = c.before.item ?? (c.before.scope ? { c: c.before.scope.path, i: 0, text: c.before.scope.text } : null);
  if (!item) return [na('stepper', s, 'the control was not inside a readable item')];
  const afterItem = c.before.item
    ? c.after.item && c.after.item.c === item.c && c.after.item.i === item.i ? c.after.item : collection(c.after, item.c)?.items[item.i]
    : c.after.scope?.path === item.c ? c.after.scope : null;
  if (!afterItem) return [na('stepper', s, 'the item could not be read after the press')];
  if (letters(afterItem.text) !== letters(item.text)) return [na('stepper', s, 'the item\'s words changed: it may be another item now')];
  const b = numbersIn(item.text), a = numbersIn(afterItem.text);
  if (a.length !== b.length) return [na('stepper', s, 'the item\'s numbers changed in count')];
  const moved = b.map((x, i) => [x, a[i]!] as const).filter(([x, y]) => x !== y);
  if (!moved.length) return [na('stepper', s, 'no number of the item changed (a quantity at its floor or ceiling)')];
  const up = c.params?.dir === 'up';
  const wrong = moved.every(([x, y]) => (up ? y < x : y > x));
  if (!wrong) return [ok('stepper', s, `"${c.subject}" moved the item's numbers ${up ? 'up' : 'down'}`)];
  const [x, y] = moved[0]!;
  return [bad('stepper', s, `"${c.subject}" moved the numbers the wrong way`, defect('invariant-stepper', `"${c.subject}" ${up ? 'lowers' : 'raises'} the quantity`, `Pressing "${c.subject}" ${c.before.item ? `on item ${item.i + 1}` : 'in'} ("${item.text.slice(0, 60)}") changed ${x} to ${y}${moved.length > 1 ? ` (and ${moved.length - 1} more number(s) the same way)` : ''}: it says ${up ? 'increase' : 'decrease'}.`, s, c.subject))];
};

const JUDGES: Record<string, Judge[]> = {
  identity: [identity, totals],
  add: [add, totals],
  ordering: [ordering],
  filter: [filter],
  'filter-state': [filterState],
  calc: [calc],
  'first-click': [firstClick],
  'paste-bypass': [pasteBypass],
  'resize-keeps': [resizeKeeps],
  'layout-after-toggle': [layoutAfterToggle],
  'dpr-sharp': [dprSharp],
  move: [move],
  stepper: [stepper],
};

/** All findings of the invariant oracles on a trace, in step order. */
export function invariantFindings(ev: Evidence): InvariantFinding[] {
  const steps = ev.interaction?.steps ?? [];
  const out: InvariantFinding[] = [];
  for (const s of steps) {
    if (!s.check || s.outcome !== 'ok') continue;
    for (const j of JUDGES[s.check.invariant] ?? []) out.push(...j(s, steps, ev));
  }
  out.push(...intercepted(steps));
  return out;
}

/**
 * The action concept (brief.ts) each invariant tests: its violation breaks that action. Invariants about a
 * consequence (totals), an input rule, a layout or a single click have none: their severity stays their own.
 */
const INVARIANT_CONCEPTS: Record<string, string[]> = {
  identity: ['delete'],
  add: ['add'],
  ordering: ['sort'],
  filter: ['filter', 'search'],
  'filter-state': ['filter'],
  calc: ['calculate'],
  move: ['drag'],
};

/**
 * Severity follows the brief (issue 18 point 1; METHOD.md §9 "core feature broken −3"): a violated
 * invariant whose action the query names as a core feature (delete, add, sort, filter or search,
 * calculate — in any of the 8 languages, {@link briefFeatures}) is critical; otherwise it keeps its own.
 */
function bySeverityOfBrief(d: DraftDefect, invariant: string, core: Set<string>): DraftDefect {
  const concept = (INVARIANT_CONCEPTS[invariant] ?? []).find((c) => core.has(c));
  if (!concept || d.dimension !== 'functionality' || d.severity === 'critical') return d;
  return { ...d, severity: 'critical', points: 3, cap: undefined, detail: `${d.detail} This breaks "${concept}", a core action the brief asks for.` };
}

/**
 * The invariant check of the offline judge (rubric item 3, logic correctness): defects for violated
 * invariants (one per code), and a verdict that lists what was checked, passed and left not assessed.
 * A violation of a core action of the brief is critical ({@link bySeverityOfBrief}).
 */
export function invariantChecks(ev: Evidence): CheckResult {
  const item = rubricItem('3');
  const findings = invariantFindings(ev);
  const core = new Set(briefFeatures(ev.task.query.prompt).map((f) => f.id));
  const seen = new Set<string>();
  const defects: DraftDefect[] = [];
  for (const f of findings) if (f.defect && !seen.has(f.defect.code!)) (seen.add(f.defect.code!), defects.push(bySeverityOfBrief(f.defect, f.invariant, core)));
  const passed = findings.filter((f) => f.status === 'pass').length;
  const skipped = findings.filter((f) => f.status === 'not-assessed');
  // item 3 is logic correctness: a violation filed under another item (a blurry canvas is refinement, 10) is
  // listed but does not fail it
  const logic = defects.filter((d) => d.rubricItem === '3');
  const verdict: RubricVerdict = {
    id: '3',
    name: item.name,
    dimension: item.dimension,
    verdict: logic.length ? 'fail' : passed ? 'pass' : 'not-assessed',
    method: 'invariant oracles on the interaction readings: identity, add, totals, ordering, filter, calculation, first click, paste, resize, layout after a switch, DPR-2 sharpness, steppers, intercepted clicks',
    reason: findings.length
      ? `${findings.length} invariant check(s): ${passed} held, ${defects.length} violated${defects.length ? ` (${defects.map((d) => d.code).join(', ')})` : ''}, ${skipped.length} not assessed${skipped[0] ? ` (e.g. ${skipped[0].invariant}: ${skipped[0].reason})` : ''}`
      : 'no purposeful sequence was applicable on this page',
  };
  return { verdict, defects };
}
