import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { CookieError } from '../errors.js';
import { sleep } from '../util/timebox.js';
import { cookieNpmrc, reduceNpmrc, refusedDependencies, type DependencyRefusal } from './dependencies.js';
import { runCommand, startProcess, type CommandResult } from './processes.js';
import { startRegistryProxy, type RegistryProxy } from './registry-proxy.js';
import { giveToSandbox, makeSocketDir, npmCli, SANDBOX_FIX, sandboxAvailable, sandboxCommand, sandboxLabel } from './sandbox.js';
import { startStaticServer } from './static-server.js';
import { DEFAULT_HOST, localOriginOf, publicOriginFor } from '../util/public-url.js';

/** A project that did not install, build or start: the candidate's failure, not Cookie's. */
export class BuildFailure extends CookieError {
  constructor(
    readonly step: 'install' | 'build' | 'serve',
    readonly logTail: string,
    readonly cause: BuildDiagnosis,
  ) {
    super('ERR_COOKIE_BUILD', `${step} failed: ${cause.summary}`);
    this.name = 'BuildFailure';
  }
}

/** What a failing log says, in the paper's failure classes (§5, Appendix B.1). */
export interface BuildDiagnosis {
  kind: 'missing-icon' | 'missing-export' | 'missing-module' | 'syntax-error' | 'type-error' | 'timeout' | 'no-package' | 'no-build' | 'install-error' | 'refused-dependency' | 'unknown';
  summary: string;
}

/**
 * Read the cause of a failed install/build from its log tail. Recognises the paper's commonest genuine
 * causes: imports of lucide-react icons that do not exist, and syntax errors (e.g. unescaped backslashes in
 * string literals: tsc's "TS1125 Hexadecimal digit expected", esbuild's `Syntax error "s"`), besides missing
 * modules and type errors. Pure function of the log text; never throws.
 */
export function diagnoseBuildLog(log: string, timedOut = false): BuildDiagnosis {
  if (timedOut) return { kind: 'timeout', summary: 'did not finish within the time limit' };
  const icon =
    log.match(/"(\w+)" is not exported by "[^"]*lucide-react[^"]*"/) ??
    log.match(/Module '"lucide-react"' has no exported member '(\w+)'/) ??
    log.match(/No matching export in "[^"]*lucide-react[^"]*" for import "(\w+)"/);
  if (icon) return { kind: 'missing-icon', summary: `imports a lucide-react icon that does not exist: ${icon[1]}` };
  const exp = log.match(/"(\w+)" is not exported by "([^"]+)"/) ?? log.match(/Module '"([^"]+)"' has no exported member '(\w+)'/);
  if (exp) return { kind: 'missing-export', summary: `imports something a module does not export: ${exp[0].slice(0, 160)}` };
  const mod = log.match(/Cannot find module '([^']+)'|Failed to resolve import "([^"]+)"|Could not resolve "([^"]+)"/);
  if (mod) return { kind: 'missing-module', summary: `imports a module that is not installed: ${mod[1] ?? mod[2] ?? mod[3]}` };
  const syn = log.match(/(Unterminated string literal|Invalid escape sequence|Unexpected token[^\n]*|Expected "[^"]+" but found[^\n]*|Invalid Unicode escape sequence|Unterminated regular expression|SyntaxError[^\n]*|Syntax error[^\n]*|error TS1\d{3}:[^\n]*)/);
  if (syn) {
    // where: esbuild's "path:line:col: ERROR:" or tsc's "path(line,col): error", shown from the project's src/ on
    const at = log.match(/(\S+):(\d+):(\d+): ERROR:/) ?? log.match(/(\S+)\((\d+),(\d+)\): error TS1/);
    const where = at ? ` at ${at[1]!.replace(/^.*?\/(?=(src|app|pages|components)\/)/, '')}:${at[2]}:${at[3]}` : '';
    return { kind: 'syntax-error', summary: `syntax error${where}: ${syn[1]!.slice(0, 160)}` };
  }
  const ts = log.match(/error TS\d+:[^\n]*/);
  if (ts) return { kind: 'type-error', summary: `type error: ${ts[0].slice(0, 160)}` };
  if (/npm (ERR!|error)/.test(log)) return { kind: 'install-error', summary: (log.match(/npm (?:ERR!|error) [^\n]*/g) ?? []).slice(-2).join(' ').slice(0, 200) };
  return { kind: 'unknown', summary: log.split('\n').filter(Boolean).slice(-1)[0]?.slice(0, 200) ?? 'no output' };
}

/** Options of {@link deployProject}. Times in ms. */
export interface ProjectOptions {
  /** npm cache shared by all candidates (writable inside the sandbox during install only). */
  npmCache: string;
  installTimeoutMs: number;
  buildTimeoutMs: number;
  serveTimeoutMs: number;
  /** Registry URL npm installs from; default: the host's `npm config get registry` (read once, outside any project). */
  registry?: string;
  /** Interface the project's server binds (the build output server, or the bridge to the dev server); default 127.0.0.1 (config `deploy.host`). */
  host?: string;
  /**
   * How the browser reaches a port of this machine (config `deploy.publicUrl`, `{port}` = the port): the Vite dev
   * server is told to accept that host name (`__VITE_ADDITIONAL_SERVER_ALLOWED_HOSTS`; Vite refuses requests for
   * unknown host names since 5.4.12/6.0.9).
   */
  publicUrl?: string;
}

/** A deployed project: URL, what was done, the logs' tails, and teardown. */
export interface ProjectDeployment {
  url: string;
  port: number;
  root: string;
  steps: { step: string; command: string; ms: number; code: number | null; sandbox?: string; refused?: string[] }[];
  close(): Promise<void>;
}

/**
 * The {@link ProjectOptions} a Cookie config sets: its npm cache (made absolute against the working
 * directory) and its install, build and serve time limits (ms); the registry is left to the default.
 */
export function projectOptionsOf(c: { npmCache: string; timeouts: { install: number; build: number; serve: number } }): ProjectOptions {
  return { npmCache: path.resolve(c.npmCache), installTimeoutMs: c.timeouts.install, buildTimeoutMs: c.timeouts.build, serveTimeoutMs: c.timeouts.serve };
}

const SKIP = new Set(['node_modules', 'dist', 'build', '.git', '.vite', '.next', 'coverage']);
/** Port npm's proxy setting names inside the sandbox (forwarded to Cookie's registry proxy) and the dev server's port there. */
const PROXY_PORT = 3128;
const DEV_PORT = 5173;

let hostRegistry: string | null = null;
/**
 * The registry configured on the host for Cookie's own user: `npm_config_registry`, else `npm config get
 * registry` run in a neutral folder (no project's .npmrc), else https://registry.npmjs.org/.
 */
export function configuredRegistry(): string {
  if (hostRegistry) return hostRegistry;
  const fromEnv = process.env.npm_config_registry || process.env.NPM_CONFIG_REGISTRY;
  let r = fromEnv ?? '';
  if (!r) {
    try {
      r = execFileSync('npm', ['config', 'get', 'registry'], { cwd: os.tmpdir(), encoding: 'utf8', timeout: 15_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      r = '';
    }
  }
  try {
    hostRegistry = new URL(r).href;
  } catch {
    hostRegistry = 'https://registry.npmjs.org/';
  }
  return hostRegistry;
}

/**
 * The complete environment of a candidate's processes inside the sandbox (nothing else of the host's):
 * locale and time zone, a PATH of system folders, its own HOME, and npm's configuration — Cookie's own user
 * and global config files, never the host's (~/.npmrc may hold registry tokens) nor the candidate's.
 */
function projectEnv(work: string, npmCache: string, install: boolean, extra: Record<string, string> = {}): Record<string, string> {
  const keep = ['LANG', 'LC_ALL', 'LC_CTYPE', 'TZ'].flatMap((k) => (process.env[k] ? [[k, process.env[k]!]] : []));
  const nodeBin = path.dirname(fs.realpathSync(process.execPath));
  return {
    ...Object.fromEntries(keep),
    PATH: [...new Set([nodeBin, '/usr/local/bin', '/usr/bin', '/bin'])].join(':'),
    HOME: path.join(work, 'home'),
    TMPDIR: '/tmp',
    CI: 'true',
    BROWSER: 'none',
    npm_config_userconfig: path.join(work, 'npm', 'npmrc'),
    npm_config_globalconfig: path.join(work, 'npm', 'global-npmrc'),
    npm_config_cache: install ? npmCache : path.join(work, 'home', '.npm'),
    npm_config_update_notifier: 'false',
    // the build and the dev server run offline: npm must not try the network for anything
    ...(install ? {} : { npm_config_offline: 'true' }),
    // TLS to the registry goes end to end through the proxy: a host CA bundle (an intercepting proxy's) is needed
    ...(install && process.env.NODE_EXTRA_CA_CERTS && fs.existsSync(process.env.NODE_EXTRA_CA_CERTS) ? { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS } : {}),
    ...extra,
  };
}

/** One refused dependency as a log line: `refused <name> (<field>): <spec> is <reason>`. */
const refusalLine = (r: DependencyRefusal): string => `refused ${r.name} (${r.field}): ${r.spec} is ${r.reason}`;

/** The folders of one sandboxed project run: `work/` holds `app/` (the project copy), `home/`, `npm/` and `sock/`. */
interface SandboxWork {
  work: string;
  dir: string;
  sockets: string;
  registry: string;
  npm: string;
  npmCache: string;
}

/**
 * Run npm on the project copy inside the sandbox: with `network` through Cookie's registry proxy to the
 * registry only (the npm cache writable), else with no network at all. Returns the command's result and the
 * requests the proxy refused.
 */
async function npmInSandbox(w: SandboxWork, args: string[], timeoutMs: number, network: boolean): Promise<{ r: CommandResult; refused: string[] }> {
  let proxy: RegistryProxy | null = null;
  if (network) {
    giveToSandbox(w.npmCache);
    proxy = await startRegistryProxy(path.join(w.sockets, 'registry.sock'), w.registry);
  }
  const env = projectEnv(w.work, w.npmCache, network);
  const ca = env.NODE_EXTRA_CA_CERTS;
  const sb = sandboxCommand(process.execPath, [w.npm, ...args], {
    writable: [w.dir, path.join(w.work, 'home'), ...(network ? [w.npmCache] : [])],
    readonly: [path.join(w.work, 'npm'), ...(ca ? [ca] : [])],
    ...(network ? { sockets: w.sockets, forward: { port: PROXY_PORT, socket: path.join(w.sockets, 'registry.sock') } } : {}),
    cwd: w.dir,
    env,
  });
  try {
    const r = await runCommand(sb.cmd, sb.args, { cwd: w.dir, env: {}, timeoutMs, tailLines: 60 });
    return { r, refused: [...(proxy?.refused ?? [])] };
  } finally {
    await proxy?.close();
  }
}

/** Make a project run's folders (see {@link SandboxWork}); Cookie owns work/ and npm/, the sandbox user app/ and home/ once given. */
function makeWork(registry: string): { work: string; dir: string; home: string; sockets: string } {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cookie-project-'));
  fs.chmodSync(work, 0o755);
  const home = path.join(work, 'home');
  const dir = path.join(work, 'app');
  const sockets = makeSocketDir(path.join(work, 'sock'));
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(path.join(work, 'npm'));
  fs.writeFileSync(path.join(work, 'npm', 'npmrc'), cookieNpmrc({ registry, proxy: `http://127.0.0.1:${PROXY_PORT}/` }));
  fs.writeFileSync(path.join(work, 'npm', 'global-npmrc'), '');
  return { work, dir, home, sockets };
}

/**
 * Add registry packages to a project's package.json and lockfile without installing anything (the React
 * generation tool `npm_install`, issue 16 point 3): `npm install --package-lock-only --ignore-scripts` inside
 * the same sandbox as a candidate's install ({@link deployProject}: uid 65534, empty environment, Cookie's npm
 * config, network only to the registry through the registry proxy), on a copy holding only package.json and
 * the lockfile. Dependencies that are not from the registry (in package.json or resolved in the lockfile) are
 * refused before npm runs.
 * @param packages registry specs (`name` or `name@range`), already checked by the caller
 * @returns the new package.json and lockfile text, or `ok: false` with the log (npm's failure, refusals)
 * @throws CookieError `ERR_COOKIE_SANDBOX` when bubblewrap or npm is not usable here (not the model's fault)
 */
export async function addPackagesInSandbox(files: { packageJson: string; lockfile: string | null }, packages: string[], dev: boolean, o: ProjectOptions): Promise<{ ok: true; packageJson: string; lockfile: string } | { ok: false; log: string }> {
  if (!sandboxAvailable()) throw new CookieError('ERR_COOKIE_SANDBOX', `cannot run npm install for the model: ${SANDBOX_FIX}`);
  const npm = npmCli();
  if (!npm) throw new CookieError('ERR_COOKIE_SANDBOX', `cannot run npm install for the model: npm was not found next to ${process.execPath} or on PATH. Fix: install npm`);
  const registry = o.registry ?? configuredRegistry();
  const { work, dir, home, sockets } = makeWork(registry);
  try {
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'package.json'), files.packageJson);
    if (files.lockfile !== null) fs.writeFileSync(path.join(dir, 'package-lock.json'), files.lockfile);
    const refusals = refusedDependencies(dir, registry);
    if (refusals.length) return { ok: false, log: refusals.map((r) => refusalLine(r)).join('\n') };
    fs.mkdirSync(o.npmCache, { recursive: true });
    giveToSandbox(dir);
    giveToSandbox(home);
    const args = ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', ...(dev ? ['--save-dev'] : []), '--', ...packages];
    const { r, refused } = await npmInSandbox({ work, dir, sockets, registry, npm, npmCache: o.npmCache }, args, o.installTimeoutMs, true);
    if (r.code !== 0) return { ok: false, log: [`npm install failed${r.timedOut ? ' (time-out)' : ''}`, ...refused.map((x) => `Cookie's registry proxy refused: ${x}`), r.tail].join('\n') };
    return { ok: true, packageJson: fs.readFileSync(path.join(dir, 'package.json'), 'utf8'), lockfile: fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8') };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Deploy a Vite/React project candidate (paper §5, Appendix B.1; METHOD.md §9 "Deploy"; issue 19 point 1):
 * copy it to its own temporary folder (without node_modules or build output; its `.npmrc` reduced to
 * harmless keys, see {@link reduceNpmrc}), refuse any dependency that does not come from the registry
 * ({@link refusedDependencies}: git, tarball URLs, http, paths outside the project → BuildFailure with cause
 * `refused-dependency` naming it), install with npm (`npm ci` when a lockfile is present, else `npm
 * install`) with lifecycle scripts off, Cookie's own npm config and the shared npm cache, build with its
 * `build` script, and serve the build output (dist/) on 127.0.0.1 (or `o.host`, config `deploy.host`) on an OS-assigned port — or, without a
 * build script, start the Vite dev server, reached through a socket bridge on a port Cookie picks (its
 * printed URL is never trusted) — then wait until it answers over HTTP.
 *
 * Every step runs in a bubblewrap sandbox ({@link sandboxCommand}: uid 65534, no host file system beyond
 * system folders, private /tmp, no host sockets, empty environment, own PID/network namespaces). Network:
 * install reaches only the registry, through Cookie's registry proxy ({@link startRegistryProxy}; refusals
 * are recorded in the install step's `refused`); the build has none; the dev server only its own loopback.
 * Every process runs in its own process group and is killed at teardown (and when Cookie exits). Each step
 * is time-boxed.
 * @throws BuildFailure (the candidate's failure: status build-failed) with the failing step and log tail
 * @throws CookieError `ERR_COOKIE_SANDBOX` when bubblewrap is not usable here (not the candidate's fault)
 */
export async function deployProject(src: string, o: ProjectOptions): Promise<ProjectDeployment> {
  if (!fs.existsSync(path.join(src, 'package.json'))) throw new BuildFailure('install', '', { kind: 'no-package', summary: `no package.json in ${src}` });
  if (!sandboxAvailable()) throw new CookieError('ERR_COOKIE_SANDBOX', `cannot deploy ${src}: ${SANDBOX_FIX}`);
  const registry = o.registry ?? configuredRegistry();
  // work/ (Cookie's, 0755) holds app/ and home/ (the sandbox user's), npm/ (Cookie's config) and sock/
  // (Cookie's shared sockets): the candidate can write its copy and HOME only
  const { work, dir, home, sockets } = makeWork(registry);
  const cleanup = () => fs.rmSync(work, { recursive: true, force: true });
  // at teardown the copy (with its node_modules, tens of thousands of files) is removed off the event loop:
  // removed synchronously, it stalled every other evaluation of the run for 0.3–1.5 s (their timing evidence too)
  const removeWork = () => fs.promises.rm(work, { recursive: true, force: true });
  const notes: string[] = [];
  try {
    fs.cpSync(src, dir, { recursive: true, filter: (p) => !SKIP.has(path.basename(p)) });
    // the candidate's .npmrc could name a registry, a git binary, a proxy, a cache, a script shell…
    const rc = path.join(dir, '.npmrc');
    if (fs.existsSync(rc)) {
      const { kept, dropped } = reduceNpmrc(fs.readFileSync(rc, 'utf8'));
      fs.rmSync(rc, { force: true });
      if (kept) fs.writeFileSync(rc, kept);
      if (dropped.length) notes.push(`Cookie ignored these keys of the project's .npmrc: ${dropped.join(', ')}`);
    }
  } catch (e) {
    cleanup();
    throw new BuildFailure('install', (e as Error).message, { kind: 'no-package', summary: `could not copy the project: ${(e as Error).message}` });
  }
  const refusals = refusedDependencies(dir, registry);
  if (refusals.length) {
    cleanup();
    const first = refusals[0]!;
    const lines = refusals.map((r) => refusalLine(r));
    throw new BuildFailure('install', [...notes, ...lines, `only packages from ${registry} (or folders inside the project) are installed`].join('\n'), {
      kind: 'refused-dependency',
      summary: `refused dependency ${first.name} in ${first.field}: ${first.spec.slice(0, 120)} is ${first.reason}${refusals.length > 1 ? ` (and ${refusals.length - 1} more)` : ''}; only registry packages are installed`,
    });
  }
  fs.mkdirSync(o.npmCache, { recursive: true });
  giveToSandbox(dir);
  giveToSandbox(home);
  const steps: ProjectDeployment['steps'] = [];
  const npm = npmCli();
  if (!npm) {
    cleanup();
    throw new CookieError('ERR_COOKIE_SANDBOX', `cannot deploy ${src}: npm was not found next to ${process.execPath} or on PATH. Fix: install npm`);
  }
  const step = async (name: 'install' | 'build', args: string[], timeoutMs: number): Promise<CommandResult> => {
    const install = name === 'install';
    const { r, refused } = await npmInSandbox({ work, dir, sockets, registry, npm, npmCache: o.npmCache }, args, timeoutMs, install);
    steps.push({ step: name, command: `npm ${args.join(' ')}`, ms: r.ms, code: r.code, sandbox: sandboxLabel(install ? 'registry proxy' : 'none'), ...(refused.length ? { refused: [...refused] } : {}) });
    if (r.code !== 0) {
      cleanup();
      const log = [...(install ? notes : []), ...refused.map((x) => `Cookie's registry proxy refused: ${x}`), r.tail].filter(Boolean).join('\n');
      const diagnosis = diagnoseBuildLog(r.tail, r.timedOut);
      if (refused.length && !r.timedOut) diagnosis.summary = `${diagnosis.summary} (the registry proxy refused ${refused.length} request${refused.length > 1 ? 's' : ''}: ${refused[0]})`.slice(0, 400);
      throw new BuildFailure(name, log, diagnosis);
    }
    return r;
  };
  try {
    const hasLock = fs.existsSync(path.join(dir, 'package-lock.json')) || fs.existsSync(path.join(dir, 'npm-shrinkwrap.json'));
    await step('install', [hasLock ? 'ci' : 'install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], o.installTimeoutMs);
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    if (pkg.scripts?.build) {
      await step('build', ['run', 'build'], o.buildTimeoutMs);
      const out = ['dist', 'build', 'out'].map((d) => path.join(dir, d)).find((d) => fs.existsSync(path.join(d, 'index.html')));
      if (!out) {
        cleanup();
        throw new BuildFailure('build', '', { kind: 'unknown', summary: 'the build produced no index.html in dist/, build/ or out/' });
      }
      const server = await startStaticServer(out, { spa: true, host: o.host ?? DEFAULT_HOST });
      await waitForHttp(server.origin + '/', o.serveTimeoutMs);
      return { url: `${server.origin}/`, port: server.port, root: out, steps, close: async () => (await server.close(), await removeWork()) };
    }
    // no build script: the dev server. Cookie picks its port and never trusts the URL it prints (a hostile
    // "vite" could name a host service). It listens inside the sandbox's empty network namespace; the host
    // reaches it through a Unix socket (made by sandbox-init in Cookie's socket folder) and a TCP bridge on a
    // port the OS assigns.
    const t0 = Date.now();
    const vitePath = path.join(dir, 'node_modules', '.bin', 'vite');
    if (!fs.existsSync(vitePath)) {
      cleanup();
      throw new BuildFailure('serve', '', { kind: 'no-build', summary: 'no build script and no vite installed to serve it. Fix: add a "build" script (vite build) or vite to devDependencies' });
    }
    const socket = path.join(sockets, 'dev.sock');
    // the bridge's port first (it refuses connections until the dev server's socket exists): the name the
    // browser uses for it may contain the port
    const bridge = await socketBridge(socket, o.host ?? DEFAULT_HOST);
    const publicHost = o.publicUrl ? new URL(publicOriginFor(o.publicUrl, bridge.port)).hostname : null;
    let vite: ReturnType<typeof startProcess>;
    try {
      const sb = sandboxCommand(vitePath, ['--host', '127.0.0.1', '--port', String(DEV_PORT), '--strictPort', '--clearScreen', 'false'], {
        writable: [dir, home],
        readonly: [path.join(work, 'npm')],
        sockets,
        bridge: { socket, port: DEV_PORT },
        cwd: dir,
        env: projectEnv(work, o.npmCache, false, publicHost ? { __VITE_ADDITIONAL_SERVER_ALLOWED_HOSTS: publicHost } : {}),
      });
      vite = startProcess(sb.cmd, sb.args, { cwd: dir, env: {} });
    } catch (e) {
      await bridge.close();
      throw e;
    }
    const url = `${localOriginOf(o.host ?? DEFAULT_HOST, bridge.port)}/`;
    try {
      await waitForHttp(url, o.serveTimeoutMs, () => vite.exited());
    } catch (e) {
      vite.kill();
      await bridge.close();
      const tail = vite.output().split('\n').slice(-40).join('\n');
      cleanup();
      steps.push({ step: 'serve', command: 'vite (dev server)', ms: Date.now() - t0, code: 1, sandbox: sandboxLabel('loopback bridge') });
      throw new BuildFailure('serve', tail, vite.exited() ? diagnoseBuildLog(tail) : (e as BuildFailure).cause);
    }
    steps.push({ step: 'serve', command: 'vite (dev server)', ms: Date.now() - t0, code: null, sandbox: sandboxLabel('loopback bridge') });
    return { url, port: bridge.port, root: dir, steps, close: async () => (vite.kill(), await bridge.close(), await removeWork()) };
  } catch (e) {
    cleanup();
    throw e;
  }
}

/**
 * Wait until a GET of `url` answers (any status < 500), polling every 150 ms.
 * @param gaveUp optional: stop early when it returns true (the server process has exited)
 * @throws BuildFailure('serve') on time-out
 */
export async function waitForHttp(url: string, timeoutMs: number, gaveUp: () => boolean = () => false): Promise<void> {
  const t0 = Date.now();
  let last = '';
  while (Date.now() - t0 < timeoutMs && !gaveUp()) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
      if (res.status < 500) return;
      last = `HTTP ${res.status}`;
    } catch (e) {
      last = (e as Error).message;
    }
    await sleep(150);
  }
  throw new BuildFailure('serve', last, { kind: 'timeout', summary: `${url} did not answer within ${timeoutMs} ms (${last})` });
}

/**
 * A TCP server on `host` (127.0.0.1 unless config `deploy.host` says otherwise; OS-assigned port) that forwards
 * every connection to a Unix socket. The socket
 * is checked to be a socket, not a link, before every connection (it lives in Cookie's socket folder, which
 * the candidate cannot write when Cookie is root; run as an ordinary user the check is what is left).
 */
async function socketBridge(socket: string, host: string): Promise<{ port: number; close(): Promise<void> }> {
  const conns = new Set<net.Socket>();
  const server = net.createServer((c) => {
    let isSocket = false;
    try {
      isSocket = fs.lstatSync(socket).isSocket();
    } catch {
      /* not yet there */
    }
    if (!isSocket) return void c.destroy();
    const u = net.connect(socket);
    conns.add(c).add(u);
    c.pipe(u).pipe(c);
    const end = () => (c.destroy(), u.destroy(), conns.delete(c), conns.delete(u));
    c.on('error', end).on('close', end);
    u.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve, reject) => (server.once('error', reject), server.listen(0, host, resolve)));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => new Promise<void>((resolve) => (conns.forEach((c) => c.destroy()), server.close(() => resolve()))),
  };
}
