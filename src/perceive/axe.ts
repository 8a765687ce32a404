// axe-core for static perception (METHOD.md §2.2: contrast, names, alt text): loaded into an isolated world of
// the page's main frame, where the page can neither see it nor break the built-ins it relies on, and its
// `window.axe` (if it has one) stays its own. Loaded right after the page's load event, so its compilation
// (650 kB, 0.1–0.2 s of the page's main thread on 2 cores) overlaps the wait for the page to settle, whose
// quiet the page's own clock keeps meanwhile (issue 13).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { CDPSession, Page } from 'playwright';
import { evalIn, HARNESS_SCRIPT_PREFIX } from '../browser/session.js';
import { cdpSessionOf } from '../browser/screenshot.js';
import type { AxeFinding } from '../types.js';
import { timebox } from '../util/timebox.js';

const require = createRequire(import.meta.url);
let axeSource: string | null = null;

/** The rules the judge reads (rubric items 8 and 9: contrast, accessible names, alt text, title, language). */
export const AXE_RULES = ['color-contrast', 'image-alt', 'button-name', 'link-name', 'label', 'document-title', 'html-has-lang', 'select-name'];

/**
 * Where axe-core was loaded: an isolated world of the page's main frame (its CDP execution context), or the
 * page's main world where the browser offers no CDP session.
 */
export type AxeWorld = { kind: 'isolated'; cdp: CDPSession; contextId: number } | { kind: 'main' };

/** A world the page's navigation or reload destroyed (the next document needs axe-core loaded again). */
const WORLD_GONE = /Cannot find context with specified id|Execution context was destroyed|No frame (for given|with given) id|Frame with the given id was not found|Target closed|Session closed/i;

type EvalReply = { result?: { value?: unknown }; exceptionDetails?: { text?: string; exception?: { description?: string } } };

function exceptionText(r: EvalReply): string {
  return (r.exceptionDetails?.exception?.description ?? r.exceptionDetails?.text ?? 'an exception').split('\n')[0]!;
}

/**
 * Load axe-core (the npm package's axe.min.js) into the page: a fresh isolated world of its main frame over the
 * page's CDP session ({@link cdpSessionOf}), or a script tag in its main world where there is none (which the
 * page's Content-Security-Policy may refuse). Each call loads it afresh.
 * @param limitMs bound of the load, ms
 * @throws when the page does not take it within `limitMs`, or axe-core threw while loading
 */
export async function loadAxe(page: Page, limitMs = 10_000): Promise<AxeWorld> {
  axeSource ??= fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  // named, so an error thrown inside axe is Cookie's, not the app's
  const content = `${axeSource}\n//# sourceURL=${HARNESS_SCRIPT_PREFIX}axe.js`;
  const cdp = await cdpSessionOf(page);
  if (!cdp) {
    await timebox(page.addScriptTag({ content }), limitMs, 'load axe-core');
    return { kind: 'main' };
  }
  const work = async (): Promise<AxeWorld> => {
    const { frameTree } = (await cdp.send('Page.getFrameTree')) as { frameTree: { frame: { id: string } } };
    const { executionContextId } = (await cdp.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: 'cookie-axe' })) as { executionContextId: number };
    const r = (await cdp.send('Runtime.evaluate', { expression: content, contextId: executionContextId })) as EvalReply;
    if (r.exceptionDetails) throw new Error(`axe-core did not load: ${exceptionText(r)}`);
    return { kind: 'isolated', cdp, contextId: executionContextId };
  };
  return timebox(work(), limitMs, 'load axe-core');
}

/** The expression that runs axe-core for {@link AXE_RULES} and keeps, per violation, what the judge reads. */
// iframes: false — axe-core lives in an isolated world of the main frame only: asking a frame (where it is not
// loaded) would only wait out axe's frame time-out (half a second a frame) for no finding
const RUN = `axe.run(document, { runOnly: { type: 'rule', values: ${JSON.stringify(AXE_RULES)} }, resultTypes: ['violations'], iframes: false })
   .then(r => r.violations.map(v => {
     const f = { id: v.id, impact: v.impact || 'minor', nodes: v.nodes.length, help: v.help };
     if (v.id !== 'color-contrast') return f;
     const texts = v.nodes.map(n => {
       let el = null; try { el = document.querySelector(n.target[0]); } catch (e) {}
       const t = el ? (el.innerText || el.textContent || '').replace(/\\s+/g, ' ').trim() : '';
       const d = (n.any && n.any[0] && n.any[0].data) || {};
       return { text: t.slice(0, 60), chars: t.replace(/\\s/g, '').length, ratio: typeof d.contrastRatio === 'number' ? Math.round(d.contrastRatio * 100) / 100 : null, fontSizePx: d.fontSize ? Math.round(parseFloat(d.fontSize) * (/pt/.test(d.fontSize) ? 4 / 3 : 1) * 10) / 10 : null };
     });
     return { ...f, texts: texts.slice(0, 20), chars: texts.reduce((a, x) => a + x.chars, 0) };
   }))`;

/**
 * Run axe-core in the world it was loaded into: violations only, for {@link AXE_RULES}.
 * @param limitMs bound of the run, ms
 * @throws when the run fails or times out, or the world is gone (the page replaced its document)
 */
export async function runAxe(page: Page, world: AxeWorld, limitMs = 15_000): Promise<AxeFinding[]> {
  if (world.kind === 'main') return evalIn<AxeFinding[]>(page, RUN, limitMs, 'axe.run');
  const r = (await timebox(world.cdp.send('Runtime.evaluate', { expression: RUN, contextId: world.contextId, awaitPromise: true, returnByValue: true }), limitMs, 'axe.run')) as EvalReply;
  if (r.exceptionDetails) throw new Error(`axe.run failed: ${exceptionText(r)}`);
  return r.result?.value as AxeFinding[];
}

/**
 * The page's axe-core findings now: run in `loaded` (a world loaded earlier, or null), loading axe-core first
 * when there is none, and once more when the page replaced its document since (the world went with it).
 * @throws as {@link loadAxe} and {@link runAxe}
 */
export async function axeFindings(page: Page, loaded: AxeWorld | null): Promise<AxeFinding[]> {
  const world = loaded ?? (await loadAxe(page));
  try {
    return await runAxe(page, world);
  } catch (e) {
    if (!loaded || !WORLD_GONE.test(String((e as Error).message))) throw e;
    return runAxe(page, await loadAxe(page));
  }
}
