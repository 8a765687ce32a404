/**
 * `cookie-eval/reporters`: the Reporter interface (versioned: `REPORTER_API_VERSION`), the built-in
 * reporters, and `defineReporter` for a reporter module given to `reporters` or `--reporter` by path.
 */
export type { Reporter, RunResults, RunStartInfo, EvaluationResult, EvaluationTask, Stage } from '../types.js';
export { REPORTER_API_VERSION, defineReporter } from '../plugins/api.js';
export { REPORTERS, multiplex } from '../../reporters/index.js';
export { ConsoleReporter } from '../../reporters/console.js';
export { JsonReporter } from '../../reporters/json.js';
export { JunitReporter } from '../../reporters/junit.js';
export { HtmlReporter } from '../../reporters/html/index.js';
export { LeaderboardReporter } from '../../reporters/leaderboard.js';
