import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | null = null;

/**
 * The folder of Cookie's own package.json (the repository, or `node_modules/cookie-eval` when
 * installed), found by walking up from this module: the same answer whether it runs from `src/`
 * (tests, tsx) or from the compiled `dist/src/`. Package-level assets (`prompts/`, `templates/`) live there.
 * @throws Error when no package.json named cookie-eval is above this file (a broken install)
 */
export function packageRoot(): string {
  if (root) return root;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg) && (JSON.parse(fs.readFileSync(pkg, 'utf8')) as { name?: string }).name === 'cookie-eval') return (root = dir);
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`cookie-eval's package.json was not found above ${fileURLToPath(import.meta.url)}: reinstall cookie-eval`);
    dir = up;
  }
}
