import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright';
import { BrowserError } from '../errors.js';
import { safeEnv } from '../util/safe-env.js';
import { timebox } from '../util/timebox.js';
import { writeJsonAtomic } from '../util/atomic.js';
import { PLAYWRIGHT_BUNDLES, requireWithCodeCache } from '../util/code-cache.js';

let playwright: typeof import('playwright') | null = null;
/**
 * Playwright's Chromium driver, loaded on first use (0.3–0.4 s of start-up on 2 cores: a run whose evaluations
 * are all cached, a listing or a malformed spec never pays it). Playwright is CommonJS: required, not
 * imported, so Node does not scan all of playwright-core for named exports (about 90 ms more on 2 cores), and
 * its two large bundles are compiled with V8's code cache (src/util/code-cache.ts: about half the load time).
 * @throws when the playwright package is missing
 */
function chromiumDriver(): typeof import('playwright').chromium {
  playwright ??= requireWithCodeCache<typeof import('playwright')>('playwright', import.meta.url, PLAYWRIGHT_BUNDLES);
  return playwright.chromium;
}

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
 * {@link CHROMIUM_ARGS} with host-name patterns the browser may resolve besides localhost (`EXCLUDE` in its
 * `--host-resolver-rules`): the host of config `deploy.publicUrl`, by which it reaches the app and the fence proxy
 * (`*` where the port is part of the name; IP addresses too, which Chromium's `MAP *` rule refuses as well). No
 * pattern: CHROMIUM_ARGS as is.
 * @param resolvable host-name patterns or addresses such as `host.docker.internal`, `*.tunnel.example`, `172.17.0.1`
 */
export function fenceArgs(resolvable: string[] = []): string[] {
  // host names, IPv4 and IPv6 addresses, `*`: nothing that could end this rule and start another (`,`, spaces)
  const ok = resolvable.filter((p) => /^[a-z0-9*.:-]+$/i.test(p));
  if (!ok.length) return CHROMIUM_ARGS;
  return CHROMIUM_ARGS.map((a) => (a.startsWith('--host-resolver-rules=') ? `${a}${ok.map((p) => `, EXCLUDE ${p}`).join('')}` : a));
}

/**
 * Launch headless Debian Chromium through Playwright with `executablePath` (never a downloaded browser)
 * and an environment stripped of the host's secrets.
 * @param executablePath path of the Chromium binary (config default: src/util/chromium.ts `defaultChromium`)
 * @param extraArgs additional flags from config
 * @param resolvable host-name patterns it may resolve besides localhost ({@link fenceArgs})
 * @throws BrowserError naming the missing binary and the fix
 */
export async function launchBrowser(executablePath: string, extraArgs: string[] = [], resolvable: string[] = []): Promise<Browser> {
  if (!fs.existsSync(executablePath)) {
    throw new BrowserError(`Chromium not found at ${executablePath}. Fix: apt-get install -y chromium-headless-shell (or chromium), or set browser.executablePath / COOKIE_CHROMIUM`);
  }
  try {
    return await timebox(
      chromiumDriver().launch({ executablePath, headless: true, args: [...fenceArgs(resolvable), ...extraArgs], env: safeEnv(), timeout: 30_000 }),
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
  /** Host-name patterns the browser may resolve besides localhost ({@link fenceArgs}; not applicable to a CDP endpoint, whose flags are the user's). */
  resolvable?: string[];
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
    const launchOptions = { executablePath: src.executablePath, args: [...fenceArgs(src.resolvable), ...(src.args ?? [])], headless: true };
    try {
      return await timebox(
        chromiumDriver().connect(src.wsEndpoint, { headers: { 'x-playwright-launch-options': JSON.stringify(launchOptions), ...(src.headers ?? {}) }, timeout: 30_000 }),
        40_000,
        'browser connect',
      );
    } catch (e) {
      throw new BrowserError(`could not connect to the Playwright server at ${src.wsEndpoint}: ${(e as Error).message.split('\n')[0]}. Fix: start it (npx playwright run-server --port N) or correct browser.wsEndpoint`);
    }
  }
  if (src.cdpEndpoint) {
    try {
      return await timebox(chromiumDriver().connectOverCDP(src.cdpEndpoint, { headers: src.headers, timeout: 30_000 }), 40_000, 'browser connect over CDP');
    } catch (e) {
      throw new BrowserError(`could not connect to Chromium's DevTools endpoint at ${src.cdpEndpoint}: ${(e as Error).message.split('\n')[0]}. Fix: start Chromium with --remote-debugging-port=N or correct browser.cdpEndpoint`);
    }
  }
  return launchBrowser(src.executablePath, src.args, src.resolvable);
}

/** One evaluation's use of a browser (see {@link BrowserPool}). */
export interface EvaluationBrowser {
  browser: Browser;
  /** PID of the browser process (the leader of its process group), or null when it could not be found. */
  pid: number | null;
  /**
   * End this evaluation's use of the browser; never throws. Every renderer process of the browser is killed
   * (SIGKILL: whatever the page was doing in it ends now), then the browser goes back to its pool, unless
   * `recycle` (the page flooded or crashed: its load may also sit in the browser process and on
   * Cookie's connection to it) or the browser is no longer healthy: then the browser is closed, bounded by
   * `graceMs` (default 5 000 ms), and its whole process group killed.
   */
  close(opts?: { recycle?: boolean; graceMs?: number }): Promise<void>;
}

interface ProcEntry {
  pid: number;
  ppid: number;
  pgid: number;
}
/** Every process (Linux /proc; [] elsewhere). */
function processes(): ProcEntry[] {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return [];
  }
  const out: ProcEntry[] = [];
  for (const e of entries) {
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.push({ pid: Number(e), ppid: Number(f[1]), pgid: Number(f[2]) });
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}
const cmdline = (pid: number): string => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
};

/** Is any process of this group still alive? */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
/** Is this process alive (not a zombie)? */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
/** Wait until `gone()` (SIGKILL is delivered at once, the exit takes a moment): at most `polls` looks 20 ms apart. */
async function settle(gone: () => boolean, polls = 150): Promise<void> {
  for (let i = 0; i < polls && !gone(); i++) await new Promise((r) => setTimeout(r, 20));
}

/** SIGKILL a process group; never throws. */
function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    /* ended meanwhile */
  }
}

/** A launched browser with its process group. */
interface Pooled {
  browser: Browser;
  pid: number | null;
}

/**
 * Browsers for evaluations (issue 19, isolation between evaluations): one browser per worker, used by one
 * evaluation at a time, whose renderer processes are all killed when an evaluation ends — so nothing a page
 * started (a busy loop, a 100,000-entry `history.pushState` flood, timers) outlives its evaluation — and
 * which is replaced by a fresh one (launched in the background at once) after a page that flooded or
 * crashed, or when it stops answering.
 * Why not a browser per evaluation: measured with bench/isolation.bench.ts on the 2-core machine under a
 * load average of 45 (3 rounds, median ms of a control evaluation's browser work, then the same right after a
 * 100,000-entry pushState-flood page): a shared browser with nothing killed 10 114 / 37 403 (the flood's
 * carry-over of issue 19); a browser per evaluation 31 043 / 32 764 (a launch each time); this pool 18 957 /
 * 26 970 (recycled after the flood). The pool is the cheaper of the two that isolate; the figures are noisy
 * on a shared machine, the order was the same in an earlier run (load 37: 7 657 shared, 17 702 per evaluation).
 * Renderers are found as the browser's process-group members with `--type=renderer` (Linux /proc);
 * Playwright starts the browser as a group leader, found by a marker switch (`--cookie-evaluation=<random>`,
 * ignored by Chromium) among this process's children.
 */
export class BrowserPool {
  private readonly idle: Pooled[] = [];
  private readonly all = new Set<Pooled>();
  /** Replacements launched in the background right after a browser was recycled. */
  private readonly warming: Promise<Pooled>[] = [];

  /** @param executablePath, extraArgs, resolvable as {@link launchBrowser} */
  constructor(
    private readonly executablePath: string,
    private readonly extraArgs: string[] = [],
    private readonly resolvable: string[] = [],
  ) {}

  /** A browser for one evaluation: an idle healthy one, else a fresh launch. @throws BrowserError as {@link launchBrowser} */
  async acquire(): Promise<EvaluationBrowser> {
    let p: Pooled | undefined;
    while ((p = this.idle.pop()) && !p.browser.isConnected()) void this.end(p, 1);
    if (!p && this.warming.length) p = await this.warming.shift()!.catch(() => undefined);
    if (!p) p = await this.launch();
    const lease = p;
    let done: Promise<void> | null = null;
    return {
      browser: lease.browser,
      pid: lease.pid,
      close: (opts = {}) =>
        (done ??= (async () => {
          await this.killRenderers(lease);
          if (opts.recycle || !lease.browser.isConnected()) {
            await this.end(lease, opts.graceMs ?? 5_000);
            if (!this.closing) this.warm();
          } else this.idle.push(lease);
        })()),
    };
  }

  /** Close every browser of the pool (bounded by `graceMs`, then SIGKILL to each group). */
  async closeAll(graceMs = 5_000): Promise<void> {
    this.closing = true;
    const warming = this.warming.splice(0).map((w) => w.then((p) => this.end(p, graceMs), () => {}));
    await Promise.all([...[...this.all].map((p) => this.end(p, graceMs)), ...warming]);
  }

  private closing = false;

  /** Launch a replacement in the background (the next evaluation then rarely waits for a launch). */
  private warm(): void {
    const w = this.launch();
    w.catch(() => {});
    this.warming.push(w);
  }

  private async launch(): Promise<Pooled> {
    const marker = `--cookie-evaluation=${crypto.randomBytes(8).toString('hex')}`;
    const browser = await launchBrowser(this.executablePath, [...this.extraArgs, marker], this.resolvable);
    const pid = processes().find((e) => e.ppid === process.pid && cmdline(e.pid).includes(marker))?.pid ?? null;
    const p = { browser, pid };
    this.all.add(p);
    return p;
  }

  private async killRenderers(p: Pooled): Promise<void> {
    if (p.pid === null) return;
    const killed: number[] = [];
    for (const e of processes()) if (e.pgid === p.pid && e.pid !== p.pid && cmdline(e.pid).includes('--type=renderer')) {
      try {
        process.kill(e.pid, 'SIGKILL');
        killed.push(e.pid);
      } catch {
        /* ended meanwhile */
      }
    }
    await settle(() => !killed.some(alive));
  }

  private async end(p: Pooled, graceMs: number): Promise<void> {
    this.all.delete(p);
    const i = this.idle.indexOf(p);
    if (i >= 0) this.idle.splice(i, 1);
    await timebox(p.browser.close(), graceMs, 'browser close').catch(() => {});
    if (p.pid !== null && groupAlive(p.pid)) {
      const pgid = p.pid;
      killGroup(pgid);
      // wait (at most 10 s) until the whole group is gone, so a replacement never runs beside it
      await settle(() => !processes().some((e) => e.pgid === pgid && alive(e.pid)), 500);
    }
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

/** Where {@link webglRendererCached} remembers its answers: `~/.cache/cookie/webgl-renderer.json`. */
export const WEBGL_CACHE_FILE = path.join(os.homedir(), '.cache', 'cookie', 'webgl-renderer.json');

/**
 * {@link webglRenderer}, remembered per host, browser build and launch flags in `cacheFile` (a JSON object,
 * written atomically): the probe costs a browser context and a WebGL start-up (about 0.5 s of every run's
 * start), and its answer changes only with the machine, the browser or its flags. A null answer (no WebGL)
 * is not remembered, so it is probed again next run. Never throws (an unreadable or unwritable file only
 * costs the probe).
 * @param flags what the browser was launched with (executable path and arguments): part of the key
 */
export async function webglRendererCached(browser: Browser, flags: readonly string[], cacheFile = WEBGL_CACHE_FILE): Promise<string | null> {
  const key = crypto.createHash('sha256').update(JSON.stringify([os.hostname(), browser.version(), ...flags])).digest('hex').slice(0, 24);
  let known: Record<string, string> = {};
  try {
    known = JSON.parse(fs.readFileSync(cacheFile, 'utf8')) as Record<string, string>;
    if (typeof known[key] === 'string') return known[key]!;
  } catch {
    known = {};
  }
  const found = await webglRenderer(browser);
  if (found !== null) {
    try {
      fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
      writeJsonAtomic(cacheFile, { ...(known && typeof known === 'object' ? known : {}), [key]: found });
    } catch {}
  }
  return found;
}
