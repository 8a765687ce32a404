// KCORES LLM Arena: two Chinese prompts, each answered by many models; human scores in _index_DERIVED.csv.
import path from 'node:path';
import { defineSpec } from 'cookie-eval';
import { firstFence, htmlFiles, read, REAL } from './shared.ts';

/** `benchmark-solar-system-GPT-4o-turn-2-high-score.html` → `GPT-4o` (both benchmarks' file naming). */
const modelName = (f: string) => f.replace(/^(benchmark-solar-system-|mandelbrot-set-meet-libai-benchmark-)/, '').replace(/(-turn-\d)?(-high-score)?\.html$/, '');

const bench = (name: string, id: string, skip: RegExp) => {
  const dir = `KCORES__kcores-llm-arena/${name}/src`;
  return {
    query: { id, prompt: firstFence(read(`KCORES__kcores-llm-arena/${name}/README.md`)), language: 'zh', kind: 'dynamic' as const, category: 'Graphics Development' },
    candidates: htmlFiles(dir)
      .filter((f) => !skip.test(f))
      .map((f) => ({ name: modelName(f), mode: 'html' as const, path: path.join(REAL, dir, f) })),
  };
};

export default defineSpec([
  bench('benchmark-solar-system', 'kcores-solar-system', /^$/),
  // the human-written reference page is not a model's answer
  bench('benchmark-mandelbrot-set-meet-libai', 'kcores-mandelbrot-libai', /-human\.html$/),
]);
