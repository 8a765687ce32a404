import fs from 'node:fs';

/**
 * Debian's Chromium builds Cookie can drive, in the order it prefers them. The old headless shell
 * (`apt-get install chromium-headless-shell`) is Chromium's headless-only build — the one Playwright itself
 * uses for headless runs: the same Blink, V8, Skia and SwiftShader WebGL as the full browser, without its UI
 * layer, so each evaluation costs less CPU (measured on 2 cores: a one-button page 10.4 → 7.6 CPU-s; the
 * 13 examples 122.6 → 109 CPU-s with identical verdicts). The full `chromium` is the fallback.
 */
export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'] as const;

/**
 * The Chromium binary used when config `browser.executablePath` is not set: `COOKIE_CHROMIUM` when set,
 * else the first of {@link CHROMIUM_CANDIDATES} that exists, else `/usr/bin/chromium` (whose absence the
 * launch reports with the fix). Never throws.
 * @param env the environment to read `COOKIE_CHROMIUM` from (default: this process's)
 * @param exists how a path is tested (default: fs.existsSync)
 */
export function defaultChromium(env: NodeJS.ProcessEnv = process.env, exists: (p: string) => boolean = fs.existsSync): string {
  if (env.COOKIE_CHROMIUM) return env.COOKIE_CHROMIUM;
  return CHROMIUM_CANDIDATES.find((p) => exists(p)) ?? '/usr/bin/chromium';
}
