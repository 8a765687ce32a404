import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { blankCheck, colourStats, contentShare, diffRatio, imageStats, type Rgba } from '../../src/perceive/image.js';

function solid(w: number, h: number, rgb: [number, number, number]): Rgba {
  const png = new PNG({ width: w, height: h });
  for (let i = 0; i < w * h; i++) png.data.set([...rgb, 255], i * 4);
  return { width: w, height: h, data: png.data };
}
function paint(img: Rgba, box: { x: number; y: number; width: number; height: number }, rgb: [number, number, number]): Rgba {
  const data = Buffer.from(img.data);
  for (let y = box.y; y < box.y + box.height; y++) for (let x = box.x; x < box.x + box.width; x++) data.set([...rgb, 255], (y * img.width + x) * 4);
  return { ...img, data };
}

describe('blank-screen test (reference verifier rule)', () => {
  it('a white screen is blank even with markup in the DOM', () => {
    expect(blankCheck(solid(200, 100, [255, 255, 255]), true).isBlank).toBe(true);
  });
  it('a dark canvas that draws nothing is blank', () => {
    expect(blankCheck(solid(200, 100, [0, 0, 0]), true).isBlank).toBe(true);
  });
  it('a page with a visible block of content is not blank', () => {
    const img = paint(solid(200, 100, [255, 255, 255]), { x: 20, y: 20, width: 120, height: 40 }, [30, 60, 200]);
    const b = blankCheck(img, true);
    expect(b.isBlank).toBe(false);
    expect(b.variance).toBeGreaterThan(100);
  });
});

describe('pixel difference', () => {
  const a = solid(100, 100, [255, 255, 255]);
  const b = paint(a, { x: 0, y: 0, width: 10, height: 10 }, [0, 0, 0]);
  it('measures the changed share of the whole screen', () => expect(diffRatio(a, b)).toBeCloseTo(0.01, 3));
  it('measures the changed share inside a box', () => expect(diffRatio(a, b, { x: 0, y: 0, width: 20, height: 10 })).toBeCloseTo(0.5, 2));
  it('identical screens differ by 0', () => expect(diffRatio(a, solid(100, 100, [255, 255, 255]))).toBe(0));
  it('content share is the share of non-background pixels', () => expect(contentShare(b)).toBeCloseTo(0.01, 2));
});

describe('pixel difference outside excluded boxes', () => {
  const a = solid(100, 100, [255, 255, 255]);
  const b = paint(paint(a, { x: 0, y: 0, width: 10, height: 10 }, [0, 0, 0]), { x: 50, y: 50, width: 10, height: 10 }, [0, 0, 0]);
  it('ignores changes inside the excluded boxes and measures the share of the rest', () => {
    expect(diffRatio(a, b, undefined, [{ x: 0, y: 0, width: 10, height: 10 }])).toBeCloseTo(100 / 9900, 4);
    expect(diffRatio(a, b, undefined, [{ x: 0, y: 0, width: 10, height: 10 }, { x: 50, y: 50, width: 10, height: 10 }])).toBe(0);
  });
});

describe('excluded boxes outside the screenshot', () => {
  it('are ignored (an element scrolled off to the left or below)', () => {
    const a = solid(50, 50, [255, 255, 255]);
    const b = paint(a, { x: 0, y: 0, width: 5, height: 5 }, [0, 0, 0]);
    expect(diffRatio(a, b, undefined, [{ x: -300, y: 10, width: 100, height: 20 }, { x: 10, y: 900, width: 10, height: 10 }])).toBeCloseTo(25 / 2500, 4);
  });
});

// The statistics as first written (a Set of colours, Maps of quantised colours): the typed-array versions of
// issue 13 (5–10 ms less a screenshot) must give the same numbers, ties of the dominant colour included.
const reference = {
  imageStats(img: Rgba) {
    const { data } = img;
    const n = data.length / 4;
    const step = Math.max(1, Math.floor(n / 250_000));
    let sum = 0, sumSq = 0, count = 0;
    const colours = new Set<number>();
    for (let i = 0; i < n; i += step) {
      const o = i * 4;
      const r = data[o]!, g = data[o + 1]!, b = data[o + 2]!;
      const y = 0.299 * r + 0.587 * g + 0.114 * b;
      sum += y;
      sumSq += y * y;
      count++;
      if (colours.size < 10_000) colours.add((r << 16) | (g << 8) | b);
    }
    const mean = sum / count;
    return { variance: sumSq / count - mean * mean, colours: colours.size, meanBrightness: mean };
  },
  contentShare(img: Rgba) {
    const { data } = img;
    const n = data.length / 4;
    const step = Math.max(1, Math.floor(n / 250_000));
    const hist = new Map<number, number>();
    let count = 0;
    for (let i = 0; i < n; i += step) {
      const o = i * 4;
      const k = ((data[o]! >> 3) << 10) | ((data[o + 1]! >> 3) << 5) | (data[o + 2]! >> 3);
      hist.set(k, (hist.get(k) ?? 0) + 1);
      count++;
    }
    return Math.round((1 - Math.max(0, ...hist.values()) / count) * 1000) / 1000;
  },
  dominantColour(img: Rgba) {
    const { data } = img;
    const n = data.length / 4;
    const step = Math.max(1, Math.floor(n / 100_000));
    const hist = new Map<number, number>();
    for (let i = 0; i < n; i += step) {
      const o = i * 4;
      const k = ((data[o]! >> 3) << 10) | ((data[o + 1]! >> 3) << 5) | (data[o + 2]! >> 3);
      hist.set(k, (hist.get(k) ?? 0) + 1);
    }
    let best = 0, bestN = -1;
    for (const [k, v] of hist) if (v > bestN) (best = k), (bestN = v);
    return best;
  },
};

describe('screenshot statistics with typed arrays give the numbers the Set and Map versions gave', () => {
  // a seeded noise image (more than 10,000 colours), a gradient, a two-colour image whose colours tie (the
  // colour met first must stay the background), a large page-like image (sampled with a step), an empty one
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const noise = solid(300, 200, [0, 0, 0]);
  for (let i = 0; i < noise.data.length; i += 4) noise.data.set([rnd() * 256, rnd() * 256, rnd() * 256, 255], i);
  const gradient = solid(256, 64, [0, 0, 0]);
  for (let y = 0; y < 64; y++) for (let x = 0; x < 256; x++) gradient.data.set([x, y * 4, 255 - x, 255], (y * 256 + x) * 4);
  const tie = paint(solid(100, 100, [250, 250, 250]), { x: 0, y: 50, width: 100, height: 50 }, [20, 40, 200]);
  const tieOtherWay = paint(solid(100, 100, [20, 40, 200]), { x: 0, y: 50, width: 100, height: 50 }, [250, 250, 250]);
  let page = solid(1280, 1600, [255, 255, 255]);
  page = paint(page, { x: 100, y: 80, width: 900, height: 300 }, [30, 60, 200]);
  page = paint(page, { x: 300, y: 500, width: 200, height: 900 }, [240, 20, 90]);
  const cases: [string, Rgba][] = [['noise', noise], ['gradient', gradient], ['tie', tie], ['tie, other order', tieOtherWay], ['page', page], ['one pixel', solid(1, 1, [9, 9, 9])]];
  for (const [name, img] of cases) {
    it(name, () => {
      expect(imageStats(img)).toEqual(reference.imageStats(img));
      expect(contentShare(img)).toBe(reference.contentShare(img));
      // colourStats measures content against the dominant colour: its centroid moves when that colour differs
      const stats = colourStats(img);
      const bg = reference.dominantColour(img);
      let cx = 0, content = 0;
      const n = img.width * img.height, step = Math.max(1, Math.floor(n / 200_000));
      for (let i = 0; i < n; i += step) {
        const o = i * 4;
        if ((((img.data[o]! >> 3) << 10) | ((img.data[o + 1]! >> 3) << 5) | (img.data[o + 2]! >> 3)) !== bg) (cx += i % img.width), content++;
      }
      expect(stats.centroidX).toBe(content ? Math.round((cx / content / img.width) * 1000) / 1000 : 0.5);
    });
  }
  it('the tie cases differ from each other (the first colour met is the background)', () => {
    expect(colourStats(tie).centroidY).toBeGreaterThan(0.5);
    expect(colourStats(tieOtherWay).centroidY).toBeGreaterThan(0.5);
    expect(reference.dominantColour(tie)).not.toBe(reference.dominantColour(tieOtherWay));
  });
});
