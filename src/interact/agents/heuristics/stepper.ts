import type { Decision, Observation, ObservedElement } from '../../agent.js';
import { clickOn, isPressable, usable, type Heuristic } from './types.js';
import { DECREASE_WORDS, INCREASE_WORDS } from './words.js';

/** An item's text holds a number beside words (a cart line "Espresso Roast $12.50 − 1 +"), not only the button. */
const quantified = (e: ObservedElement) => !!e.item && /\d/.test(e.item.text) && /\p{L}{3}/u.test(e.item.text.replace(e.name, ''));

/**
 * "Claims of the controls" for steppers (check `stepper`): on an item with a number (a cart line, a recipe's
 * servings), or at a "+"/"−" pair side by side, press the "+" and then the "−" once each, recording the item before and after — a "−" that
 * raises the quantity, or a "+" that lowers it, is wired the wrong way. "+" first, so that "−" starts above
 * any floor (a quantity of 1 that may not go lower).
 */
export class StepperHeuristic implements Heuristic {
  readonly name = 'stepper';
  private done = new Set<'up' | 'down'>();
  private item: string | null = null;

  next(obs: Observation): Decision | null {
    const all = usable(obs).filter((e) => isPressable(e));
    // a "+"/"−" pair side by side in one group (a cart of one line has no list item yet): a stepper too
    // (not a calculator's keypad: a group of more than 4 keys)
    const paired = (e: ObservedElement, other: RegExp) => all.filter((o) => o.group === e.group).length <= 4 && all.some((o) => o !== e && o.group === e.group && other.test(o.name) && Math.hypot(o.box.x - e.box.x, o.box.y - e.box.y) < 160);
    const els = all.filter((e) => quantified(e) || paired(e, INCREASE_WORDS.test(e.name) ? DECREASE_WORDS : INCREASE_WORDS));
    for (const [dir, words] of [['up', INCREASE_WORDS], ['down', DECREASE_WORDS]] as const) {
      if (this.done.has(dir)) continue;
      // the same item's other button when one was pressed already
      const where = (x: ObservedElement) => (x.item ? `${x.item.c}|${x.item.i}` : x.group);
      const e = els.find((x) => words.test(x.name) && !(dir === 'up' ? DECREASE_WORDS : INCREASE_WORDS).test(x.name) && (this.item === null || where(x) === this.item));
      if (!e) continue;
      this.done.add(dir);
      this.item = where(e);
      return clickOn(e, `Careful tester (stepper): press "${e.name}"${e.item ? ` on "${e.item.text.slice(0, 40)}"` : ''}; its quantity should go ${dir}.`, { check: { invariant: 'stepper', subject: e.name, params: { dir } } });
    }
    return null;
  }
}
