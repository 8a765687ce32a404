import type { Dimension, Severity } from '../types.js';

/** One item of the human rubric (Appendix B.4; METHOD.md §4). */
export interface RubricItem {
  id: string;
  name: string;
  dimension: Dimension;
  passesWhen: string;
}

/**
 * The 16-item human rubric with its sub-items 2a and 3a (Appendix B.4/B.5; METHOD.md §4), the
 * calibration instrument every judge reports against. Binary per item; exempt items leave the mean.
 */
export const RUBRIC: readonly RubricItem[] = [
  { id: '1', name: 'Code renders', dimension: 'functionality', passesWhen: 'page loads; project builds with no fatal error' },
  { id: '2', name: 'Intent alignment', dimension: 'functionality', passesWhen: 'page type, content, style, media match the query' },
  { id: '2a', name: 'Language consistency', dimension: 'functionality', passesWhen: "UI copy, prompts, buttons, errors in the query's language" },
  { id: '3', name: 'Logic correctness', dimension: 'functionality', passesWhen: 'widgets, routing, state, workflows behave as asked' },
  { id: '3a', name: 'Feature count', dimension: 'functionality', passesWhen: 'tally of features done right and wrong (audit item)' },
  { id: '4', name: 'Data display', dimension: 'functionality', passesWhen: 'no truncation, overflow, overlap, garbled characters' },
  { id: '5', name: 'No console errors', dimension: 'functionality', passesWhen: 'no runtime errors (warnings exempt)' },
  { id: '6', name: 'Responsive adaptation', dimension: 'functionality', passesWhen: 'intact at 375, 768 and 1280 px' },
  { id: '7', name: 'Layout rationality', dimension: 'aesthetics', passesWhen: 'balanced density, clear hierarchy and module separation' },
  { id: '8', name: 'Interface regularity', dimension: 'aesthetics', passesWhen: 'consistent type scale, spacing, alignment, sizes' },
  { id: '9', name: 'Colour harmony', dimension: 'aesthetics', passesWhen: 'saturation, contrast, palette unity fit the scene' },
  { id: '10', name: 'Design refinement', dimension: 'aesthetics', passesWhen: 'visible design intent and polish' },
  { id: '11', name: 'Animation smoothness', dimension: 'aesthetics', passesWhen: 'no jank in transitions or game loops; reasonable load latency' },
  { id: '12', name: 'Transition effects', dimension: 'aesthetics', passesWhen: 'hover/expand/modal/menu use coherent easing, not hard switches' },
  { id: '13', name: 'Interaction feedback', dimension: 'functionality', passesWhen: 'every action gets immediate visible feedback; errors are actionable' },
  { id: '14', name: 'User experience', dimension: 'functionality', passesWhen: 'intuitive controls, no perceptible lag, flows end cleanly' },
  { id: '15', name: 'Image asset quality', dimension: 'aesthetics', passesWhen: 'images load, fit their slot, match the copy' },
  { id: '16', name: 'Audio and video behaviour', dimension: 'functionality', passesWhen: "media load, fire on the right events, have volume control, don't clash" },
];

/** Look up a rubric item. @throws Error for an unknown id (a programming error) */
export function rubricItem(id: string): RubricItem {
  const item = RUBRIC.find((i) => i.id === id);
  if (!item) throw new Error(`unknown rubric item ${id}`);
  return item;
}

/**
 * Deduction sizes on the 0–8 scale (METHOD.md §9, from the reference verifier): critical ≥ 2, major 1,
 * minor 0.5. Specific critical cases use larger values (crash −4, core feature broken −3).
 */
export const DEDUCTION: Record<Severity, number> = { critical: 2, major: 1, minor: 0.5 };

/** Convert a 0–8 score to 0–100 (×12.5), one decimal. */
export function to100(score8: number): number {
  return Math.round(Math.max(0, Math.min(8, score8)) * 12.5 * 10) / 10;
}
