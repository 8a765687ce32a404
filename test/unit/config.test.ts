import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadConfig, resolveConfig, scrubDataUrls } from '../../src/config/load.js';
import { runCookie } from '../../src/runner/run.js';
import { tmpDir, writeFiles } from '../helpers.js';
import { defaultChromium } from '../../src/util/chromium.js';

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

  it('a model-backed agent or judge without a model names its own field and environment variables', () => {
    expect(() => resolveConfig({ judge: { kind: 'model' } }, 'cookie.config.ts')).toThrow(/^cookie\.config\.ts: judge\.model: is missing \(judge\.kind is "model"\)\. Fix: give judge\.model: .*COOKIE_JUDGE_PROVIDER and COOKIE_JUDGE_MODEL, or use judge\.kind "offline"$/);
    expect(() => resolveConfig({ agent: { kind: 'model' } }, 'cookie.config.ts')).toThrow(/agent\.model: is missing .*Fix: give agent\.model: .*COOKIE_AGENT_MODEL/);
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

describe('a config that fails outside a plain throw', () => {
  /** Run loadConfig on `text` in a child Node (an unhandled rejection or a timer's throw would end vitest's worker). */
  const loadInChild = (text: string) => {
    const dir = tmpDir();
    writeFiles(dir, { 'bad.config.ts': text });
    const load = path.resolve('src/config/load.ts');
    const code = `const { loadConfig } = await import(${JSON.stringify(load)}); try { await loadConfig(${JSON.stringify(dir)}, 'bad.config.ts'); await new Promise((r) => setTimeout(r, 300)); console.log('loaded'); } catch (e) { console.log('ERR ' + e.message); }`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8', timeout: 60_000 });
    return { file: path.join(dir, 'bad.config.ts'), status: r.status, out: r.stdout + r.stderr };
  };

  it('a default export that rejects is an InputError naming the file, not a crash dump', () => {
    const r = loadInChild('export default Promise.reject(new Error("nope"));\n');
    expect(r.out.trim()).toBe(`ERR ${r.file}: default export: rejected: nope. Fix: export the config object itself, or a promise that resolves to it: \`export default defineConfig({ ... })\``);
    expect(r.status).toBe(0);
  });

  it('a throw from config code after it loaded names the file and exits 2, with no data: URL', () => {
    const r = loadInChild("setTimeout(() => { throw new Error('x'); }, 10);\nexport default {};\n");
    expect(r.out).not.toContain('data:');
    expect(r.out.trim()).toBe(`✗ ${r.file}: (file): threw after it loaded: x. Fix: the config must only export settings; do not start timers, servers or promises that can fail at the top level`);
    expect(r.status).toBe(2);
  });

  it('a getter that throws names the file', async () => {
    const dir = tmpDir();
    writeFiles(dir, { 'cookie.config.mjs': "export default { get concurrency() { throw new Error('getter boom'); } };\n" });
    await expect(loadConfig(dir)).rejects.toThrow(`${path.join(dir, 'cookie.config.mjs')}: default export: throws when read: getter boom. Fix: export plain values`);
  });

  it('data: URLs in load errors are replaced by the file', () => {
    expect(scrubDataUrls('at data:text/javascript,__filename%3D%22x%22%3Bvar (1:2)', '/c.ts')).toBe('at /c.ts (1:2)');
  });
});

describe('config messages that agree with themselves', () => {
  it('an exclusive lower bound says "above", and agent.kind lists both kinds', () => {
    expect(() => resolveConfig({ timeouts: { navigation: -5 } }, 'c.ts')).toThrow('c.ts: timeouts.navigation: Too small: expected number to be >0. Fix: use a number above 0');
    expect(() => resolveConfig({ agent: { kind: 'bogus' } }, 'c.ts')).toThrow(/c\.ts: agent\.kind: .*Fix: use "offline" \(the built-in explorer or judge\) or "model"/);
  });
});

describe('the default Chromium binary', () => {
  it('prefers the headless shell, falls back to the full chromium, and COOKIE_CHROMIUM overrides both', () => {
    const only = (...present: string[]) => (p: string) => present.includes(p);
    expect(defaultChromium({}, only('/usr/bin/chromium-headless-shell', '/usr/bin/chromium'))).toBe('/usr/bin/chromium-headless-shell');
    expect(defaultChromium({}, only('/usr/bin/chromium'))).toBe('/usr/bin/chromium');
    // nothing installed: the path the launch error then names with its fix
    expect(defaultChromium({}, only())).toBe('/usr/bin/chromium');
    expect(defaultChromium({ COOKIE_CHROMIUM: '/opt/chrome/chrome' }, only('/usr/bin/chromium-headless-shell'))).toBe('/opt/chrome/chrome');
  });

  it('a config without browser.executablePath resolves to that default', () => {
    const r = resolveConfig({});
    expect(r.browser.executablePath).toBe(defaultChromium());
  });
});
