import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { CookieError } from '../errors.js';
import { safeEnv } from '../util/safe-env.js';
import { sleep } from '../util/timebox.js';
import getPort from 'get-port';
import { runCommand, SANDBOX_UID, sandboxAvailable, sandboxed, startProcess, type CommandResult } from './processes.js';
import { startStaticServer } from './static-server.js';

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
  kind: 'missing-icon' | 'missing-export' | 'missing-module' | 'syntax-error' | 'type-error' | 'timeout' | 'no-package' | 'no-build' | 'install-error' | 'unknown';
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
  /** npm cache shared by all candidates. */
  npmCache: string;
  installTimeoutMs: number;
  buildTimeoutMs: number;
  serveTimeoutMs: number;
}

/** A deployed project: URL, what was done, the logs' tails, and teardown. */
export interface ProjectDeployment {
  url: string;
  port: number;
  root: string;
  steps: { step: string; command: string; ms: number; code: number | null; sandbox?: string }[];
  close(): Promise<void>;
}

const SKIP = new Set(['node_modules', 'dist', 'build', '.git', '.vite', '.next', 'coverage']);

/** The environment of a candidate's processes: the host's allowlist (no keys or tokens), an isolated HOME, the shared npm cache. */
function projectEnv(home: string, npmCache: string): Record<string, string> {
  const registry = process.env.npm_config_registry || process.env.NPM_CONFIG_REGISTRY;
  return safeEnv({
    HOME: home,
    npm_config_cache: npmCache,
    npm_config_userconfig: path.join(home, '.npmrc'),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    ...(registry ? { npm_config_registry: registry } : {}),
    CI: 'true',
    BROWSER: 'none',
  });
}

/**
 * Deploy a Vite/React project candidate (paper §5, Appendix B.1; METHOD.md §9 "Deploy"): copy it to its
 * own temporary folder (without node_modules or build output), install with npm (`npm ci` when a lockfile
 * is present, else `npm install`) with lifecycle scripts disabled and the shared npm cache, build with its
 * `build` script, and serve the build output (dist/) on 127.0.0.1 on an OS-assigned port — or, without a
 * build script, start the Vite dev server on a port Cookie picks (its printed URL is never trusted) — then
 * wait until it answers over HTTP. Every process runs in its own process group with the host's secrets
 * removed and is killed at teardown (and when Cookie exits); with root, the candidate's code (build, dev
 * server) runs as `nobody` in PID and network namespaces ({@link sandboxed}). Each step is time-boxed.
 * @throws BuildFailure (the candidate's failure: status build-failed) with the failing step and log tail
 */
export async function deployProject(src: string, o: ProjectOptions): Promise<ProjectDeployment> {
  if (!fs.existsSync(path.join(src, 'package.json'))) throw new BuildFailure('install', '', { kind: 'no-package', summary: `no package.json in ${src}` });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cookie-project-'));
  const home = path.join(work, 'home');
  const dir = path.join(work, 'app');
  fs.mkdirSync(home, { recursive: true });
  fs.writeFileSync(path.join(home, '.npmrc'), '');
  fs.cpSync(src, dir, { recursive: true, filter: (p) => !SKIP.has(path.basename(p)) });
  fs.mkdirSync(o.npmCache, { recursive: true });
  const env = projectEnv(home, o.npmCache);
  const steps: ProjectDeployment['steps'] = [];
  const cleanup = () => fs.rmSync(work, { recursive: true, force: true });
  const step = async (name: 'install' | 'build', args: string[], timeoutMs: number): Promise<CommandResult> => {
    // install needs the registry (no candidate code runs: scripts are off); the build runs candidate code
    // and gets no network at all
    const sb = name === 'install' ? sandboxed('npm', args, { network: true }) : sandboxed('npm', args, { unprivileged: true });
    const r = await runCommand(sb.cmd, sb.args, { cwd: dir, env, timeoutMs, tailLines: 60 });
    steps.push({ step: name, command: `npm ${args.join(' ')}`, ms: r.ms, code: r.code, sandbox: sb.sandbox });
    if (r.code !== 0) {
      cleanup();
      throw new BuildFailure(name, r.tail, diagnoseBuildLog(r.tail, r.timedOut));
    }
    return r;
  };
  try {
    const hasLock = fs.existsSync(path.join(dir, 'package-lock.json'));
    await step('install', [hasLock ? 'ci' : 'install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], o.installTimeoutMs);
    // from here on the candidate's own code runs: as `nobody`, who owns its copy and nothing else
    if (sandboxAvailable()) execFileSync('chown', ['-R', `${SANDBOX_UID}:${SANDBOX_UID}`, work]);
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    if (pkg.scripts?.build) {
      await step('build', ['run', 'build'], o.buildTimeoutMs);
      const out = ['dist', 'build', 'out'].map((d) => path.join(dir, d)).find((d) => fs.existsSync(path.join(d, 'index.html')));
      if (!out) {
        cleanup();
        throw new BuildFailure('build', '', { kind: 'unknown', summary: 'the build produced no index.html in dist/, build/ or out/' });
      }
      const server = await startStaticServer(out, { spa: true });
      await waitForHttp(server.origin + '/', o.serveTimeoutMs);
      return { url: `${server.origin}/`, port: server.port, root: out, steps, close: async () => (await server.close(), cleanup()) };
    }
    // no build script: the dev server. Cookie picks its port and never trusts the URL it prints (a hostile
    // "vite" could name a host service). Sandboxed, it listens inside an empty network namespace and the
    // host reaches it through a Unix socket bridge on a port the OS assigns.
    const t0 = Date.now();
    const vitePath = path.join(dir, 'node_modules', '.bin', 'vite');
    if (!fs.existsSync(vitePath)) {
      cleanup();
      throw new BuildFailure('serve', '', { kind: 'no-build', summary: 'no build script and no vite installed to serve it. Fix: add a "build" script (vite build) or vite to devDependencies' });
    }
    const inner = sandboxAvailable() ? 5173 : await getPort({ host: '127.0.0.1' });
    const socket = path.join(work, 'dev.sock');
    const sb = sandboxed(vitePath, ['--host', '127.0.0.1', '--port', String(inner), '--strictPort', '--clearScreen', 'false'], { unprivileged: true, bridge: { socket, port: inner } });
    const vite = startProcess(sb.cmd, sb.args, { cwd: dir, env });
    const bridge = sb.sandbox === 'none' ? null : await socketBridge(socket);
    const url = `http://127.0.0.1:${bridge ? bridge.port : inner}/`;
    try {
      await waitForHttp(url, o.serveTimeoutMs, () => vite.exited());
    } catch (e) {
      vite.kill();
      await bridge?.close();
      const tail = vite.output().split('\n').slice(-40).join('\n');
      cleanup();
      steps.push({ step: 'serve', command: 'vite (dev server)', ms: Date.now() - t0, code: 1, sandbox: sb.sandbox });
      throw new BuildFailure('serve', tail, vite.exited() ? diagnoseBuildLog(tail) : (e as BuildFailure).cause);
    }
    steps.push({ step: 'serve', command: 'vite (dev server)', ms: Date.now() - t0, code: null, sandbox: sb.sandbox });
    return { url, port: Number(new URL(url).port), root: dir, steps, close: async () => (vite.kill(), await bridge?.close(), cleanup()) };
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

/** A TCP server on 127.0.0.1 (OS-assigned port) that forwards every connection to a Unix socket. */
async function socketBridge(socket: string): Promise<{ port: number; close(): Promise<void> }> {
  const conns = new Set<net.Socket>();
  const server = net.createServer((c) => {
    const u = net.connect(socket);
    conns.add(c).add(u);
    c.pipe(u).pipe(c);
    const end = () => (c.destroy(), u.destroy(), conns.delete(c), conns.delete(u));
    c.on('error', end).on('close', end);
    u.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => new Promise<void>((resolve) => (conns.forEach((c) => c.destroy()), server.close(() => resolve()))),
  };
}
