import type { Page } from 'playwright';
import { evalIn } from '../browser/session.js';
import type { TraceStep } from '../types.js';
import type { Agent, DragPlan, Observation, ObservedElement } from './agent.js';

/** Viewport assumed when the page reports none, CSS px. */
export const DEFAULT_VIEWPORT = { width: 1280, height: 800 } as const;

/**
 * The observation of one step (paper §4.1 "observe"; METHOD.md §2.3), taken while the app is frozen: the
 * visible interactive elements (the in-page probe's scan, numbered by `ref`), a viewport PNG for agents that
 * look (`wantsScreenshot`), the page's lists and a drag-and-drop it offers for agents that ask (`wantsLists`), the URL, the viewport
 * (px) and the previous step. A screenshot that fails is null and lists that fail are left out: the agent
 * still gets the elements. Each page call is time-boxed by `unresponsiveMs`.
 * @param at the step (0-based), the step budget and the previous step, if any
 * @throws when the scan fails (the page stopped answering, or the probe is broken): the loop ends there
 */
export async function observe(
  page: Page,
  agent: Pick<Agent, 'wantsScreenshot' | 'wantsLists'>,
  at: { step: number; budget: number; previous: TraceStep | null },
  unresponsiveMs: number,
): Promise<Observation> {
  // the app is frozen: the element scan, the screenshot and the lists are taken together
  const [elements, screenshot, more] = await Promise.all([
    scanElements(page, unresponsiveMs),
    agent.wantsScreenshot ? page.screenshot({ timeout: unresponsiveMs, caret: 'initial' }).catch(() => null) : null,
    // one probe call for both (each walks the DOM once, on every step)
    agent.wantsLists ? evalIn<{ lists: { id: string; items: string[] }[]; dragPlan: DragPlan | null }>(page, 'window.__cookieProbe ? window.__cookieProbe.listsAndDrag() : { lists: [], dragPlan: null }', unresponsiveMs, 'lists').catch(() => null) : null,
  ]);
  const lists = more?.lists;
  const dragPlan = more?.dragPlan;
  return { step: at.step, budget: at.budget, url: page.url(), elements, screenshot, viewport: page.viewportSize() ?? { ...DEFAULT_VIEWPORT }, previous: at.previous, ...(lists ? { lists } : {}), ...(dragPlan ? { dragPlan } : {}) };
}

/** The probe's scan of the visible interactive elements (none without the probe). @throws on time-out or a page error */
function scanElements(page: Page, unresponsiveMs: number): Promise<ObservedElement[]> {
  return evalIn<ObservedElement[]>(page, 'window.__cookieProbe ? window.__cookieProbe.scan() : []', unresponsiveMs, 'scan');
}
