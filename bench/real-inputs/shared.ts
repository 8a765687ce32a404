// Helpers for the real-inputs suite: everything is read from ../shared/real-inputs at load time;
// nothing from it is copied into the project (PROVENANCE.md).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of ../shared/real-inputs beside the project. */
export const REAL = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/real-inputs');

/** Read a file below REAL. */
export function read(rel: string): string {
  return fs.readFileSync(path.join(REAL, rel), 'utf8');
}

/** The first fenced block of a Markdown file (the KCORES READMEs hold their prompt in one). */
export function firstFence(markdown: string): string {
  const m = markdown.match(/```[a-z]*\n([\s\S]*?)```/);
  if (!m) throw new Error('no fenced block');
  return m[1]!.trim();
}

/** HTML files of a folder below REAL, sorted. */
export function htmlFiles(rel: string): string[] {
  return fs.readdirSync(path.join(REAL, rel)).filter((f) => f.endsWith('.html')).sort();
}
