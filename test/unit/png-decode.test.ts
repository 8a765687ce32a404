import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { decodeScreenshotPng } from '../../src/common/png.js';

// The screenshot decoder (issue 13: decoding was the largest share of Cookie's own CPU) gives pngjs's pixels
// for every filter a PNG row can use, in RGB and RGBA, and leaves every other kind of PNG to pngjs.
const image = (w: number, h: number) => {
  const data = Buffer.alloc(w * h * 4);
  // gradients, noise and flat runs, so every filter type has something to predict
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const i = (y * w + x) * 4;
    data[i] = (x * 7 + y * 3) & 255;
    data[i + 1] = (x * y + ((x * 2654435761) >>> 27)) & 255;
    data[i + 2] = x < w / 2 ? 200 : (y * 11) & 255;
    data[i + 3] = (x + y) % 5 === 0 ? 128 : 255;
  }
  return data;
};
const encode = (w: number, h: number, opts: Record<string, unknown>) => {
  const png = new PNG({ width: w, height: h, ...opts });
  image(w, h).copy(png.data);
  return PNG.sync.write(png, opts);
};

describe('decodeScreenshotPng', () => {
  for (const colorType of [2, 6]) for (const filterType of [0, 1, 2, 3, 4, -1]) {
    it(`colour type ${colorType}, filter ${filterType === -1 ? 'adaptive' : filterType}: the same pixels as pngjs`, () => {
      const buf = encode(37, 23, { colorType, inputColorType: 6, filterType, inputHasAlpha: true });
      const fast = decodeScreenshotPng(buf)!;
      const ref = PNG.sync.read(buf);
      expect(fast).not.toBeNull();
      expect([fast.width, fast.height]).toEqual([37, 23]);
      expect(fast.data.equals(ref.data)).toBe(true);
    });
  }
  it('leaves 16-bit, grey and interlaced PNGs to pngjs (null)', () => {
    expect(decodeScreenshotPng(encode(8, 8, { colorType: 6, inputColorType: 6, bitDepth: 16, inputHasAlpha: true }))).toBeNull();
    expect(decodeScreenshotPng(encode(8, 8, { colorType: 0, inputColorType: 6, inputHasAlpha: true }))).toBeNull();
    const interlaced = encode(8, 8, { colorType: 6, inputColorType: 6, inputHasAlpha: true });
    interlaced[28] = 1; // IHDR's interlace byte (the CRC is not checked)
    expect(decodeScreenshotPng(interlaced)).toBeNull();
  });
  it('throws on what is not a PNG, or a PNG cut short', () => {
    expect(() => decodeScreenshotPng(Buffer.from('<html>not a png</html>, long enough to be read as one'))).toThrow(/signature/);
    const buf = encode(40, 40, { colorType: 6, inputColorType: 6, inputHasAlpha: true });
    expect(() => decodeScreenshotPng(buf.subarray(0, buf.length - 40))).toThrow(/truncated|too short|image data/);
  });
});
