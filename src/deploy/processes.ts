import { spawn, type ChildProcess } from 'node:child_process';

/** Every process group Cookie started for candidates and has not yet reaped (killed on exit or signal). */
const live = new Set<ChildProcess>();
let hooked = false;

function killGroup(p: ChildProcess): void {
  if (p.pid === undefined || p.exitCode !== null || p.signalCode !== null) return;
  try {
    process.kill(-p.pid, 'SIGKILL'); // the whole group: npm, its node children, vite, esbuild
  } catch {
    try {
      p.kill('SIGKILL');
    } catch {
      /* gone */
    }
  }
}

/** Kill every live candidate process group now (used on exit and on SIGINT/SIGTERM). */
export function killAllCandidateProcesses(): void {
  for (const p of live) killGroup(p);
  live.clear();
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', killAllCandidateProcesses);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(sig, () => {
      killAllCandidateProcesses();
      // keep the default behaviour of the signal when nobody else handles it
      if (process.listenerCount(sig) <= 1) process.exit(128 + (sig === 'SIGINT' ? 2 : sig === 'SIGTERM' ? 15 : 1));
    });
  }
}

/** Outcome of a finished command. */
export interface CommandResult {
  code: number | null;
  timedOut: boolean;
  /** Last `tailLines` lines of stdout+stderr. */
  tail: string;
  ms: number;
}

/**
 * Run a command for a candidate in its own process group (so it and everything it spawns can be killed
 * together), with the given environment (secrets removed by the caller), a time limit, and the tail of
 * its output kept. Never throws for a failing command.
 */
export function runCommand(cmd: string, args: string[], opts: { cwd: string; env: Record<string, string>; timeoutMs: number; tailLines?: number }): Promise<CommandResult> {
  hookExit();
  const t0 = Date.now();
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    live.add(p);
    let out = '';
    const keep = (d: Buffer) => {
      out = (out + d.toString()).slice(-200_000);
    };
    p.stdout!.on('data', keep);
    p.stderr!.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(p);
    }, opts.timeoutMs);
    const done = (code: number | null) => {
      clearTimeout(timer);
      live.delete(p);
      killGroup(p); // stray grandchildren of a finished command
      resolve({ code, timedOut, tail: out.split('\n').slice(-(opts.tailLines ?? 40)).join('\n').trim(), ms: Date.now() - t0 });
    };
    p.on('error', (e) => {
      out += `\n${e.message}`;
      done(null);
    });
    p.on('close', (code) => done(code));
  });
}

/** A long-running candidate process (a dev server): its output so far, and a way to kill its group. */
export interface ServerProcess {
  output(): string;
  exited(): boolean;
  kill(): void;
}

/** Start a long-running command in its own process group (killed with Cookie). */
export function startProcess(cmd: string, args: string[], opts: { cwd: string; env: Record<string, string> }): ServerProcess {
  hookExit();
  const p = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(p);
  let out = '';
  let ended = false;
  const keep = (d: Buffer) => {
    out = (out + d.toString()).slice(-100_000);
  };
  p.stdout!.on('data', keep);
  p.stderr!.on('data', keep);
  p.on('error', (e) => {
    out += `\n${e.message}`;
    ended = true;
  });
  p.on('close', () => {
    ended = true;
    live.delete(p);
  });
  return {
    output: () => out,
    exited: () => ended,
    kill: () => {
      killGroup(p);
      live.delete(p);
    },
  };
}
