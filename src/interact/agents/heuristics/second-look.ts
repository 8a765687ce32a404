import type { DomInventory } from '../../../types.js';
import type { Decision, Observation } from '../../agent.js';
import { clickOn, isPressable, usable, type Heuristic } from './types.js';
import { LANGUAGE_WORDS, THEME_WORDS } from './words.js';

/**
 * "Switch each language/theme toggle and re-check layout at 375 px" (issue 11 point 3): press up to 2
 * controls named like a language (English, Deutsch, 中文, DE…) or a theme (dark, light, 🌙), each with a
 * second look at a 375-px phone width afterwards (`measure: 'layout-375'`).
 */
export class ToggleLayoutHeuristic implements Heuristic {
  readonly name = 'toggle-layout';
  private readonly pressed = new Set<string>();

  next(obs: Observation): Decision | null {
    if (this.pressed.size >= 2) return null;
    const t = usable(obs).find((e) => isPressable(e) && !e.item && (LANGUAGE_WORDS.test(e.name) || THEME_WORDS.test(e.name)) && !this.pressed.has(e.signature));
    if (!t) return null;
    this.pressed.add(t.signature);
    return clickOn(t, `Careful tester (toggle): switch "${t.name}", then look at the layout again at 375 px.`, { measure: 'layout-375' });
  }
}

/**
 * "Draw or type, then resize the page and compare" (issue 11 point 3): on a canvas that takes pointer input
 * (it has pointer/mouse listeners and covers ≥ 10% of the viewport), draw a stroke across it, then resize the
 * window and restore it (`measure: 'resize'`: canvas ink before and after). Runs once.
 */
export class DrawResizeHeuristic implements Heuristic {
  readonly name = 'draw-resize';
  private used = false;

  next(obs: Observation): Decision | null {
    if (this.used) return null;
    const area = obs.viewport.width * obs.viewport.height;
    const c = usable(obs).find((e) => e.tag === 'canvas' && e.box.width * e.box.height >= 0.1 * area && (e.handlers ?? []).some((h) => /^(mouse|pointer|touch)/.test(h)));
    if (!c) return null;
    this.used = true;
    const b = c.box;
    const y = Math.round(b.y + b.height * 0.45);
    return {
      action: { kind: 'drag', x: Math.round(b.x + b.width * 0.25), y, toX: Math.round(b.x + b.width * 0.7), toY: Math.round(y + b.height * 0.15) },
      reasoning: 'Careful tester (draw, then resize): draw a stroke on the canvas, then resize the window and look whether the drawing survives.',
      key: `draw|${c.signature}`,
      measure: 'resize',
    };
  }
}

/**
 * "Render the phone viewport at DPR 2 and check canvases for blur" (issue 11 point 3): on a page with a
 * canvas covering ≥ 10% of the viewport, one look at a 375-px viewport at device pixel ratio 2
 * (`measure: 'dpr2'`: each canvas's backing store against its CSS size × 2). Runs once.
 */
export class DprHeuristic implements Heuristic {
  readonly name = 'dpr';
  private used = false;
  constructor(private readonly inventory: DomInventory | null) {}

  next(_obs: Observation): Decision | null {
    if (this.used || !this.inventory?.canvases.some((c) => c.areaShare >= 0.1)) return null;
    this.used = true;
    return { action: { kind: 'wait', durationMs: 100 }, reasoning: 'Careful tester (sharpness): look at the canvases on a phone viewport at device pixel ratio 2.', key: 'dpr2', measure: 'dpr2' };
  }
}

