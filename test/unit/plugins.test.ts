import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/load.js';
import { InputError } from '../../src/errors.js';
import { AGENT_API_VERSION, JUDGE_API_VERSION, REPORTER_API_VERSION } from '../../src/plugins/api.js';
import { createJudge, createReporters, loadAgentPlugin } from '../../src/plugins/load.js';
import { isModulePath, resolveEntryPath } from '../../src/plugins/paths.js';
import { evidence as evidenceFixture } from '../fixtures/evidence.js';
import { tmpDir, writeFiles } from '../helpers.js';

describe('plugins: one extension surface for agents, judges and reporters', () => {
  it('tells module paths from built-in names and resolves them against the config folder', () => {
    expect(isModulePath('junit')).toBe(false);
    expect(isModulePath('./my-reporter.ts')).toBe(true);
    expect(isModulePath('reporter.mjs')).toBe(true);
    expect(resolveEntryPath('./r.ts', '/proj')).toBe(path.resolve('/proj/r.ts'));
    expect(resolveEntryPath(['./r.ts', { a: 1 }], '/proj')).toEqual([path.resolve('/proj/r.ts'), { a: 1 }]);
    expect(resolveEntryPath('junit', '/proj')).toBe('junit');
  });

  it('creates reporters from a name, [name, options], an object and a module path (class, factory or object)', async () => {
    const dir = tmpDir();
    writeFiles(dir, {
      'class-reporter.ts': "export default class R { apiVersion = 1 as const; constructor(readonly options: { tag?: string }) {} onError(m: string) { (globalThis as any).__cookieSeen = `${this.options.tag}:${m}`; } }\n",
      'factory-reporter.mjs': 'export default (o) => ({ name: "f", onError() {}, options: o });\n',
    });
    const obj = { onError() {} };
    const rs = await createReporters(['json', ['junit', { outputFile: 'j.xml' }], obj, [path.join(dir, 'class-reporter.ts'), { tag: 't' }], path.join(dir, 'factory-reporter.mjs')]);
    expect(rs).toHaveLength(5);
    expect(rs[2]).toBe(obj);
    await rs[3]!.onError!('hello');
    expect((globalThis as { __cookieSeen?: string }).__cookieSeen).toBe('t:hello');
    expect((rs[4] as { options?: unknown }).options).toEqual({});
  });

  it('refuses an unknown name, a missing module and a plugin of another API version, naming the fix', async () => {
    await expect(createReporters(['nope'], 'cookie.config.ts')).rejects.toThrow(/cookie.config.ts: reporters: unknown reporter "nope".*Fix: use one of console, json/);
    await expect(createReporters(['./missing-reporter.ts'])).rejects.toThrow(/reporter module ".*missing-reporter.ts" not found/);
    await expect(createReporters([{ apiVersion: 2 } as never])).rejects.toThrow(/speaks reporter API version 2, this Cookie speaks 1/);
    expect(REPORTER_API_VERSION).toBe(1);
    const config = resolveConfig({ judge: { use: { apiVersion: 9, name: 'future', create: () => ({}) } } });
    await expect(createJudge(config)).rejects.toBeInstanceOf(InputError);
  });

  it('the built-in judge and agent are plugins chosen by name; a judge module path and options reach create()', async () => {
    const offline = await createJudge(resolveConfig({}));
    expect(offline.name).toBe('offline');
    const j = await offline.judge(evidenceFixture(), '/nonexistent');
    expect(j.scores.total).toBeGreaterThan(0);
    const dir = tmpDir();
    writeFiles(dir, {
      'fixed-judge.ts': `import type { Evidence } from '../../src/types.js';\nexport default { apiVersion: ${JUDGE_API_VERSION}, name: 'fixed', create: (_ctx: unknown, o: { total: number }) => ({ name: 'fixed', judge: (ev: Evidence) => ({ judge: 'fixed', total: o.total, query: ev.task.query.id }) }) };\n`,
    });
    const custom = await createJudge(resolveConfig({ judge: { use: [path.join(dir, 'fixed-judge.ts'), { total: 42 }] } }));
    expect(await custom.judge(evidenceFixture(), dir)).toMatchObject({ judge: 'fixed', total: 42 });
    const { plugin } = await loadAgentPlugin(resolveConfig({}));
    expect(plugin.name).toBe('offline');
    expect(plugin.apiVersion).toBe(AGENT_API_VERSION);
    const model = await loadAgentPlugin(resolveConfig({ agent: { use: 'model' } }));
    expect(model.plugin.name).toBe('model');
  });
});
