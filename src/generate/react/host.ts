import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cookieNpmrc } from '../../deploy/dependencies.js';
import { runCommand } from '../../deploy/processes.js';
import { BuildFailure, deployProject, type ProjectOptions } from '../../deploy/project.js';
import { safeEnv } from '../../util/safe-env.js';
import { isRegistrySpec, type BuildOutcome, type ToolHost, type ToolResult } from './tools.js';

/** Dependencies of a package.json that do not come from the registry by name and range (git, URLs, paths, aliases). */
export function nonRegistryDependencies(pkg: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']) {
    const deps = pkg[field];
    if (!deps || typeof deps !== 'object') continue;
    for (const [name, range] of Object.entries(deps as Record<string, unknown>)) if (typeof range !== 'string' || !isRegistrySpec(`${name}@${range || '*'}`)) out.push(`${name}: ${String(range)}`);
  }
  return out;
}

/**
 * The React tools' host.
 * - `build` is exactly the evaluation's project deployment ({@link deployProject}: a fresh copy of the project
 *   installed with lifecycle scripts off and built in the candidate-build sandbox, as the evaluation does),
 *   stopped once it serves — so a project that builds here builds when evaluated. A failure of the sandbox
 *   itself (not the project's) is reported as `harnessError`, never as the model's build failure.
 * - `npm_install` adds registry packages to package.json and the lockfile without running anything of the
 *   candidate's: `npm install --package-lock-only --ignore-scripts` in a scratch folder holding only
 *   package.json and package-lock.json (no project .npmrc), with Cookie's own npm config
 *   ({@link cookieNpmrc}, as the sandboxed install: scripts and git off), an empty HOME and the host's
 *   secrets removed; it reads registry metadata only and downloads no
 *   package. A package.json naming a dependency that is not from the registry is refused. The packages are
 *   installed by the next `build`, inside the sandbox.
 */
export function sandboxHost(o: ProjectOptions): ToolHost {
  return {
    async build(root: string): Promise<BuildOutcome> {
      try {
        const d = await deployProject(root, o);
        await d.close();
        return { ok: true, log: d.steps.map((s) => `${s.step}: ${s.command} → exit ${s.code ?? 'running'} in ${s.ms} ms${s.sandbox ? ` [sandbox ${s.sandbox}]` : ''}`).join('\n') };
      } catch (e) {
        if (e instanceof BuildFailure) return { ok: false, cause: e.cause.kind, log: `${e.step} failed: ${e.cause.summary}\n${e.logTail.slice(-6000)}` };
        return { ok: false, log: `the build could not run (Cookie's environment, not the project): ${(e as Error).message}`, harnessError: (e as Error).message.split('\n')[0] };
      }
    },
    async npmInstall(root: string, packages: string[], dev: boolean): Promise<ToolResult> {
      const pkgFile = path.join(root, 'package.json');
      let pkg: Record<string, unknown>;
      try {
        pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8')) as Record<string, unknown>;
      } catch (e) {
        return { ok: false, text: `package.json cannot be read: ${(e as Error).message}. Fix it first.` };
      }
      const bad = nonRegistryDependencies(pkg);
      if (bad.length) return { ok: false, text: `package.json names dependencies that are not from the npm registry (refused): ${bad.join(', ')}. Use registry packages with a version range.` };
      const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cookie-gen-npm-'));
      try {
        const home = path.join(scratch, 'home');
        const proj = path.join(scratch, 'p');
        fs.mkdirSync(home);
        fs.mkdirSync(proj);
        fs.copyFileSync(pkgFile, path.join(proj, 'package.json'));
        if (fs.existsSync(path.join(root, 'package-lock.json'))) fs.copyFileSync(path.join(root, 'package-lock.json'), path.join(proj, 'package-lock.json'));
        const registry = process.env.npm_config_registry || process.env.NPM_CONFIG_REGISTRY;
        // a host CA bundle (an intercepting proxy's) is a public certificate, not a secret: keep TLS working
        const ca = process.env.NODE_EXTRA_CA_CERTS && fs.existsSync(process.env.NODE_EXTRA_CA_CERTS) ? process.env.NODE_EXTRA_CA_CERTS : null;
        fs.writeFileSync(path.join(home, '.npmrc'), cookieNpmrc({ registry, cafile: ca ?? undefined }));
        fs.mkdirSync(o.npmCache, { recursive: true });
        const env = safeEnv({ HOME: home, npm_config_userconfig: path.join(home, '.npmrc'), npm_config_globalconfig: path.join(home, 'global-npmrc'), npm_config_cache: o.npmCache, CI: 'true', ...(ca ? { NODE_EXTRA_CA_CERTS: ca } : {}) });
        const args = ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', ...(dev ? ['--save-dev'] : []), '--', ...packages];
        const r = await runCommand('npm', args, { cwd: proj, env, timeoutMs: o.installTimeoutMs, tailLines: 30 });
        if (r.code !== 0) return { ok: false, text: `npm install failed${r.timedOut ? ' (time-out)' : ''}:\n${r.tail}` };
        fs.copyFileSync(path.join(proj, 'package.json'), pkgFile);
        fs.copyFileSync(path.join(proj, 'package-lock.json'), path.join(root, 'package-lock.json'));
        return { ok: true, text: `added ${packages.join(', ')} to package.json${dev ? ' (devDependencies)' : ''} and the lockfile; the next build installs them` };
      } finally {
        fs.rmSync(scratch, { recursive: true, force: true });
      }
    },
  };
}
