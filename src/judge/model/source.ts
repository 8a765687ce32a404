import fs from 'node:fs';
import path from 'node:path';

const TEXT = /\.(html?|m?[jt]sx?|css|json|svg|md|vue|svelte)$/i;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'build', '.git', '.next', '.vite', 'coverage', 'out']);
const SKIP_FILES = /^(package-lock\.json|pnpm-lock\.yaml|yarn\.lock|bun\.lockb|.*\.min\.(js|css)|.*\.map)$/i;

/**
 * The candidate's source for the model judge, size-capped (METHOD.md: screenshot + source + console):
 * a single HTML file as is; for a folder (multi-file app or project), its text files without dependencies,
 * build output or lockfiles, entry first, each headed by its path, until `maxChars`.
 * @param artifactPath the candidate's file or folder
 * @param entry the entry file (relative to the folder), first in the listing
 */
export function readSource(artifactPath: string, maxChars: number, entry?: string): { text: string; files: number; truncated: boolean } {
  if (!fs.existsSync(artifactPath)) return { text: '', files: 0, truncated: false };
  if (fs.statSync(artifactPath).isFile()) {
    const t = fs.readFileSync(artifactPath, 'utf8');
    return { text: t.slice(0, maxChars), files: 1, truncated: t.length > maxChars };
  }
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) walk(path.join(dir, e.name));
      } else if (TEXT.test(e.name) && !SKIP_FILES.test(e.name)) files.push(path.join(dir, e.name));
    }
  };
  walk(artifactPath);
  files.sort((a, b) => Number(path.relative(artifactPath, b) === entry) - Number(path.relative(artifactPath, a) === entry) || a.localeCompare(b));
  let text = '';
  let n = 0;
  for (const f of files) {
    const body = fs.readFileSync(f, 'utf8');
    const chunk = `\n===== ${path.relative(artifactPath, f)} =====\n${body}\n`;
    if (text.length + chunk.length > maxChars) {
      text += chunk.slice(0, Math.max(0, maxChars - text.length));
      return { text, files: n + 1, truncated: true };
    }
    text += chunk;
    n++;
  }
  return { text, files: n, truncated: false };
}
