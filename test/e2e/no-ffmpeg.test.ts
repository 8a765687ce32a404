import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readResults, ROOT, runCli, tmpDir, writeFiles } from '../helpers.js';

// If ffmpeg is missing or dies, the evaluation still completes and the evidence says why there is no video.
describe('recording without a working ffmpeg', () => {
  it.each([
    ['missing', '/nonexistent/ffmpeg', /ffmpeg is not installed or does not run/],
    ['dying', 'die', /ffmpeg exited with 1/],
  ])('ffmpeg %s: the evaluation is scored and the trace says why there is no video', async (_, bin, why) => {
    const dir = tmpDir('cookie-noffmpeg-');
    writeFiles(dir, {
      's.cookie.yaml': `query:\n  id: q\n  prompt: A counter.\n  language: zh\n  kind: dynamic\ncandidates:\n  - { name: c, mode: html, path: ${JSON.stringify(path.join(ROOT, 'examples/counter-zh/good-zh.html'))} }\n`,
      'cookie.config.ts': `export default { agent: { steps: 6 } };\n`,
      // passes `ffmpeg -version`, dies as soon as it is asked to encode
      'die.sh': '#!/bin/sh\nif [ "$2" = "-version" ]; then echo ffmpeg fake; exit 0; fi\nexit 1\n',
    });
    fs.chmodSync(path.join(dir, 'die.sh'), 0o755);
    const r = await runCli(['test', '.'], { cwd: dir, env: { COOKIE_FFMPEG: bin === 'die' ? path.join(dir, 'die.sh') : bin } });
    expect(r.code).toBe(0);
    const e = readResults(path.join(dir, 'cookie-results')).evaluations[0]!;
    expect(e.status).toBe('scored');
    const trace = JSON.parse(fs.readFileSync(path.join(dir, 'cookie-results', e.evidenceDir, 'trace.json'), 'utf8'));
    expect(trace.steps.length).toBeGreaterThan(0);
    expect(trace.recording.video).toBeNull();
    expect(trace.recording.videoNote).toMatch(why);
    expect(fs.existsSync(path.join(dir, 'cookie-results', e.evidenceDir, 'video.mp4'))).toBe(false);
  });
});
