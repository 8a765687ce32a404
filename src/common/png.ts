import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import writeFileAtomic from 'write-file-atomic';

// Keyframes are captured with Chromium's fast PNG encoding (`optimizeForSpeed`: every row filtered "Up",
// zlib at its fastest), which takes about half the capture time of its default encoding on a detailed page
// but gives files 2–3× larger. Before such a PNG is kept as evidence its image data is deflated again at
// zlib level 6, in libuv's thread pool (the event loop is not held, so a concurrent evaluation's waits and
// protocol messages go on): the same pixels, within a few per cent of Chromium's default encoding's size.
// (Level 9 was often 2–3× smaller still, but cost up to ten times the CPU on some pages, measured on real
// LLM-written pages: on a CPU-bound 2-core machine that is throughput lost.)

const inflate = promisify(zlib.inflate);
const deflate = promisify(zlib.deflate);
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** One PNG chunk (PNG spec §5.3): its four-letter type and its data. */
interface Chunk {
  type: string;
  data: Buffer;
}

function readChunks(png: Buffer): Chunk[] {
  if (png.length < 8 || !png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG (bad signature)');
  const chunks: Chunk[] = [];
  let o = 8;
  while (o + 12 <= png.length) {
    const len = png.readUInt32BE(o);
    if (o + 12 + len > png.length) throw new Error('truncated PNG chunk');
    chunks.push({ type: png.toString('latin1', o + 4, o + 8), data: png.subarray(o + 8, o + 8 + len) });
    o += 12 + len;
  }
  if (chunks[chunks.length - 1]?.type !== 'IEND') throw new Error('PNG without IEND');
  return chunks;
}

function writeChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(data, zlib.crc32(head.subarray(4, 8))), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * The same PNG with its image data (the IDAT chunks' zlib stream, PNG spec §10) deflated again at `level`,
 * as one IDAT chunk; every other chunk kept in order. The decoded pixels are identical (the filtered
 * scanlines are not touched). Compression runs in the thread pool.
 * @param level zlib level 1–9 (default 6)
 * @throws when `png` is not a well-formed PNG (the caller then keeps the original bytes)
 */
export async function recompressPng(png: Buffer, level = 6): Promise<Buffer> {
  const chunks = readChunks(png);
  const idat = chunks.filter((c) => c.type === 'IDAT');
  if (!idat.length) throw new Error('PNG without image data');
  const raw = await inflate(Buffer.concat(idat.map((c) => c.data)));
  const packed = await deflate(raw, { level });
  const out: Buffer[] = [SIGNATURE];
  let placed = false;
  for (const c of chunks) {
    if (c.type !== 'IDAT') out.push(writeChunk(c.type, c.data));
    else if (!placed) {
      out.push(writeChunk('IDAT', packed));
      placed = true;
    }
  }
  return Buffer.concat(out);
}

/**
 * Decode an 8-bit, non-interlaced RGB or RGBA PNG (what Chromium's screenshots are) into RGBA, or null for any
 * other kind (the caller then uses pngjs). One native inflate and one pass over the rows: pngjs allocates a
 * buffer per row and maps pixels in JavaScript, and decoding was the largest share of Cookie's own CPU in an
 * evaluation (issue 13). Implements the PNG specification (W3C, 2nd ed.) §9 filters and §11.2.2 IHDR.
 *
 * @returns `{ width, height, data }` (RGBA, 4 bytes a pixel, rows top to bottom), or null when the PNG is not
 *   of that kind
 * @throws Error on a truncated or corrupt PNG (bad signature, a chunk cut short, no IHDR or IDAT, short data)
 */
export function decodeScreenshotPng(buf: Buffer): { width: number; height: number; data: Buffer } | null {
  const chunks = readChunks(buf);
  const ihdr = chunks.find((c) => c.type === 'IHDR')?.data;
  if (!ihdr || ihdr.length < 13) throw new Error('PNG without a header');
  const width = ihdr.readUInt32BE(0), height = ihdr.readUInt32BE(4);
  if (ihdr[8] !== 8 || ihdr[12] !== 0 || (ihdr[9] !== 2 && ihdr[9] !== 6)) return null;
  const channels = ihdr[9] === 6 ? 4 : 3;
  const idat = chunks.filter((c) => c.type === 'IDAT').map((c) => c.data);
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

/** Writes in flight per folder (an evaluation's evidence folder), so its stage can wait for them. */
const inFlight = new Map<string, Set<Promise<void>>>();

/**
 * Keep a PNG as evidence at `file`: recompressed ({@link recompressPng}; the original bytes if that fails),
 * then written atomically (write-file-atomic: a reader never sees half a file). Returns at once; the
 * write is tracked under `dir` until {@link pngWritesDone}. Never throws (a failed write leaves no file).
 */
export function keepPng(dir: string, file: string, png: Buffer): void {
  const target = path.join(dir, file);
  const job = (async () => {
    const bytes = await recompressPng(png).then(
      (small) => (small.length < png.length ? small : png),
      () => png,
    );
    // temporary file + rename, the temporary removed on failure (write-file-atomic, as every evidence file)
    await writeFileAtomic(target, bytes).catch(() => {});
  })();
  let set = inFlight.get(dir);
  if (!set) inFlight.set(dir, (set = new Set()));
  set.add(job);
  void job.finally(() => {
    set!.delete(job);
    if (!set!.size && inFlight.get(dir) === set) inFlight.delete(dir);
  });
}

/** Resolves once every PNG {@link keepPng} was given for `dir` is on disk (or failed). Never rejects. */
export async function pngWritesDone(dir: string): Promise<void> {
  for (let set = inFlight.get(dir); set?.size; set = inFlight.get(dir)) await Promise.all(set);
}
