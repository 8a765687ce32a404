import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ResolvedConfig } from '../config/schema.js';
import { ArtifactError } from '../errors.js';
import { PROMPTS_DIR } from '../prompts.js';
import { artifactFiles, MAX_ARTIFACT_BYTES } from '../spec/artifacts.js';
import type { EvaluationResult, EvaluationTask } from '../types.js';
import { writeJsonAtomic } from '../util/atomic.js';
import { COOKIE_VERSION } from '../version.js';

/** File of the result cache inside the output dir. */
export const CACHE_FILE = 'cache.json';
/** Bytes read at a time while hashing (files are streamed, never held whole). */
const CHUNK = 1 << 20;

/**
 * sha256 of the candidate's files ({@link artifactFiles}): an HTML file with the local files it references,
 * or a whole folder (without node_modules and build output). Files are read in chunks; a file that is no
 * longer a regular file when opened (swapped for a FIFO or device) is refused, never read.
 * @returns the hash, or 'missing' when `p` does not exist
 * @throws ArtifactError when `p` is not a regular file or folder, or is over {@link MAX_ARTIFACT_BYTES}
 */
export function hashArtifact(p: string): string {
  if (!fs.existsSync(p)) return 'missing';
  const h = crypto.createHash('sha256');
  const buf = Buffer.alloc(CHUNK);
  for (const { file, rel } of artifactFiles(p)) {
    h.update(rel);
    h.update('\0');
    // O_NONBLOCK: opening a FIFO put in its place would otherwise wait for a writer
    const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    try {
      if (!fs.fstatSync(fd).isFile()) throw new ArtifactError(`${file} is not a regular file`);
      for (let n; (n = fs.readSync(fd, buf, 0, CHUNK, null)) > 0; ) h.update(buf.subarray(0, n));
    } finally {
      fs.closeSync(fd);
    }
    h.update('\0');
  }
  return h.digest('hex');
}

/** Hash of every prompt file (prompt versions are part of the key) but the generation prompts (`generate-*`: they change the artifact, which is hashed itself). */
function promptsHash(): string {
  const h = crypto.createHash('sha256');
  for (const f of fs.existsSync(PROMPTS_DIR) ? fs.readdirSync(PROMPTS_DIR).sort() : []) if (!f.startsWith('generate-')) h.update(f).update(fs.readFileSync(path.join(PROMPTS_DIR, f)));
  return h.digest('hex').slice(0, 16);
}

/**
 * The cache key of an evaluation: a hash of the artifact's files, the query, the agent and judge
 * settings (models, budgets, seeds, ablations, recording, viewports), the prompt versions and Cookie's
 * version. Secrets are not part of it.
 */
export function cacheKey(task: EvaluationTask, config: ResolvedConfig, artifactHash = hashArtifact(task.candidate.artifactPath)): string {
  const model = (m: ResolvedConfig['agent']['model']) => (m ? { provider: m.provider, model: m.model, baseURL: m.baseURL, temperature: m.temperature, maxTokens: m.maxTokens } : null);
  const settings = {
    cookie: COOKIE_VERSION,
    query: { prompt: task.query.prompt, language: task.query.language, kind: task.query.kind },
    mode: task.candidate.mode,
    artifact: artifactHash,
    agent: { kind: config.agent.kind, steps: config.agent.steps, seed: config.agent.seed, holdMs: config.agent.holdMs, freeze: config.agent.freeze, model: model(config.agent.model) },
    judge: { kind: config.judge.kind, model: model(config.judge.model), finalFunctionality: config.judge.finalFunctionality, keyframes: config.judge.keyframes, sourceChars: config.judge.sourceChars },
    ablation: config.ablation,
    recording: config.recording,
    viewports: config.viewports,
    offlineCdn: config.offlineCdn,
    prompts: promptsHash(),
  };
  return crypto.createHash('sha256').update(JSON.stringify(settings)).digest('hex').slice(0, 32);
}

/** One cached evaluation. */
interface CacheEntry {
  key: string;
  result: EvaluationResult;
}

/**
 * The result cache of an output dir (`<outputDir>/cache.json`), written atomically after every finished
 * evaluation, so an interrupted run (Ctrl-C or kill -9) keeps all of them and the next run reuses them.
 * An entry is reused only when its key matches and its evidence folder is still there.
 */
export class ResultCache {
  private entries: Record<string, CacheEntry> = {};
  readonly file: string;

  constructor(private readonly outputDir: string) {
    this.file = path.join(outputDir, CACHE_FILE);
    try {
      const data = JSON.parse(fs.readFileSync(this.file, 'utf8')) as { version: number; entries: Record<string, CacheEntry> };
      if (data.version === 1) this.entries = data.entries;
    } catch {
      /* no cache yet */
    }
  }

  /** A reusable result for this task and key, marked cached; null on a miss. */
  get(taskId: string, key: string): EvaluationResult | null {
    const e = this.entries[taskId];
    if (!e || e.key !== key) return null;
    if (e.result.status !== 'build-failed' && !fs.existsSync(path.join(this.outputDir, e.result.evidenceDir, 'evidence.json'))) return null;
    return { ...e.result, cached: true, cacheKey: key };
  }

  /** Store a finished evaluation (never errors of Cookie itself: they are retried next time). */
  put(taskId: string, key: string, result: EvaluationResult): void {
    if (result.status === 'error') return;
    this.entries[taskId] = { key, result: { ...result, cached: false, cacheKey: key } };
    writeJsonAtomic(this.file, { version: 1, entries: this.entries });
  }

  /** Evidence folders the cache still refers to (they must not be deleted). */
  has(taskId: string): boolean {
    return taskId in this.entries;
  }

  /** Delete the cache file of an output dir. @returns whether there was one */
  static clear(outputDir: string): boolean {
    const f = path.join(outputDir, CACHE_FILE);
    if (!fs.existsSync(f)) return false;
    fs.rmSync(f);
    return true;
  }
}
