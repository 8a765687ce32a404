import type { Action, InteractionTrace } from '../types.js';
import type { ObservedElement } from './agent.js';

/** Most untested controls a trace lists ({@link Coverage.untested}). */
export const UNTESTED_LIMIT = 50;

/**
 * Coverage bookkeeping of Stage 2 (paper §4.1 "features not tested"; METHOD.md §2.3): which controls the
 * agent was shown over the whole interaction and which it acted on, by element signature and by group of
 * repeated elements. It documents what went untested; it never steers the agent. No browser: it reads the
 * elements of each observation and the targets of the actions taken.
 */
export class Coverage {
  /** Signatures seen, per group, in the order groups were first seen. */
  private readonly groupSeen = new Map<string, Set<string>>();
  /** Every signature seen with its latest label (`role "name"`, or the tag when nameless), in first-seen order. */
  private readonly allSeen = new Map<string, string>();
  private readonly triedSignatures = new Set<string>();
  /** Labels (`role "name"`) of the named controls acted on: a control's signature carries its classes, so the
   * tab clicked ("Tokyo") is seen again as another signature once it is `active`; by name it was tried. */
  private readonly triedLabels = new Set<string>();
  /** Signatures acted on, per the group named by the action's target. */
  private readonly groupTried = new Map<string, Set<string>>();

  /** Record the elements of one observation (a control seen again keeps its place, its label is refreshed). */
  see(elements: readonly Pick<ObservedElement, 'group' | 'signature' | 'role' | 'name' | 'tag'>[]): void {
    for (const e of elements) {
      if (!this.groupSeen.has(e.group)) this.groupSeen.set(e.group, new Set());
      this.groupSeen.get(e.group)!.add(e.signature);
      this.allSeen.set(e.signature, `${e.role} "${e.name || e.tag}"`);
    }
  }

  /** Record that an action was performed on `target` (no-op for an action without a target element). */
  tried(target: Action['target'] | undefined): void {
    if (!target) return;
    this.triedSignatures.add(target.signature);
    if (target.name) this.triedLabels.add(`${target.role} "${target.name}"`);
    if (!this.groupTried.has(target.group)) this.groupTried.set(target.group, new Set());
    this.groupTried.get(target.group)!.add(target.signature);
  }

  /** Labels of the controls seen but never acted on (by signature, nor by name under another), each once, in first-seen order, at most {@link UNTESTED_LIMIT}. */
  untested(): string[] {
    const labels = [...this.allSeen.entries()].filter(([sig, label]) => !this.triedSignatures.has(sig) && !this.triedLabels.has(label)).map(([, label]) => label);
    return [...new Set(labels)].slice(0, UNTESTED_LIMIT);
  }

  /** Per group (in first-seen order): distinct controls seen and distinct controls acted on (`InteractionTrace.coverage`). */
  byGroup(): InteractionTrace['coverage'] {
    return [...this.groupSeen.entries()].map(([group, sigs]) => ({ group, seen: sigs.size, tried: this.groupTried.get(group)?.size ?? 0 }));
  }
}
