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
