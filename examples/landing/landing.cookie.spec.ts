// A TypeScript spec: the same shape as a YAML spec, typed by defineSpec.
import { defineSpec } from 'cookie-eval';

export default defineSpec({
  query: {
    id: 'coffee-landing',
    prompt: 'Design a warm, modern landing page for a small coffee roaster in Lisbon with a hero, three features and the shop address.',
    language: 'en',
    kind: 'static',
    category: 'Display & Content',
    difficulty: 'Easy',
  },
  candidates: [{ name: 'good', mode: 'html', path: 'bloom.html', thresholds: { total: 70 } }],
});
