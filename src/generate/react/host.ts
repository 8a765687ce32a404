import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCommand, sandboxed } from '../../deploy/processes.js';
import { BuildFailure, deployProject } from '../../deploy/project.js';
import { safeEnv } from '../../util/safe-env.js';
import type { BuildOutcome, ToolHost, ToolResult } from './tools.js';

/** Time limits and the npm cache of the React tools' sandboxed steps (ms). */
export interface HostOptions {
  npmCache: string;
  installTimeoutMs: number;
  buildTimeoutMs: number;
  serveTimeoutMs: number;
}

/**
 * The React tools' host: `build` is exactly the evaluation's project deployment ({@link deployProject}: a
 * fresh copy installed with lifecycle scripts off and built as `nobody` without network, in the same
 * candidate-build sandbox), stopped once it serves — so a project that builds here builds when evaluated.
 * `npm_install` runs `npm install --package-lock-only --ignore-scripts` in the candidate's install sandbox
 * ({@link sandboxed} with network, the registry only, an empty HOME and `.npmrc`, the host's secrets
 * removed), which records the packages in package.json and the lockfile; the next build installs them.
 */
export function sandboxHost(o: HostOptions): ToolHost {
  return {
    async build(root: string): Promise<BuildOutcome> {
      try {
        const d = await deployProject(root, o);
        await d.close();
        return { ok: true, log: d.steps.map((s) => `${s.step}: ${s.command} → exit ${s.code ?? 'running'} in ${s.ms} ms${s.sandbox ? ` [sandbox ${s.sandbox}]` : ''}`).join('\n') };
      } catch (e) {
        if (e instanceof BuildFailure) return { ok: false, cause: e.cause.kind, log: `${e.step} failed: ${e.cause.summary}\n${e.logTail.slice(-6000)}` };
        return { ok: false, log: `build could not run: ${(e as Error).message}` };
      }
    },
    async npmInstall(root: string, packages: string[], dev: boolean): Promise<ToolResult> {
      const home = fs.mkdtempSync(path.join(os.tmpdir(), 'cookie-gen-home-'));
      try {
        fs.writeFileSync(path.join(home, '.npmrc'), '');
        fs.mkdirSync(o.npmCache, { recursive: true });
        const registry = process.env.npm_config_registry || process.env.NPM_CONFIG_REGISTRY;
        const env = safeEnv({ HOME: home, npm_config_cache: o.npmCache, npm_config_userconfig: path.join(home, '.npmrc'), npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', ...(registry ? { npm_config_registry: registry } : {}), CI: 'true' });
        const args = ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', ...(dev ? ['--save-dev'] : []), '--', ...packages];
        const sb = sandboxed('npm', args, { network: true });
        const r = await runCommand(sb.cmd, sb.args, { cwd: root, env, timeoutMs: o.installTimeoutMs, tailLines: 30 });
        if (r.code === 0) return { ok: true, text: `added ${packages.join(', ')} to package.json${dev ? ' (devDependencies)' : ''}; the next build installs them` };
        return { ok: false, text: `npm install failed${r.timedOut ? ' (time-out)' : ''}:\n${r.tail}` };
      } finally {
        fs.rmSync(home, { recursive: true, force: true });
      }
    },
  };
}
