import type { Decision, Observation, ObservedElement } from '../../agent.js';

/**
 * A careful-tester sequence (issue 11 point 3): a small named heuristic that recognises a pattern on the
 * page (a keypad, a list with an add field, sort controls…) and plays a purposeful sequence on it, one
 * decision per step, attaching the invariant each step serves (`Decision.check`) or the second look it needs
 * (`Decision.measure`). It documents; the judge decides.
 */
export interface Heuristic {
  readonly name: string;
  /** The next decision of this heuristic's sequence for the current observation, or null (nothing to do). */
  next(obs: Observation): Decision | null;
}

/** The target fields of an action on an observed element. */
export function target(e: ObservedElement) {
  return { signature: e.signature, name: e.name, role: e.role, tag: e.tag, group: e.group, box: e.box };
}

/** A click on an element, keyed like the explorer's own clicks so tries are counted once. */
export function clickOn(e: ObservedElement, why: string, extra: Partial<Decision> = {}): Decision {
  return { action: { kind: 'click', target: target(e) }, reasoning: why, ref: e.ref, key: `click|${e.signature}`, ...extra };
}

/** Usable elements: enabled, visible enough, not a file input. */
export function usable(obs: Observation): ObservedElement[] {
  return obs.elements.filter((e) => !e.disabled && e.type !== 'file' && e.box.width * e.box.height >= 16);
}

/** Is it a text field a person types into? */
export function isTextField(e: ObservedElement): boolean {
  if (e.tag === 'textarea') return true;
  if (e.tag === 'input') return ['text', 'search', 'email', 'tel', 'url', 'number', ''].includes(e.type ?? 'text');
  return e.role === 'textbox' || e.role === 'searchbox';
}

/** Is it pressable (button, link-like, clickable)? */
export function isPressable(e: ObservedElement): boolean {
  return e.role === 'button' || e.role === 'clickable' || e.role === 'link' || e.role === 'tab' || e.role === 'menuitem' || (e.tag === 'input' && /submit|button/.test(e.type ?? ''));
}

/** Gap between two elements' boxes, px (0 when they touch or overlap): a wide field and its button are near. */
export function distance(a: ObservedElement, b: ObservedElement): number {
  const dx = Math.max(0, b.box.x - (a.box.x + a.box.width), a.box.x - (b.box.x + b.box.width));
  const dy = Math.max(0, b.box.y - (a.box.y + a.box.height), a.box.y - (b.box.y + b.box.height));
  return Math.hypot(dx, dy);
}
