/**
 * The one-line cause and fix for a TypeScript spec or config that failed to load (import or evaluation),
 * so the InputError names what really went wrong instead of always "a syntax error".
 * @param e what `import()` threw
 * @param helper `defineSpec` or `defineConfig`, the helper the file is meant to export through
 * @returns `why` (first meaningful lines of the error) and `fix`
 */
export function describeLoadError(e: unknown, helper: 'defineSpec' | 'defineConfig'): { why: string; fix: string } {
  const lines = (e instanceof Error ? e.message : String(e)).split('\n').map((l) => l.trim()).filter(Boolean);
  // esbuild's "Transform failed with 1 error:" says what failed on the following line
  const why = /:\s*$/.test(lines[0] ?? '') ? lines.slice(0, 2).join(' ') : (lines[0] ?? 'unknown error');
  const missing = why.match(/Cannot find (?:module|package) '([^']+)'/);
  if (missing?.[1] === 'cookie-eval') {
    return { why, fix: `cookie-eval is not installed where this file is: install it there (it is not on npm: \`npm pack\` in a clone of Cookie, then \`npm install --save-dev <the cookie-eval-*.tgz>\`; README "Using Cookie from another project"), or drop the import and write \`export default { ... }\` (${helper} only adds types)` };
  }
  if (missing) return { why, fix: `install ${missing[1]} next to this file or correct the import path` };
  const unexported = notExported(why);
  if (unexported) return { why, fix: unexported };
  if (/Transform failed|SyntaxError|Unexpected|Expected/.test(why)) return { why, fix: `fix the syntax error; the file must \`export default ${helper}({...})\`` };
  if (/timed out/.test(why)) return { why, fix: 'the file must finish loading within 10 s: do not wait on servers or timers at the top level' };
  return { why, fix: `fix the error the file throws when it loads; it must \`export default ${helper}({...})\`` };
}

/**
 * The fix for a package that is installed but does not export what the file imports under the conditions
 * it is loaded with (Node's ERR_PACKAGE_PATH_NOT_EXPORTED: `No "exports" main defined in …/package.json`,
 * `Package subpath './config' is not defined by "exports" in …/package.json`); null for other errors.
 * A .ts file in a project without `"type": "module"` is loaded as CommonJS (require conditions), which a
 * package exporting only `import` conditions refuses.
 */
function notExported(why: string): string | null {
  const m = why.match(/No "exports" main defined in (.+?)package\.json/) ?? why.match(/Package subpath '([^']+)' is not defined by "exports" in (.+?)package\.json/);
  if (!m) return null;
  const [subpath, dir] = m.length === 3 && m[2] !== undefined ? [m[1]!, m[2]] : ['.', m[1]!];
  const pkg = dir.replace(/[/\\]$/, '').split(/[/\\]node_modules[/\\]/).pop() ?? dir;
  const what = `${pkg} (${dir}) does not export "${subpath}" to this file, which is loaded with require() when the nearest package.json has no "type": "module" (a CommonJS project, as \`npm init -y\` makes)`;
  return pkg === 'cookie-eval'
    ? `${what}: this cookie-eval is older than CommonJS support — install one packed from a current clone of Cookie (README "Using Cookie from another project"), or add "type": "module" to your package.json`
    : `${what}: import a path listed in ${pkg}'s package.json "exports", or add "type": "module" to your package.json if it exports only to import`;
}
