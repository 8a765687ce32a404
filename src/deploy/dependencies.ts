import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type npaModule from 'npm-package-arg';

// npm's own spec parser, loaded when a project's dependencies are first checked (single-file runs never need it)
let npaLoaded: typeof npaModule | undefined;
const npa = { resolve: (...a: Parameters<typeof npaModule.resolve>) => (npaLoaded ??= createRequire(import.meta.url)('npm-package-arg') as typeof npaModule).resolve(...a) };

/**
 * What a project candidate may install (issue 19 point 1): packages from the configured registry only.
 * Checked before npm runs, on the candidate's package.json (every dependency field, overrides, the
 * package.json files of in-project `file:` dependencies and workspaces) and its npm lockfile
 * (package-lock.json / npm-shrinkwrap.json, v1–v3). Specs are parsed with npm's own parser
 * (npm-package-arg), so what is checked is what npm would fetch.
 */
export interface DependencyRefusal {
  /** Package name (or lockfile path for a lockfile entry). */
  name: string;
  /** Where it was found: `dependencies`, `optionalDependencies`, `overrides`, `package-lock.json`, … */
  field: string;
  /** The spec or resolved URL as written. */
  spec: string;
  /** Why: `a git repository`, `a tarball URL`, `a path outside the project`, `plain http`, `not the registry`. */
  reason: string;
}

const FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const;

/** Inside `root` (lexically, after resolving `.`/`..`)? */
function inside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Classify one dependency spec the way npm would; null when it comes from the registry (a version, range,
 * dist-tag, or an `npm:` alias of one) or is a path inside the project.
 */
function refuseSpec(name: string, spec: string, where: string, root: string): string | null {
  let r: ReturnType<typeof npaModule.resolve>;
  try {
    r = npa.resolve(name, spec, where);
  } catch (e) {
    return `not a spec npm accepts (${(e as Error).message.split('\n')[0]})`;
  }
  switch (r.type) {
    case 'version':
    case 'range':
    case 'tag':
      return null;
    case 'alias':
      return r.subSpec ? refuseSpec(r.subSpec.name ?? name, r.subSpec.rawSpec, where, root) : 'an alias npm cannot read';
    case 'git':
      return 'a git repository';
    case 'remote':
      return /^http:/i.test(spec) ? 'a tarball URL over plain http' : 'a tarball URL';
    case 'file':
    case 'directory':
      return r.fetchSpec && inside(root, path.resolve(where, r.fetchSpec)) ? null : 'a path outside the project';
    default:
      return `an unsupported kind of dependency (${r.type})`;
  }
}

/** The folder of a `file:`/path dependency on a directory (its own dependencies are installed too), else null. */
function localDirectory(name: string, spec: string, where: string): string | null {
  try {
    const r = npa.resolve(name, spec, where);
    return r.type === 'directory' && r.fetchSpec ? path.resolve(where, r.fetchSpec) : null;
  } catch {
    return null;
  }
}

/** Is `url` (a lockfile `resolved`) a tarball on the registry? npm rewrites registry.npmjs.org to the configured registry. */
function onRegistry(url: string, registries: URL[]): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  return registries.some((r) => u.protocol === r.protocol && u.host.toLowerCase() === r.host.toLowerCase() && u.pathname.startsWith(r.pathname.replace(/\/?$/, '/')));
}

/**
 * Every dependency of the project in `root` that is not a registry package (or a path inside the project).
 * Pure reading; never throws (an unreadable package.json is npm's error to report).
 * @param registry the configured registry URL (e.g. `https://registry.npmjs.org/`)
 */
export function refusedDependencies(root: string, registry: string): DependencyRefusal[] {
  const out: DependencyRefusal[] = [];
  const registries = [new URL(registry), new URL('https://registry.npmjs.org/')];
  const seen = new Set<string>();
  const readPkg = (dir: string, label: string) => {
    const real = path.resolve(dir);
    if (seen.has(real) || seen.size > 200) return;
    seen.add(real);
    let pkg: Record<string, unknown>;
    try {
      pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
    } catch {
      return;
    }
    const nested: string[] = [];
    for (const field of FIELDS) {
      const deps = pkg[field];
      if (!deps || typeof deps !== 'object') continue;
      for (const [name, spec] of Object.entries(deps as Record<string, unknown>)) {
        if (typeof spec !== 'string') continue;
        const why = refuseSpec(name, spec, dir, root);
        if (why) out.push({ name, field: `${label}${field}`, spec, reason: why });
        else {
          const d = localDirectory(name, spec, dir);
          if (d) nested.push(d);
        }
      }
    }
    // overrides: { pkg: spec | { '.': spec, child: … } }; `$name` refers to one of the project's own specs
    const walk = (o: unknown, key: string) => {
      if (typeof o === 'string') {
        if (o.startsWith('$')) return;
        const name = key.replace(/^(@?[^@]+).*$/, '$1');
        const why = refuseSpec(name, o, dir, root);
        if (why) out.push({ name, field: `${label}overrides`, spec: o, reason: why });
      } else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) walk(v, k === '.' ? key : k);
    };
    walk(pkg.overrides, '');
    const ws = Array.isArray(pkg.workspaces) ? pkg.workspaces : Array.isArray((pkg.workspaces as { packages?: unknown })?.packages) ? (pkg.workspaces as { packages: unknown[] }).packages : [];
    for (const w of ws) {
      if (typeof w !== 'string') continue;
      const abs = path.resolve(dir, w.replace(/\/\*+$/, ''));
      if (!inside(root, abs)) {
        out.push({ name: w, field: `${label}workspaces`, spec: w, reason: 'a path outside the project' });
        continue;
      }
      if (/\*/.test(w)) {
        try {
          for (const d of fs.readdirSync(abs)) nested.push(path.join(abs, d));
        } catch {
          /* no such folder: npm reports it */
        }
      } else nested.push(abs);
    }
    for (const n of nested) if (inside(root, n)) readPkg(n, `${path.relative(root, n)}: `);
  };
  readPkg(root, '');

  for (const lockName of ['npm-shrinkwrap.json', 'package-lock.json']) {
    let lock: { packages?: Record<string, { resolved?: unknown; link?: boolean; version?: unknown }>; dependencies?: Record<string, unknown> };
    try {
      lock = JSON.parse(fs.readFileSync(path.join(root, lockName), 'utf8'));
    } catch {
      continue;
    }
    const checkResolved = (name: string, resolved: unknown, link = false) => {
      if (typeof resolved !== 'string' || !resolved) return;
      if (link || /^(file:|\.{0,2}\/)/.test(resolved)) {
        if (!inside(root, path.resolve(root, resolved.replace(/^file:/, '')))) out.push({ name, field: lockName, spec: resolved, reason: 'a path outside the project' });
        return;
      }
      if (/^(git\+|git:|github:|gitlab:|bitbucket:|gist:)/.test(resolved)) out.push({ name, field: lockName, spec: resolved, reason: 'a git repository' });
      else if (!onRegistry(resolved, registries)) out.push({ name, field: lockName, spec: resolved, reason: /^http:/i.test(resolved) ? 'plain http, not the registry' : 'not the registry' });
    };
    for (const [key, entry] of Object.entries(lock.packages ?? {})) {
      if (!entry || typeof entry !== 'object') continue;
      // a key is a folder of the installed tree: one outside the project is a link target outside it
      if (key && !inside(root, path.resolve(root, key))) out.push({ name: key, field: lockName, spec: key, reason: 'a path outside the project' });
      checkResolved(key.replace(/^.*node_modules\//, '') || key, entry.resolved, entry.link === true);
    }
    // lockfile v1: a nested `dependencies` tree whose `version` can itself be a URL or path
    const v1 = (deps: Record<string, unknown> | undefined, depth: number) => {
      if (!deps || depth > 50) return;
      for (const [name, d] of Object.entries(deps)) {
        if (!d || typeof d !== 'object') continue;
        const e = d as { version?: unknown; resolved?: unknown; dependencies?: Record<string, unknown> };
        checkResolved(name, e.resolved);
        if (typeof e.version === 'string' && !/^\d/.test(e.version)) {
          const why = refuseSpec(name, e.version, root, root);
          if (why) out.push({ name, field: lockName, spec: e.version, reason: why });
        }
        v1(e.dependencies, depth + 1);
      }
    };
    v1(lock.dependencies, 0);
  }
  // one line per dependency (a lockfile repeats what package.json says)
  const unique = new Map(out.map((r) => [`${r.name}\0${r.spec}`, r]));
  return [...unique.values()];
}

/** The keys of a candidate's `.npmrc` that are kept (they change how the tree is resolved, never where from). */
export const NPMRC_ALLOWED = ['legacy-peer-deps', 'strict-peer-deps', 'engine-strict', 'save-exact', 'save-prefix', 'package-lock', 'install-strategy', 'prefer-dedupe', 'include', 'omit', 'fund', 'audit', 'progress'];

/**
 * Reduce a candidate's `.npmrc` to {@link NPMRC_ALLOWED} keys with plain values (no `${VAR}` expansion,
 * no scoped or per-registry settings such as `@scope:registry` or `//host/:_authToken`).
 * @returns the kept text and the keys dropped (for the build log)
 */
export function reduceNpmrc(text: string): { kept: string; dropped: string[] } {
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const eq = line.indexOf('=');
    const key = (eq < 0 ? line : line.slice(0, eq)).trim();
    const value = eq < 0 ? 'true' : line.slice(eq + 1).trim();
    if (NPMRC_ALLOWED.includes(key) && /^[\w.^~@\-/ ]*$/.test(value) && !value.includes('${')) kept.push(`${key}=${value}`);
    else dropped.push(key.slice(0, 80));
  }
  return { kept: kept.length ? kept.join('\n') + '\n' : '', dropped };
}

/**
 * Cookie's own npm user config for a candidate's npm, used instead of the host's (~/.npmrc may hold registry
 * tokens) and the candidate's: lifecycle scripts off, no git, no audit, fund or update checks, TLS verified.
 * @param o.registry the registry URL (omitted: npm's default, https://registry.npmjs.org/)
 * @param o.proxy an http:// proxy for every request, with no exceptions (Cookie's registry proxy)
 * @param o.cafile a CA bundle file to trust (a host's intercepting proxy's)
 * @returns the text of an npmrc file
 */
export function cookieNpmrc(o: { registry?: string; proxy?: string; cafile?: string }): string {
  return [
    ...(o.registry ? [`registry=${o.registry}`] : []),
    ...(o.proxy ? [`proxy=${o.proxy}`, `https-proxy=${o.proxy}`, 'noproxy='] : []),
    'ignore-scripts=true',
    'git=/bin/false',
    'replace-registry-host=npmjs',
    'audit=false',
    'fund=false',
    'update-notifier=false',
    'strict-ssl=true',
    ...(o.cafile ? [`cafile=${o.cafile}`] : []),
    '',
  ].join('\n');
}
