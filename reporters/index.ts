import { combineInputErrors, InputError } from '../src/errors.js';
import { namesModule } from '../src/plugins/paths.js';
import type { Reporter } from '../src/types.js';
import { didYouMeanName as didYouMean } from '../src/util/did-you-mean.js';
import { ConsoleReporter } from './console.js';
import { GithubReporter } from './github.js';
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
  github: (o) => new GithubReporter(o),
};

/** Reporters that write a file, and the option naming it (`html` writes a folder). */
export const FILE_REPORTERS: Record<string, 'outputFile' | 'outputFolder'> = { json: 'outputFile', junit: 'outputFile', leaderboard: 'outputFile', html: 'outputFolder' };

/**
 * Check reporter names before anything runs.
 * @param names the names to check
 * @param source what to blame: `--reporter`, or the config file's path
 * @param field the field to name: `reporters` in a config file
 * @throws InputError naming the source, the field, the unknown name, a "did you mean" and the known names
 */
export function checkReporterNames(names: string[], source: string, field = 'reporters'): void {
  const errors = reporterNameErrors(names, source, field);
  if (errors.length) throw combineInputErrors(errors, 8);
}

/**
 * Every unknown built-in reporter name in a list, as errors naming the source and the fix (a module path,
 * an object entry or an empty name is not checked here), so a config's other problems can be reported with them.
 * @param names the reporter names (or module paths) in order
 * @param source the config file, or `--reporter`
 * @param field the field holding the list in that file
 */
export function reporterNameErrors(names: string[], source: string, field = 'reporters'): InputError[] {
  const errors: InputError[] = [];
  for (const [i, name] of names.entries()) {
    // built-in names are checked here; objects ('') and modules (./my-reporter.ts) load as plugins (src/plugins/load.ts)
    if (!name || REPORTERS[name] || namesModule(name)) continue;
    const guess = didYouMean(name, Object.keys(REPORTERS));
    errors.push(new InputError(source, source.startsWith('--') ? `"${name}"` : `${field}.${i}`, `unknown reporter "${name}"`, `${guess ? `did you mean "${guess}"? ` : ''}use one of ${Object.keys(REPORTERS).join(', ')}`));
  }
  return errors;
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
    onStep: call('onStep'),
    onEvaluationEnd: call('onEvaluationEnd'),
    onRunEnd: call('onRunEnd'),
    onError: call('onError'),
  };
}
