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
    return { why, fix: `cookie-eval is not installed where this file is: install it there (npm i -D cookie-eval), or drop the import and write \`export default { ... }\` (${helper} only adds types)` };
  }
  if (missing) return { why, fix: `install ${missing[1]} next to this file or correct the import path` };
  if (/Transform failed|SyntaxError|Unexpected|Expected/.test(why)) return { why, fix: `fix the syntax error; the file must \`export default ${helper}({...})\`` };
  if (/timed out/.test(why)) return { why, fix: 'the file must finish loading within 10 s: do not wait on servers or timers at the top level' };
  return { why, fix: `fix the error the file throws when it loads; it must \`export default ${helper}({...})\`` };
}
