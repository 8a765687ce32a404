import { InputError } from '../src/errors.js';
import type { Reporter } from '../src/types.js';
import { ConsoleReporter } from './console.js';
import { JsonReporter } from './json.js';
import { HtmlReporter } from './html/index.js';
import { JunitReporter } from './junit.js';
import { LeaderboardReporter } from './leaderboard.js';

/**
 * Reporter registry (Vitest style: a name → factory map; config may say `'junit'` or
 * `['junit', { outputFile: 'junit.xml' }]`).
 */
export const REPORTERS: Record<string, (options: Record<string, unknown>) => Reporter> = {
  console: (o) => new ConsoleReporter(o),
  json: (o) => new JsonReporter(o),
  junit: (o) => new JunitReporter(o),
  html: (o) => new HtmlReporter(o),
  leaderboard: (o) => new LeaderboardReporter(o),
};

/**
 * Create reporters from config entries.
 * @throws InputError for an unknown reporter name
 */
export function createReporters(entries: (string | [string, Record<string, unknown>])[], source = '--reporter'): Reporter[] {
  return entries.map((e) => {
    const [name, options] = typeof e === 'string' ? [e, {}] : e;
    const make = REPORTERS[name];
    if (!make) throw new InputError(source, 'reporters', `unknown reporter "${name}"`, `use one of ${Object.keys(REPORTERS).join(', ')}`);
    return make(options);
  });
}

/** Fan every event out to several reporters (Playwright's multiplexer); one failing reporter never stops the others. */
export function multiplex(reporters: Reporter[]): Required<Omit<Reporter, 'apiVersion'>> {
  const call = (hook: keyof Reporter) => async (...args: unknown[]) => {
    for (const r of reporters) {
      try {
        await (r[hook] as ((...a: unknown[]) => unknown) | undefined)?.apply(r, args);
      } catch (e) {
        process.stderr.write(`reporter ${r.constructor.name}.${hook} failed: ${(e as Error).message}\n`);
      }
    }
  };
  return {
    onRunStart: call('onRunStart'),
    onEvaluationStart: call('onEvaluationStart'),
    onStageStart: call('onStageStart'),
    onEvaluationEnd: call('onEvaluationEnd'),
    onRunEnd: call('onRunEnd'),
    onError: call('onError'),
  };
}
