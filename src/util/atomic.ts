import fs from 'node:fs';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';

/**
 * Write JSON atomically (temp file + rename, by write-file-atomic): a reader, or a run killed mid-write,
 * sees the old file or the new one, never half of one.
 */
export function writeJsonAtomic(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeFileAtomic.sync(file, JSON.stringify(value, null, 2) + '\n');
}

/** Write text atomically (see {@link writeJsonAtomic}). */
export function writeTextAtomic(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeFileAtomic.sync(file, text);
}

/**
 * Write bytes atomically (see {@link writeJsonAtomic}); `private`: the folder is created 0700 and the file
 * written 0600 (a cache only its owner may read or change).
 */
export function writeBytesAtomic(file: string, data: Uint8Array, opts: { private?: boolean } = {}): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, ...(opts.private ? { mode: 0o700 } : {}) });
  writeFileAtomic.sync(file, Buffer.from(data.buffer, data.byteOffset, data.byteLength), opts.private ? { mode: 0o600 } : {});
}
