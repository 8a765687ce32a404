import type { Rgba } from '../perceive/image.js';
import type { EffectKind, StepEffect } from '../types.js';

/** Side of a screen region in px: effects are compared region by region (issue 11, "compared by region"). */
export const CELL = 32;

/** Which regions of the screen changed between two keyframes: a grid of CELL×CELL px cells, 1 = changed. */
export interface RegionGrid {
  cols: number;
  rows: number;
  cells: Uint8Array;
}

type Box = { x: number; y: number; width: number; height: number };

/**
 * The regions that changed between two screenshots of the same size. A pixel differs when its RGB channels
 * differ by more than 48 in sum; a cell changed when more than 2% of its pixels differ. Cells overlapping a
 * mask (the control itself, the focus ring) are never counted. Images of different sizes: every cell changed.
 */
export function changedRegions(a: Rgba, b: Rgba, masks: Box[] = []): RegionGrid {
  const cols = Math.ceil(a.width / CELL);
  const rows = Math.ceil(a.height / CELL);
  const cells = new Uint8Array(cols * rows);
  if (a.width !== b.width || a.height !== b.height) return { cols, rows, cells: cells.fill(1) };
  const masked = (cx: number, cy: number) =>
    masks.some((m) => cx * CELL < m.x + m.width && (cx + 1) * CELL > m.x && cy * CELL < m.y + m.height && (cy + 1) * CELL > m.y);
  for (let cy = 0; cy < rows; cy++) {
    for (let cx = 0; cx < cols; cx++) {
      if (masked(cx, cy)) continue;
      let diff = 0;
      let n = 0;
      const x1 = Math.min(a.width, (cx + 1) * CELL);
      const y1 = Math.min(a.height, (cy + 1) * CELL);
      for (let y = cy * CELL; y < y1; y += 2) {
        for (let x = cx * CELL; x < x1; x += 2) {
          const o = (y * a.width + x) * 4;
          const d = Math.abs(a.data[o]! - b.data[o]!) + Math.abs(a.data[o + 1]! - b.data[o + 1]!) + Math.abs(a.data[o + 2]! - b.data[o + 2]!);
          if (d > 48) diff++;
          n++;
        }
      }
      if (n && diff / n > 0.02) cells[cy * cols + cx] = 1;
    }
  }
  return { cols, rows, cells };
}

/** Number of changed cells. */
export function countRegions(g: RegionGrid): number {
  let n = 0;
  for (const c of g.cells) n += c;
  return n;
}

/** The grid grown by `by` cells in every direction (motion drifts into neighbouring regions over time). */
export function dilate(g: RegionGrid, by = 1): RegionGrid {
  const out = new Uint8Array(g.cells.length);
  for (let y = 0; y < g.rows; y++)
    for (let x = 0; x < g.cols; x++) {
      if (!g.cells[y * g.cols + x]) continue;
      for (let dy = -by; dy <= by; dy++)
        for (let dx = -by; dx <= by; dx++) {
          const nx = x + dx, ny = y + dy;
          if (nx >= 0 && ny >= 0 && nx < g.cols && ny < g.rows) out[ny * g.cols + nx] = 1;
        }
    }
  return { ...g, cells: out };
}

/** Cells changed in `action` that are not set in `idle` (same grid size; otherwise all of `action`). */
export function novelRegions(action: RegionGrid, idle: RegionGrid | null): number {
  if (!idle || idle.cells.length !== action.cells.length) return countRegions(action);
  let n = 0;
  for (let i = 0; i < action.cells.length; i++) if (action.cells[i] && !idle.cells[i]) n++;
  return n;
}

/** A line's shape: numbers replaced by '#', so a ticking clock and a ticking clock compare equal. */
export function lineShape(line: string): string {
  return line.replace(/[-+]?\d+(?:[.,:]\d+)*/g, '#');
}

/** Lines present in one list and not the other (as multisets): what changed in the text state. */
export function changedLines(before: string[], after: string[]): string[] {
  const count = new Map<string, number>();
  for (const l of before) count.set(l, (count.get(l) ?? 0) + 1);
  const out: string[] = [];
  for (const l of after) {
    const c = count.get(l) ?? 0;
    if (c > 0) count.set(l, c - 1);
    else out.push(l);
  }
  for (const [l, c] of count) for (let i = 0; i < c; i++) out.push(l);
  return out;
}

/** Names of controls that clear, reset or delete, in Cookie-Bench's 8 languages and English. */
export const CLEAR_WORDS = /\b(clear|reset|erase|wipe|delete|remove|empty|trash)\b|清除|清空|重置|删除|刪除|移除|löschen|leeren|zurücksetzen|entfernen|effacer|réinitialiser|supprimer|vider|borrar|limpiar|restablecer|eliminar|quitar|クリア|リセット|消去|削除|지우기|초기화|삭제|limpar|redefinir|apagar|excluir|remover|очистить|сбросить|удалить|🗑/i;

/**
 * Names of calculator keys that change nothing on a zero display: 0 (0 → 0), 00, ± (−0 shows as 0) and %
 * (0 % is 0). Pressed while every number on the page is zero they have nothing to act on, like a clear on an
 * empty list (PITFALLS.md); a careful tester presses them after a digit.
 */
export const ZERO_IDENTITY_KEYS = /^\s*(0{1,3}|±|\+\s*\/\s*[-−]|[-−]\s*\/\s*\+|%)\s*$/;

/** What the page looked like as empty when a control had nothing to act on (probe `emptyState`). */
export interface EmptyState {
  canvasBlank: boolean | null;
  fieldsEmpty: boolean;
  zeros: boolean;
  selection: boolean;
}

/** Everything measured around one action that the verdict on its effect needs. */
export interface EffectInput {
  /** Regions changed by the action (control and focus ring masked). */
  action: RegionGrid | null;
  /** Regions changed while idle for `idleMs` right before (null: the page was still, no baseline taken). */
  idle: RegionGrid | null;
  idleMs: number;
  actionMs: number;
  /** DOM mutations during the action and during the idle baseline. */
  mutations: number;
  idleMutations: number;
  /** Expected idle mutations over the action from static perception (used when there is no baseline). */
  staticIdleMutations: number;
  /** Outside-of-control pixel change share and the static noise floor (used when there is no baseline). */
  outsidePixelChange: number;
  noise: number;
  /** Text/state lines the action changed, and those that changed on their own in the baseline. */
  textChanged: string[];
  idleTextChanged: string[];
  scrolled: boolean;
  dialogs: number;
  navigations: number;
  urlChanged: boolean;
  external: NonNullable<StepEffect['external']>;
  /** Accessible name of the target, if any; and whether it sits in a collection item. */
  targetName: string | null;
  targetInItem: boolean;
  empty: EmptyState | null;
  /** The control was already in the state it selects before the click (current tab, active language). */
  targetActive?: boolean;
}

/**
 * Decide what an action did (issue 11 "effects measured counterfactually"): it changed the app when it
 * changed something the app does not change on its own over the same time — text or state lines whose
 * shape does not tick by itself, screen regions the idle baseline left alone, clearly more motion than the
 * baseline, DOM mutations beyond the idle rate, scroll, a dialog, a navigation. Not changed, with effects
 * that left the page (download, print, clipboard, new tab): `external`. Not changed, a clear/reset/delete
 * control and nothing to act on (blank canvas, empty fields, zero counters, no selection): `nothing-to-do`.
 * A control already in the state it selects (the current tab, the active language): `nothing-to-do`.
 * A calculator key that leaves zero as it is (0, ±, %: {@link ZERO_IDENTITY_KEYS}) while every number shown is
 * zero: `nothing-to-do`. Otherwise `none`. Motion (pause/play on an animating page) is decided by the caller with a second look.
 */
export function decideEffect(x: EffectInput): { kind: EffectKind; why: string; novel: number; changed: number; textChanged: number } {
  const changed = x.action ? countRegions(x.action) : 0;
  const idleShapes = new Set(x.idleTextChanged.map(lineShape));
  const text = x.textChanged.filter((l) => !idleShapes.has(lineShape(l)));
  let novel = changed;
  let kind: EffectKind = 'none';
  let why = 'nothing changed beyond what the page does on its own';
  const yes = (w: string) => {
    kind = 'changed';
    why = w;
  };
  if (x.dialogs) yes('dialog');
  else if (x.navigations || x.urlChanged) yes('navigation');
  else if (x.scrolled) yes('scroll');
  else if (text.length) yes('text');
  else if (x.idle && x.action) {
    novel = novelRegions(x.action, dilate(x.idle));
    const idleN = countRegions(x.idle);
    const scale = Math.max(1, x.actionMs / Math.max(1, x.idleMs));
    const idleRate = x.idleMutations / Math.max(1, x.idleMs);
    if (novel >= 2) yes('regions');
    else if (changed > idleN * scale * 2 + 4) yes('more motion');
    else if (x.mutations > idleRate * x.actionMs * 2 + 3) yes('dom');
  } else {
    if (changed >= 1 && x.outsidePixelChange > x.noise * 1.5 + 0.0003) yes('pixels');
    else if (x.mutations > x.staticIdleMutations * 1.5) yes('dom');
  }
  if (kind === 'none' && x.external.length) {
    kind = 'external';
    why = x.external.map((e) => e.kind).join(', ');
  }
  if (kind === 'none' && x.targetActive) {
    kind = 'nothing-to-do';
    why = 'the control was already in the state it selects (selected, or a card already face up)';
  }
  if (kind === 'none' && x.targetName && ZERO_IDENTITY_KEYS.test(x.targetName) && x.empty?.zeros) {
    kind = 'nothing-to-do';
    why = 'every number shown is zero, which this key leaves as it is';
  }
  if (kind === 'none' && x.targetName && CLEAR_WORDS.test(x.targetName) && x.empty) {
    const e = x.empty;
    const nothing = e.canvasBlank === true || (e.canvasBlank === null && e.fieldsEmpty && (e.zeros || !x.targetInItem)) || (!x.targetInItem && /delet|remov|删除|刪除|löschen|supprimer|eliminar|削除|삭제|excluir|удалить/i.test(x.targetName) && !e.selection);
    if (nothing) {
      kind = 'nothing-to-do';
      why = e.canvasBlank ? 'the canvas is blank' : !x.targetInItem && !e.selection && /delet|remov/i.test(x.targetName) ? 'nothing is selected' : 'the fields are empty and counters at zero';
    }
  }
  return { kind, why, novel, changed, textChanged: text.length };
}

/**
 * Did the action start or stop the page's own motion? `before`/`after`: changed regions per second while
 * idle before the action and right after it. Stopped: after < 25% of before (with ≥ 3 regions/s before);
 * started: after > 3 × before + 3.
 */
export function motionChange(before: number, after: number): 'stopped' | 'started' | null {
  if (before >= 3 && after < before * 0.25) return 'stopped';
  if (after > before * 3 + 3) return 'started';
  return null;
}

/**
 * A motion change that lasts: {@link motionChange} read right after the action (`after`) and again over a second
 * look later (`later`; changed regions per second, like `before`). A pause holds and a start keeps going; the page's
 * own animation changing pace (an ease-in-out drift slowing at its turning point, then speeding up) does not, and
 * is not the action's effect. Null unless both looks show the same change.
 */
export function lastingMotionChange(before: number, after: number, later: number): 'stopped' | 'started' | null {
  const m = motionChange(before, after);
  return m && motionChange(before, later) === m ? m : null;
}
