import fs from 'node:fs';
import { chromium, type Browser } from 'playwright';
import { BrowserError } from '../errors.js';
import { safeEnv } from '../util/safe-env.js';
import { timebox } from '../util/timebox.js';

/**
 * Chromium flags that work on this machine (../shared/docs/MACHINE.md): no sandbox (root), no GPU
 * (SwiftShader WebGL), no background networking (the closed network refuses it), plus Cookie's own
 * network fence: every host name except localhost resolves to nothing, and WebRTC may not open UDP.
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

/** Where the browser comes from: launched here, or a remote one (Playwright `run-server` or a CDP endpoint). */
export interface BrowserSource {
  /** Chromium binary for a local launch (and sent to a `run-server --unsafe` that launches for us). */
  executablePath: string;
  args?: string[];
  /** ws:// endpoint of a Playwright server (`npx playwright run-server`); Playwright `connect`. */
  wsEndpoint?: string;
  /** http:// or ws:// endpoint of a running Chromium's DevTools protocol; Playwright `connectOverCDP`. */
  cdpEndpoint?: string;
  /** Extra headers for the remote endpoint (authentication tokens of a hosted grid). */
  headers?: Record<string, string>;
}

/**
 * The browser of a run (issue 15 point 2): a local launch ({@link launchBrowser}), or a connection to a
 * remote one. For `wsEndpoint`, Cookie asks the server to launch Chromium with Cookie's fence flags and
 * `executablePath` (a `run-server --unsafe` honours them; a locked-down server drops them and launches its
 * own Chromium, and then the per-context fence proxy and request interception still confine every page
 * to the app's origin). Deploy and builds stay on this machine: the remote browser must reach the app's
 * URL (README: topologies).
 * @throws BrowserError naming the endpoint and the cause when the connection fails (time-boxed: 30 s)
 */
export async function openBrowser(src: BrowserSource): Promise<Browser> {
  if (src.wsEndpoint) {
    const launchOptions = { executablePath: src.executablePath, args: [...CHROMIUM_ARGS, ...(src.args ?? [])], headless: true };
    try {
      return await timebox(
        chromium.connect(src.wsEndpoint, { headers: { 'x-playwright-launch-options': JSON.stringify(launchOptions), ...(src.headers ?? {}) }, timeout: 30_000 }),
        40_000,
        'browser connect',
      );
    } catch (e) {
      throw new BrowserError(`could not connect to the Playwright server at ${src.wsEndpoint}: ${(e as Error).message.split('\n')[0]}. Fix: start it (npx playwright run-server --port N) or correct browser.wsEndpoint`);
    }
  }
  if (src.cdpEndpoint) {
    try {
      return await timebox(chromium.connectOverCDP(src.cdpEndpoint, { headers: src.headers, timeout: 30_000 }), 40_000, 'browser connect over CDP');
    } catch (e) {
      throw new BrowserError(`could not connect to Chromium's DevTools endpoint at ${src.cdpEndpoint}: ${(e as Error).message.split('\n')[0]}. Fix: start Chromium with --remote-debugging-port=N or correct browser.cdpEndpoint`);
    }
  }
  return launchBrowser(src.executablePath, src.args);
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
