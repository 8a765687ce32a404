import path from 'node:path';
import type { ResolvedConfig } from '../config/schema.js';
import { projectOptionsOf } from '../deploy/project.js';
import { slug } from '../spec/tasks.js';
import type { EvaluationTask, GenerateSpec } from '../types.js';
import { generationPaths, metaPathOf, readRecord, type GenerationRecord } from './ledger.js';
import { defaultPromptFile, generateAll, parseModelFlag, type GenerateSettings } from './run.js';

/** Folder of generated candidates inside the output dir: `<outputDir>/generated/<candidate>/<model>/…`. */
export const GENERATED_DIR = 'generated';

/** The resolved generation settings of a spec's `generate:` (model config with generation defaults). */
export function settingsOf(g: GenerateSpec, file: string): GenerateSettings {
  const model = typeof g.model === 'string' ? parseModelFlag(g.model, {}, file) : parseModelFlag(`${g.model.provider}:${g.model.model}`, { ...g.model }, file);
  return { model, mode: g.mode, promptFile: g.prompt ?? defaultPromptFile(g.mode), steps: g.steps, tokenBudget: g.tokenBudget };
}

/** The prompt files of a run's generated candidates (watch mode watches them). */
export function generationInputs(tasks: EvaluationTask[]): string[] {
  return [...new Set(tasks.flatMap((t) => (t.candidate.generate ? [t.candidate.generate.prompt ?? defaultPromptFile(t.candidate.generate.mode)] : [])))];
}

/**
 * Give every generated candidate of a run its artifact path, generating what is missing or stale (paper
 * §5's two modes, run by `cookie test` itself): candidates of one spec candidate share one model and
 * settings and are generated together, `concurrency` at a time, into
 * `<outputDir>/generated/<candidate>/<model>/<data_id>.html` (or a project folder). A candidate whose
 * ledger row matches the current settings (query, model, sampling, prompt file's text, budgets) is kept;
 * a changed prompt file or setting regenerates it — and its new files miss the result cache, so it is
 * evaluated again. Generation failures are rows, not exceptions: evaluation reports them
 * (`generation-failed`, or `error` at stage `generate` when the model could not be reached).
 * @param log one line per generation (progress)
 * @returns the rows written by this run
 * @throws InputError for a malformed model or an unreadable prompt file (naming the spec file)
 */
export async function prepareGenerated(tasks: EvaluationTask[], config: ResolvedConfig, outputDir: string, log: (line: string) => void): Promise<GenerationRecord[]> {
  const groups = new Map<string, { settings: GenerateSettings; tasks: EvaluationTask[]; outDir: string }>();
  for (const t of tasks) {
    const g = t.candidate.generate;
    if (!g) continue;
    const key = `${t.suiteFile}\0${t.candidate.name}`;
    let group = groups.get(key);
    if (!group) {
      group = { settings: settingsOf(g, t.suiteFile), tasks: [], outDir: path.join(outputDir, GENERATED_DIR, slug(t.candidate.name)) };
      groups.set(key, group);
    }
    group.tasks.push(t);
    t.candidate.artifactPath = generationPaths(group.outDir, group.settings.model.model, t.query.id, g.mode).artifact;
  }
  const written: GenerationRecord[] = [];
  for (const [, g] of groups) {
    const { records } = await generateAll({
      queries: g.tasks.map((t) => t.query),
      outDir: g.outDir,
      settings: g.settings,
      concurrency: config.concurrency,
      prices: config.pricing,
      host: projectOptionsOf(config),
      onEvent: (e) => {
        if (e.kind === 'end') log(`generated ${e.queryId} × ${g.tasks[0]!.candidate.name} (${g.settings.model.provider}:${g.settings.model.model}, ${g.settings.mode}): ${e.record.status}${e.record.reason ? ` — ${e.record.reason}` : ''} · ${e.record.calls} call(s), ${e.record.inputTokens}+${e.record.outputTokens} tokens, $${e.record.costUsd.toFixed(6)}`);
      },
    });
    written.push(...records);
  }
  return written;
}

