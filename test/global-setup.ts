import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Newest modification time (ms) of the files below the given folders. */
function newest(dirs: string[]): number {
  let t = 0;
  for (const d of dirs) {
    const abs = path.join(ROOT, d);
    if (!fs.existsSync(abs)) continue;
    if (fs.statSync(abs).isFile()) t = Math.max(t, fs.statSync(abs).mtimeMs);
    else for (const f of fs.readdirSync(abs, { recursive: true })) t = Math.max(t, fs.statSync(path.join(abs, String(f))).mtimeMs);
  }
  return t;
}

/**
 * Vitest globalSetup: the CLI runs the compiled dist/, so build it once before the tests when it is
 * missing or older than any source (a fresh clone, or edited sources), never per test.
 */
export default function setup(): void {
  const stamp = path.join(ROOT, 'dist', '.build-stamp');
  const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
  if (built >= newest(['src', 'reporters', 'tsconfig.json', 'tsconfig.build.json', 'package.json'])) return;
  execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
}
