import { describe, expect, it } from 'vitest';
import { judgeOffline } from '../../src/judge/offline/judge.js';
import { invariantFindings, orderOf, ownLabel, parseNumber, priceOf } from '../../src/judge/offline/invariants.js';
import type { Readings, StepCheck, TraceStep } from '../../src/types.js';
import { click, evidence } from '../fixtures/evidence.js';

const R = (items: string[], over: Partial<Readings> = {}, id = 'ul#list'): Readings => ({
  collections: [{ id, items: items.map((t) => ({ text: t, done: false })) }],
  numbers: [],
  field: null,
  item: null,
  text: items.join('\n'),
  ...over,
});
const step = (name: string, check: StepCheck, over: Partial<TraceStep> = {}): TraceStep => click(name, true, { check, ...over, effect: { pixelChange: 0.1, targetPixelChange: 0, domMutations: 4, scrolled: false, screenChanged: true, kind: 'changed', ...(over.effect ?? {}) } });
const run = (...steps: TraceStep[]) => invariantFindings(evidence({}, steps));
const codes = (...steps: TraceStep[]) => judgeOffline(evidence({}, steps)).defects.map((d) => `${d.code}:${d.severity}`);

const tasks = ['Review pull requests Delete', 'Call the plumber Delete', 'Prepare slides Delete', 'Book tickets Delete'];

describe('invariant: identity (delete removes that item, and only it)', () => {
  const check = (after: string[]): StepCheck => ({ invariant: 'identity', subject: 'Delete', before: R(tasks, { item: { c: 'ul#list', i: 1, text: tasks[1]! } }), after: R(after) });
  it('flags a delete that removes the neighbour', () => {
    const f = run(step('Delete', check([tasks[0]!, tasks[1]!, tasks[3]!])));
    expect(f[0]).toMatchObject({ invariant: 'identity', status: 'violated' });
    expect(codes(step('Delete', check([tasks[0]!, tasks[1]!, tasks[3]!])))).toContain('invariant-identity:major');
  });
  it('severity follows the brief: deleting the wrong item is critical when the query asks for delete (any language), major otherwise', () => {
    const wrong = () => step('Delete', check([tasks[0]!, tasks[1]!, tasks[3]!]));
    const judged = (prompt: string) => judgeOffline({ ...evidence({}, [wrong()]), task: { ...evidence().task, query: { ...evidence().task.query, prompt } } }).defects.filter((d) => d.code === 'invariant-identity');
    expect(judged('Build a todo list where I can add tasks and delete them.')).toEqual([expect.objectContaining({ severity: 'critical', deduction: 3, detail: expect.stringMatching(/core action the brief asks for/) })]);
    expect(judged('Erstelle eine Einkaufsliste, in der man Artikel einzeln löschen kann.')[0]!.severity).toBe('critical');
    expect(judged('A page that lists my reading goals for the year.')[0]!.severity).toBe('major');
  });
  it('passes the working twin, also when the list renumbers its items', () => {
    expect(run(step('Delete', check([tasks[0]!, tasks[2]!, tasks[3]!])))[0]!.status).toBe('pass');
    const numbered = ['1. Milk', '2. Bread', '3. Eggs'];
    const c: StepCheck = { invariant: 'identity', subject: '×', before: R(numbered, { item: { c: 'ul#list', i: 1, text: '2. Bread' } }), after: R(['1. Milk', '2. Eggs']) };
    expect(run(step('×', c))[0]!.status).toBe('pass');
  });
  it('flags two items vanishing; leaves nothing-vanished and duplicates not assessed', () => {
    expect(run(step('Delete', check([tasks[0]!, tasks[3]!])))[0]!.status).toBe('violated');
    expect(run(step('Delete', check(tasks)))[0]!.status).toBe('not-assessed');
    const dup: StepCheck = { invariant: 'identity', subject: 'Delete', before: R(['A', 'A', 'B'], { item: { c: 'ul#list', i: 1, text: 'A' } }), after: R(['A', 'B']) };
    expect(run(step('Delete', dup))[0]!.status).toBe('not-assessed');
  });
});

describe('invariant: add shows the typed value', () => {
  const c = (after: string[]): StepCheck => ({ invariant: 'add', subject: 'Add', params: { value: 'Water the ferns' }, before: R(['Milk', 'Bread']), after: R(after) });
  it('flags a new item without the value, passes the twin, ignores a dead button', () => {
    expect(run(step('Add', c(['Milk', 'Bread', 'Write a new note'])))[0]!.status).toBe('violated');
    expect(run(step('Add', c(['Milk', 'Bread', 'Water the ferns'])))[0]!.status).toBe('pass');
    expect(run(step('Add', c(['Milk', 'Bread'])))[0]!.status).toBe('not-assessed');
  });
  it('a new sticky note holding the value in its <textarea> (not in the page\'s text; the item is read with its field) passes; one reading only "✕" is still flagged', () => {
    const notes = (fresh: string): StepCheck => ({ invariant: 'add', subject: 'Add note', params: { value: 'Water the ferns' }, before: R(['Welcome! ✕', 'Buy stamps ✕'], { text: 'Sticky notes\n✕\n✕' }), after: R(['Welcome! ✕', 'Buy stamps ✕', fresh], { text: 'Sticky notes\n✕\n✕\n✕' }) });
    expect(run(step('Add note', notes('Water the ferns ✕')))[0]).toMatchObject({ status: 'pass', reason: 'a new item shows "Water the ferns"' });
    expect(run(step('Add note', notes('✕')))[0]!.status).toBe('violated');
  });
});

describe('invariant: totals and counters follow the list', () => {
  const cart = ['Linen throw $89.00 Remove', 'Pour-over set $42.50 Remove', 'Cutting board $35.00 Remove'];
  const total = (t: string) => [{ id: '#total', text: t, label: `Total ${t}` }];
  const c = (after: string): StepCheck => ({ invariant: 'identity', subject: 'Remove', before: R(cart, { item: { c: 'ul#list', i: 1, text: cart[1]! }, numbers: total('$166.50') }), after: R([cart[0]!, cart[2]!], { numbers: total(after) }) });
  it('flags a stale cart total and passes the recomputed one', () => {
    expect(run(step('Remove', c('$166.50'))).find((f) => f.invariant === 'totals')!.status).toBe('violated');
    expect(run(step('Remove', c('$124.00'))).find((f) => f.invariant === 'totals')!.status).toBe('pass');
  });
  it('flags a stale "items left" counter (Korean 총 N곡 too); ignores numbers that are not counts', () => {
    const songs = ['밤편지 아이유 삭제', '봄날 방탄소년단 삭제', '좋은 날 아이유 삭제'];
    const n = (t: string) => [{ id: '#n', text: t, label: `총 ${t}곡 · 드라이브` }];
    const k: StepCheck = { invariant: 'identity', subject: '삭제', before: R(songs, { item: { c: 'ul#list', i: 1, text: songs[1]! }, numbers: n('3') }), after: R([songs[0]!, songs[2]!], { numbers: n('3') }) };
    expect(run(step('삭제', k)).find((f) => f.invariant === 'totals')!.status).toBe('violated');
    const year: StepCheck = { ...k, before: { ...k.before!, numbers: [{ id: '#y', text: '3', label: 'Since 3 BC' }] }, after: { ...k.after!, numbers: [{ id: '#y', text: '3', label: 'Since 3 BC' }] } };
    expect(run(step('삭제', year)).find((f) => f.invariant === 'totals')).toBeUndefined();
  });
  it('a number is labelled by its own words, not by its neighbour\'s: a habit tracker\'s "Best current streak: 3" beside "Total check-ins: 6" is no counter, though it equals the list\'s size', () => {
    const habits = ['Read 20 pages ✓ ✓', 'Drink water ✓', 'Stretch ✓ ✓ ✓'];
    const bar = (streak: string) => [{ id: '#streak', text: streak, label: `Total check-ins this week: 6 Best current streak: ${streak} 🔥` }];
    const added: StepCheck = { invariant: 'add', subject: 'Add habit', params: { value: 'Meditate' }, before: R(habits, { numbers: bar('3') }), after: R([...habits, 'Meditate'], { numbers: bar('3') }) };
    expect(run(step('Add habit', added)).find((f) => f.invariant === 'totals')).toBeUndefined();
    // the same number labelled as a count of the list is still held to it
    const count = (n: string) => [{ id: '#n', text: n, label: `Tasks left: ${n} Best current streak: 5 🔥` }];
    const stale: StepCheck = { ...added, before: R(habits, { numbers: count('3') }), after: R([...habits, 'Meditate'], { numbers: count('3') }) };
    expect(ownLabel('Tasks left: 3 Best current streak: 5 🔥', '3')).toBe('Tasks left: ');
    expect(ownLabel('Total check-ins this week: 6 Best current streak: 3 🔥', '3')).toBe(' Best current streak: ');
    expect(ownLabel('3 items left', '3')).toBe('  items left');
    expect(run(step('Add habit', stale)).find((f) => f.invariant === 'totals')!.status).toBe('violated');
  });
});

describe('invariant: ordering after a sort control', () => {
  const before = ['Keyboard $129', 'Hub $45', 'Headphones $249', 'Lamp $9'];
  const c = (label: string, after: string[]): StepCheck => ({ invariant: 'ordering', subject: label, params: { label }, before: R(before), after: R(after) });
  it('compares prices as numbers and enforces a named direction', () => {
    expect(run(step('Price: Low to High', c('Price: Low to High', ['Keyboard $129', 'Headphones $249', 'Hub $45', 'Lamp $9'])))[0]!.status).toBe('violated');
    expect(run(step('Price: Low to High', c('Price: Low to High', ['Lamp $9', 'Hub $45', 'Keyboard $129', 'Headphones $249'])))[0]!.status).toBe('pass');
    expect(run(step('Price: Low to High', c('Price: Low to High', ['Headphones $249', 'Keyboard $129', 'Hub $45', 'Lamp $9'])))[0]!.status).toBe('violated');
  });
  it('reads directions in the benchmark languages (Nombre Z-A) and leaves an unmoved list not assessed', () => {
    const names = ['Lucía Fernández', 'Andrés Molina', 'Sofía Ramírez'];
    const za: StepCheck = { invariant: 'ordering', subject: 'Nombre (Z-A)', params: { label: 'Nombre (Z-A)' }, before: R(names), after: R(['Andrés Molina', 'Lucía Fernández', 'Sofía Ramírez']) };
    expect(run(step('Nombre (Z-A)', za))[0]!.status).toBe('violated');
    expect(run(step('Nombre (Z-A)', { ...za, after: R(['Sofía Ramírez', 'Lucía Fernández', 'Andrés Molina']) }))[0]!.status).toBe('pass');
    expect(run(step('Sort', { ...za, after: R(names) }))[0]!.status).toBe('not-assessed');
    // "Z-A" pressed after "A-Z" on a page whose Z-A sorts A-Z: the list does not move, the label still binds
    const az: StepCheck = { invariant: 'ordering', subject: 'Nombre (A-Z)', params: { label: 'Nombre (A-Z)' }, before: R(names), after: R(['Andrés Molina', 'Lucía Fernández', 'Sofía Ramírez']) };
    const stuck: StepCheck = { ...za, before: az.after, after: az.after };
    const s1 = step('Nombre (A-Z)', az);
    const s2 = step('Nombre (Z-A)', stuck, { index: s1.index + 1 });
    expect(run(s1, s2).map((f) => f.status)).toEqual(['pass', 'violated']);
    expect(run(s1, step('Nombre (Z-A)', { ...stuck, after: R(['Sofía Ramírez', 'Lucía Fernández', 'Andrés Molina']) }, { index: s1.index + 1 })).map((f) => f.status)).toEqual(['pass', 'pass']);
  });
  it('sorts names behind icons by the name (emoji card icons are not part of it)', () => {
    const before = ['💡 Desk Lamp $9', '⌨️ Mechanical Keyboard $129', '🎧 Headphones $249'];
    const after = ['💡 Desk Lamp $9', '🎧 Headphones $249', '⌨️ Mechanical Keyboard $129'];
    const c: StepCheck = { invariant: 'ordering', subject: 'Name A–Z', params: { label: 'Name A–Z' }, before: R(before), after: R(after) };
    expect(run(step('Name A–Z', c))[0]!.status).toBe('pass');
    expect(run(step('Name A–Z', { ...c, after: R(['⌨️ Mechanical Keyboard $129', '💡 Desk Lamp $9', '🎧 Headphones $249']) }))[0]!.status).toBe('violated');
  });
  it('helpers: numbers and prices parse as numbers, orders are detected', () => {
    expect(parseNumber('1,234.50')).toBe(1234.5);
    expect(parseNumber('1.234,50')).toBe(1234.5);
    expect(priceOf('Webcam 4K €89')).toBe(89);
    expect(orderOf([1, 2, 10], (a, b) => Number(a) - Number(b))).toBe('asc');
  });
});

describe('invariant: search and filter claims', () => {
  const books = ['The Left Hand of Darkness Le Guin', 'Invisible Cities Calvino', 'Beloved Morrison'];
  it('flags a search that hides the items containing the query; tolerates a search that waits for submit', () => {
    const c = (after: string[]): StepCheck => ({ invariant: 'filter', subject: 'Search', params: { query: 'Invisible' }, before: R(books), after: R(after) });
    expect(run(step('Search', c([])))[0]!.status).toBe('violated');
    expect(run(step('Search', c([books[1]!])))[0]!.status).toBe('pass');
    expect(run(step('Search', c(books)))[0]!.status).toBe('not-assessed');
  });
  it('a note hidden by a search for the month of its date stamp is not a search bug (a notes search covers titles and bodies); the same word in its title is', () => {
    // a French notes app: the search empties the list for "janv", found only in the note's date stamp
    const notes = ['Water the ferns 15 janv., 09:00 📌🗑️', 'Idées cadeaux 14 janv., 18:30 📌🗑️'];
    const c: StepCheck = { invariant: 'filter', subject: 'Rechercher', params: { query: 'janv' }, before: R(notes), after: R([]) };
    expect(run(step('Rechercher', c))[0]).toMatchObject({ status: 'not-assessed', reason: expect.stringMatching(/only in a date, time or count stamp/) });
    const titled = ['Janvier : bilan 15 janv., 09:00', 'Idées cadeaux 14 janv., 18:30'];
    expect(run(step('Rechercher', { ...c, before: R(titled), after: R([]) }))[0]!.status).toBe('violated');
  });
  it('flags a Completed tab listing open items', () => {
    const mixed: Readings = { ...R([]), collections: [{ id: 'ul', items: [{ text: 'a', done: true }, { text: 'b', done: false }, { text: 'c', done: false }] }] };
    const after = (done: boolean): Readings => ({ ...R([]), collections: [{ id: 'ul', items: [{ text: 'b', done }, { text: 'c', done }] }] });
    expect(run(step('Completed', { invariant: 'filter-state', subject: 'Completed', params: { want: 'done' }, before: mixed, after: after(false) }))[0]!.status).toBe('violated');
    expect(run(step('Active', { invariant: 'filter-state', subject: 'Active', params: { want: 'open' }, before: mixed, after: after(false) }))[0]!.status).toBe('pass');
  });
});

describe('careful-tester checks', () => {
  const num = (t: string) => ({ ...R([]), collections: [], numbers: [{ id: '.value', text: t, label: t }], text: t });
  it('calculation: 7 + 8 = must show 15', () => {
    const c = (after: string): StepCheck => ({ invariant: 'calc', subject: '=', params: { expression: '7+8', expected: 15 }, before: num('8'), after: num(after) });
    expect(run(step('=', c('78')))[0]!.status).toBe('violated');
    expect(run(step('=', c('8')))[0]!.status).toBe('violated');
    expect(run(step('=', c('15')))[0]!.status).toBe('pass');
    expect(codes(step('=', c('8')))).toContain('invariant-calc:major');
  });
  it('first click: nothing, then the same click works → first-click-failure', () => {
    const first = click('How do I reset my password?', false, { effect: { pixelChange: 0, targetPixelChange: 0, domMutations: 0, scrolled: false, screenChanged: false, kind: 'none' } });
    const second = click('How do I reset my password?', true, { index: first.index + 1, check: { invariant: 'first-click', subject: 'How do I reset my password?' }, effect: { pixelChange: 0.1, targetPixelChange: 0, domMutations: 2, scrolled: false, screenChanged: true, kind: 'changed' } });
    expect(run(first, second)[0]).toMatchObject({ status: 'violated', defect: { code: 'first-click-failure' } });
    const dead = { ...second, effect: { ...second.effect!, kind: 'none' as const, screenChanged: false } };
    expect(run(first, dead)).toEqual([]);
  });
  it('first click: two clicks that each change one attribute and nothing visible (a "Focus input" button on a focused field) are not a lost click', () => {
    const first = click('Focus Input', false, { effect: { pixelChange: 0.0003, targetPixelChange: 0, domMutations: 1, scrolled: false, screenChanged: false, kind: 'none' } });
    const second = click('Focus Input', true, { index: first.index + 1, check: { invariant: 'first-click', subject: 'Focus Input' }, effect: { pixelChange: 0, targetPixelChange: 0, domMutations: 1, scrolled: false, screenChanged: true, kind: 'changed', textChanged: 0 } });
    expect(run(first, second)[0]).toMatchObject({ status: 'not-assessed' });
    expect(codes(first, second)).not.toContain('first-click-failure:major');
  });
  it('first click: on a canvas game whose bubbles move, a miss then a hit at the same point is not a lost click', () => {
    const first = click('canvas', false, { effect: { pixelChange: 0, targetPixelChange: 0, domMutations: 0, scrolled: false, screenChanged: false, kind: 'none' } });
    const second = click('canvas', true, { index: first.index + 1, check: { invariant: 'first-click', subject: 'canvas' }, effect: { pixelChange: 0.02, targetPixelChange: 0.03, domMutations: 1, scrolled: false, screenChanged: true, kind: 'changed', textChanged: 1 } });
    const onCanvas = (s: TraceStep): TraceStep => ({ ...s, action: { ...s.action, target: { ...s.action.target!, tag: 'canvas' } } });
    expect(run(onCanvas(first), onCanvas(second))[0]).toMatchObject({ status: 'not-assessed', reason: expect.stringMatching(/moves or is a drawing surface/) });
    // the same two clicks on a still page's button are a lost first click
    expect(run(first, second)[0]).toMatchObject({ status: 'violated' });
  });
  it('first click: a first click that never reached the page (no click event arrived) is not the app\'s failure', () => {
    const first = click('Reset', false, { clickDelivered: false, effect: { pixelChange: 0, targetPixelChange: 0, domMutations: 0, scrolled: false, screenChanged: false, kind: 'none' } });
    const second = click('Reset', true, { index: first.index + 1, clickDelivered: true, check: { invariant: 'first-click', subject: 'Reset' }, effect: { pixelChange: 0.007, targetPixelChange: 0, domMutations: 11, scrolled: false, screenChanged: true, kind: 'changed', textChanged: 17 } });
    expect(run(first, second)[0]).toMatchObject({ status: 'not-assessed', reason: expect.stringMatching(/never reached the page/) });
    expect(run({ ...first, clickDelivered: true }, second)[0]).toMatchObject({ status: 'violated' });
  });
  it('first click: a first click whose step the machine starved (CPU pressure >= 90 %, long frames without the page\'s work) is not assessed; the same with the CPUs free is a lost click', () => {
    // measured on a smooth-scroll "Start free trial" link beside six busy processes (a helper's LLM-style landing page)
    const starved = { fps: 19.8, longFrames: 14, longFrameMs: 1361, longFrameWorkMs: 21, cpuPressure: 0.98, windowMs: 2277 };
    const first = click('Start free trial', false, { frameTiming: starved, effect: { pixelChange: 0.0105, targetPixelChange: 0.0199, domMutations: 0, scrolled: false, screenChanged: false, kind: 'none' } });
    const second = click('Start free trial', true, { index: first.index + 1, check: { invariant: 'first-click', subject: 'Start free trial' }, effect: { pixelChange: 0.1365, targetPixelChange: 0.89, domMutations: 0, scrolled: true, screenChanged: true, kind: 'changed' } });
    expect(run(first, second)[0]).toMatchObject({ status: 'not-assessed', reason: expect.stringMatching(/waited for a CPU 98% .* 21 ms of the page's own work in 1361 ms/) });
    expect(codes(first, second)).not.toContain('first-click-failure:major');
    // two evaluations at once on 2 cores (pressure 0.69), or long frames full of the page's own script: its click
    expect(run({ ...first, frameTiming: { ...starved, cpuPressure: 0.69 } }, second)[0]).toMatchObject({ status: 'violated' });
    expect(run({ ...first, frameTiming: { ...starved, longFrameWorkMs: 1200 } }, second)[0]).toMatchObject({ status: 'violated' });
  });
  it('first click: on a page that moves or ticks by itself, a second click whose only change is the page\'s own pace, a few drifting regions or a tick is not a lost click; the same change on a still page is', () => {
    // a yoga landing page's sun drifting ease-in-out behind a "Ver horarios" button with no handler (a helper's page, 2026-12-07)
    const first = click('Ver horarios', false, { effect: { pixelChange: 0.0007, targetPixelChange: 0, domMutations: 0, scrolled: false, screenChanged: false, kind: 'none', why: 'nothing changed beyond what the page does on its own', baseline: { ms: 350, regions: 16, mutations: 0, textLines: 0 } } });
    const slowed = click('Ver horarios', true, { index: first.index + 1, check: { invariant: 'first-click', subject: 'Ver horarios' }, effect: { pixelChange: 0.0006, targetPixelChange: 0, domMutations: 0, scrolled: false, screenChanged: true, kind: 'changed', why: 'motion stopped', baseline: { ms: 334, regions: 13, mutations: 0, textLines: 0 }, motion: { before: 38.9, after: 8.4 } } });
    expect(run(first, slowed)[0]).toMatchObject({ status: 'not-assessed', reason: expect.stringMatching(/own animation changing pace/) });
    const drift = { ...slowed, effect: { ...slowed.effect!, why: 'regions', motion: undefined } };
    expect(run(first, drift)[0]).toMatchObject({ status: 'not-assessed', reason: expect.stringMatching(/moves by itself/) });
    // the same few regions with the DOM changed, or on a page that was still: the click's
    expect(run(first, { ...drift, effect: { ...drift.effect, domMutations: 3 } })[0]).toMatchObject({ status: 'violated' });
    expect(run(first, { ...drift, effect: { ...drift.effect, baseline: null } })[0]).toMatchObject({ status: 'violated' });
    // a music player's "Repetir" with no handler: the time display ticked during the second click's short look
    const player = click('Reproducir', true, { index: first.index - 2, effect: { pixelChange: 0.002, targetPixelChange: 0.03, domMutations: 2, scrolled: false, screenChanged: true, kind: 'changed', why: 'text', baseline: { ms: 565, regions: 6, mutations: 2, textLines: 2 }, textChanged: 2 } });
    const repeat1 = click('Repetir', false, { index: first.index, effect: { pixelChange: 0.0003, targetPixelChange: 0, domMutations: 0, scrolled: false, screenChanged: false, kind: 'none', baseline: { ms: 565, regions: 6, mutations: 2, textLines: 2 } } });
    const repeat2 = click('Repetir', true, { index: first.index + 1, check: { invariant: 'first-click', subject: 'Repetir' }, effect: { pixelChange: 0.0016, targetPixelChange: 0, domMutations: 2, scrolled: false, screenChanged: true, kind: 'changed', why: 'text', baseline: { ms: 507, regions: 15, mutations: 0, textLines: 0 }, textChanged: 2 } });
    expect(run(player, repeat1, repeat2).find((r) => r.invariant === 'first-click')).toMatchObject({ status: 'not-assessed', reason: expect.stringMatching(/changes its own text/) });
    // no step ever saw the text change by itself: the second click's text change is the click's
    const unseen = { ...repeat1, effect: { ...repeat1.effect!, baseline: { ms: 565, regions: 6, mutations: 0, textLines: 0 } } };
    expect(run(unseen, repeat2).find((r) => r.invariant === 'first-click')).toMatchObject({ status: 'violated' });
  });
  it('paste bypass: digits kept when typed, letters kept when pasted', () => {
    const f = (v: string): Readings => ({ ...R([]), field: { value: v, valid: true } });
    const typed = step('Card number', { invariant: 'paste-bypass', subject: 'Card number', params: { mode: 'typed', value: '4242ab42cd' }, after: f('424242') });
    const pasted = (v: string) => step('Card number', { invariant: 'paste-bypass', subject: 'Card number', params: { mode: 'pasted', value: '4242ab42cd' }, after: f(v) });
    expect(run(typed, pasted('4242ab42cd')).find((x) => x.invariant === 'paste-bypass')!.status).toBe('violated');
    expect(run(typed, pasted('424242')).find((x) => x.invariant === 'paste-bypass')!.status).toBe('pass');
  });
  it('resize erases the drawing; layout breaks after a language switch; blurry canvas at DPR 2 is minor', () => {
    const m = (invariant: StepCheck['invariant'], measured: Record<string, unknown>) => step('x', { invariant, subject: 'DE', measured });
    expect(run(m('resize-keeps', { inkBefore: 0.02, inkAfter: 0 }))[0]!.status).toBe('violated');
    expect(run(m('resize-keeps', { inkBefore: 0.02, inkAfter: 0.019 }))[0]!.status).toBe('pass');
    expect(run(m('layout-after-toggle', { overflowPx: 140, offenders: [], clipped: [] }))[0]!.status).toBe('violated');
    expect(run(m('layout-after-toggle', { overflowPx: 0, offenders: [], clipped: [] }))[0]!.status).toBe('pass');
    const cv = (width: number) => ({ canvases: [{ width, height: 812, cssWidth: 375, cssHeight: 812, dpr: 2, areaShare: 1 }] });
    expect(codes(m('dpr-sharp', cv(375)))).toContain('canvas-blurry:minor');
    // a blurry canvas is refinement (item 10), not a logic error: item 3 does not fail for it
    const items = judgeOffline(evidence({}, [m('dpr-sharp', cv(375))])).rubric;
    expect(items.find((r) => r.id === '3')!.verdict).not.toBe('fail');
    expect(run(m('dpr-sharp', cv(750)))[0]!.status).toBe('pass');
    // a canvas still 1280 CSS px wide in the 375-px phone viewport was sized once at load: not assessed, not blurry
    const desktop = { viewport: 375, canvases: [{ width: 1280, height: 720, cssWidth: 1280, cssHeight: 720, dpr: 2, areaShare: 1 }] };
    expect(run(m('dpr-sharp', desktop))[0]).toMatchObject({ status: 'not-assessed' });
    expect(codes(m('dpr-sharp', { viewport: 375, canvases: [...desktop.canvases, ...cv(375).canvases] }))).toContain('canvas-blurry:minor');
  });
  it('a click swallowed by a decorative overlay is a defect; one covered by a dialog is not', () => {
    const cover = { selector: 'div.aurora', tag: 'div', dialog: false, interactive: false, text: '', areaShare: 1 };
    const none = { pixelChange: 0, targetPixelChange: 0, domMutations: 0, scrolled: false, screenChanged: false, kind: 'none' as const };
    expect(codes(click('Create account', false, { intercepted: cover, effect: none }))).toContain('click-intercepted:major');
    expect(run(click('Create account', false, { intercepted: { ...cover, dialog: true }, effect: none }))).toEqual([]);
  });
  it("a toast the tester's last action raised over a cookie banner's Accept is no overlay, and Accept clicked under it is untested, not dead; a donut ring clicked in its hole is not intercepted", () => {
    const none = { pixelChange: 0, targetPixelChange: 0, domMutations: 0, scrolled: false, screenChanged: false, kind: 'none' as const };
    const toast = { selector: '#toast', tag: 'div', dialog: false, interactive: false, text: 'Added 1 × Aero Runner 2 (US 7) to your cart', areaShare: 0.015, notice: true };
    const accept = () => click('Accept', false, { intercepted: toast, effect: none });
    const add = () => click('Add to cart', true);
    expect(codes(add(), accept(), accept())).toEqual([]);
    // the same cover, not a notice: the overlay defect, and still no dead button beside it (no double penalty)
    expect(codes(add(), click('Accept', false, { intercepted: { ...toast, notice: false }, effect: none }), click('Accept', false, { intercepted: { ...toast, notice: false }, effect: none }))).toEqual(['click-intercepted:major']);
    // without a cover, two clicks that change nothing are a dead button, as before
    expect(codes(add(), click('Accept', false, { effect: none }), click('Accept', false, { effect: none }))).toEqual(['dead-control:minor']);
    const ring = click('', false, { intercepted: { selector: '#donut > text:nth-child(5)', tag: 'text', dialog: false, interactive: false, text: '100%', areaShare: 0.002 }, effect: none });
    ring.action.target = { ...ring.action.target!, tag: 'circle', role: 'clickable' };
    expect(run(ring)).toEqual([]);
  });
  it('an animated overlay that swallows the click is still a defect: its own drift is pixels, not an effect; a real change under it is not', () => {
    const cover = { selector: 'div.aurora', tag: 'div', dialog: false, interactive: false, text: '', areaShare: 1 };
    const drift = { pixelChange: 0.02, targetPixelChange: 0.11, domMutations: 0, scrolled: false, screenChanged: true, kind: 'changed' as const, textChanged: 0 };
    const content = { before: { elements: 13, textChars: 394 }, after: { elements: 13, textChars: 394 } };
    expect(codes(click('Create account', false, { intercepted: cover, effect: drift, content }))).toContain('click-intercepted:major');
    expect(run(click('Create account', false, { intercepted: cover, effect: { ...drift, domMutations: 3, textChanged: 1 }, content }))).toEqual([]);
    expect(run(click('Create account', false, { intercepted: cover, effect: drift, content: { ...content, after: { elements: 13, textChars: 430 } } }))).toEqual([]);
    expect(run(click('Start', false, { intercepted: { ...cover, tag: 'canvas' }, effect: drift, content }))).toEqual([]);
  });
});

describe('invariant: move (drag and drop takes the card out of its list)', () => {
  const todo = ['Design landing page ✕', 'Write API docs ✕'];
  const board = (cols: string[][], text?: string): Readings => ({ collections: cols.map((items, i) => ({ id: `#col${i}`, items: items.map((t) => ({ text: t, done: false })) })), numbers: [], field: null, item: null, text: text ?? cols.flat().join('\n') });
  const drag = (after: Readings, prompt = 'A kanban board with drag and drop between columns.') => {
    const s: TraceStep = { ...step('', { invariant: 'move', subject: 'Design landing page ✕', params: { value: 'Design landing page ✕' }, before: board([todo, ['Set up CI ✕', 'Deploy ✕']]), after }), action: { kind: 'drag', x: 200, y: 150, toX: 640, toY: 300 } };
    const ev = evidence({}, [s]);
    return { f: invariantFindings(ev)[0]!, d: judgeOffline({ ...ev, task: { ...ev.task, query: { ...ev.task.query, prompt } } }).defects.filter((x) => x.code === 'invariant-move') };
  };
  it('a card dropped on another column that stays where it was, with no list changed, is a defect — critical when the brief asks for drag and drop (any language)', () => {
    const stuck = board([todo, ['Set up CI ✕', 'Deploy ✕']]);
    expect(drag(stuck).f).toMatchObject({ status: 'violated' });
    expect(drag(stuck).d.map((d) => d.severity)).toEqual(['critical']);
    expect(drag(stuck, '做一个看板，可以拖拽卡片到其他列').d.map((d) => d.severity)).toEqual(['critical']);
    expect(drag(stuck, 'A board of my tasks.').d.map((d) => d.severity)).toEqual(['major']);
  });
  it('the card in another column passes; a reorder inside its list or a card gone from the page is not assessed', () => {
    expect(drag(board([['Write API docs ✕'], ['Set up CI ✕', 'Deploy ✕', 'Design landing page ✕']])).f.status).toBe('pass');
    expect(drag(board([['Write API docs ✕', 'Design landing page ✕'], ['Set up CI ✕', 'Deploy ✕']])).f.status).toBe('not-assessed');
    expect(drag(board([['Write API docs ✕'], ['Set up CI ✕', 'Deploy ✕']])).f.status).toBe('not-assessed');
  });
});

describe('invariant: steppers', () => {
  // a coffee shop's cart: each line reads name, price, quantity between its − and + buttons, line total
  const lines = ['Espresso Roast $12.50 − 1 + $12.50', 'Oat Milk $3.20 − 2 + $6.40'];
  const at = (i: number, text: string, all = lines): Readings => R(all.map((t, k) => (k === i ? text : t)), { item: { c: 'ul#list', i, text } });
  const press = (name: string, dir: 'up' | 'down', before: string, after: string, i = 0) => step(name, { invariant: 'stepper', subject: name, params: { dir }, before: at(i, before), after: at(i, after) });
  it('a "−" that raises the quantity (and the line total) is wired the wrong way; a "+" that raises it is fine', () => {
    const wrong = run(press('Decrease Espresso Roast', 'down', lines[0]!, 'Espresso Roast $12.50 − 2 + $25.00'));
    expect(wrong[0]).toMatchObject({ invariant: 'stepper', status: 'violated', defect: { code: 'invariant-stepper', title: '"Decrease Espresso Roast" raises the quantity', severity: 'major' } });
    expect(wrong[0]!.defect!.detail).toMatch(/changed 1 to 2 \(and 1 more number\(s\) the same way\): it says decrease/);
    expect(run(press('+', 'up', lines[0]!, 'Espresso Roast $12.50 − 2 + $25.00'))[0]!.status).toBe('pass');
    expect(run(press('−', 'down', lines[1]!, 'Oat Milk $3.20 − 1 + $3.20', 1))[0]!.status).toBe('pass');
  });
  it('a quantity at its floor, an item that turned into another, or a re-rendered list read by index are judged only on what can be told', () => {
    // "−" at 1 does nothing: not assessed
    expect(run(press('−', 'down', lines[0]!, lines[0]!))[0]!.status).toBe('not-assessed');
    // the line was removed and the next one moved up to its place: other words, not assessed
    expect(run(press('−', 'down', lines[0]!, lines[1]!))[0]!.status).toBe('not-assessed');
    // the cart was re-rendered (the control's own element is gone): the item is read from its list by index
    const rerendered = step('−', { invariant: 'stepper', subject: '−', params: { dir: 'down' }, before: at(1, lines[1]!), after: R([lines[0]!, 'Oat Milk $3.20 − 3 + $9.60']) });
    expect(run(rerendered)[0]!.status).toBe('violated');
    // a cart of one line: no list item, the stepper's own "− 1 +" read at its path before and after
    const scope = (text: string, path = 'aside > ul > li > span.qty'): Readings => R([], { scope: { path, text } });
    const one = (after: Readings) => step('Decrease Espresso Roast', { invariant: 'stepper', subject: 'Decrease Espresso Roast', params: { dir: 'down' }, before: scope('− 1 +'), after });
    expect(run(one(scope('− 2 +')))[0]!.status).toBe('violated');
    expect(run(one(scope('− 1 +')))[0]!.status).toBe('not-assessed');
    expect(run(one(scope('− 2 +', 'other > path')))[0]!.status).toBe('not-assessed');
  });
});
