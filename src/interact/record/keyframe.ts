import type { Page } from 'playwright';
import { viewportPng } from '../../browser/screenshot.js';
import { keepPng } from '../../common/png.js';
import { evalIn } from '../../browser/session.js';
import { decodePng, type Rgba } from '../../perceive/image.js';
import { errorMessage } from '../../util/timebox.js';

/** A rectangle in CSS px of the viewport. */
export type Box = { x: number; y: number; width: number; height: number };

/** The in-page probe's counters at one instant (`__cookieProbe.snapshot()`); null when the probe did not answer. */
export type ProbeSnap = {
  /** DOM mutations since the page loaded (cumulative). */
  mutations: number;
  /** Canvas draw calls, running animations and effects that left the page (download, print, clipboard…) so far. */
  draws?: number;
  animations?: number;
  external?: number;
  /** Scroll position, px. */
  scrollX: number;
  scrollY: number;
  url: string;
  /** The focused element's box (its focus ring), px. */
  focusBox: Box | null;
  /**
   * Whether the focused element takes text (a text field, textarea, select, contenteditable): its caret blinks
   * inside it. Null without a focused element; absent from older probes.
   */
  focusText?: boolean | null;
  /** Elements and non-space text characters in the body; `loading` while the document is still being parsed. */
  content?: { elements: number; textChars: number; loading?: boolean };
} | null;

/** One keyframe of a step (paper §4.1 "multi-modal capture"; METHOD.md §2.3): what the page showed and held at `at`. */
export interface Capture {
  /** The viewport screenshot (PNG) and its decoded pixels (decoded on first read); null when the screenshot failed. */
  png: Buffer | null;
  img: Rgba | null;
  snap: ProbeSnap;
  /** Visible text lines and field states (the target's own value left out). */
  text: string[] | null;
  /** Wall clock (Date.now(), ms) when the keyframe was begun. */
  at: number;
}

/** A keyframe that was never taken (the step failed before it). */
export const NO_CAPTURE: Readonly<Capture> = Object.freeze({ png: null, img: null, snap: null, text: null, at: 0 });

/** Keyframe file of step `index` (0-based), relative to the evidence folder: `screenshots/step-07-before.png`. */
export function keyframeFile(index: number, label: string): string {
  return `screenshots/step-${String(index).padStart(2, '0')}-${label}.png`;
}

/** Where keyframes go and how long the page has to answer each call (ms). */
export interface KeyframeOptions {
  evidenceDir: string;
  unresponsiveMs: number;
}

/**
 * A keyframe: viewport screenshot (written to `file` under the evidence folder unless null), the probe's
 * snapshot, the text state with element `ref` left out (`null` for none), and when. Never throws: a failed
 * screenshot gives a capture with every field null (set COOKIE_DEBUG to see why); a probe that does not
 * answer leaves `snap`/`text` null. The three are taken at once (the app is frozen). Each page call is time-boxed by `unresponsiveMs` (the screenshot by 1 s more).
 */
export async function captureKeyframe(page: Page, opts: KeyframeOptions, file: string | null, ref: number | string): Promise<Capture> {
  const at = Date.now();
  try {
    // the app is frozen: the screenshot and the probe's two readings are taken together
    const [png, snap, text] = await Promise.all([
      viewportPng(page, opts.unresponsiveMs, { fast: true }),
      probeSnapshot(page, opts.unresponsiveMs),
      evalIn<string[]>(page, `window.__cookieProbe.textState(${ref})`, opts.unresponsiveMs, 'text state').catch(() => null),
    ]);
    // kept recompressed, written off the event loop (the loop waits for these writes before it returns)
    if (file) keepPng(opts.evidenceDir, file, png);
    // decoded when first read: the step recorder reads the "before" pixels while the action's effects
    // settle, when Node would only wait
    let img: Rgba | null | undefined;
    return {
      png,
      get img(): Rgba | null {
        if (img === undefined) {
          try {
            img = decodePng(png);
          } catch {
            img = null;
          }
        }
        return img;
      },
      snap,
      text,
      at,
    };
  } catch (e) {
    if (process.env.COOKIE_DEBUG) process.stderr.write(`keyframe ${file ?? '(baseline)'} failed: ${errorMessage(e)}\n`);
    return { png: null, img: null, snap: null, text: null, at };
  }
}

/** The probe's counters only (no screenshot): enough to learn whether a still page began to animate. Never throws. */
export async function countersOnly(page: Page, unresponsiveMs: number): Promise<Capture> {
  const snap = await probeSnapshot(page, unresponsiveMs);
  return { png: null, img: null, snap, text: null, at: Date.now() };
}

/** `__cookieProbe.snapshot()`, or null when the probe is missing or does not answer within `ms`. */
function probeSnapshot(page: Page, ms: number): Promise<ProbeSnap> {
  return evalIn<ProbeSnap>(page, 'window.__cookieProbe ? window.__cookieProbe.snapshot() : null', ms, 'snapshot').catch(() => null);
}
