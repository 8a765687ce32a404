// InteractScience: two scientific-demo tasks, each answered by four models (HTML extracted from JSONL).
import path from 'node:path';
import { defineSpec } from 'cookie-eval';
import { htmlFiles, read, REAL } from './shared.ts';

const tasks = ['AdditiveCipher', 'GreedyAlgorithmsForAMinimumSpanningTree'];

export default defineSpec(
  tasks.map((t) => {
    const dir = `open-compass__InteractScience/_extracted_DERIVED/${t}`;
    const rec = JSON.parse(read(`${dir}/task_record_from_data_interactscience.jsonl.json`)) as { question: string };
    return {
      query: { id: `interactscience-${t}`, prompt: rec.question, language: 'en', kind: 'dynamic' as const, category: 'Simulation' },
      candidates: htmlFiles(dir).map((f) => ({ name: f.replace(/\.html$/, ''), mode: 'html' as const, path: path.join(REAL, dir, f) })),
    };
  }),
);
