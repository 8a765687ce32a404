import type { Decision, Observation } from '../../agent.js';
import type { Heuristic } from './types.js';

/**
 * Drag and drop (issue 11 point 3, issue 18 invariant `move`): when the page offers a draggable element and a
 * drop zone that does not hold it (`Observation.dragPlan`, found by the probe), drag it there once with a
 * human pointer path, and record the lists before and after (check `move`: the element should leave its list
 * and show up elsewhere). A kanban card moved to another column, a file dropped on an upload area.
 */
export class DragDropHeuristic implements Heuristic {
  readonly name = 'drag-drop';
  private done = false;

  next(obs: Observation): Decision | null {
    const p = obs.dragPlan;
    if (this.done || !p) return null;
    this.done = true;
    return {
      action: { kind: 'drag', x: p.from.x, y: p.from.y, toX: p.to.x, toY: p.to.y },
      reasoning: `Careful tester (drag and drop): drag "${p.text}" onto ${p.zone}; it should move there.`,
      key: `drag|${p.text}|${p.zone}`,
      check: { invariant: 'move', subject: p.text, params: { value: p.text } },
    };
  }
}
