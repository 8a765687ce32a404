// OpenAI's GPT-5 coding examples: three prompts, each answered by GPT-5 and GPT-5.2.
import path from 'node:path';
import { parse } from 'yaml';
import { defineSpec } from 'cookie-eval';
import { read, REAL } from './shared.ts';

const ids = ['typing-rain', 'brutalist-dev-landing-page', 'camping-gear-checklist'];

export default defineSpec(
  ids.map((id) => ({
    query: {
      id: `gpt5-${id}`,
      prompt: (parse(read(`openai__gpt-5-coding-examples/examples/${id}.yaml`)) as { prompt: string }).prompt,
      language: 'en',
      kind: id === 'brutalist-dev-landing-page' ? ('static' as const) : ('dynamic' as const),
    },
    candidates: [
      { name: 'GPT-5', mode: 'html' as const, path: path.join(REAL, `openai__gpt-5-coding-examples/apps/${id}/index.html`) },
      { name: 'GPT-5.2', mode: 'html' as const, path: path.join(REAL, `openai__gpt-5-coding-examples/apps/${id}-5.2/index.html`) },
    ],
  })),
);
