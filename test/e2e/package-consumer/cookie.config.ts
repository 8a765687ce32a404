// A consumer's config: a reporter, an agent and a judge of its own, each given by module path.
import { defineConfig } from 'cookie-eval/config';

export default defineConfig({
  reporters: ['./my-reporter.ts'],
  agent: { use: './my-agent.ts', steps: 5 },
  judge: { use: ['./my-judge.ts', { bonus: 7 }] },
  recording: { video: false, audio: false },
  viewports: [{ width: 900, height: 700 }],
});
