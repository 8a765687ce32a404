// LocalLLM VisualCodeTest: the aquarium prompt answered by six models.
import path from 'node:path';
import { defineSpec } from 'cookie-eval';
import { htmlFiles, read, REAL } from './shared.ts';

const dir = 'electricazimuth__LocalLLM_VisualCodeTest/results/2025.04.28/html';

export default defineSpec({
  query: { id: 'localllm-aquarium', prompt: read('electricazimuth__LocalLLM_VisualCodeTest/code_prompts/aquarium.md'), language: 'en', kind: 'dynamic', category: 'Simulation' },
  candidates: htmlFiles(dir).map((f) => ({ name: f.replace(/_aquarium_\d+_\d+\.html$/, ''), mode: 'html', path: path.join(REAL, dir, f) })),
});
