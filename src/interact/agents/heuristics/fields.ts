import type { Decision, Observation } from '../../agent.js';
import { target, usable, type Heuristic } from './types.js';

/** Mixed input for a digits-only field: letters a rule must keep out. */
export const MIXED_VALUE = '4242ab42cd';

/**
 * "Enter values by typing and by fill/paste, valid and invalid" (issue 11 point 3): a field that declares a
 * digits-only rule (inputmode numeric, a digits pattern, a card/zip/CVV name) gets the same invalid value
 * typed key by key, then pasted (a paste event and an insert without key events, as a paste or autofill
 * does). Both steps carry check `paste-bypass` with the mode; the judge compares the values the field kept.
 */
export class PasteHeuristic implements Heuristic {
  readonly name = 'paste';
  private pos = 0;
  private sig: string | null = null;

  next(obs: Observation): Decision | null {
    if (this.pos >= 2) return null;
    const f = usable(obs).find((e) => e.numericOnly && (this.sig === null || e.signature === this.sig));
    if (!f) return null;
    this.sig = f.signature;
    const mode = this.pos++ === 0 ? 'typed' : 'pasted';
    return {
      action: { kind: 'fill', target: target(f), value: MIXED_VALUE },
      reasoning: `Careful tester (input rules): ${mode === 'typed' ? 'type' : 'paste'} "${MIXED_VALUE}" into "${f.name}", which takes digits only; letters should be kept out either way.`,
      ref: f.ref,
      key: `paste-${mode}|${f.signature}`,
      ...(mode === 'pasted' ? { paste: true } : {}),
      check: { invariant: 'paste-bypass', subject: f.name, params: { mode, value: MIXED_VALUE } },
    };
  }
}
