import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';

/** Every relative import of every .ts file under a folder. */
function imports(dir: string): { file: string; spec: string }[] {
  const out: { file: string; spec: string }[] = [];
  for (const f of fs.readdirSync(dir, { recursive: true }) as string[]) {
    if (!/\.(ts|js)$/.test(f)) continue;
    const text = fs.readFileSync(path.join(dir, f), 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) out.push({ file: path.join(dir, f), spec: m[1]! });
  }
  return out;
}

describe('architecture: evidence collection never judges', () => {
  it.each(['deploy', 'perceive', 'interact', 'browser'])('src/%s never imports the judge', (folder) => {
    const bad = imports(path.join(ROOT, 'src', folder)).filter(({ file, spec }) => spec.startsWith('.') && path.resolve(path.dirname(file), spec).includes(`${path.sep}judge`));
    expect(bad).toEqual([]);
  });

  it('the judge never imports a browser, a server or the evidence collectors', () => {
    const bad = imports(path.join(ROOT, 'src', 'judge')).filter(({ file, spec }) => spec === 'playwright' || /\/(deploy|perceive|interact|browser|runner)\//.test(path.resolve(path.dirname(file), spec) + '/'));
    expect(bad).toEqual([]);
  });
});
