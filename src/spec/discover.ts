import fs from 'node:fs';
import path from 'node:path';
import { glob } from 'tinyglobby';
import { InputError } from '../errors.js';
import { isSpecFile } from './load.js';

/** The real path of a file (symlinks resolved), or the path itself when it cannot be resolved (a broken link: loading it says why). */
function realpath(f: string): string {
  try {
    return fs.realpathSync(f);
  } catch {
    return f;
  }
}

/** True when `file` is `dir` or inside it. */
function within(file: string, dir: string): boolean {
  const rel = path.relative(dir, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Expand CLI paths into spec files: a spec file is taken as is, a folder is searched with the config's
 * include/exclude globs (tinyglobby, which follows symbolic links). A spec file reached by several paths
 * (a symlink, a link loop such as `up -> ..`) is taken once, under its shortest path; one a symlink leads
 * to outside the folder searched is left out.
 * @returns absolute spec paths, sorted and de-duplicated by real path
 * @throws InputError when a path does not exist or a named file is not a spec
 */
export async function discoverSpecs(paths: string[], cwd: string, include: string[], exclude: string[]): Promise<string[]> {
  const roots = paths.length ? paths : ['.'];
  const found = new Set<string>();
  // real path → the path the spec is taken under: the direct one (no symlink on the way, so its relative
  // paths resolve where its file is) before the others, then the shortest
  const seen = new Map<string, { f: string; rank: [number, number, string] }>();
  const take = (f: string, direct: boolean) => {
    const real = realpath(f);
    const rank: [number, number, string] = [direct ? 0 : 1, f.length, f];
    const prev = seen.get(real);
    if (prev && (prev.rank[0] - rank[0] || prev.rank[1] - rank[1] || prev.rank[2].localeCompare(rank[2])) <= 0) return;
    if (prev) found.delete(prev.f);
    seen.set(real, { f, rank });
    found.add(f);
  };
  for (const p of roots) {
    const abs = path.resolve(cwd, p);
    if (!fs.existsSync(abs)) throw new InputError(abs, '(path)', 'does not exist', 'pass spec files or folders that exist');
    if (fs.statSync(abs).isFile()) {
      if (!isSpecFile(abs)) throw new InputError(abs, '(path)', 'is not a spec file', 'name spec files *.cookie.yaml or *.cookie.spec.ts');
      take(abs, true);
      continue;
    }
    const files = await glob(include, { cwd: abs, ignore: exclude, absolute: true, dot: false });
    const realRoot = realpath(abs);
    for (const f of files.map((x) => path.normalize(x))) {
      const real = realpath(f);
      if (isSpecFile(f) && within(real, realRoot)) take(f, path.relative(abs, f) === path.relative(realRoot, real));
    }
  }
  return [...found].sort();
}
