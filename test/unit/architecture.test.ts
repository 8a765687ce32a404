import { builtinModules } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
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

/**
 * Per-folder import allowlist (Playwright's DEPS.list): which other folders of src/ each folder may import.
 * `types.ts`, `errors.ts` and `vendor/` (dependencies bundled at build) are shared by all; `prompts.ts` and `version.ts` only where listed. A new
 * folder must be added here, so every dependency between stages is a decision, not an accident.
 */
const DEPS: Record<string, string[]> = {
  '(root)': ['config', 'interact', 'judge', 'plugins', 'runner', 'util', 'prompts.ts', 'version.ts'],
  analysis: [],
  browser: ['util'],
  cli: ['analysis', 'config', 'data', 'deploy', 'generate', 'plugins', 'providers', 'runner', 'spec', 'util', 'version.ts'],
  common: ['spec'],
  config: ['plugins', 'util'],
  data: ['common', 'judge', 'providers', 'spec', 'util', 'prompts.ts'],
  deploy: ['common', 'util'],
  // generation makes candidates (before evidence exists): providers for the model, deploy's sandbox for builds
  generate: ['config', 'deploy', 'providers', 'spec', 'util', 'prompts.ts'],
  interact: ['browser', 'common', 'config', 'perceive', 'providers', 'util', 'prompts.ts'],
  judge: ['common', 'config', 'providers', 'prompts.ts'],
  perceive: ['browser', 'common', 'util'],
  plugins: ['config', 'interact', 'judge', 'providers', 'reporters', 'util'],
  providers: ['config', 'util'],
  public: ['config', 'interact', 'judge', 'plugins', 'reporters'],
  runner: ['browser', 'common', 'config', 'deploy', 'generate', 'interact', 'perceive', 'plugins', 'reporters', 'spec', 'util', 'prompts.ts', 'version.ts'],
  spec: ['util'],
  util: [],
  vendor: [],
};

describe('architecture: per-folder import allowlist (every folder of src/)', () => {
  const SRC = path.join(ROOT, 'src');
  const folders = fs.readdirSync(SRC, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

  it('every folder of src/ has an allowlist entry', () => {
    expect(folders.filter((f) => !(f in DEPS))).toEqual([]);
  });

  it.each(['(root)', ...folders])('src/%s imports only what its allowlist names', (folder) => {
    const files = folder === '(root)' ? imports(SRC).filter(({ file }) => path.dirname(file) === SRC) : imports(path.join(SRC, folder));
    const allowed = new Set([...(DEPS[folder] ?? []), 'types.ts', 'errors.ts', 'vendor', folder]);
    const bad = files.flatMap(({ file, spec }) => {
      if (!spec.startsWith('.')) return [];
      const rel = path.relative(SRC, path.resolve(path.dirname(file), spec)).split(path.sep);
      const target = rel[0] === '..' ? rel[1]! : rel.length === 1 ? rel[0]!.replace(/\.js$/, '.ts') : rel[0]!;
      return allowed.has(target) || (folder === '(root)' && rel.length === 1 && allowed.has(target)) ? [] : [`${path.relative(ROOT, file)} → ${spec}`];
    });
    expect(bad).toEqual([]);
  });

  it('the allowlist catches a forbidden import (the check can fail)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cookie-deps-'));
    fs.mkdirSync(path.join(dir, 'judge'));
    fs.writeFileSync(path.join(dir, 'judge', 'x.ts'), "import { deploy } from '../deploy/deploy.js';\n");
    const found = imports(path.join(dir, 'judge')).map(({ spec }) => path.relative(dir, path.resolve(path.join(dir, 'judge'), spec)).split(path.sep)[0]);
    expect(found.filter((t) => !DEPS.judge!.includes(t!))).toEqual(['deploy']);
  });
});

describe('architecture: bundled dependencies (src/vendor, scripts/bundle-vendor.mjs)', () => {
  const VENDORED = ['zod', 'yaml', 'iso-639-3'];
  const BUNDLED = ['zod', 'yaml'];

  it('zod, yaml and iso-639-3 are imported only through src/vendor (one copy of their classes is ever loaded)', () => {
    const bad = [...imports(path.join(ROOT, 'src')), ...imports(path.join(ROOT, 'reporters'))].filter(
      ({ file, spec }) => VENDORED.some((v) => spec === v || spec.startsWith(`${v}/`)) && !file.startsWith(path.join(ROOT, 'src', 'vendor')),
    );
    expect(bad.map(({ file, spec }) => `${path.relative(ROOT, file)} → ${spec}`)).toEqual([]);
  });

  it.each(BUNDLED)('dist/src/vendor/%s.js is the package bundled into one file that imports nothing but Node built-ins', async (name) => {
    const file = path.join(ROOT, 'dist', 'src', 'vendor', `${name}.js`);
    const text = fs.readFileSync(file, 'utf8');
    // static imports and re-exports, dynamic imports, and the requires of a bundled CommonJS package (__require)
    const specs = [...text.matchAll(/^\s*(?:import|export)\s[^'";]*?['"]([^'"]+)['"]|(?:\bimport|require)\(\s*['"]([^'"]+)['"]/gm)].map((m) => (m[1] ?? m[2])!);
    expect(specs.length).toBeGreaterThan(0); // at least the banner's node:module
    expect(specs.filter((s) => !s.startsWith('node:') && !builtinModules.includes(s))).toEqual([]);
    // far more than tsc's one-line re-export: the package's code is in it
    expect(text.length).toBeGreaterThan(50_000);
    const mod = await import(file);
    if (name === 'zod') {
      const schema = mod.z.object({ steps: mod.z.number().int().min(0) });
      expect(schema.parse({ steps: 3 })).toEqual({ steps: 3 });
      const bad = schema.safeParse({ steps: -1 });
      expect(bad.success).toBe(false);
      expect(bad.error.issues[0].path).toEqual(['steps']);
    } else {
      expect(mod.parse('query:\n  id: a\n  language: en\n')).toEqual({ query: { id: 'a', language: 'en' } });
      expect(() => mod.parse('a: [1,')).toThrow(mod.YAMLParseError);
    }
  });

  it('dist/src/vendor/iso-639.data.js holds the ISO 639 tables Cookie reads as plain values, equal to what src/vendor/iso-639.data.ts computes from the package', async () => {
    const file = path.join(ROOT, 'dist', 'src', 'vendor', 'iso-639.data.js');
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toMatch(/^\s*import\s|\bimport\(|\bfrom\s*['"]/m);
    const built = await import(file);
    const source = await import('../../src/vendor/iso-639.data.js');
    expect({ ...built }).toEqual({ ...source });
    expect(Object.keys(source.ISO6391_NAMES)).toHaveLength(184);
    expect([source.ISO6391_NAMES.el, source.ISO6391_BY_NAME.chinese, source.ISO6393_TO_1.fra]).toEqual(['Modern Greek (1453-)', 'zh', 'fr']);
  });
});
