import fs from 'node:fs';
import path from 'node:path';
import { glob } from 'tinyglobby';
import { InputError } from '../errors.js';
import { isSpecFile } from './load.js';

/**
 * Expand CLI paths into spec files: a spec file is taken as is, a folder is searched with the config's
 * include/exclude globs (tinyglobby). No paths: search the working directory.
 * @returns absolute spec paths, sorted and de-duplicated
 * @throws InputError when a path does not exist or a named file is not a spec
 */
export async function discoverSpecs(paths: string[], cwd: string, include: string[], exclude: string[]): Promise<string[]> {
  const roots = paths.length ? paths : ['.'];
  const found = new Set<string>();
  for (const p of roots) {
    const abs = path.resolve(cwd, p);
    if (!fs.existsSync(abs)) throw new InputError(abs, '(path)', 'does not exist', 'pass spec files or folders that exist');
    if (fs.statSync(abs).isFile()) {
      if (!isSpecFile(abs)) throw new InputError(abs, '(path)', 'is not a spec file', 'name spec files *.cookie.yaml or *.cookie.spec.ts');
      found.add(abs);
      continue;
    }
    const files = await glob(include, { cwd: abs, ignore: exclude, absolute: true, dot: false });
    for (const f of files) if (isSpecFile(f)) found.add(path.normalize(f));
  }
  return [...found].sort();
}
