import { diffRatio, type Rgba } from '../perceive/image.js';
import type { EffectKind, StepEffect } from '../types.js';
import { changedLines, changedRegions, countRegions, type RegionGrid } from './effect.js';
import type { Box, Capture } from './record/keyframe.js';

/** How far (px) masks reach beyond the target and the focus ring: restyling right around them is not an effect. */
export const MASK_MARGIN_PX = 8;

/** A box grown by `px` on every side. */
export function grow(b: Box, px: number): Box {
  return { x: b.x - px, y: b.y - px, width: b.width + 2 * px, height: b.height + 2 * px };
}

/** How far (px) inside its element a focus ring is drawn (outline offset, inset box-shadow). */
export const FOCUS_RING_INSET_PX = 4;

/**
 * Where the focus ring of an element with box `b` is painted: a band from {@link MASK_MARGIN_PX} outside the
 * box to {@link FOCUS_RING_INSET_PX} inside it, as four boxes (px); the whole grown box when the element is too
 * small to have an inside apart from its ring.
 */
export function ringOf(b: Box): Box[] {
  const out = MASK_MARGIN_PX;
  const inn = FOCUS_RING_INSET_PX;
  if (b.width <= 2 * inn || b.height <= 2 * inn) return [grow(b, out)];
  const g = grow(b, out);
  const band = out + inn;
  return [
    { x: g.x, y: g.y, width: g.width, height: band },
    { x: g.x, y: b.y + b.height - inn, width: g.width, height: band },
    { x: g.x, y: g.y, width: band, height: g.height },
    { x: b.x + b.width - inn, y: g.y, width: band, height: g.height },
  ];
}

/**
 * The masks of one step: the target (the control restyles when pressed) and the focused element's ring, each
 * grown by {@link MASK_MARGIN_PX}. A focused element that takes text is masked whole (its caret blinks, typing
 * shows inside it); any other (a game's canvas, a board) only along its ring — what a key does inside a
 * focused canvas is the key's effect, not a restyle (a paused game's overlay was hidden by the whole-box mask).
 */
export function stepMasks(target: Box | null, snap: Capture['snap']): Box[] {
  const masks = target ? [grow(target, MASK_MARGIN_PX)] : [];
  const focus = snap?.focusBox;
  if (focus) masks.push(...(snap?.focusText === false ? ringOf(focus) : [grow(focus, MASK_MARGIN_PX)]));
  return masks;
}

/** A keyframe whose screenshot was taken. */
export type Shot = Capture & { img: Rgba };

/** What the keyframes around one action show before any verdict (the inputs of {@link decideEffect}). */
export interface KeyframeDiff {
  /** Share (0–1) of viewport pixels that differ between the "before" and "after" keyframes. */
  pixelChange: number;
  /** The same inside the target's box; null without a target. */
  targetPixelChange: number | null;
  /** The same outside the masks ({@link stepMasks}: the target, and the focused element whole or only its ring). */
  outsidePixelChange: number;
  masks: Box[];
  /** DOM mutations between the keyframes (probe counter). */
  domMutations: number;
  scrolled: boolean;
  /** Regions the action changed (masks left out). */
  actionGrid: RegionGrid;
  /** Regions that changed on their own between the idle baseline and "before"; null without a baseline screenshot. */
  idleGrid: RegionGrid | null;
  /** Length of the idle baseline, ms (≥ 1 with a baseline screenshot, else 0). */
  idleMs: number;
  /** DOM mutations during the idle baseline. */
  idleMutations: number;
}

/**
 * Compare the keyframes of one step (paper §4.1; METHOD.md §2.3; issue 11 "effects measured
 * counterfactually"): the idle baseline `base` (taken right before the app ran for the pointer's travel;
 * its screenshot only on a page that moves by itself), "before" and "after" the action, and the target's
 * box (px) when there is one. Pure.
 */
export function compareKeyframes(base: Capture, before: Shot, after: Shot, box: Box | null): KeyframeDiff {
  const pixelChange = diffRatio(before.img, after.img);
  const targetPixelChange = box ? diffRatio(before.img, after.img, box) : null;
  // what changed beyond the control itself and the focus ring that moved away from another field
  // (pressing anything restyles those; they are not the action's effect)
  const masks = stepMasks(box, before.snap);
  const outsidePixelChange = masks.length ? diffRatio(before.img, after.img, undefined, masks) : pixelChange;
  const domMutations = before.snap && after.snap ? after.snap.mutations - before.snap.mutations : 0;
  const scrolled = !!before.snap && !!after.snap && (before.snap.scrollY !== after.snap.scrollY || before.snap.scrollX !== after.snap.scrollX);
  // ── the counterfactual: what the action changed beyond what the app did on its own just before ──
  const actionGrid = changedRegions(before.img, after.img, masks);
  const idleMs = base.img ? Math.max(1, before.at - base.at) : 0;
  const idleGrid: RegionGrid | null = base.img ? changedRegions(base.img, before.img, masks) : null;
  const idleMutations = base.snap && before.snap ? before.snap.mutations - base.snap.mutations : 0;
  return { pixelChange, targetPixelChange, outsidePixelChange, masks, domMutations, scrolled, actionGrid, idleGrid, idleMs, idleMutations };
}

/** Changed regions per second (one decimal) of a grid measured over `ms`. */
export function regionsPerSecond(g: RegionGrid, ms: number): number {
  return Math.round((countRegions(g) * 10000) / Math.max(1, ms)) / 10;
}

/**
 * Whether the page moves by itself, as this step showed it (it decides whether the next step takes a
 * screenshot baseline): with a baseline screenshot, any region or DOM change while idle; without one,
 * canvas draws, running animations or DOM mutations between the baseline counters and "before".
 * @returns undefined when this step could not tell (the previous belief stands)
 */
export function stillAnimating(base: Capture, before: Capture, diff: Pick<KeyframeDiff, 'idleGrid' | 'idleMutations'>): boolean | undefined {
  if (diff.idleGrid) return countRegions(diff.idleGrid) > 0 || diff.idleMutations > 0;
  if (base.snap && before.snap) return (before.snap.draws ?? 0) > (base.snap.draws ?? 0) || (before.snap.animations ?? 0) > 0 || before.snap.mutations > base.snap.mutations;
  return undefined;
}

/** A share rounded to 4 decimals. */
export function round4(x: number): number {
  return Math.round(x * 10000) / 10000;
}

/**
 * The {@link StepEffect} recorded in the trace: the keyframe comparison, the verdict (`kind`/`why`, after
 * the motion look), the verdict's region and text counts, the motion (regions/s before and after) when it
 * was measured, and effects that left the page. Pure.
 */
export function assembleEffect(
  diff: KeyframeDiff,
  verdict: { kind: EffectKind; why: string; changed: number; novel: number; textChanged: number },
  base: Capture,
  before: Capture,
  motion: StepEffect['motion'] | undefined,
  external: NonNullable<StepEffect['external']>,
): StepEffect {
  const { idleGrid } = diff;
  return {
    pixelChange: round4(diff.pixelChange),
    targetPixelChange: diff.targetPixelChange === null ? null : round4(diff.targetPixelChange),
    domMutations: diff.domMutations,
    scrolled: diff.scrolled,
    outsidePixelChange: round4(diff.outsidePixelChange),
    screenChanged: verdict.kind === 'changed',
    kind: verdict.kind,
    why: verdict.why,
    baseline: idleGrid ? { ms: diff.idleMs, regions: countRegions(idleGrid), mutations: diff.idleMutations, textLines: base.text && before.text ? changedLines(base.text, before.text).length : 0 } : null,
    regions: { changed: verdict.changed, novel: verdict.novel, total: diff.actionGrid.cells.length },
    textChanged: verdict.textChanged,
    ...(motion ? { motion } : {}),
    ...(external.length ? { external } : {}),
  };
}
