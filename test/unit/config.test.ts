import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, resolveConfig } from '../../src/config/load.js';
import { runCookie } from '../../src/runner/run.js';
import { tmpDir, writeFiles } from '../helpers.js';

describe('config', () => {
  it('has a sensible default for everything', () => {
    const c = resolveConfig({});
    expect(c.viewports.map((v) => v.width)).toEqual([375, 768, 1280]);
    expect(c.agent.steps).toBe(25);
    expect(c.outputDir).toBe('cookie-results');
    expect(c.reporters).toEqual(['console']);
    expect(c.timeouts.navigation).toBe(15_000);
    expect(c.browser.executablePath).toBeTruthy();
  });

  it('rejects bad values and unknown keys with file, field and fix', () => {
    expect(() => resolveConfig({ concurrency: 0 }, 'cookie.config.ts')).toThrow(/^cookie\.config\.ts: concurrency: .*Fix: use a whole number from 1 to 64$/);
    expect(() => resolveConfig({ agent: { stepz: 3 } }, 'cookie.config.ts')).toThrow(/cookie\.config\.ts: agent: unknown key "stepz". Fix: did you mean "steps" instead of "stepz"\?/);
    expect(() => resolveConfig({ reporter: ['junit'] }, 'cookie.config.ts')).toThrow(/cookie\.config\.ts: \(top level\): unknown key "reporter". Fix: did you mean "reporters" instead of "reporter"\?/);
    // nothing close: the keys allowed at that place
    expect(() => resolveConfig({ timeouts: { everything: 1 } }, 'cookie.config.ts')).toThrow(/timeouts: unknown key "everything". Fix: remove or rename everything \(a typo\?\); allowed here: .*\binteract\b/);
    expect(() => resolveConfig({ viewports: [{ width: 10, height: 800 }] }, 'c.ts')).toThrow(/c\.ts: viewports\.0\.width: .*Fix: use a width in px/);
  });

  it('loads cookie.config.ts from the working directory and reports a broken one', async () => {
    const dir = tmpDir();
    writeFiles(dir, { 'cookie.config.ts': `export default { concurrency: 3, outputDir: 'out' } satisfies Record<string, unknown>;\n` });
    const { config, file } = await loadConfig(dir);
    expect(file).toBe(path.join(dir, 'cookie.config.ts'));
    expect(config.concurrency).toBe(3);
    writeFiles(dir, { 'cookie.config.ts': `export const x = 1;\n` });
    await expect(loadConfig(dir)).rejects.toThrow(/default export: is missing\. Fix: add `export default defineConfig/);
    const none = tmpDir();
    expect((await loadConfig(none)).file).toBeNull();
  });
  it('a number out of range says the range', () => {
    expect(() => resolveConfig({ thresholds: { total: 160 } }, 'c.ts')).toThrow('c.ts: thresholds.total: Too big: expected number to be <=100. Fix: use a number from 0 to 100');
    expect(() => resolveConfig({ judge: { keyframes: -1 } }, 'c.ts')).toThrow(/judge\.keyframes: .*Fix: use a number from 0 to 32$/);
  });
});

describe('every problem of a config file at once', () => {
  it('schema errors, an unknown reporter name and a range come in one report', async () => {
    const dir = tmpDir();
    writeFiles(dir, {
      'cookie.config.mjs': "export default { thresholds: { total: 160 }, reporters: ['console', 'htlm', ['junit', { outputFile: 'j.xml' }]] };\n",
      'a.cookie.yaml': 'query:\n  id: q\n  prompt: p\n  language: en\n  kind: dynamic\ncandidates:\n  - { name: c, mode: html, path: a.html }\n',
    });
    const r = await runCookie({ cwd: dir, paths: ['.'], list: true, silent: true });
    const file = path.join(dir, 'cookie.config.mjs');
    expect([r.exitCode, r.specErrors]).toEqual([2, [[
      `${file}: thresholds.total: Too big: expected number to be <=100. Fix: use a number from 0 to 100`,
      `${file}: reporters.1: unknown reporter "htlm". Fix: did you mean "html"? use one of console, json, junit, html, leaderboard, github`,
    ].join('\n')]]);
  });
});
