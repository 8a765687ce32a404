import type { Page } from 'playwright';
import { evalIn } from '../browser/session.js';
import type { Decision } from './agent.js';
import type { HumanInput } from './input.js';

/**
 * Execute one decided action with human-like input (the pointer is already on the target: the loop moves
 * it there first, while the app runs). Throws on failure; the loop time-boxes it.
 * @param unresponsiveMs limit for in-page helper calls
 */
export async function performAction(page: Page, input: HumanInput, d: Decision, unresponsiveMs: number, origin: string, url: string): Promise<void> {
  const a = d.action;
  switch (a.kind) {
    case 'click':
    case 'check':
      await input.press(a.button, a.clicks);
      return;
    case 'fill':
      if (d.paste && d.ref !== undefined) {
        // paste / autofill: a paste event and an insert without key events (rules enforced on keys miss it)
        await input.press();
        await evalIn(page, `window.__cookieProbe.pasteInto(${d.ref}, ${JSON.stringify(a.value ?? '')})`, unresponsiveMs, 'paste');
        return;
      }
      if (d.ref !== undefined || a.x !== undefined) await input.press();
      // a date, time, colour or range input is picked, not typed (its segments garble typed text)
      if (d.ref !== undefined && !a.append) {
        const picked = await evalIn<string | null>(page, `window.__cookieProbe.fillPicker(${d.ref}, ${JSON.stringify(a.value ?? '')})`, unresponsiveMs, 'pick').catch(() => null);
        if (picked !== null) return;
      }
      if (!a.append) await input.selectAll();
      await input.type(a.value ?? '');
      return;
    case 'select':
      await input.press();
      await page.keyboard.press('Escape');
      await evalIn(page, `window.__cookieProbe.selectIndex(${d.ref}, ${Number(a.value ?? 1)})`, unresponsiveMs, 'select');
      return;
    case 'press':
      if (d.ref !== undefined && a.key !== 'Enter') await input.press();
      await input.tap(a.key ?? 'Enter');
      return;
    case 'hold':
      await input.hold(a.key ?? 'ArrowRight', a.durationMs ?? 600);
      return;
    case 'scroll':
      await input.scroll(a.deltaY ?? (a.deltaX ? 0 : 600), a.deltaX ?? 0);
      return;
    case 'drag':
      await input.drag({ x: a.x ?? 0, y: a.y ?? 0 }, { x: a.toX ?? 0, y: a.toY ?? 0 });
      return;
    case 'hover':
      return;
    case 'wait':
      await page.waitForTimeout(Math.min(a.durationMs ?? 1000, 10_000));
      return;
    case 'back':
      if (page.url().startsWith(origin) && page.url() !== url) await page.goBack({ timeout: 10_000 }).catch(() => {});
      else await page.goto(url, { timeout: 10_000 });
      return;
    case 'finish':
      return;
  }
}
