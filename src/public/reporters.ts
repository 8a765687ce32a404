/**
 * `cookie-eval/reporters`: the Reporter interface (versioned: `REPORTER_API_VERSION`), the built-in
 * reporters, and `defineReporter` for a reporter module given to `reporters` or `--reporter` by path.
 */
// the public types name Node's (Buffer, NodeJS.*) and Playwright's, which need @types/node (a dependency):
// kept in the .d.ts so a consumer's tsc sees them even where its tsconfig lists no `types`
/// <reference types="node" preserve="true" />
export type { Reporter, RunResults, RunStartInfo, EvaluationResult, EvaluationTask, Stage } from '../types.js';
export { REPORTER_API_VERSION, defineReporter } from '../plugins/api.js';
export { REPORTERS, multiplex } from '../../reporters/index.js';
export { ConsoleReporter } from '../../reporters/console.js';
export { JsonReporter } from '../../reporters/json.js';
export { JunitReporter } from '../../reporters/junit.js';
export { HtmlReporter } from '../../reporters/html/index.js';
export { LeaderboardReporter } from '../../reporters/leaderboard.js';
