import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The sandbox every process Cookie runs for a project candidate lives in (npm install, the build, the dev
 * server): bubblewrap (`bwrap`, Debian package `bubblewrap`, the tool Flatpak uses), issue 19 point 1.
 *
 * What the candidate's processes get:
 * - user and group 65534 (`nobody`/`nogroup`), no supplementary groups, no capabilities, `no_new_privs`.
 *   With Cookie running as root, bwrap itself runs as root WITHOUT a user namespace (a user namespace made by
 *   root would map the sandbox's uid back to host uid 0, the owner of every root-only file) and the command is
 *   started through util-linux `setpriv`, which drops to host uid 65534 for real. Run by an ordinary user,
 *   bwrap makes a user namespace instead and uid 65534 inside is that user outside: then only the mount
 *   allowlist below keeps the user's own files away.
 * - new PID, IPC, UTS, cgroup and network namespaces (`--unshare-*`): no host process is visible (so no
 *   /proc/<pid>/environ), and the only network is the namespace's own loopback. A new session (no TIOCSTI on
 *   Cookie's terminal); killed with SIGKILL when Cookie dies (`--die-with-parent`); when its first process
 *   exits the kernel kills everything left in the PID namespace.
 * - a file system built from an allowlist: /usr (and the /bin, /lib… links), a few files of /etc (passwd,
 *   group, hosts, nsswitch.conf, ld.so.cache, localtime, ssl and ca-certificates, alternatives), Node and
 *   npm read-only; a new /proc and a minimal /dev; private tmpfs on /tmp and /dev/shm. Writable: the
 *   candidate's work folder (its copy, its HOME) and, for npm install only, the npm cache. Not there: /home,
 *   /root, /run, /var (so no host Unix socket such as /run/docker.sock or a world-writable one under the host's
 *   /tmp), the rest of /etc, Cookie's own folders.
 * - an empty environment (`--clearenv`) plus what the caller passes explicitly (an allowlist).
 *
 * Sockets Cookie shares with a sandbox live in a folder (`sockets`) owned by root and not writable by the
 * candidate, so a candidate cannot swap one for a link to a host socket (only when Cookie runs as root).
 */
export interface SandboxSpec {
  /** Folders mounted read-write at the same path (the work folder; the npm cache during install). */
  writable: string[];
  /** Extra files or folders mounted read-only at the same path (e.g. NODE_EXTRA_CA_CERTS). */
  readonly?: string[];
  /** The folder holding the Unix sockets Cookie shares with the sandbox; mounted at the same path. */
  sockets?: string;
  /** Working directory inside the sandbox. */
  cwd: string;
  /** The complete environment of the command (nothing of Cookie's own is added). */
  env: Record<string, string>;
  /**
   * Run the command through sandbox-init.cjs (Cookie's PID 2 of the sandbox) for socket bridges:
   * `bridge`: the Unix socket `socket` (host side) is forwarded to 127.0.0.1:`port` inside (a dev server);
   * `forward`: 127.0.0.1:`port` inside is forwarded to the Unix socket `socket` (the registry proxy).
   */
  bridge?: { socket: string; port: number };
  forward?: { port: number; socket: string };
}

/** The user and group id candidates' code runs as inside the sandbox (`nobody`/`nogroup`). */
export const SANDBOX_UID = 65534;

const INIT = fileURLToPath(new URL('./sandbox-init.cjs', import.meta.url));
/** Where sandbox-init.cjs is mounted inside the sandbox (read-only). */
const INIT_INSIDE = '/cookie/sandbox-init.cjs';
const isRoot = () => process.getuid?.() === 0;

let usable: boolean | null = null;
/** Is bubblewrap installed and able to make its namespaces here (checked once, ~20 ms)? */
export function sandboxAvailable(): boolean {
  if (usable === null) {
    const probe = bwrapArgs({ writable: [], cwd: '/', env: { PATH: '/usr/bin:/bin' } }, '/bin/true', []);
    const r = spawnSync(bwrap(), probe, { timeout: 10_000, encoding: 'utf8' });
    usable = r.status === 0;
    if (!usable && process.env.COOKIE_DEBUG_SANDBOX) process.stderr.write(`bwrap probe: ${r.status} ${r.stderr} ${r.error ?? ''}\n`);
  }
  return usable;
}

let bwrapPath: string | undefined;
/** Absolute path of bwrap (the sandbox's spawn gets an empty environment, so no PATH lookup there). */
function bwrap(): string {
  bwrapPath ??= [...(process.env.PATH ?? '').split(':'), '/usr/bin', '/bin'].filter(Boolean).map((d) => path.join(d, 'bwrap')).find((p) => fs.existsSync(p)) ?? 'bwrap';
  return bwrapPath;
}

/** The fix to print when {@link sandboxAvailable} is false. */
export const SANDBOX_FIX = 'project candidates run only inside bubblewrap: install it (Debian/Ubuntu: apt-get install bubblewrap) and allow it to create namespaces (kernel.unprivileged_userns_clone=1 when Cookie does not run as root)';

/** How the sandbox of {@link sandboxCommand} is described in the evidence (`steps[].sandbox`). */
export function sandboxLabel(network: 'none' | 'registry proxy' | 'loopback bridge'): string {
  return `bwrap(uid ${SANDBOX_UID}${isRoot() ? '' : ' in a user namespace'}, network: ${network})`;
}

/** /bin, /lib… are links into /usr on merged-/usr systems (Debian 12); mirror whatever the host has. */
function systemDirs(): string[] {
  const out: string[] = ['--ro-bind', '/usr', '/usr'];
  for (const d of ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']) {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(d);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) out.push('--symlink', fs.readlinkSync(d), d);
    else if (st.isDirectory()) out.push('--ro-bind', d, d);
  }
  for (const f of ['passwd', 'group', 'hosts', 'nsswitch.conf', 'ld.so.cache', 'ld.so.conf', 'ld.so.conf.d', 'localtime', 'ssl', 'ca-certificates', 'alternatives', 'os-release']) {
    out.push('--ro-bind-try', `/etc/${f}`, `/etc/${f}`);
  }
  return out;
}

/** Node's own install prefix when it is not under /usr (nvm, a tarball in /opt…), and npm's package. */
function nodeDirs(): string[] {
  const out: string[] = [];
  const prefix = path.dirname(path.dirname(fs.realpathSync(process.execPath)));
  if (prefix !== '/usr' && !prefix.startsWith('/usr/')) out.push('--ro-bind', prefix, prefix);
  const npm = npmCli();
  if (npm && !npm.startsWith('/usr/') && !npm.startsWith(prefix + '/')) {
    const pkg = path.dirname(path.dirname(npm));
    out.push('--ro-bind', pkg, pkg);
  }
  return out;
}

let npmCliPath: string | null | undefined;
/** Absolute path of the host's npm-cli.js (run by Node inside the sandbox), or null when npm is not found. */
export function npmCli(): string | null {
  if (npmCliPath !== undefined) return npmCliPath;
  const candidates = [path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js')];
  for (const dir of (process.env.PATH ?? '').split(':').filter(Boolean)) {
    try {
      const real = fs.realpathSync(path.join(dir, 'npm'));
      if (real.endsWith('.js')) candidates.push(real);
      else candidates.push(path.join(path.dirname(real), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'));
    } catch {
      /* not here */
    }
  }
  npmCliPath = candidates.map((c) => path.resolve(c)).find((c) => fs.existsSync(c)) ?? null;
  return npmCliPath;
}

/**
 * `--dir` (mode 0755) for every folder above a mount point that bwrap would otherwise create itself: run as
 * root it makes them 0700, which the sandbox user cannot enter. Folders under /usr (read-only) are skipped.
 */
function parentDirs(binds: string[]): string[] {
  const dests: string[] = [];
  for (let i = 0; i < binds.length; i++) {
    const op = binds[i];
    if (op === '--ro-bind' || op === '--bind' || op === '--ro-bind-try' || op === '--symlink') dests.push(binds[i + 2]!), (i += 2);
  }
  const dirs = new Set<string>();
  for (const d of dests) {
    for (let p = path.dirname(d); p !== '/' && p !== '.'; p = path.dirname(p)) if (p !== '/usr' && !p.startsWith('/usr/')) dirs.add(p);
  }
  return [...dirs].sort((a, b) => a.split('/').length - b.split('/').length).flatMap((d) => ['--dir', d]);
}

function bwrapArgs(s: SandboxSpec, cmd: string, args: string[]): string[] {
  const root = isRoot();
  const ns = root ? ['--unshare-pid', '--unshare-net', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'] : ['--unshare-all', '--uid', String(SANDBOX_UID), '--gid', String(SANDBOX_UID)];
  const binds = [
    ...systemDirs(),
    ...nodeDirs(),
    '--ro-bind', INIT, INIT_INSIDE,
    ...(s.readonly ?? []).flatMap((p) => ['--ro-bind', p, p]),
    ...s.writable.flatMap((p) => ['--bind', p, p]),
    ...(s.sockets ? ['--bind', s.sockets, s.sockets] : []),
  ];
  const mounts = ['--proc', '/proc', '--dev', '/dev', '--perms', '1777', '--tmpfs', '/tmp', '--perms', '1777', '--tmpfs', '/dev/shm', ...parentDirs(binds), ...binds];
  const env = Object.entries(s.env).flatMap(([k, v]) => ['--setenv', k, v]);
  const init = s.bridge || s.forward || root ? [process.execPath, INIT_INSIDE, ...(s.bridge ? ['--bridge', `${s.bridge.socket}:${s.bridge.port}`] : []), ...(s.forward ? ['--forward', `${s.forward.port}:${s.forward.socket}`] : []), ...(root ? ['--uid', String(SANDBOX_UID)] : []), '--'] : [];
  // as root: sandbox-init.cjs opens the shared sockets first (root-owned, in a root-owned folder), then
  // starts the command through setpriv, which drops to uid/gid 65534 with no groups, no capabilities (not even
  // in the bounding set) and no_new_privs, and finally drops its own privileges too
  return [...ns, '--die-with-parent', '--new-session', '--hostname', 'sandbox', ...mounts, '--chdir', s.cwd, '--clearenv', ...env, '--', ...init, cmd, ...args];
}

/**
 * The command line that runs `cmd args` inside the sandbox described in the header of this module.
 * @returns `bwrap` and its arguments (spawn it in its own process group; see processes.ts)
 * @throws Error when bubblewrap is not usable here (with {@link SANDBOX_FIX})
 */
export function sandboxCommand(cmd: string, args: string[], s: SandboxSpec): { cmd: string; args: string[] } {
  if (!sandboxAvailable()) throw new Error(`bubblewrap is not usable: ${SANDBOX_FIX}`);
  return { cmd: bwrap(), args: bwrapArgs(s, cmd, args) };
}

/**
 * Make `dir` (recursively) the sandbox user's when Cookie runs as root, so the candidate can write it;
 * a no-op otherwise (then uid 65534 inside is Cookie's own user outside).
 */
export function giveToSandbox(dir: string): void {
  if (!isRoot()) return;
  const st = fs.statSync(dir);
  if (st.uid === SANDBOX_UID && st.gid === SANDBOX_UID) {
    // the npm cache: already the sandbox's at the top; fix only what a host-side npm may have added
    spawnSync('find', [dir, '!', '-user', String(SANDBOX_UID), '-exec', 'chown', '-h', `${SANDBOX_UID}:${SANDBOX_UID}`, '{}', '+'], { stdio: 'ignore' });
    return;
  }
  spawnSync('chown', ['-R', '-h', `${SANDBOX_UID}:${SANDBOX_UID}`, dir], { stdio: 'ignore' });
}

/** A folder for shared sockets that the sandbox user cannot write (root-owned 0755 when Cookie is root). */
export function makeSocketDir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  fs.chmodSync(dir, 0o755);
  return dir;
}
