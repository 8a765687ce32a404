/** Where a plugin entry's module lives (kept apart from the loader so config loading stays light). */
import fs from 'node:fs';
import path from 'node:path';
import type { PluginEntry } from './api.js';

/** True when a string names a module rather than a built-in: a relative or absolute path, or a file with a JS/TS extension. */
export function isModulePath(s: string): boolean {
  return /^(\.{1,2}[\\/]|[\\/]|[a-zA-Z]:\\)/.test(s) || /\.(m|c)?(t|j)sx?$/.test(s);
}

/**
 * True when the plugin loader ({@link loadPlugin} in load.ts) takes a name that is not a built-in for a
 * module: a {@link isModulePath module path}, or any name of an existing file. Everything else is an
 * unknown name.
 */
export function namesModule(s: string): boolean {
  return isModulePath(s) || fs.existsSync(s);
}

/**
 * Resolve a module path entry against a folder (the config file's, or the working directory for CLI
 * flags): relative paths and file names with a JS/TS extension become absolute. Built-in names are
 * returned unchanged.
 */
export function resolveEntryPath<T>(entry: PluginEntry<T>, baseDir: string, builtins: readonly string[] = []): PluginEntry<T> {
  const fix = (s: string): string => {
    if (builtins.includes(s) || !isModulePath(s)) return s;
    return path.resolve(baseDir, s);
  };
  if (typeof entry === 'string') return fix(entry);
  if (Array.isArray(entry) && typeof entry[0] === 'string') return [fix(entry[0]), entry[1] ?? {}];
  return entry;
}

