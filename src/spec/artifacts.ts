import fs from 'node:fs';
import path from 'node:path';
import { ArtifactError } from '../errors.js';
import type { CandidateMode } from '../types.js';

/**
 * Largest candidate Cookie accepts, in bytes (200 MB): the total of the files it hashes and serves (an HTML
 * file with the local files it references, or a folder without node_modules and build output).
 */
export const MAX_ARTIFACT_BYTES = 200 * 1024 * 1024;

/** Folders of a candidate folder that are not part of the candidate: dependencies, build output, VCS, Cookie's results. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set(['node_modules', 'dist', 'build', '.git', '.vite', '.next', 'cookie-results']);

/** One file of a candidate: absolute path, name relative to the candidate, size in bytes. */
export interface ArtifactFile {
  file: string;
  rel: string;
  size: number;
}

/** `n` bytes in MB, one decimal. */
const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MB`;

/**
 * The regular files that make up a candidate: an HTML file with the local files it references (scripts,
 * styles, images), or every file of a folder but {@link SKIPPED_DIRS}, in a stable order. Symbolic links inside
 * a folder and anything that is not a regular file (FIFO, socket, device) are left out and never opened.
 * @throws ArtifactError when `p` is neither a regular file nor a folder, or the files total more than {@link MAX_ARTIFACT_BYTES}
 */
export function artifactFiles(p: string): ArtifactFile[] {
  const st = fs.statSync(p);
  const out: ArtifactFile[] = [];
  let total = 0;
  const add = (file: string, rel: string, size: number) => {
    total += size;
    if (total > MAX_ARTIFACT_BYTES) throw new ArtifactError(`${p} holds more than ${mb(MAX_ARTIFACT_BYTES)} (at least ${mb(total)}), over Cookie's limit for a candidate`);
    out.push({ file, rel, size });
  };
  if (st.isFile()) {
    add(p, path.basename(p), st.size);
    // the local files it references can change what it shows; other files cannot
    const html = fs.readFileSync(p, 'utf8');
    const refs = new Set([...html.matchAll(/\b(?:src|href)\s*=\s*["']([^"'#?]+)/gi)].map((m) => m[1]!).filter((r) => !/^(?:[a-z]+:|\/\/)/i.test(r)));
    for (const r of [...refs].sort()) {
      const f = path.resolve(path.dirname(p), r.startsWith('/') ? `.${r}` : r);
      const s = fs.statSync(f, { throwIfNoEntry: false });
      if (s?.isFile()) add(f, r, s.size);
    }
    return out;
  }
  if (!st.isDirectory()) throw new ArtifactError(`${p} is not a regular file or folder`);
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (SKIPPED_DIRS.has(e.name)) continue;
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile()) add(full, path.relative(p, full), fs.statSync(full).size);
    }
  };
  walk(p);
  return out;
}

/** A problem with a candidate's `path` (or its `mode`) found before anything runs: field (`path` or `mode`), what is wrong, the fix. */
export interface CandidateProblem {
  field: 'path' | 'mode';
  problem: string;
  fix: string;
}

/**
 * Check a candidate's artifact before any browser starts: not a URL, no `~`, present, a regular file or
 * folder, the shape its mode needs (html: an .html file or a folder with index.html or one .html file;
 * react: a folder), and at most {@link MAX_ARTIFACT_BYTES}.
 * @param written the path as the spec gives it ({data_id} filled in)
 * @param abs the same path resolved against the spec's folder
 * @param mode the candidate's mode
 * @returns the problem, or null when the artifact can be evaluated
 */
export function candidateProblem(written: string, abs: string, mode: CandidateMode): CandidateProblem | null {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(written)) return { field: 'path', problem: `"${written}" is a URL, and a URL is not a candidate path`, fix: 'download the file and give its path, relative to the spec' };
  if (/^~(?:[/\\]|$)/.test(written)) return { field: 'path', problem: `"${written}" starts with ~, which is not expanded`, fix: 'use a path relative to the spec (or an absolute path)' };
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(abs, { throwIfNoEntry: false });
  } catch (e) {
    // a symlink loop (ELOOP), a folder that cannot be searched (EACCES): this candidate's problem, not the run's
    return { field: 'path', problem: `${written} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, fix: 'point `path` at a readable file or folder (not a symbolic link loop)' };
  }
  if (!st) return { field: 'path', problem: `artifact not found: ${abs}`, fix: 'check the path (relative to the spec file) or create the artifact' };
  if (!st.isFile() && !st.isDirectory()) return { field: 'path', problem: `${written} is not a regular file or folder`, fix: 'point `path` at an .html file or a folder' };
  if (mode === 'react' && !st.isDirectory()) return { field: 'mode', problem: `is "react" but ${written} is a file (a react candidate is a Vite project folder)`, fix: 'use mode: html for an HTML file, or point `path` at the project folder' };
  if (mode === 'html' && st.isFile() && !/\.html?$/i.test(abs)) return { field: 'path', problem: `${written} is not an .html file`, fix: 'point `path` at an .html file or a folder holding index.html' };
  if (mode === 'html' && st.isDirectory() && !fs.existsSync(path.join(abs, 'index.html'))) {
    const htmls = fs.readdirSync(abs).filter((f) => /\.html?$/i.test(f));
    if (htmls.length !== 1) return { field: 'path', problem: `folder ${written} has no index.html${htmls.length ? ` and ${htmls.length} other .html files` : ''}`, fix: 'add an index.html, or point `path` at the .html file to open' };
  }
  try {
    artifactFiles(abs);
  } catch (e) {
    if (e instanceof ArtifactError) return { field: 'path', problem: e.message, fix: `keep a candidate under ${mb(MAX_ARTIFACT_BYTES)} (leave out large media and data files)` };
    return { field: 'path', problem: `${written} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, fix: 'make the candidate readable by the user running Cookie' };
  }
  return null;
}
