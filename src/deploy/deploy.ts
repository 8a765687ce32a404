import fs from 'node:fs';
import path from 'node:path';
import { ArtifactError } from '../errors.js';
import type { DeployEvidence, EvaluationTask } from '../types.js';
import { deployProject, type ProjectOptions } from './project.js';
import { startStaticServer } from './static-server.js';
import { DEFAULT_HOST, publicOriginFor, type Serving } from '../util/public-url.js';

/** A deployed candidate: its evidence plus a way to tear it down. */
export interface Deployment {
  evidence: DeployEvidence;
  close(): Promise<void>;
}

/**
 * Find what to serve for an `html` candidate: a file → its folder and the file; a folder → the folder
 * and its index.html (or its only .html file).
 * @throws ArtifactError when the path is missing or holds no HTML entry
 */
export function resolveHtmlArtifact(artifactPath: string): { root: string; entry: string } {
  if (!fs.existsSync(artifactPath)) throw new ArtifactError(`artifact not found: ${artifactPath}`);
  const st = fs.statSync(artifactPath);
  if (st.isFile()) {
    if (!/\.html?$/i.test(artifactPath)) throw new ArtifactError(`artifact is not an .html file: ${artifactPath}`);
    return { root: path.dirname(artifactPath), entry: path.basename(artifactPath) };
  }
  if (fs.existsSync(path.join(artifactPath, 'index.html'))) return { root: artifactPath, entry: 'index.html' };
  const htmls = fs.readdirSync(artifactPath).filter((f) => /\.html?$/i.test(f));
  if (htmls.length === 1) return { root: artifactPath, entry: htmls[0]! };
  throw new ArtifactError(`folder has no index.html${htmls.length ? ` and ${htmls.length} other .html files` : ''}: ${artifactPath}`);
}

/**
 * Deploy a candidate (paper §4.1 "Install & start"; METHOD.md §2.1): an HTML file or static folder is
 * served as is; a React/Vite project is installed, built and served (see project.ts). Each on its own
 * OS-assigned port, bound to `serving.host` (default 127.0.0.1). With `serving.publicUrl` the evidence's `url`
 * (the one the browser opens) is that origin with the port filled in, and `localUrl` where this machine serves it.
 * @param serving config `deploy` (bind address, public URL template); default: 127.0.0.1, no public URL
 * @throws ArtifactError when the artifact is missing or unusable; BuildFailure when a project does not build
 */
export async function deploy(task: EvaluationTask, project: ProjectOptions, deny: string[] = [], serving: Serving = { host: DEFAULT_HOST }): Promise<Deployment> {
  const { host, publicUrl } = serving;
  /** The URL the browser opens: the local one, or the same path on the public origin. */
  const opened = (localUrl: string, port: number): { url: string; publicUrl?: string } => {
    if (!publicUrl) return { url: localUrl };
    const u = new URL(localUrl);
    const pub = `${publicOriginFor(publicUrl, port)}${u.pathname}${u.search}`;
    return { url: pub, publicUrl: pub };
  };
  if (task.candidate.mode === 'react') {
    if (!fs.existsSync(task.candidate.artifactPath) || !fs.statSync(task.candidate.artifactPath).isDirectory()) throw new ArtifactError(`a react candidate must be a project folder: ${task.candidate.artifactPath}`);
    const p = await deployProject(task.candidate.artifactPath, { ...project, host, ...(publicUrl ? { publicUrl } : {}) });
    return { evidence: { ...opened(p.url, p.port), localUrl: p.url, host, port: p.port, root: p.root, entry: 'index.html', mode: 'react', steps: p.steps }, close: p.close };
  }
  const { root, entry } = resolveHtmlArtifact(task.candidate.artifactPath);
  const server = await startStaticServer(root, { deny, host });
  const localUrl = `${server.origin}/${entry.split('/').map(encodeURIComponent).join('/')}`;
  return {
    evidence: { ...opened(localUrl, server.port), localUrl, host, port: server.port, root, entry, mode: task.candidate.mode },
    close: () => server.close(),
  };
}
