import fs from 'node:fs';
import path from 'node:path';
import { addPackagesInSandbox, BuildFailure, deployProject, type ProjectOptions } from '../../deploy/project.js';
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
 *   candidate's: `npm install --package-lock-only --ignore-scripts` in the candidate-install sandbox on a
 *   copy holding only package.json and package-lock.json ({@link addPackagesInSandbox}: uid 65534, empty
 *   environment, Cookie's npm config, network only to the registry through the registry proxy); it reads
 *   registry metadata only and downloads no package. A package.json or lockfile naming a dependency that is
 *   not from the registry is refused. The packages are installed by the next `build`, inside the sandbox.
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
      const lockFile = path.join(root, 'package-lock.json');
      let r: Awaited<ReturnType<typeof addPackagesInSandbox>>;
      try {
        r = await addPackagesInSandbox({ packageJson: fs.readFileSync(pkgFile, 'utf8'), lockfile: fs.existsSync(lockFile) ? fs.readFileSync(lockFile, 'utf8') : null }, packages, dev, o);
      } catch (e) {
        return { ok: false, text: `npm install could not run (Cookie's environment, not the project): ${(e as Error).message}` };
      }
      if (!r.ok) return { ok: false, text: r.log };
      fs.writeFileSync(pkgFile, r.packageJson);
      fs.writeFileSync(lockFile, r.lockfile);
      return { ok: true, text: `added ${packages.join(', ')} to package.json${dev ? ' (devDependencies)' : ''} and the lockfile; the next build installs them` };
    },
  };
}
