/**
 * Fixtures, Playwright Test style: every resource of one evaluation (the deployment, the browser context
 * and page, the recording settings, the agent, the judge) is a fixture whose setup and teardown live in
 * one function: `async (deps, use) => { const r = await setUp(deps); await use(r); await tearDown(r); }`.
 * A fixture is set up the first time it is asked for, after the fixtures it names in its first
 * parameter's destructuring (`async ({ page, evidence }, use) => …`), and torn down in reverse order of
 * setup. A spec overrides a built-in by giving a fixture of the same name — it receives the built-in's
 * value under that name — and adds its own by giving new names (these are set up before perception).
 */
import type { Browser, BrowserContext, Page } from 'playwright';
import type { AppSession } from '../browser/session.js';
import type { ResolvedConfig } from '../config/schema.js';
import type { Deployment } from '../deploy/deploy.js';
import { CookieError } from '../errors.js';
import type { Agent } from '../interact/agent.js';
import type { Judge } from '../plugins/api.js';
import type { EvaluationTask, Evidence } from '../types.js';

/** Interaction recording settings of one evaluation (video and audio of the interaction trace). */
export interface RecordingSettings {
  video: boolean;
  audio: boolean;
  /** Frames per second of the video. */
  fps: number;
}

/** Fixtures shared by every evaluation of a run (Playwright's worker scope). */
export interface WorkerFixtures {
  /** The one Chromium of the run; each evaluation gets its own context. */
  browser: Browser;
}

/** Every fixture an evaluation has (built-ins; a spec may add its own names). */
export interface EvaluationFixtures extends WorkerFixtures {
  /** The query × candidate being evaluated. */
  task: EvaluationTask;
  /** The run's resolved config. */
  config: ResolvedConfig;
  /** Absolute path of this evaluation's evidence folder. */
  evidenceDir: string;
  /** The evidence being collected; written to evidence.json when every other fixture is torn down. Put a custom probe's findings in `evidence.custom`. */
  evidence: Evidence;
  /** The deployed candidate (served on 127.0.0.1 or config `deploy.host`; opened at its local or public URL); closed at teardown. */
  deployment: Deployment;
  /** The fenced browser context and page with its event log; closed at teardown (its log goes into the evidence). */
  session: AppSession;
  context: BrowserContext;
  /** The app's page, not yet navigated: an override may add init scripts (seed localStorage) before perception, and run probes after interaction (after `use` returns). */
  page: Page;
  /** Recording settings of the interaction. */
  recording: RecordingSettings;
  /** The agent of Stage 2, created after static perception (it reads the DOM inventory). */
  agent: Agent;
  /** The judge of Stage 3; it reads only the finished evidence. */
  judge: Judge;
}

/** A fixture function: `deps` holds the fixtures it names (and the overridden built-in under its own name). */
export type FixtureFn<T, F = EvaluationFixtures> = (deps: F, use: (value: T) => Promise<void>) => Promise<void>;

/**
 * Fixture overrides and additions of a spec (`defineSpec({ …, fixtures: { page: async ({ page }, use) => … } })`).
 * Worker fixtures (`browser`) and the run's inputs (`task`, `config`, `evidenceDir`, `evidence`) cannot be overridden.
 */
export type SpecFixtures<Extra extends Record<string, unknown> = Record<string, unknown>> = {
  [K in Exclude<keyof EvaluationFixtures, 'browser' | 'task' | 'config' | 'evidenceDir' | 'evidence'>]?: FixtureFn<EvaluationFixtures[K], EvaluationFixtures & Extra>;
} & { [K in keyof Extra]?: FixtureFn<Extra[K], EvaluationFixtures & Extra> };

/** A fixture could not be set up or torn down, or a spec's fixture is malformed. */
export class FixtureError extends CookieError {
  constructor(
    readonly fixture: string,
    message: string,
  ) {
    super('ERR_COOKIE_FIXTURE', `fixture "${fixture}": ${message}`);
    this.name = 'FixtureError';
  }
}

/** Fixture names that a spec may not override. */
export const FIXED_FIXTURES = ['browser', 'task', 'config', 'evidenceDir', 'evidence'] as const;

/**
 * The names a fixture function destructures in its first parameter (Playwright's fixtureParameterNames):
 * `async ({ page, evidence: ev }, use) => …` → ['page', 'evidence']. A first parameter that is not
 * destructured asks for nothing.
 * @throws FixtureError for a rest element (`...all`): fixtures are set up lazily, so they must be named
 */
export function fixtureParameterNames(fn: (...a: never[]) => unknown, name = '(anonymous)'): string[] {
  const text = Function.prototype.toString.call(fn);
  const open = text.indexOf('(');
  if (open < 0) return [];
  let i = open + 1;
  while (/\s/.test(text[i] ?? '')) i++;
  if (text[i] !== '{') return [];
  let depth = 0;
  let end = i;
  for (; end < text.length; end++) {
    if ('{[('.includes(text[end]!)) depth++;
    else if ('}])'.includes(text[end]!) && --depth === 0) break;
  }
  const body = text.slice(i + 1, end);
  const parts: string[] = [];
  let cur = '';
  depth = 0;
  for (const ch of body) {
    if ('{[('.includes(ch)) depth++;
    if ('}])'.includes(ch)) depth--;
    if (ch === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  return parts
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => {
      if (p.startsWith('...')) throw new FixtureError(name, 'its first parameter uses a rest element; name each fixture it needs (`async ({ page, evidence }, use) => …`)');
      return p.split(/[:=]/)[0]!.trim();
    });
}

interface Running {
  value: unknown;
  teardown: () => Promise<void>;
}

/**
 * Sets fixtures up on demand and tears them down in reverse order. Each name has a chain: the built-in
 * first, then the spec's override (which receives the built-in's value under the same name).
 */
export class FixtureRunner {
  private readonly chains = new Map<string, FixtureFn<unknown, Record<string, unknown>>[]>();
  private readonly values = new Map<string, Promise<unknown>>();
  private readonly lazy = new Map<string, () => Promise<unknown>>();
  private readonly running: { name: string; run: Running }[] = [];

  /**
   * @param builtins built-in fixtures by name
   * @param overrides a spec's fixtures (overrides of built-ins and new names)
   * @param values fixed values (the run's inputs)
   * @param lazyValues values made on first use and never torn down here (worker fixtures: the browser)
   * @throws FixtureError when an override names a fixed fixture or is not a function
   */
  constructor(builtins: Record<string, FixtureFn<unknown, Record<string, unknown>>>, overrides: Record<string, unknown>, values: Record<string, unknown>, lazyValues: Record<string, () => Promise<unknown>> = {}) {
    for (const [k, v] of Object.entries(values)) this.values.set(k, Promise.resolve(v));
    for (const [k, make] of Object.entries(lazyValues)) this.lazy.set(k, make);
    for (const [k, f] of Object.entries(builtins)) this.chains.set(k, [f]);
    for (const [k, f] of Object.entries(overrides)) {
      if (typeof f !== 'function') throw new FixtureError(k, 'is not a function `async (fixtures, use) => { … await use(value) … }`');
      if (this.values.has(k) || this.lazy.has(k)) throw new FixtureError(k, 'cannot be overridden (it is an input of the run)');
      this.chains.set(k, [...(this.chains.get(k) ?? []), f as FixtureFn<unknown, Record<string, unknown>>]);
    }
  }

  /** Names given by the spec that are not built-in (set up before perception). */
  extraNames(builtins: Record<string, unknown>): string[] {
    return [...this.chains.keys()].filter((k) => !(k in builtins));
  }

  /** The value of a fixture, set up (with its dependencies) on first use. @throws FixtureError for an unknown name or a fixture that fails */
  get<K extends keyof EvaluationFixtures>(name: K): Promise<EvaluationFixtures[K]>;
  get(name: string): Promise<unknown>;
  get(name: string): Promise<unknown> {
    let v = this.values.get(name);
    const make = this.lazy.get(name);
    if (!v && make) this.values.set(name, (v = make()));
    if (!v) {
      const chain = this.chains.get(name);
      if (!chain) return Promise.reject(new FixtureError(name, `is not a fixture (known: ${[...this.values.keys(), ...this.chains.keys()].join(', ')})`));
      v = this.setUp(name, chain, chain.length - 1, new Set());
      this.values.set(name, v);
    }
    return v;
  }

  private async setUp(name: string, chain: FixtureFn<unknown, Record<string, unknown>>[], level: number, stack: Set<string>): Promise<unknown> {
    const fn = chain[level]!;
    const deps: Record<string, unknown> = {};
    for (const d of fixtureParameterNames(fn, name)) {
      if (d === name) deps[d] = level > 0 ? await this.setUp(name, chain, level - 1, stack) : undefined;
      else {
        if (stack.has(d)) throw new FixtureError(name, `depends on "${d}", which depends on it`);
        deps[d] = await this.get(d);
      }
    }
    const run = await startFixture(name, fn, deps);
    this.running.push({ name, run });
    return run.value;
  }

  /** Tear every fixture down, last set up first; the first error is thrown after all have run. */
  async teardown(): Promise<void> {
    let first: unknown = null;
    for (const { run } of this.running.reverse()) {
      try {
        await run.teardown();
      } catch (e) {
        first ??= e;
      }
    }
    this.running.length = 0;
    if (first) throw first;
  }
}

/** Run a fixture function until it calls `use`; its teardown is the rest of the function. */
function startFixture(name: string, fn: FixtureFn<unknown, Record<string, unknown>>, deps: Record<string, unknown>): Promise<Running> {
  return new Promise<Running>((resolve, reject) => {
    let used = false;
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const done = Promise.resolve()
      .then(() =>
        fn(deps, async (value) => {
          if (used) throw new FixtureError(name, 'called use() twice');
          used = true;
          resolve({ value, teardown: async () => (release(), await done) });
          await released;
        }),
      )
      .then(
        () => {
          if (!used) reject(new FixtureError(name, 'returned without calling use(value)'));
        },
        (e: unknown) => {
          if (!used) reject(e);
          else throw e;
        },
      );
    done.catch(() => {}); // teardown errors surface through teardown()
  });
}
