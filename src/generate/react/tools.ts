import fs from 'node:fs';
import path from 'node:path';
import { applyPatch, parsePatch } from 'diff';
import { glob } from 'tinyglobby';
import type { ToolDef } from '../../providers/chat.js';

/**
 * The React agent scaffold's tools (paper §5, Appendix B.1; METHOD.md §7): file create / read / edit /
 * delete / list / glob / grep / patch, build, npm install and plan updates, all confined to one project
 * folder. Web search, web fetch and image generation exist in the paper's scaffold but not here: they are
 * declared unavailable, and a call to them is answered so.
 */

/** A tool call's answer to the model: text, and whether it is an error. */
export interface ToolResult {
  ok: boolean;
  text: string;
}

/** Outcome of a build (install + build in the candidate-build sandbox). */
export interface BuildOutcome {
  ok: boolean;
  /** What to show the model and keep in the build log (the failing step's log tail, or the steps run). */
  log: string;
  /** Recognised cause of a failure (see diagnoseBuildLog), e.g. `missing-icon`. */
  cause?: string;
  /** Set when the build could not run for a reason that is Cookie's, not the project's (no sandbox here): the session stops and the generation is retried later. */
  harnessError?: string;
}

/** What the tools need from outside the project folder: the sandboxed build and npm install. */
export interface ToolHost {
  build(root: string): Promise<BuildOutcome>;
  /** Add registry packages to package.json and the lockfile (install scripts off). */
  npmInstall(root: string, packages: string[], dev: boolean): Promise<ToolResult>;
}

/** Tools the paper's scaffold has that this environment does not offer. */
export const UNAVAILABLE_TOOLS = ['web_search', 'web_fetch', 'generate_image', 'image_generation', 'fetch', 'search'];

const str = (description: string) => ({ type: 'string', description });

/** The tool definitions sent to the model (JSON Schema parameters). */
export const REACT_TOOLS: ToolDef[] = [
  { name: 'create_file', description: 'Create or overwrite a file with the given content.', parameters: { type: 'object', properties: { path: str('path relative to the project root'), content: str('the whole file') }, required: ['path', 'content'] } },
  { name: 'read_file', description: 'Read a text file (numbered lines).', parameters: { type: 'object', properties: { path: str('path relative to the project root'), offset: { type: 'integer', description: 'first line, 1-based' }, limit: { type: 'integer', description: 'most lines' } }, required: ['path'] } },
  { name: 'edit_file', description: 'Replace an exact string in a file (it must occur once unless replace_all).', parameters: { type: 'object', properties: { path: str('path relative to the project root'), old_string: str('exact text to replace'), new_string: str('replacement'), replace_all: { type: 'boolean' } }, required: ['path', 'old_string', 'new_string'] } },
  { name: 'delete_file', description: 'Delete a file.', parameters: { type: 'object', properties: { path: str('path relative to the project root') }, required: ['path'] } },
  { name: 'list_files', description: 'List a folder (default the project root), without node_modules.', parameters: { type: 'object', properties: { path: str('folder relative to the project root') } } },
  { name: 'glob', description: 'Find files by glob pattern (e.g. src/**/*.tsx).', parameters: { type: 'object', properties: { pattern: str('glob pattern relative to the project root') }, required: ['pattern'] } },
  { name: 'grep', description: 'Search file contents with a regular expression; returns path:line: text.', parameters: { type: 'object', properties: { pattern: str('JavaScript regular expression'), glob: str('optional glob of files to search (default all)') }, required: ['pattern'] } },
  { name: 'apply_patch', description: 'Apply a unified diff (--- a/path, +++ b/path, @@ hunks) to one or more files.', parameters: { type: 'object', properties: { patch: str('unified diff') }, required: ['patch'] } },
  { name: 'build', description: 'Install dependencies and run `npm run build` in a sandbox; returns ok or the error log.', parameters: { type: 'object', properties: {} } },
  { name: 'npm_install', description: 'Add packages from the npm registry to package.json (install scripts never run).', parameters: { type: 'object', properties: { packages: { type: 'array', items: { type: 'string' }, description: 'names, optionally with @version' }, dev: { type: 'boolean' } }, required: ['packages'] } },
  { name: 'update_plan', description: 'Record your plan: a list of steps with status pending | in_progress | done.', parameters: { type: 'object', properties: { steps: { type: 'array', items: { type: 'object', properties: { step: { type: 'string' }, status: { type: 'string', enum: ['pending', 'in_progress', 'done'] } }, required: ['step', 'status'] } } }, required: ['steps'] } },
  { name: 'finish', description: 'End the session when the app is complete and builds.', parameters: { type: 'object', properties: { summary: str('one line: what was built') } }, },
];

const HIDDEN = new Set(['node_modules', '.git', 'dist']);
const MAX_READ = 60_000;
const MAX_FILE = 400_000;

/** A refused or failed tool call: its message goes back to the model. */
class ToolError extends Error {}

/** An npm package spec from the registry: a (scoped) name with an optional version or range; no URLs, paths, git or aliases. */
export function isRegistrySpec(spec: string): boolean {
  return /^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*(@[\w.^~<>=*| -]+)?$/i.test(spec) && !/(^|@)(npm|file|git|http|https|link|workspace):/i.test(spec);
}

/**
 * The tools of one project folder. Every path is resolved inside `root`: absolute paths, `..` and symlinks
 * leading out are refused, and nothing is written under node_modules or .git.
 */
export class ProjectTools {
  /** The plan the model last recorded. */
  plan: { step: string; status: string }[] = [];
  /** Files changed since the last build. */
  dirty = false;
  builds = 0;
  lastBuild: BuildOutcome | null = null;
  readonly buildLogs: string[] = [];
  private readonly realRoot: string;

  constructor(
    readonly root: string,
    private readonly host: ToolHost,
  ) {
    this.realRoot = fs.realpathSync(root);
  }

  /**
   * Resolve a model-given path inside the project.
   * @throws ToolError for a path outside the project (absolute, `..`, through a symlink) or, when writing, under node_modules/.git
   */
  resolve(p: unknown, write = false): string {
    if (typeof p !== 'string' || !p.trim()) throw new ToolError('path is missing');
    if (path.isAbsolute(p) || /^[a-z]:[\\/]/i.test(p) || p.startsWith('~')) throw new ToolError(`"${p}" is outside the project: use a path relative to the project root`);
    const abs = path.resolve(this.root, p);
    const rel = path.relative(this.root, abs);
    if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) throw new ToolError(`"${p}" is outside the project: use a path relative to the project root`);
    // a symlink inside the project must not lead out of it
    let probe = abs;
    while (!fs.existsSync(probe)) probe = path.dirname(probe);
    const real = fs.realpathSync(probe);
    if (real !== this.realRoot && !real.startsWith(this.realRoot + path.sep)) throw new ToolError(`"${p}" leads outside the project (through a symbolic link)`);
    if (write && rel.split(path.sep).some((s) => s === 'node_modules' || s === '.git')) throw new ToolError(`"${p}": node_modules and .git are not editable (use npm_install)`);
    return abs;
  }

  /** Run one tool call; never throws (errors are answers to the model). */
  async run(name: string, args: unknown): Promise<ToolResult> {
    const a = (args && typeof args === 'object' ? args : {}) as Record<string, unknown>;
    try {
      if (UNAVAILABLE_TOOLS.includes(name)) return { ok: false, text: `${name} is not available in this environment: there is no web search, web fetch or image generation. Write the content yourself and draw images with CSS, SVG or canvas.` };
      switch (name) {
        case 'create_file': {
          const f = this.resolve(a.path, true);
          if (typeof a.content !== 'string') throw new ToolError('content must be a string');
          if (a.content.length > MAX_FILE) throw new ToolError(`content is ${a.content.length} characters; the limit is ${MAX_FILE}`);
          fs.mkdirSync(path.dirname(f), { recursive: true });
          const existed = fs.existsSync(f);
          fs.writeFileSync(f, a.content);
          this.dirty = true;
          return { ok: true, text: `${existed ? 'overwrote' : 'created'} ${a.path} (${a.content.split('\n').length} lines)` };
        }
        case 'read_file': {
          const f = this.resolve(a.path);
          if (!fs.existsSync(f) || !fs.statSync(f).isFile()) throw new ToolError(`${a.path}: no such file`);
          const lines = fs.readFileSync(f, 'utf8').split('\n');
          const from = Math.max(1, Number(a.offset) || 1);
          const to = Math.min(lines.length, from - 1 + (Number(a.limit) || lines.length));
          const text = lines.slice(from - 1, to).map((l, i) => `${String(from + i).padStart(5)}\t${l}`).join('\n');
          return { ok: true, text: text.length > MAX_READ ? `${text.slice(0, MAX_READ)}\n… (cut; read with offset/limit)` : text };
        }
        case 'edit_file': {
          const f = this.resolve(a.path, true);
          if (!fs.existsSync(f)) throw new ToolError(`${a.path}: no such file (use create_file)`);
          if (typeof a.old_string !== 'string' || typeof a.new_string !== 'string' || !a.old_string) throw new ToolError('old_string and new_string must be strings, old_string not empty');
          const text = fs.readFileSync(f, 'utf8');
          const n = text.split(a.old_string).length - 1;
          if (n === 0) throw new ToolError(`old_string not found in ${a.path}`);
          if (n > 1 && !a.replace_all) throw new ToolError(`old_string occurs ${n} times in ${a.path}: give more context or set replace_all`);
          fs.writeFileSync(f, a.replace_all ? text.split(a.old_string).join(a.new_string) : text.replace(a.old_string, () => a.new_string as string));
          this.dirty = true;
          return { ok: true, text: `edited ${a.path} (${n} replacement${n > 1 ? 's' : ''})` };
        }
        case 'delete_file': {
          const f = this.resolve(a.path, true);
          if (!fs.existsSync(f) || !fs.statSync(f).isFile()) throw new ToolError(`${a.path}: no such file`);
          fs.rmSync(f);
          this.dirty = true;
          return { ok: true, text: `deleted ${a.path}` };
        }
        case 'list_files': {
          const d = this.resolve(a.path ?? '.');
          if (!fs.existsSync(d) || !fs.statSync(d).isDirectory()) throw new ToolError(`${a.path}: no such folder`);
          const out = fs
            .readdirSync(d, { withFileTypes: true })
            .filter((e) => !HIDDEN.has(e.name))
            .sort((x, y) => x.name.localeCompare(y.name))
            .map((e) => (e.isDirectory() ? `${e.name}/` : `${e.name}  (${fs.statSync(path.join(d, e.name)).size} B)`));
          return { ok: true, text: out.join('\n') || '(empty)' };
        }
        case 'glob': {
          const files = await this.glob(a.pattern);
          return { ok: true, text: files.slice(0, 500).join('\n') || '(no match)' };
        }
        case 'grep': {
          if (typeof a.pattern !== 'string' || !a.pattern) throw new ToolError('pattern is missing');
          let re: RegExp;
          try {
            re = new RegExp(a.pattern);
          } catch (e) {
            throw new ToolError(`pattern is not a valid regular expression: ${(e as Error).message}`);
          }
          const hits: string[] = [];
          for (const rel of await this.glob(a.glob ?? '**/*')) {
            const f = path.join(this.root, rel);
            if (fs.statSync(f).size > MAX_FILE) continue;
            fs.readFileSync(f, 'utf8').split('\n').forEach((l, i) => {
              if (hits.length < 200 && re.test(l)) hits.push(`${rel}:${i + 1}: ${l.slice(0, 200)}`);
            });
          }
          return { ok: true, text: hits.join('\n') || '(no match)' };
        }
        case 'apply_patch':
          return this.patch(a.patch);
        case 'build': {
          const r = await this.host.build(this.root);
          this.builds++;
          this.lastBuild = r;
          this.dirty = false;
          this.buildLogs.push(`── build ${this.builds}: ${r.ok ? 'ok' : `failed${r.cause ? ` (${r.cause})` : ''}`}\n${r.log}`);
          return { ok: r.ok, text: r.ok ? `build succeeded\n${r.log}` : `build failed${r.cause ? ` (${r.cause})` : ''}:\n${r.log}` };
        }
        case 'npm_install': {
          const pkgs = Array.isArray(a.packages) ? a.packages.map(String) : [];
          if (!pkgs.length) throw new ToolError('packages is empty');
          const bad = pkgs.filter((p) => !isRegistrySpec(p));
          if (bad.length) throw new ToolError(`only packages from the npm registry by name (and version) can be installed; refused: ${bad.join(', ')}`);
          const r = await this.host.npmInstall(this.root, pkgs, a.dev === true);
          if (r.ok) this.dirty = true;
          return r;
        }
        case 'update_plan': {
          if (!Array.isArray(a.steps)) throw new ToolError('steps must be a list of { step, status }');
          this.plan = a.steps.map((s) => ({ step: String((s as { step?: unknown }).step ?? ''), status: String((s as { status?: unknown }).status ?? 'pending') }));
          return { ok: true, text: `plan recorded (${this.plan.length} steps)` };
        }
        default:
          return { ok: false, text: `unknown tool "${name}". Available: ${REACT_TOOLS.map((t) => t.name).join(', ')}` };
      }
    } catch (e) {
      if (e instanceof ToolError) return { ok: false, text: `error: ${e.message}` };
      return { ok: false, text: `error: ${(e as Error).message.split('\n')[0]}` };
    }
  }

  /** Files matching a glob inside the project (node_modules, .git and dist left out), relative paths. */
  private async glob(pattern: unknown): Promise<string[]> {
    if (typeof pattern !== 'string' || !pattern) throw new ToolError('pattern is missing');
    if (path.isAbsolute(pattern) || pattern.split('/').includes('..')) throw new ToolError(`"${pattern}" is outside the project: use a pattern relative to the project root`);
    const files = await glob(pattern, { cwd: this.root, ignore: ['**/node_modules/**', '**/.git/**', 'dist/**'], onlyFiles: true, dot: false, followSymbolicLinks: false });
    return files.sort();
  }

  /** Apply a unified diff to one or more files; all-or-nothing. */
  private patch(text: unknown): ToolResult {
    if (typeof text !== 'string' || !text.trim()) throw new ToolError('patch is missing');
    const patches = parsePatch(text);
    if (!patches.length || patches.every((p) => !p.hunks.length)) throw new ToolError('no hunks found: give a unified diff with ---/+++ headers and @@ hunks');
    const writes: { file: string; text: string | null; name: string }[] = [];
    for (const p of patches) {
      const strip = (n: string | undefined) => (n && n !== '/dev/null' ? n.replace(/^[ab]\//, '') : null);
      const target = strip(p.newFileName) ?? strip(p.oldFileName);
      if (!target) throw new ToolError('a patch names no file');
      const f = this.resolve(target, true);
      const deleting = p.newFileName === '/dev/null';
      const before = fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : '';
      if (deleting) {
        writes.push({ file: f, text: null, name: target });
        continue;
      }
      const after = applyPatch(before, p);
      if (after === false) throw new ToolError(`the patch does not apply to ${target} (context lines differ); read the file and try again, or use edit_file`);
      writes.push({ file: f, text: after, name: target });
    }
    for (const w of writes) {
      if (w.text === null) fs.rmSync(w.file, { force: true });
      else {
        fs.mkdirSync(path.dirname(w.file), { recursive: true });
        fs.writeFileSync(w.file, w.text);
      }
    }
    this.dirty = true;
    return { ok: true, text: `patched ${writes.map((w) => w.name).join(', ')}` };
  }
}
