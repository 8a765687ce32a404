import { pathToFileURL } from 'node:url';

/**
 * Import a user's TypeScript or JavaScript module (config or spec) afresh on every call, so watch mode
 * sees edits. tsx's `tsImport` loads it in its own namespace, also outside the CLI (tests, API use).
 * @throws whatever the module throws while loading
 */
export async function freshImport(file: string): Promise<Record<string, unknown>> {
  guardExit(file);
  // loaded on first use: a run with a YAML spec and no config never needs the TypeScript loader
  const { tsImport } = await import('tsx/esm/api');
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

/** Files loaded by {@link freshImport} (the user's code), by the forms a stack trace shows them in: path, file URL, and percent-encoded (tsx runs a CommonJS-compiled file from a data: URL naming it so). */
const userFiles = new Map<string, string>();
let guarded = false;

/**
 * Keep a user's module from ending Cookie's process: `process.exit()` called from a spec, config or
 * plugin file (at load or later, from a fixture or hook) throws instead of exiting, so it is that file's
 * error (a spec error naming it, or the evaluation's error) and never a silent exit 0 that a CI gate would
 * read as a pass. Calls from anywhere else (Cookie itself, its caller) exit as before. Installed once.
 */
function guardExit(file: string): void {
  for (const form of [file, pathToFileURL(file).href, encodeURIComponent(file)]) userFiles.set(form, file);
  if (guarded) return;
  guarded = true;
  const exit = process.exit;
  process.exit = function guardedExit(code?: number | string | null) {
    const stack = new Error().stack ?? '';
    for (const [form, name] of userFiles) {
      if (stack.includes(form)) {
        throw new Error(`${name} called process.exit(${code ?? ''}): a spec, config or plugin must not end Cookie's run (it would end with exit code ${code ?? 0}, nothing evaluated or reported); remove the call, or throw an error to fail`);
      }
    }
    return exit.call(process, code as number | undefined);
  } as typeof process.exit;
}
