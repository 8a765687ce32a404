import fs from 'node:fs';
import { chromium, type Browser } from 'playwright';
import { BrowserError } from '../errors.js';
import { safeEnv } from '../util/safe-env.js';
import { timebox } from '../util/timebox.js';

/**
 * Chromium flags that work on this machine (../shared/docs/MACHINE.md): no sandbox (root), no GPU
 * (SwiftShader WebGL), no background networking (the closed network refuses it), plus Cookie's own
 * network fence: every host name except localhost resolves to nothing, and WebRTC may not open UDP
 * (its attempts are recorded by src/browser/webrtc.init.js).
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  '--disable-dev-shm-usage',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
  // WebRTC: no UDP socket at all (STUN, TURN/UDP, host candidates); TCP only through the context's proxy.
  // The switch is `webrtc-ip-handling-policy` in today's Chromium (the older `force-` spelling is ignored
  // silently, which let 337 STUN datagrams out in issue 19): test/e2e/containment-pages.test.ts checks it
  // with a UDP canary on 127.0.0.1 and ::1.
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/**
 * Launch headless Debian Chromium through Playwright with `executablePath` (never a downloaded browser)
 * and an environment stripped of the host's secrets.
 * @param executablePath path of the Chromium binary (default /usr/bin/chromium)
 * @param extraArgs additional flags from config
 * @throws BrowserError naming the missing binary and the fix
 */
export async function launchBrowser(executablePath: string, extraArgs: string[] = []): Promise<Browser> {
  if (!fs.existsSync(executablePath)) {
    throw new BrowserError(`Chromium not found at ${executablePath}. Fix: apt-get install -y chromium, or set browser.executablePath / COOKIE_CHROMIUM`);
  }
  try {
    return await timebox(
      chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs], env: safeEnv(), timeout: 30_000 }),
      40_000,
      'browser launch',
    );
  } catch (e) {
    throw new BrowserError(`Chromium failed to start (${executablePath}): ${(e as Error).message.split('\n')[0]}`);
  }
}

/**
 * Probe WebGL once per run and return the renderer string (SwiftShader here), or null when WebGL is
 * unavailable — recorded so a WebGL page failing is not blamed on the model (PITFALLS.md).
 */
export async function webglRenderer(browser: Browser): Promise<string | null> {
  const ctx = await browser.newContext();
  try {
    const page = await ctx.newPage();
    return await timebox(
      page.evaluate(`(() => { const c = document.createElement('canvas'); const gl = c.getContext('webgl2') || c.getContext('webgl');
        if (!gl) return null; const d = gl.getExtension('WEBGL_debug_renderer_info');
        return String(d ? gl.getParameter(d.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER)); })()`) as Promise<string | null>,
      10_000,
      'webgl probe',
    );
  } catch {
    return null;
  } finally {
    await ctx.close().catch(() => {});
  }
}
