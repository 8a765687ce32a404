import { describe, expect, it } from 'vitest';
import type { Observation, ObservedElement } from '../../src/interact/agent.js';
import { OfflineExplorer, RESERVE_STEPS } from '../../src/interact/agents/explorer.js';
import type { TraceStep } from '../../src/types.js';
import { inventory } from '../fixtures/evidence.js';

const el = (ref: number, name: string, over: Partial<ObservedElement> = {}): ObservedElement => ({
  ref, name, tag: 'button', role: 'button', signature: `button|b|div|${name}|`, group: 'button|b|div',
  box: { x: 10 + ref * 90, y: 10, width: 80, height: 30 }, inViewport: true, disabled: false, ...over,
});
const obs = (step: number, elements: ObservedElement[], budget = 25): Observation => ({ step, budget, url: 'http://127.0.0.1:1/', elements, screenshot: null, viewport: { width: 1280, height: 800 }, previous: null });
const result = (changed: boolean): TraceStep => ({ index: 0, action: { kind: 'click' }, reasoning: '', startedAt: '', durationMs: 1, screenshotBefore: null, screenshotAfter: null, effect: { pixelChange: 0, targetPixelChange: 0, domMutations: changed ? 1 : 0, scrolled: false, screenChanged: changed }, consoleErrors: [], pageErrors: [], dialogs: [], navigations: [], outcome: 'ok' });

/** Drive the explorer: `effect(name)` says whether clicking a control changes the screen. */
async function drive(ex: OfflineExplorer, elements: ObservedElement[], effect: (name: string) => boolean, budget = 25): Promise<string[]> {
  const done: string[] = [];
  for (let i = 0; i < budget; i++) {
    const d = await ex.next(obs(i, elements, budget));
    if (d.action.kind === 'finish') break;
    const name = d.action.target?.name ?? d.action.key ?? d.action.kind;
    done.push(name);
    ex.observeResult(result(effect(name)), d);
  }
  return done;
}

describe('offline explorer', () => {
  it('samples at most 4 of a group of repeated elements, breadth first', async () => {
    const keys = Array.from({ length: 10 }, (_, i) => el(i, `key ${i}`, { group: 'button|key|div.pad' }));
    const other = el(10, 'Clear', { group: 'button|clear|div' });
    const done = await drive(new OfflineExplorer('http://127.0.0.1:1', inventory({ interactive: [] }), 600), [...keys, other], () => true);
    expect(done.filter((n) => n.startsWith('key'))).toHaveLength(4);
    expect(done.indexOf('Clear')).toBeLessThan(2); // a new group comes before the 2nd of a sampled group
  });

  it('retries a control without effect once, after repeating an action that changed the state', async () => {
    const done = await drive(new OfflineExplorer('http://127.0.0.1:1', inventory({ interactive: [] }), 600), [el(0, 'Plus'), el(1, 'Reset')], (n) => n === 'Plus');
    expect(done).toEqual(['Plus', 'Reset', 'Plus', 'Reset']);
  });

  it('stops 3 steps before the budget and never clicks links off the app', async () => {
    const many = Array.from({ length: 30 }, (_, i) => el(i, `b${i}`, { group: `g${i}` }));
    const ext = el(31, 'GitHub', { tag: 'a', role: 'link', href: 'https://github.com/x', group: 'ext' });
    const done = await drive(new OfflineExplorer('http://127.0.0.1:1', inventory({ interactive: [] }), 600), [ext, ...many], () => true, 10);
    expect(done).toHaveLength(10 - RESERVE_STEPS);
    expect(done).not.toContain('GitHub');
  });

  it('on a game: start button, focus the canvas, press and hold keys, then restart and play again', async () => {
    const inv = inventory({ interactive: [], canvases: [{ width: 1280, height: 800, areaShare: 1 }], listenedEvents: ['keydown'] });
    const ex = new OfflineExplorer('http://127.0.0.1:1', inv, 700);
    expect(ex.gameLike).toBe(true);
    const first = await drive(ex, [el(0, 'Start game')], () => true, 16);
    expect(first.slice(0, 2)).toEqual(['Start game', 'click']);
    expect(first).toContain('ArrowRight');
    const ex2 = new OfflineExplorer('http://127.0.0.1:1', inv, 700);
    const seq: string[] = [];
    for (let i = 0; i < 14; i++) {
      const elements = i >= 8 ? [el(0, 'Start game'), el(1, 'Play again')] : [el(0, 'Start game')];
      const d = await ex2.next(obs(i, elements, 30));
      seq.push(d.action.target?.name ?? d.action.key ?? d.action.kind);
      if (d.action.kind === 'hold') expect(d.action.durationMs).toBe(700);
      ex2.observeResult(result(true), d);
    }
    const restart = seq.indexOf('Play again');
    expect(restart).toBeGreaterThan(5);
    expect(seq[restart + 1]).toBe('Space');
  });
});

describe('offline explorer report', () => {
  it('a silent button is an issue found; typing into a field (its only effect is its own value) is not', () => {
    const ex = new OfflineExplorer('http://127.0.0.1:1', inventory(), 600);
    const target = (name: string, role: string) => ({ signature: `${role}|x|div|${name}|`, name, role, tag: role === 'textbox' ? 'input' : 'button', group: `${role}|x|div`, box: { x: 10, y: 10, width: 120, height: 32 } });
    const fill: TraceStep = { ...result(false), index: 0, action: { kind: 'fill', value: 'Water the ferns', target: target('New task', 'textbox') } };
    const silent: TraceStep = { ...result(false), index: 1, action: { kind: 'click', target: target('Archive', 'button') } };
    const r = ex.report([fill, silent], [], []);
    expect(r.issuesFound.map((i) => i.feature)).toEqual(['Archive']);
  });
});

describe('offline explorer: submitting what was typed', () => {
  it('submits with the button that sends or advances ("Weiter", "Save"), not the nearer "Zurück" or "Cancel" beside the field', async () => {
    const field = (name: string) => el(0, name, { tag: 'input', role: 'textbox', type: 'email', form: 0, signature: `textbox|input|form|${name}|`, group: 'textbox|input|form', box: { x: 10, y: 10, width: 300, height: 30 } });
    // a German sign-up wizard's second step: "Zurück" is placed first and nearest
    const wizard = [field('E-Mail-Adresse'), el(1, 'Zurück', { form: 0, box: { x: 10, y: 50, width: 80, height: 30 } }), el(2, 'Weiter', { form: 0, box: { x: 220, y: 50, width: 80, height: 30 } })];
    const ex = new OfflineExplorer('http://127.0.0.1:1', inventory({ interactive: [] }), 600);
    const done = await drive(ex, wizard, () => true, 6);
    expect(done.slice(0, 2)).toEqual(['E-Mail-Adresse', 'Weiter']);
    // a team directory's add dialog: Cancel beside Save, outside any form
    const dialog = [field('Name'), el(1, 'Cancel', { box: { x: 10, y: 50, width: 80, height: 30 } }), el(2, 'Save member', { box: { x: 200, y: 50, width: 100, height: 30 } })].map((e) => ({ ...e, form: undefined }));
    const done2 = await drive(new OfflineExplorer('http://127.0.0.1:1', inventory({ interactive: [] }), 600), dialog, () => true, 6);
    expect(done2.slice(0, 2)).toEqual(['Name', 'Save member']);
  });
  it('presses a wizard\'s "Weiter" again after the next step\'s field (one button, pressed per step)', async () => {
    const field = (ref: number, name: string, y: number) => el(ref, name, { tag: 'input', role: 'textbox', type: 'text', signature: `textbox|input|div.panel|${name}|`, group: 'textbox|input|div.panel', box: { x: 10, y, width: 300, height: 30 } });
    const steps = [field(0, 'Vorname', 10), field(1, 'E-Mail-Adresse', 60), el(2, 'Zurück', { box: { x: 10, y: 110, width: 80, height: 30 } }), el(3, 'Weiter', { box: { x: 220, y: 110, width: 80, height: 30 } })];
    const done = await drive(new OfflineExplorer('http://127.0.0.1:1', inventory({ interactive: [] }), 600), steps, () => true, 8);
    expect(done.slice(0, 4)).toEqual(['Vorname', 'Weiter', 'E-Mail-Adresse', 'Weiter']);
  });
});
