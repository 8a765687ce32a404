import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { blankCheck, contentShare, diffRatio, type Rgba } from '../../src/perceive/image.js';

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
