import fs from 'node:fs';
import path from 'node:path';
import { ArtifactError } from '../errors.js';
import type { DeployEvidence, EvaluationTask } from '../types.js';
import { startStaticServer } from './static-server.js';

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
 * Deploy a candidate (paper §4.1 "Install & start"; METHOD.md §2.1): serve it on 127.0.0.1 on its own
 * OS-assigned port.
 * @throws ArtifactError when the artifact is missing or unusable; Error for modes not supported yet
 */
export async function deploy(task: EvaluationTask): Promise<Deployment> {
  if (task.candidate.mode !== 'html') throw new ArtifactError(`mode "${task.candidate.mode}" is not supported yet`);
  const { root, entry } = resolveHtmlArtifact(task.candidate.artifactPath);
  const server = await startStaticServer(root);
  const url = `${server.origin}/${entry.split('/').map(encodeURIComponent).join('/')}`;
  return {
    evidence: { url, port: server.port, root, entry, mode: task.candidate.mode },
    close: () => server.close(),
  };
}
