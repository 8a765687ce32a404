import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EvaluationResult, Evidence, RunResults } from '../../src/types.js';
import { readResults, runCli, TEST_TIMEOUT, tmpDir, writeFiles } from '../helpers.js';

// Content a reviewer sees that the DOM's text, images, canvases and SVG do not show. Web components render
// into shadow roots, closed ones invisible to the page's own DOM queries; CSS art is drawn with styled
// <div>s and no text. Before the probe looked into shadow roots and the judge counted shapes drawn with CSS,
// a working habit tracker written as a custom element and a cat drawn in CSS were both judged "Blank page"
// (critical, total 3/100). The oracle for the components is the same one rendered into the light DOM: the
// verdicts must be the same. An app shell that never rendered stays blank.
const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/unseen');
const closed = fs.readFileSync(path.join(FIXTURES, 'habits-closed.html'), 'utf8');
const ATTACH = "this.root = this.attachShadow({ mode: 'closed' });";

let out: string;
let run: RunResults;
const byCandidate = (c: string): EvaluationResult => run.evaluations.find((e) => e.candidate === c)!;
const evidenceOf = (c: string): Evidence => JSON.parse(fs.readFileSync(path.join(out, byCandidate(c).evidenceDir, 'evidence.json'), 'utf8'));

beforeAll(async () => {
  expect(closed).toContain(ATTACH);
  const dir = tmpDir('cookie-unseen-');
  out = path.join(dir, 'out');
  writeFiles(dir, {
    'habits-closed.html': closed,
    'habits-open.html': closed.replace(ATTACH, "this.root = this.attachShadow({ mode: 'open' });"),
    'habits-light.html': closed.replace(ATTACH, 'this.root = this;'),
    'pricing.html': fs.readFileSync(path.join(FIXTURES, 'pricing-declarative.html'), 'utf8'),
    'habits.cookie.yaml': `query:\n  id: habits\n  prompt: A habit tracker where I can add habits and mark the days I kept them.\n  language: en\n  kind: dynamic\ncandidates:\n${['closed', 'open', 'light'].map((c) => `  - { name: ${c}, mode: html, path: habits-${c}.html }`).join('\n')}\n`,
    'css-cat.html': fs.readFileSync(path.join(FIXTURES, 'css-cat.html'), 'utf8'),
    'empty-shell.html': fs.readFileSync(path.join(FIXTURES, 'empty-shell.html'), 'utf8'),
    'drawn.cookie.yaml': 'query:\n  id: css-cat\n  prompt: Draw a cute cat using only CSS, with blinking eyes.\n  language: en\n  kind: static\ncandidates:\n  - { name: css-cat, mode: html, path: css-cat.html }\n',
    'shell.cookie.yaml': 'query:\n  id: weather\n  prompt: A weather dashboard with a three-day forecast.\n  language: en\n  kind: static\ncandidates:\n  - { name: empty-shell, mode: html, path: empty-shell.html }\n',
    'pricing.cookie.yaml': 'query:\n  id: pricing\n  prompt: A pricing card for a Pro plan with a monthly/yearly toggle.\n  language: en\n  kind: dynamic\ncandidates:\n  - { name: declarative, mode: html, path: pricing.html }\n',
    'cookie.config.mjs': 'export default { recording: { video: false } };\n',
  });
  await runCli(['test', dir, '--config', path.join(dir, 'cookie.config.mjs'), '--output-dir', out, '--concurrency', '2', '--steps', '8']);
  run = readResults(out);
}, TEST_TIMEOUT);

describe('pages built from web components (shadow DOM)', () => {
  it('a custom element in a closed or open shadow root gets the verdict of the same markup in the light DOM', () => {
    const light = byCandidate('light');
    expect(light.status).toBe('scored');
    for (const c of ['closed', 'open']) {
      const r = byCandidate(c);
      expect(r.status, c).toBe('scored');
      expect(r.defects.map((d) => d.title), c).not.toEqual(expect.arrayContaining(['Blank page']));
      expect({ candidate: c, scores: r.scores, defects: r.defects.map((d) => `${d.severity} ${d.title}`).sort() }).toEqual({ candidate: c, scores: light.scores, defects: light.defects.map((d) => `${d.severity} ${d.title}`).sort() });
    }
  });

  it('its text, controls and headings are in the inventory, and its text is language-checked', () => {
    const inv = evidenceOf('closed').static!.inventory!;
    expect(inv.textSample).toContain('Habit Tracker');
    expect(inv.headings.map((h) => h.text)).toContain('Habit Tracker');
    expect(inv.interactive.map((e) => `${e.role}:${e.name}`)).toEqual(expect.arrayContaining(['textbox:New habit', 'button:Add habit']));
    expect(evidenceOf('closed').static!.language).toMatchObject({ expected: 'en', matches: true });
  });

  it('the agent plays inside it: it adds a habit, then marks the new habit done (a control the component rendered after the first action)', () => {
    const steps = evidenceOf('closed').interaction!.steps;
    const names = steps.map((s) => ('target' in s.action && s.action.target ? s.action.target.name : ''));
    expect(names).toEqual(expect.arrayContaining(['Add habit', 'Done today']));
    const add = steps.find((s) => 'target' in s.action && s.action.target?.name === 'Add habit')!;
    // the click reached the button (not "covered" by its own host) and changed what the component shows
    expect(add.outcome).toBe('ok');
    expect(add.effect?.kind, JSON.stringify(add.effect)).toBe('changed');
  });

  it('an open root declared in HTML (<template shadowrootmode>) is seen too: not blank, its toggle found and exercised', () => {
    const r = byCandidate('declarative');
    expect(r.status).toBe('scored');
    expect(r.defects.map((d) => d.title)).not.toEqual(expect.arrayContaining(['Blank page', 'Nothing to interact with']));
    const ev = evidenceOf('declarative');
    expect(ev.static!.inventory!.textSample).toContain('Pro plan');
    expect(ev.static!.inventory!.interactive.map((e) => e.name)).toContain('Switch to yearly billing');
    const toggle = ev.interaction!.steps.find((s) => 'target' in s.action && /Switch to/.test(s.action.target?.name ?? ''));
    expect(toggle?.effect?.kind, JSON.stringify(toggle?.effect)).toBe('changed');
  });

  it('a cat drawn with CSS (styled <div>s, no text) renders: rubric item 1 passes, no "Blank page"', () => {
    const r = byCandidate('css-cat');
    expect(r.status).toBe('scored');
    expect(r.defects.map((d) => d.title)).not.toContain('Blank page');
    expect(r.rubric.find((x) => x.id === '1')!.verdict).toBe('pass');
    expect(evidenceOf('css-cat').static!.inventory!.visibleTextLength).toBe(0);
  });

  it('an app shell that never rendered (only its gradient background shows) is still a blank page', () => {
    const r = byCandidate('empty-shell');
    expect(r.status).toBe('scored');
    expect(r.defects[0]).toMatchObject({ severity: 'critical', title: 'Blank page' });
  });
});
