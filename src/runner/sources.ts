import fs from 'node:fs';
import path from 'node:path';
import type { SourceEvidence } from '../types.js';

const TEXT = /\.(html?|m?[jt]sx?|css|json|svg|md|vue|svelte|txt)$/i;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'build', '.git', '.next', '.vite', 'coverage', 'out']);
const SKIP_FILES = /^(package-lock\.json|pnpm-lock\.yaml|yarn\.lock|bun\.lockb|.*\.map)$/i;
/** Most bytes of source copied into the evidence (the model judge reads at most 400,000 characters). */
export const MAX_SOURCE_BYTES = 2_000_000;

/**
 * Copy the candidate's source text files into `<evidenceDir>/source/` (entry first; no dependencies,
 * build output, lockfiles or source maps; at most {@link MAX_SOURCE_BYTES}), so the evidence is
 * self-contained: a judge reads the source from the evidence, and `cookie judge DIR` works after the
 * candidate's folder is gone.
 * @returns what was copied (paths relative to `source/`), or null when the artifact does not exist
 */
export function copySources(artifactPath: string, evidenceDir: string, entry?: string): SourceEvidence | null {
  if (!fs.existsSync(artifactPath)) return null;
  const isFile = fs.statSync(artifactPath).isFile();
  const root = isFile ? path.dirname(artifactPath) : artifactPath;
  const files: string[] = [];
  if (isFile) files.push(path.basename(artifactPath));
  else {
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) {
          if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) walk(path.join(dir, e.name));
        } else if (e.isFile() && TEXT.test(e.name) && !SKIP_FILES.test(e.name)) files.push(path.relative(root, path.join(dir, e.name)));
      }
    };
    walk(root);
    files.sort((a, b) => Number(b === entry) - Number(a === entry) || a.localeCompare(b));
  }
  const out = path.join(evidenceDir, 'source');
  fs.rmSync(out, { recursive: true, force: true });
  let bytes = 0;
  const copied: string[] = [];
  let truncated = false;
  for (const f of files) {
    const size = fs.statSync(path.join(root, f)).size;
    if (bytes + size > MAX_SOURCE_BYTES) {
      truncated = true;
      continue;
    }
    fs.mkdirSync(path.dirname(path.join(out, f)), { recursive: true });
    fs.copyFileSync(path.join(root, f), path.join(out, f));
    bytes += size;
    copied.push(f);
  }
  return { dir: 'source', entry: isFile ? path.basename(artifactPath) : (entry ?? 'index.html'), files: copied, bytes, truncated };
}
