import { describe, expect, it } from 'vitest';
import { FixtureError, FixtureRunner, fixtureParameterNames, type FixtureFn } from '../../src/runner/fixtures.js';

type Fn = FixtureFn<unknown, Record<string, unknown>>;

describe('fixtures (Playwright Test style)', () => {
  it('reads the fixtures a function names in its first parameter', () => {
    expect(fixtureParameterNames(async ({ page, evidence: ev }: Record<string, unknown>, use: (v: unknown) => Promise<void>) => use([page, ev]))).toEqual(['page', 'evidence']);
    expect(fixtureParameterNames(async ({}, use: (v: unknown) => Promise<void>) => use(1))).toEqual([]);
    expect(fixtureParameterNames(async (_fx: unknown, use: (v: unknown) => Promise<void>) => use(1))).toEqual([]);
    expect(() => fixtureParameterNames(async ({ ...all }: Record<string, unknown>, use: (v: unknown) => Promise<void>) => use(all), 'x')).toThrow(FixtureError);
  });

  it('sets fixtures up lazily after their dependencies and tears them down in reverse order', async () => {
    const log: string[] = [];
    const builtins: Record<string, Fn> = {
      deployment: async ({ config }, use) => {
        log.push(`deploy ${String(config)}`);
        await use('http://127.0.0.1:1');
        log.push('undeploy');
      },
      page: async ({ deployment }, use) => {
        log.push(`open ${String(deployment)}`);
        await use('page');
        log.push('close page');
      },
      agent: async ({}, use) => {
        log.push('agent');
        await use('explorer');
      },
    };
    const fx = new FixtureRunner(builtins, {}, { config: 'cfg' });
    expect(await fx.get('page')).toBe('page');
    expect(log).toEqual(['deploy cfg', 'open http://127.0.0.1:1']); // agent not asked for: never set up
    await fx.teardown();
    expect(log).toEqual(['deploy cfg', 'open http://127.0.0.1:1', 'close page', 'undeploy']);
  });

  it('an override receives the built-in under the same name and runs its own code before and after', async () => {
    const log: string[] = [];
    const builtins: Record<string, Fn> = {
      page: async ({}, use) => {
        log.push('built-in open');
        await use({ scripts: [] as string[] });
        log.push('built-in close');
      },
    };
    const evidence: { custom?: Record<string, unknown> } = {};
    const overrides: Record<string, Fn> = {
      page: async ({ page, evidence: ev }, use) => {
        (page as { scripts: string[] }).scripts.push('seed localStorage');
        await use(page);
        (ev as typeof evidence).custom = { probe: 'ran after interaction' };
        log.push('probe');
      },
    };
    const fx = new FixtureRunner(builtins, overrides, { evidence });
    const page = (await fx.get('page')) as unknown as { scripts: string[] };
    expect(page.scripts).toEqual(['seed localStorage']);
    expect(evidence.custom).toBeUndefined();
    await fx.teardown();
    expect(evidence.custom).toEqual({ probe: 'ran after interaction' });
    expect(log).toEqual(['built-in open', 'probe', 'built-in close']);
  });

  it('an override that does not ask for the built-in replaces it without setting it up', async () => {
    let builtinRan = false;
    const fx = new FixtureRunner({ agent: async ({}, use) => ((builtinRan = true), use('explorer')) }, { agent: (async ({}, use) => use('scripted')) as Fn }, {});
    expect(await fx.get('agent')).toBe('scripted');
    expect(builtinRan).toBe(false);
  });

  it('names the fixture that fails, that never calls use, or that overrides an input of the run', async () => {
    const failing = new FixtureRunner({ page: async () => Promise.reject(new Error('no browser')) }, {}, {});
    await expect(failing.get('page')).rejects.toThrow('no browser');
    const lazy = new FixtureRunner({ page: async () => {} }, {}, {});
    await expect(lazy.get('page')).rejects.toThrow('fixture "page": returned without calling use(value)');
    await expect(lazy.get('nope')).rejects.toThrow(/fixture "nope": is not a fixture/);
    expect(() => new FixtureRunner({}, { evidence: async ({}, use: (v: unknown) => Promise<void>) => use(1) }, { evidence: {} })).toThrow(/fixture "evidence": cannot be overridden/);
    expect(() => new FixtureRunner({}, { page: 'not a function' }, {})).toThrow(/fixture "page": is not a function/);
  });

  it('a teardown error surfaces after every other fixture was torn down', async () => {
    const log: string[] = [];
    const fx = new FixtureRunner(
      {
        a: async ({}, use) => {
          await use(1);
          log.push('a down');
        },
        b: async ({ a }, use) => {
          await use(a);
          throw new Error('probe failed');
        },
      },
      {},
      {},
    );
    await fx.get('b');
    await expect(fx.teardown()).rejects.toThrow('probe failed');
    expect(log).toEqual(['a down']);
  });
});
