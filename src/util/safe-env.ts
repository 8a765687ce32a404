/**
 * The environment given to the browser Cookie starts for untrusted candidates. An allowlist, not a
 * denylist: the host's API keys, tokens and other secrets never reach a generated app. (Project
 * candidates' install/build/serve processes get an even smaller, explicit environment inside their
 * bubblewrap sandbox: see deploy/project.ts `projectEnv`.)
 */
const ALLOWED = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR', 'TERM', 'FONTCONFIG_PATH', 'FONTCONFIG_FILE', 'XDG_RUNTIME_DIR', 'DISPLAY'];

/**
 * @param extra variables to add (e.g. NODE_ENV for builds)
 * @returns a copy of the allowed host variables plus `extra`
 */
export function safeEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of ALLOWED) {
    const v = process.env[k];
    if (v !== undefined) env[k] = v;
  }
  return { ...env, ...extra };
}
