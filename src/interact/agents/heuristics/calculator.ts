import type { Decision, Observation, ObservedElement } from '../../agent.js';
import { clickOn, isPressable, usable, type Heuristic } from './types.js';

const EQUALS = /^\s*(=|＝|equals?|enter|计算|計算|berechnen|calculer|calcular|계산)\s*$/i;
const PLUS = /^\s*(\+|＋|plus|add)\s*$/i;

/**
 * "Enter a calculation and press equals" (issue 11 point 3): on a page with a keypad (digit keys 7 and 8, a
 * "+" and an "=" key), press 7 + 8 = and record the readings around "=" with the expected result 15 (check
 * `calc`). Runs once.
 */
export class CalculatorHeuristic implements Heuristic {
  readonly name = 'calculator';
  private plan: string[] | null = null;
  private pos = 0;

  next(obs: Observation): Decision | null {
    const keys = usable(obs).filter(isPressable);
    const find = (re: RegExp | string): ObservedElement | undefined => keys.find((e) => (typeof re === 'string' ? e.name.trim() === re : re.test(e.name)));
    if (!this.plan) {
      if (!find('7') || !find('8') || !find(PLUS) || !find(EQUALS)) return null;
      this.plan = ['7', '+', '8', '='];
    }
    if (this.pos >= this.plan.length) return null;
    const want = this.plan[this.pos++]!;
    const e = want === '+' ? find(PLUS) : want === '=' ? find(EQUALS) : find(want);
    if (!e) {
      this.pos = this.plan.length;
      return null;
    }
    const d = clickOn(e, `Careful tester (calculator): enter 7 + 8 = — press "${e.name}".`);
    if (want === '=') d.check = { invariant: 'calc', subject: e.name, params: { expression: '7+8', expected: 15 } };
    return d;
  }
}
