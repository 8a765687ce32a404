import zlib from 'node:zlib';

/**
 * Decode an 8-bit, non-interlaced RGB or RGBA PNG (what Chromium's screenshots are) into RGBA, or null for any
 * other kind (the caller then uses pngjs). One native inflate and one pass over the rows: pngjs allocates a
 * buffer per row and maps pixels in JavaScript, and decoding was the largest share of Cookie's own CPU in an
 * evaluation (issue 13). Implements the PNG specification (W3C, 2nd ed.) §9 filters and §11.2.2 IHDR.
 *
 * @returns `{ width, height, data }` (RGBA, 4 bytes a pixel, rows top to bottom), or null when the PNG is not
 *   of that kind
 * @throws Error on a truncated or corrupt PNG of that kind (bad signature, missing IDAT, short data)
 */
export function decodeScreenshotPng(buf: Buffer): { width: number; height: number; data: Buffer } | null {
  if (buf.length < 33 || buf.readUInt32BE(0) !== 0x89504e47 || buf.readUInt32BE(4) !== 0x0d0a1a0a) throw new Error('not a PNG (bad signature)');
  let pos = 8;
  let width = 0, height = 0, channels = 0;
  const idat: Buffer[] = [];
  while (pos + 8 <= buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    const body = pos + 8;
    if (body + len > buf.length) throw new Error(`truncated PNG (${type} chunk)`);
    if (type === 'IHDR') {
      width = buf.readUInt32BE(body);
      height = buf.readUInt32BE(body + 4);
      const depth = buf[body + 8], colour = buf[body + 9], interlace = buf[body + 12];
      if (depth !== 8 || interlace !== 0 || (colour !== 2 && colour !== 6)) return null;
      channels = colour === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(buf.subarray(body, body + len));
    else if (type === 'IEND') break;
    pos = body + len + 4;
  }
  if (!channels || !width || !height) throw new Error('PNG without a header');
  if (!idat.length) throw new Error('PNG without image data');
  const raw = zlib.inflateSync(idat.length === 1 ? idat[0]! : Buffer.concat(idat));
  const stride = width * channels;
  if (raw.length < (stride + 1) * height) throw new Error('PNG image data too short');
  const out = Buffer.allocUnsafe(width * height * 4);
  // un-filter row by row in place (each row's bytes follow its filter byte), then expand to RGBA
  const line = new Uint8Array(stride);
  const prev = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const at = y * (stride + 1);
    const filter = raw[at]!;
    const row = raw.subarray(at + 1, at + 1 + stride);
    switch (filter) {
      case 0:
        line.set(row);
        break;
      case 1:
        for (let i = 0; i < stride; i++) line[i] = (row[i]! + (i >= channels ? line[i - channels]! : 0)) & 255;
        break;
      case 2:
        for (let i = 0; i < stride; i++) line[i] = (row[i]! + prev[i]!) & 255;
        break;
      case 3:
        for (let i = 0; i < stride; i++) line[i] = (row[i]! + (((i >= channels ? line[i - channels]! : 0) + prev[i]!) >> 1)) & 255;
        break;
      case 4:
        for (let i = 0; i < stride; i++) {
          const a = i >= channels ? line[i - channels]! : 0, b = prev[i]!, c = i >= channels ? prev[i - channels]! : 0;
          const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
          line[i] = (row[i]! + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 255;
        }
        break;
      default:
        throw new Error(`PNG row ${y} has an unknown filter ${filter}`);
    }
    const o = y * width * 4;
    if (channels === 4) out.set(line, o);
    else for (let x = 0, i = 0, j = o; x < width; x++, i += 3, j += 4) (out[j] = line[i]!), (out[j + 1] = line[i + 1]!), (out[j + 2] = line[i + 2]!), (out[j + 3] = 255);
    prev.set(line);
  }
  return { width, height, data: out };
}
