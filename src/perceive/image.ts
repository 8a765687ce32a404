import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import type { BlankCheck } from '../types.js';
import { decodeScreenshotPng } from '../common/png.js';

/** A decoded RGBA image. */
export interface Rgba {
  width: number;
  height: number;
  data: Buffer;
}

/**
 * Decode a PNG buffer to RGBA: Chromium's screenshots (8-bit RGB or RGBA, not interlaced) by
 * {@link decodeScreenshotPng}, about twice as fast; any other PNG by pngjs.
 * @throws Error on a corrupt PNG
 */
export function decodePng(buf: Buffer): Rgba {
  const fast = decodeScreenshotPng(buf);
  if (fast) return fast;
  const png = PNG.sync.read(buf);
  return { width: png.width, height: png.height, data: png.data };
}

/**
 * Pixel statistics of a screenshot: luminance variance (0–255² scale), number of distinct colours
 * (exact RGB, counted up to 10,000) and mean brightness (0–255).
 */
export function imageStats(img: Rgba): { variance: number; colours: number; meanBrightness: number } {
  const { data } = img;
  const n = data.length / 4;
  const step = Math.max(1, Math.floor(n / 250_000)); // sample large images
  let sum = 0;
  let sumSq = 0;
  let count = 0;
  // distinct colours: one bit per 24-bit RGB value (2 MB), counted up to 10,000 (a Set cost 3–5 ms a screenshot)
  const seen = new Uint8Array(1 << 21);
  let colours = 0;
  for (let i = 0; i < n; i += step) {
    const o = i * 4;
    const r = data[o]!, g = data[o + 1]!, b = data[o + 2]!;
    const y = 0.299 * r + 0.587 * g + 0.114 * b;
    sum += y;
    sumSq += y * y;
    count++;
    if (colours < 10_000) {
      const c = (r << 16) | (g << 8) | b;
      const bit = 1 << (c & 7);
      if (!(seen[c >> 3]! & bit)) {
        seen[c >> 3]! |= bit;
        colours++;
      }
    }
  }
  const mean = sum / count;
  return { variance: sumSq / count - mean * mean, colours, meanBrightness: mean };
}

/**
 * Share (0–1) of pixels that differ from the dominant colour (colours quantised to 5 bits a channel, so #f0f0f0 and white stay apart):
 * how much of the screen carries content rather than background.
 */
export function contentShare(img: Rgba): number {
  const { data } = img;
  const n = data.length / 4;
  const step = Math.max(1, Math.floor(n / 250_000));
  const { top } = quantisedHistogram(data, n, step);
  // the pixels sampled: every step-th of n
  return Math.round((1 - top / Math.ceil(n / step)) * 1000) / 1000;
}

/**
 * Blank-screen test of the reference verifier (METHOD.md §9): variance < 100, or < 10 colours with mean
 * brightness > 240. `hasContent` (visible text, canvas, image or svg in the DOM) vetoes a blank verdict
 * only when the pixels are not uniform (a canvas that draws nothing is still blank).
 */
export function blankCheck(img: Rgba, hasContent: boolean): BlankCheck {
  const s = imageStats(img);
  const pixelBlank = s.variance < 100 || (s.colours < 10 && s.meanBrightness > 240);
  const uniform = s.colours <= 2;
  return {
    isBlank: pixelBlank && (uniform || !hasContent),
    variance: Math.round(s.variance * 10) / 10,
    colours: s.colours,
    meanBrightness: Math.round(s.meanBrightness * 10) / 10,
  };
}

function crop(img: Rgba, box: { x: number; y: number; width: number; height: number }): Rgba | null {
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y));
  const x1 = Math.min(img.width, Math.ceil(box.x + box.width));
  const y1 = Math.min(img.height, Math.ceil(box.y + box.height));
  if (x1 - x0 < 1 || y1 - y0 < 1) return null;
  const w = x1 - x0;
  const h = y1 - y0;
  const out = Buffer.alloc(w * h * 4);
  for (let y = 0; y < h; y++) img.data.copy(out, y * w * 4, ((y0 + y) * img.width + x0) * 4, ((y0 + y) * img.width + x1) * 4);
  return { width: w, height: h, data: out };
}

/**
 * Share (0–1) of pixels that differ between two screenshots (pixelmatch, threshold 0.1, anti-aliasing
 * ignored), optionally inside `box` (CSS px = device px at scale 1), or outside the `exclude` boxes
 * (share of the remaining area). Different sizes count as 1.
 */
export function diffRatio(a: Rgba, b: Rgba, box?: { x: number; y: number; width: number; height: number }, exclude: { x: number; y: number; width: number; height: number }[] = []): number {
  if (a.width !== b.width || a.height !== b.height) return 1;
  if (exclude.length && !box) {
    // blank the excluded boxes in copies of both images, then compare the rest
    const A2 = { ...a, data: Buffer.from(a.data) };
    const B2 = { ...b, data: Buffer.from(b.data) };
    let excluded = 0;
    const seen = new Uint8Array(a.width * a.height);
    for (const e of exclude) {
      const x0 = Math.max(0, Math.floor(e.x)), y0 = Math.max(0, Math.floor(e.y));
      const x1 = Math.min(a.width, Math.ceil(e.x + e.width)), y1 = Math.min(a.height, Math.ceil(e.y + e.height));
      if (x1 <= x0 || y1 <= y0) continue; // the box lies outside the screenshot
      for (let y = y0; y < y1; y++) {
        A2.data.fill(0, (y * a.width + x0) * 4, (y * a.width + x1) * 4);
        B2.data.fill(0, (y * a.width + x0) * 4, (y * a.width + x1) * 4);
        for (let x = x0; x < x1; x++) if (!seen[y * a.width + x]) (seen[y * a.width + x] = 1), excluded++;
      }
    }
    const rest = a.width * a.height - excluded;
    if (rest <= 0) return 0;
    return pixelmatch(A2.data, B2.data, null, a.width, a.height, { threshold: 0.1 }) / rest;
  }
  let A: Rgba | null = a;
  let B: Rgba | null = b;
  if (box) {
    A = crop(a, box);
    B = crop(b, box);
    if (!A || !B) return 0;
  }
  const changed = pixelmatch(A.data, B.data, null, A.width, A.height, { threshold: 0.1 });
  return changed / (A.width * A.height);
}

/**
 * Colour and composition of a screenshot (rubric items 7 and 9): share of strongly saturated pixels
 * (HSV s > 0.75 and v > 0.6), how many hue families (of 12) hold > 3% of those pixels, and where the
 * content sits — the centroid and the width of the box of pixels that differ from the background (0–1 of
 * the image).
 */
export function colourStats(img: Rgba): { saturatedShare: number; hueFamilies: number; centroidX: number; centroidY: number; contentWidthShare: number } {
  const { data, width, height } = img;
  const n = width * height;
  const step = Math.max(1, Math.floor(n / 200_000));
  const bg = dominantColour(img);
  let sat = 0;
  let count = 0;
  const hues = new Array(12).fill(0) as number[];
  let cx = 0;
  let cy = 0;
  let content = 0;
  let minX = width;
  let maxX = 0;
  for (let i = 0; i < n; i += step) {
    const o = i * 4;
    const r = data[o]! / 255, g = data[o + 1]! / 255, b = data[o + 2]! / 255;
    const max = Math.max(r, g, b), min = Math.min(r, g, b);
    const s = max === 0 ? 0 : (max - min) / max;
    count++;
    if (s > 0.75 && max > 0.6) {
      sat++;
      let h = 0;
      const d = max - min;
      if (d > 0) h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
      hues[Math.floor((((h * 60 + 360) % 360) / 360) * 12) % 12]!++;
    }
    const key = quantised(data, o);
    if (key !== bg) {
      const x = i % width, y = Math.floor(i / width);
      cx += x;
      cy += y;
      content++;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
    }
  }
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  return {
    saturatedShare: r3(sat / count),
    hueFamilies: hues.filter((h) => sat > 0 && h / sat > 0.03).length,
    centroidX: content ? r3(cx / content / width) : 0.5,
    centroidY: content ? r3(cy / content / height) : 0.5,
    contentWidthShare: content ? r3((maxX - minX + 1) / width) : 0,
  };
}

/** The colour of the pixel at byte offset `o`, quantised to 5 bits a channel (0–32,767). */
function quantised(data: Buffer, o: number): number {
  return ((data[o]! >> 3) << 10) | ((data[o + 1]! >> 3) << 5) | (data[o + 2]! >> 3);
}

/**
 * Counts of the sampled pixels (every `step`-th of `n`) per colour quantised to 5 bits a channel (32,768 bins,
 * a typed array: a Map cost 4–5 ms a screenshot), and the largest count.
 */
function quantisedHistogram(data: Buffer, n: number, step: number): { counts: Uint32Array; top: number } {
  const counts = new Uint32Array(1 << 15);
  let top = 0;
  for (let i = 0; i < n; i += step) {
    const o = i * 4;
    const k = quantised(data, o);
    const c = ++counts[k]!;
    if (c > top) top = c;
  }
  return { counts, top };
}

/** The most frequent quantised colour (ties: the one met first in the scan, row by row). */
function dominantColour(img: Rgba): number {
  const { data } = img;
  const n = data.length / 4;
  const step = Math.max(1, Math.floor(n / 100_000));
  const { counts, top } = quantisedHistogram(data, n, step);
  for (let i = 0; i < n; i += step) {
    const o = i * 4;
    const k = quantised(data, o);
    if (counts[k] === top) return k;
  }
  return 0;
}
