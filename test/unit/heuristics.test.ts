import { describe, expect, it } from 'vitest';
import type { Observation, ObservedElement } from '../../src/interact/agent.js';
import { OfflineExplorer } from '../../src/interact/agents/explorer.js';
import { CalculatorHeuristic } from '../../src/interact/agents/heuristics/calculator.js';
import { MIXED_VALUE, PasteHeuristic } from '../../src/interact/agents/heuristics/fields.js';
import { DragDropHeuristic } from '../../src/interact/agents/heuristics/drag-drop.js';
import { ADD_VALUE, ListFlowHeuristic, pickDelete } from '../../src/interact/agents/heuristics/list-flow.js';
import { DprHeuristic, DrawResizeHeuristic, ToggleLayoutHeuristic } from '../../src/interact/agents/heuristics/second-look.js';
import { queryFrom, SearchFilterHeuristic, SortHeuristic } from '../../src/interact/agents/heuristics/sort-filter.js';
import { StepperHeuristic } from '../../src/interact/agents/heuristics/stepper.js';
import type { Heuristic } from '../../src/interact/agents/heuristics/types.js';
import type { TraceStep } from '../../src/types.js';
import { inventory } from '../fixtures/evidence.js';

let refN = 0;
const el = (name: string, over: Partial<ObservedElement> = {}): ObservedElement => {
  const ref = refN++;
  return { ref, name, tag: 'button', role: 'button', signature: `button|b|div|${name}|${ref}`, group: 'button|b|div', box: { x: 10 + (ref % 10) * 60, y: 10 + Math.floor(ref / 10) * 40, width: 50, height: 30 }, inViewport: true, disabled: false, ...over };
};
const obs = (elements: ObservedElement[], step = 0): Observation => ({ step, budget: 25, url: 'http://127.0.0.1:1/', elements, screenshot: null, viewport: { width: 1280, height: 800 }, previous: null });
const all = (h: Heuristic, elements: ObservedElement[]) => {
  const out = [];
  for (let i = 0; i < 12; i++) {
    const d = h.next(obs(elements, i));
    if (!d) break;
    out.push(d);
  }
  return out;
};
const item = (c: string, i: number, text: string) => ({ c, i, text });

describe('careful-tester heuristics (issue 11 point 3, issue 18)', () => {
  it('calculator: presses 7 + 8 = on a keypad and checks the result on "="', () => {
    const keys = ['C', '7', '8', '9', '×', '4', '5', '6', '−', '1', '2', '3', '+', '0', '.', '='].map((k) => el(k));
    const ds = all(new CalculatorHeuristic(), keys);
    expect(ds.map((d) => d.action.target!.name)).toEqual(['7', '+', '8', '=']);
    expect(ds[3]!.check).toMatchObject({ invariant: 'calc', params: { expected: 15 } });
    expect(all(new CalculatorHeuristic(), [el('Play'), el('Pause')])).toEqual([]);
  });

  it('list flow: types a value next to Add, adds it, completes an item, deletes the middle item through its own control', () => {
    const field = el('New task', { tag: 'input', role: 'textbox', type: 'text', form: 0 });
    const add = el('Add', { form: 0 });
    const rows = ['Review PRs', 'Call plumber', 'Book tickets'].flatMap((t, i) => [
      el(`Complete ${t}`, { tag: 'input', role: 'checkbox', type: 'checkbox', item: item('ul#list', i, `${t} Delete`) }),
      el('Delete', { item: item('ul#list', i, `${t} Delete`) }),
    ]);
    const ds = all(new ListFlowHeuristic(), [field, add, ...rows]);
    expect(ds.map((d) => d.action.kind)).toEqual(['fill', 'click', 'check', 'click']);
    expect(ds[0]!.action.value).toBe(ADD_VALUE);
    expect(ds[1]!.check).toMatchObject({ invariant: 'add', params: { value: ADD_VALUE } });
    expect(ds[3]!.check).toMatchObject({ invariant: 'identity', params: { index: 1 } });
    expect(pickDelete([el('Delete', { item: item('u', 0, 'a') })])).toBeNull(); // one item: identity cannot be told
    // no <form>: a 460-px wide field and the button right of it are still a pair
    const wide = el('メモ', { tag: 'input', role: 'textbox', type: 'text', box: { x: 20, y: 100, width: 460, height: 40 } });
    const ds2 = all(new ListFlowHeuristic(), [wide, el('追加', { box: { x: 490, y: 100, width: 70, height: 40 } })]);
    expect(ds2.map((d) => d.action.kind)).toEqual(['fill', 'click']);
  });

  it('sort: presses sort buttons (8 languages) and sort options of a select, at most 3', () => {
    const ds = all(new SortHeuristic(), [el('Price: Low to High'), el('Nombre (Z-A)'), el('並べ替え'), el('Preis aufsteigend'), el('Buy')]);
    expect(ds).toHaveLength(3);
    expect(ds.every((d) => d.check?.invariant === 'ordering')).toBe(true);
    const sel = el('Sort by', { tag: 'select', role: 'combobox', options: ['Featured', 'Price: low to high', 'Price: high to low'] });
    const s = all(new SortHeuristic(), [sel]);
    expect(s.map((d) => d.check!.params!.label)).toEqual(['Price: low to high', 'Price: high to low']);
  });

  it('stepper: presses a cart line\'s "+" then the same line\'s "−", each with a stepper check; a calculator\'s bare "+" key is not a stepper', () => {
    const line = (i: number, t: string) => item('ul.cart', i, t);
    const cart = [
      el('Decrease Espresso Roast', { item: line(0, 'Espresso Roast $12.50 − 1 + $12.50') }), el('Increase Espresso Roast', { item: line(0, 'Espresso Roast $12.50 − 1 + $12.50') }),
      el('−', { item: line(1, 'Oat Milk $3.20 − 2 + $6.40') }), el('+', { item: line(1, 'Oat Milk $3.20 − 2 + $6.40') }),
    ];
    const ds = all(new StepperHeuristic(), cart);
    expect(ds.map((d) => [d.action.target!.name, d.check!.invariant, d.check!.params!.dir])).toEqual([['Increase Espresso Roast', 'stepper', 'up'], ['Decrease Espresso Roast', 'stepper', 'down']]);
    const keypad = ['7', '8', '9', '+', '−'].map((k, i) => el(k, { item: item('div.keys', i, k) }));
    expect(all(new StepperHeuristic(), keypad)).toEqual([]);
    // a cart of one line: its "−"/"+" pair is in no list yet, but side by side in one group
    const one = [el('Decrease Espresso Roast', { group: 'button|button|span.qty', box: { x: 900, y: 200, width: 26, height: 26 } }), el('Increase Espresso Roast', { group: 'button|button|span.qty', box: { x: 960, y: 200, width: 26, height: 26 } }), el('Checkout')];
    expect(all(new StepperHeuristic(), one).map((d) => d.action.target!.name)).toEqual(['Increase Espresso Roast', 'Decrease Espresso Roast']);
  });
  it('sort: a word that only contains a sort word ("Registrieren" holds French "trier") is not a sort control', () => {
    const ds = all(new SortHeuristic(), [el('Registrieren'), el('Patrimoine'), el('Ordenarlo todo'), el('Trier par prix'), el('Nach Preis sortieren')]);
    expect(ds.map((d) => d.action.target!.name)).toEqual(['Trier par prix', 'Nach Preis sortieren']);
  });
  it('search/filter: searches for a word of a listed item; presses Completed and Active tabs', () => {
    expect(queryFrom(['The Left Hand of Darkness', 'Invisible Cities', 'Beloved'])).toBe('Invisible');
    const books = ['The Left Hand of Darkness', 'Invisible Cities', 'Beloved'].map((t, i) => el(t, { role: 'clickable', tag: 'article', item: item('section', i, t) }));
    const ds = all(new SearchFilterHeuristic(), [el('Search books', { tag: 'input', role: 'textbox', type: 'search' }), ...books, el('All'), el('Active'), el('Completed')]);
    expect(ds[0]).toMatchObject({ action: { kind: 'fill', value: 'Invisible' }, check: { invariant: 'filter' } });
    expect(ds.slice(1).map((d) => d.check!.params!.want)).toEqual(['done', 'open']);
  });

  it('search: the query is a word of an item\'s content, not of its date stamp or its buttons', () => {
    // a French notes app's items: title, date stamp, then its ✕ and pin buttons' labels
    const notes = ['Water the ferns 15 janv., 09:00 Épingler Supprimer', 'Appeler maman 14 janv., 18:30 Épingler Supprimer'];
    expect(queryFrom(notes, new Set(['epingler', 'supprimer']))).toBe('Appeler');
    // a content word beside a number is content; "hours ago" is a stamp
    expect(queryFrom(['Standup 3 hours ago', 'Lunch 12:30 2 hours ago'])).toBe('Lunch');
    expect(queryFrom(['Standup 3 hours ago', 'Retro 2 hours ago'])).toBe('Retro');
    expect(queryFrom(['15 janv. 09:00', '14 janv. 18:30'])).toBeNull();
    const items = notes.map((t, i) => el(t, { role: 'clickable', tag: 'article', item: item('section', i, t) }));
    const buttons = notes.flatMap((t, i) => [el('Épingler', { item: item('section', i, t) }), el('Supprimer', { item: item('section', i, t) })]);
    const d = new SearchFilterHeuristic().next(obs([el('Rechercher dans les notes', { tag: 'input', role: 'textbox', type: 'search' }), ...items, ...buttons]));
    expect(d).toMatchObject({ action: { kind: 'fill', value: 'Appeler' } });
  });
  it('search: a data table\'s header row (sortable column names) is not what a search looks for: the query comes from its rows', () => {
    const field = el('Search city or country…', { tag: 'input', role: 'textbox', type: 'search' });
    const head = 'div > table > thead > tr';
    const headers = ['City ↕', 'Country ↕', 'Population ↕', 'Area ↕'].map((t, i) => el(t, { role: 'clickable', tag: 'th', item: item(head, i, t) }));
    const lists = [{ id: head, items: ['City ↕', 'Country ↕', 'Population ↕', 'Area ↕'] }, { id: '#tbody', items: ['Lagos Nigeria 15,388,000 1,171', 'Tokyo Japan 37,400,000 2,194', 'Cairo Egypt 21,750,000 3,085'] }];
    const d = new SearchFilterHeuristic().next({ ...obs([field, ...headers]), lists });
    expect(d).toMatchObject({ action: { kind: 'fill', value: 'Tokyo' } });
  });
  it('search: a list whose items hold no control (book cards of plain text) gives the word from the page\'s lists', () => {
    const field = el('Search books', { tag: 'input', role: 'textbox', type: 'search' });
    const lists = [{ id: 'nav', items: ['Home', 'About'] }, { id: 'main > section#books', items: ['The Left Hand of Darkness Ursula K. Le Guin', 'Invisible Cities Italo Calvino', 'Beloved Toni Morrison'] }];
    const d = new SearchFilterHeuristic().next({ ...obs([field]), lists });
    expect(d).toMatchObject({ action: { kind: 'fill', value: 'Invisible' }, check: { invariant: 'filter', params: { query: 'Invisible' } } });
    expect(new SearchFilterHeuristic().next(obs([field]))).toBeNull(); // no list at all: no query with a known answer
  });

  it('drag and drop: drags the draggable card onto the drop zone once, checking that it moves; nothing without a plan', () => {
    const h = new DragDropHeuristic();
    const plan = { from: { x: 200, y: 150 }, to: { x: 640, y: 300 }, text: 'Design landing page ✕', zone: 'main > section:nth-child(2)' };
    const d = h.next({ ...obs([]), dragPlan: plan });
    expect(d).toMatchObject({ action: { kind: 'drag', x: 200, y: 150, toX: 640, toY: 300 }, check: { invariant: 'move', params: { value: 'Design landing page ✕' } } });
    expect(h.next({ ...obs([]), dragPlan: plan })).toBeNull();
    expect(new DragDropHeuristic().next(obs([]))).toBeNull();
  });

  it('paste: types, then pastes the same invalid value into a digits-only field', () => {
    const ds = all(new PasteHeuristic(), [el('Name on card', { tag: 'input', role: 'textbox' }), el('Card number', { tag: 'input', role: 'textbox', numericOnly: true })]);
    expect(ds.map((d) => [d.action.target!.name, d.action.value, !!d.paste, d.check!.params!.mode])).toEqual([
      ['Card number', MIXED_VALUE, false, 'typed'],
      ['Card number', MIXED_VALUE, true, 'pasted'],
    ]);
  });

  it('second looks: a language/theme toggle re-checked at 375 px, a drawing canvas resized, canvases at DPR 2', () => {
    const t = all(new ToggleLayoutHeuristic(), [el('EN'), el('DE'), el('🌙'), el('Buy')]);
    expect(t.map((d) => [d.action.target!.name, d.measure])).toEqual([['EN', 'layout-375'], ['DE', 'layout-375']]);
    const pad = el('', { tag: 'canvas', role: 'clickable', handlers: ['pointerdown', 'pointermove'], box: { x: 0, y: 52, width: 1280, height: 748 } });
    const dr = all(new DrawResizeHeuristic(), [pad]);
    expect(dr).toHaveLength(1);
    expect(dr[0]).toMatchObject({ action: { kind: 'drag' }, measure: 'resize' });
    expect(all(new DrawResizeHeuristic(), [{ ...pad, handlers: [] }])).toEqual([]); // a chart canvas without pointer input
    expect(all(new DprHeuristic(inventory({ canvases: [{ width: 1280, height: 800, areaShare: 1 }] })), [])).toHaveLength(1);
    expect(all(new DprHeuristic(inventory({ canvases: [] })), [])).toEqual([]);
  });

  it('the explorer clicks a silent control again at once (first-click check), and runs the sequences before breadth-first clicks', async () => {
    const acc = el('How do I reset my password?');
    const ex = new OfflineExplorer('http://127.0.0.1:1', inventory({ interactive: [] }), 600);
    const d1 = await ex.next(obs([acc]));
    const silent: TraceStep = { index: 0, action: d1.action, reasoning: '', startedAt: '', durationMs: 1, screenshotBefore: null, screenshotAfter: null, effect: { pixelChange: 0, targetPixelChange: 0, domMutations: 0, scrolled: false, screenChanged: false, kind: 'none' }, consoleErrors: [], pageErrors: [], dialogs: [], navigations: [], outcome: 'ok' };
    ex.observeResult(silent, d1);
    const d2 = await ex.next(obs([acc], 1));
    expect(d2.action.target!.name).toBe(acc.name);
    expect(d2.check).toMatchObject({ invariant: 'first-click' });
    const ex2 = new OfflineExplorer('http://127.0.0.1:1', inventory({ interactive: [] }), 600);
    const first = await ex2.next(obs([el('About'), ...['7', '8', '+', '='].map((k) => el(k))]));
    expect(first.action.target!.name).toBe('7');
  });
});
