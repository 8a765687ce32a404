import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';

/**
 * Import a user's TypeScript or JavaScript module (config or spec) afresh on every call, so watch mode
 * sees edits. tsx's `tsImport` loads it in its own namespace, also outside the CLI (tests, API use).
 * @throws whatever the module throws while loading
 */
export async function freshImport(file: string): Promise<Record<string, unknown>> {
  return (await tsImport(`${pathToFileURL(file).href}?t=${Date.now()}-${Math.random().toString(36).slice(2)}`, import.meta.url)) as Record<string, unknown>;
}

/**
 * The default export of a module loaded by {@link freshImport}. A .ts file outside an ESM package is
 * compiled to CommonJS, where the ESM default arrives one level deeper (`module.exports.default`).
 */
export function defaultExport(mod: Record<string, unknown>, named?: string): unknown {
  let d = mod.default ?? (named ? mod[named] : undefined);
  if (d && typeof d === 'object' && '__esModule' in d) {
    const cjs = d as Record<string, unknown>;
    d = cjs.default ?? (named ? cjs[named] : undefined);
  }
  return d;
}
