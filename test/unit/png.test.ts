import fs from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { keepPng, pngWritesDone, recompressPng } from '../../src/common/png.js';
import { tmpDir } from '../helpers.js';

/** A screenshot-like image: a page background, bordered cards, rows of "text" strokes; as Chromium's fast encoding writes it (every row filtered Up, zlib level 1). */
function fastPng(width = 640, height = 400): { png: Buffer; pixels: Buffer } {
  const img = new PNG({ width, height });
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const card = x % 200 > 10 && x % 200 < 190 && y % 130 > 10 && y % 130 < 120;
      const border = card && (x % 200 === 11 || x % 200 === 189 || y % 130 === 11 || y % 130 === 119);
      const text = card && y % 130 > 30 && y % 130 < 100 && y % 14 < 9 && (x * 7 + y * 3) % 11 < 6;
      const v = border ? 200 : text ? 40 : card ? 255 : 243;
      img.data[i] = v;
      img.data[i + 1] = v;
      img.data[i + 2] = text ? 60 : v;
      img.data[i + 3] = 255;
    }
  const png = PNG.sync.write(img, { filterType: 2, deflateLevel: 1, deflateStrategy: 0 });
  return { png, pixels: PNG.sync.read(png).data };
}

describe('keyframe PNGs: fast capture, recompressed before they are kept', () => {
  it('recompressing keeps every pixel, checks out (CRCs, one IDAT) and is smaller than the fast encoding', async () => {
    const { png, pixels } = fastPng();
    const small = await recompressPng(png);
    expect(small.length).toBeLessThan(png.length * 0.8);
    // pngjs verifies every chunk's CRC while decoding
    const back = PNG.sync.read(small, { checkCRC: true } as never);
    expect([back.width, back.height]).toEqual([640, 400]);
    expect(Buffer.compare(back.data, pixels)).toBe(0);
    expect(small.toString('latin1').split('IDAT').length - 1).toBe(1);
  });

  it('refuses what is not a PNG, and a PNG cut short', async () => {
    await expect(recompressPng(Buffer.from('<html>not a png</html>'))).rejects.toThrow(/not a PNG/);
    const { png } = fastPng(64, 64);
    await expect(recompressPng(png.subarray(0, png.length - 30))).rejects.toThrow(/truncated|IEND|image data|unexpected end/i);
  });

  it('keepPng writes in the background: after pngWritesDone the file is complete (recompressed, or the bytes as given when they are not a PNG), no temporary left', async () => {
    const dir = tmpDir('cookie-png-');
    fs.mkdirSync(path.join(dir, 'screenshots'));
    const { png, pixels } = fastPng();
    keepPng(dir, 'screenshots/step-00-before.png', png);
    keepPng(dir, 'screenshots/odd.png', Buffer.from('not a png'));
    await pngWritesDone(dir);
    const kept = fs.readFileSync(path.join(dir, 'screenshots/step-00-before.png'));
    expect(kept.length).toBeLessThan(png.length);
    expect(Buffer.compare(PNG.sync.read(kept).data, pixels)).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'screenshots/odd.png'), 'utf8')).toBe('not a png');
    expect(fs.readdirSync(path.join(dir, 'screenshots')).sort()).toEqual(['odd.png', 'step-00-before.png']);
    // nothing pending: resolves at once
    await pngWritesDone(dir);
  });
});
