import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from './util/package-root.js';

/** Folder of Cookie's prompt files (our own files, versioned with the code). */
export const PROMPTS_DIR = path.join(packageRoot(), 'prompts');

/** A loaded prompt template with the hash of its text (recorded with every result that used it). */
export interface PromptTemplate {
  name: string;
  text: string;
  /** sha256 of the template text, first 12 hex digits. */
  hash: string;
}

/** Load `prompts/<name>.md`. @throws Error when the file is missing */
export function loadPrompt(name: string): PromptTemplate {
  const text = fs.readFileSync(path.join(PROMPTS_DIR, `${name}.md`), 'utf8');
  return { name, text, hash: crypto.createHash('sha256').update(text).digest('hex').slice(0, 12) };
}

/**
 * Fill `{{variable}}` slots. Every slot must be given and every given variable used, so a template and its
 * caller cannot drift apart silently.
 * @throws Error naming the missing or unused variable
 */
export function renderPrompt(t: PromptTemplate, vars: Record<string, string | number>): string {
  const used = new Set<string>();
  const out = t.text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => {
    if (!(k in vars)) throw new Error(`prompt ${t.name}: variable {{${k}}} not given`);
    used.add(k);
    return String(vars[k]);
  });
  for (const k of Object.keys(vars)) if (!used.has(k)) throw new Error(`prompt ${t.name}: variable ${k} is not in the template`);
  return out;
}
