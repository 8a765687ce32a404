import { AGENT_API_VERSION, defineAgent, type Agent, type Decision, type Observation } from 'cookie-eval/agents';

/** Clicks the first button it sees once, then finishes. */
class OneClick implements Agent {
  readonly name = 'one-click';
  readonly wantsScreenshot = false;
  private done = false;
  async next(obs: Observation): Promise<Decision> {
    const button = obs.elements.find((e) => e.tag === 'button');
    if (this.done || !button) return { action: { kind: 'finish' }, reasoning: 'clicked once' };
    this.done = true;
    return { action: { kind: 'click', target: { signature: button.signature, name: button.name, role: button.role, tag: button.tag, group: button.group, box: button.box } }, ref: button.ref, reasoning: `click ${button.name}` };
  }
  report() {
    return { actionsPerformed: ['click'], issuesFound: [], featuresTested: ['the first button'], featuresNotTested: [], consoleErrors: [], observation: 'one click' };
  }
}

export default defineAgent({ apiVersion: AGENT_API_VERSION, name: 'one-click', create: () => new OneClick() });
