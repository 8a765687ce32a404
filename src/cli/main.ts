import fs from 'node:fs';
import path from 'node:path';
import { cac } from 'cac';
import pc from 'picocolors';
import { parseShard } from '../runner/shard.js';
import { FLAG_LIMITS } from '../config/limits.js';
import { COOKIE_VERSION } from '../version.js';
import type { Judge } from '../plugins/api.js';

// the commands' modules load when a command runs, so `cookie --version` and `--help` start fast
const load = {
  run: () => import('../runner/run.js'),
  watch: () => import('../runner/watch.js'),
  cache: () => import('../runner/cache.js'),
  results: () => import('../runner/results-store.js'),
  thresholds: () => import('../runner/thresholds.js'),
  config: () => import('../config/load.js'),
  plugins: () => import('../plugins/load.js'),
  server: () => import('../deploy/static-server.js'),
  agreement: () => import('../analysis/agreement.js'),
};
import { didYouMeanName as didYouMean } from '../util/did-you-mean.js';
import type { RunOptions } from '../runner/run.js';

const toList = (v: unknown): string[] | undefined => (v === undefined ? undefined : (Array.isArray(v) ? v : [v]).flatMap((x) => String(x).split(',')).filter(Boolean));
/**
 * A whole-number flag, 1 … `max` (the bound the config file's field has: a flag is not a way around it;
 * `--repeat-each 100000` would otherwise run for weeks). Exits 2 with the flag, the range and a fix.
 */
const toInt = (v: unknown, flag: string, max: number, field: string): number | undefined => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    console.error(`${pc.red('✗')} ${flag} ${v}: must be a whole number from 1 to ${max} (as the config's \`${field}\`). Fix: pass e.g. ${flag} 2`);
    process.exit(2);
  }
  return n;
};

/** Marks a flag value as a string for the parse (cac's parser turns "2024", "0404", "1e3" and "" into numbers); removed after. */
const RAW = '\u0000';

/**
 * Prepare argv for cac: the value of a string option (`strings`, camelCase names such as outputDir, grep, t)
 * is marked with {@link RAW} so it stays the exact text typed, and a negative number after any option that
 * takes a value (`valued`) is joined to it (`--concurrency -1` → `--concurrency=-1`), so it is checked as
 * that option's value instead of being read as an unknown option `-1`. Nothing after `--` is touched.
 * @param argv process.argv (the first two entries, node and the script, are kept as they are)
 * @returns the new argv; {@link unmarkFlagValues} undoes the marks on the parsed options
 */
export function markFlagValues(argv: string[], valued: Set<string>, strings: Set<string>): string[] {
  const out = argv.slice(0, 2);
  for (let i = 2; i < argv.length; i++) {
    const tok = argv[i]!;
    if (tok === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const m = tok.match(/^(--?)([^=]+)(?:=([\s\S]*))?$/);
    const name = !m ? '' : m[1] === '--' ? m[2]!.split('.')[0]!.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) : m[2]!.length === 1 ? m[2]! : '';
    if (!m || !valued.has(name)) {
      out.push(tok);
      continue;
    }
    const mark = strings.has(name) ? RAW : '';
    const next = argv[i + 1];
    if (m[3] !== undefined) out.push(`${m[1]}${m[2]}=${mark}${m[3]}`);
    else if (next !== undefined && /^-[\d.]/.test(next)) {
      out.push(`${tok}=${mark}${next}`);
      i++;
    } else if (next !== undefined && next !== '--' && !next.startsWith('-') && mark) {
      out.push(tok, `${mark}${next}`);
      i++;
    } else out.push(tok);
  }
  return out;
}

/** Remove the {@link RAW} marks from parsed option values (strings, and strings inside arrays and objects), in place. */
export function unmarkFlagValues(v: unknown): unknown {
  if (typeof v === 'string') return v.startsWith(RAW) ? v.slice(RAW.length) : v;
  if (Array.isArray(v)) v.forEach((x, i) => (v[i] = unmarkFlagValues(x)));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) (v as Record<string, unknown>)[k] = unmarkFlagValues(x);
  return v;
}

/** Options of `cookie test` that take one value: given twice, the run stops instead of using both or one. */
const SINGLE = ['grep', 'outputDir', 'config', 'shard', 'concurrency', 'steps', 'repeatEach', 'bail', 'maxFailures'];

/** `--shard i/n`, or exit 2 with one line naming the flag and the fix. */
const parseShardFlag = (v: string) => {
  try {
    return parseShard(v);
  } catch (e) {
    console.error(`${pc.red('✗')} ${(e as Error).message}`);
    process.exit(2);
  }
};

/** Fail with one line naming the flag and the fix (exit code 2). */
function flagError(message: string): null {
  console.error(`${pc.red('✗')} ${message}`);
  process.exitCode = 2;
  return null;
}

/**
 * The runner-convention flags of `cookie test` (Vitest/Playwright spelling), checked: `-t/--grep`,
 * `--bail`/`--max-failures`, `--list`, `--last-failed`, `--pass-with-no-tests`, `--output-file[.name]`.
 * @returns the options for {@link runCookie}, or null after printing one line for a bad or conflicting flag
 */
export function runnerFlags(flags: Record<string, unknown>): Pick<RunOptions, 'grep' | 'bail' | 'list' | 'lastFailed' | 'passWithNoTests' | 'outputFiles'> | null {
  const spell = (k: string) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  for (const k of SINGLE) {
    const v = flags[k];
    if (Array.isArray(v)) return flagError(`${k === 'grep' ? '-t/--grep' : spell(k)}: given ${v.length} times (${v.map((x) => JSON.stringify(String(x))).join(', ')}). Fix: pass it once`);
  }
  if (flags.reporter !== undefined && [flags.reporter].flat().some((r) => r === '' || r === true)) return flagError('--reporter: needs a name. Fix: e.g. --reporter junit');
  const grep = flags.grep === undefined ? undefined : String(flags.grep);
  if (flags.grep === true || grep === '') return flagError('-t/--grep: needs a pattern. Fix: e.g. -t todo');
  if (grep !== undefined) {
    try {
      new RegExp(grep);
    } catch (e) {
      return flagError(`-t/--grep: "${grep}" is not a valid regular expression (${(e as Error).message}). Fix: escape special characters, e.g. -t "todo\\(v2\\)"`);
    }
  }
  for (const k of ['bail', 'maxFailures'] as const) {
    const v = flags[k];
    if (v !== undefined && (!Number.isInteger(Number(v)) || Number(v) < 1)) return flagError(`--${k === 'bail' ? 'bail' : 'max-failures'}: "${v}" is not a whole number ≥ 1. Fix: e.g. --${k === 'bail' ? 'bail' : 'max-failures'} 1`);
  }
  if (flags.bail !== undefined && flags.maxFailures !== undefined && Number(flags.bail) !== Number(flags.maxFailures)) return flagError(`--bail ${flags.bail} and --max-failures ${flags.maxFailures} conflict (they are the same setting). Fix: pass one of them`);
  const bail = flags.bail ?? flags.maxFailures;
  const conflicts: [string, string][] = [['list', 'watch'], ['list', 'bail'], ['list', 'maxFailures'], ['lastFailed', 'watch']];
  for (const [a, b] of conflicts) if (flags[a] !== undefined && flags[a] !== false && flags[b] !== undefined && flags[b] !== false) return flagError(`${spell(a)} and ${spell(b)} conflict. Fix: pass one of them`);
  const reporters = toList(flags.reporter) ?? [];
  if (flags.silent && reporters.includes('console')) return flagError('--silent and --reporter console conflict. Fix: pass one of them');
  let outputFiles: Record<string, string> | undefined;
  const of = flags.outputFile;
  if (of !== undefined) {
    const writers = ['json', 'junit', 'leaderboard', 'html'];
    if (typeof of === 'object' && of !== null && !Array.isArray(of)) {
      outputFiles = {};
      for (const [name, file] of Object.entries(of as Record<string, unknown>)) {
        if (typeof file !== 'string' || !file) return flagError(`--output-file.${name}: needs a path. Fix: --output-file.${name}=PATH`);
        outputFiles[name] = file;
      }
    } else {
      if (typeof of !== 'string' || !of) return flagError('--output-file: needs a path. Fix: --output-file.junit=PATH (one per reporter)');
      const chosen = reporters.filter((r) => writers.includes(r));
      if (chosen.length !== 1) return flagError(`--output-file ${of}: ${chosen.length ? `${chosen.length} reporters write files (${chosen.join(', ')})` : 'no --reporter that writes a file is on'}. Fix: name the reporter, e.g. --output-file.junit=${of}`);
      outputFiles = { [chosen[0]!]: of };
    }
  }
  return {
    grep,
    bail: bail === undefined ? undefined : Number(bail),
    list: !!flags.list,
    lastFailed: !!flags.lastFailed,
    passWithNoTests: !!flags.passWithNoTests,
    outputFiles,
  };
}

/**
 * Cookie's command line (cac): `cookie test [paths...]`, `cookie judge <dir>`, `--help`, `--version`.
 * @param argv process.argv
 */
export async function main(argv: string[]): Promise<void> {
  const cli = cac('cookie');

  cli
    .command('test [...paths]', 'Evaluate candidates: spec files (*.cookie.yaml, *.cookie.spec.ts) or folders to search')
    .option('--output-dir <dir>', 'Where results.json, evidence and reports go (default: cookie-results)')
    .option('--reporter <name>', 'Add a reporter: json, junit, html, leaderboard (repeatable; the console summary is always shown)')
    .option('--silent', 'Leave out the console reporter')
    .option('--config <file>', 'Config file (default: cookie.config.ts in the working directory)')
    .option('--concurrency <n>', 'Evaluations run at once')
    .option('--steps <n>', 'Interaction step budget per evaluation (default 25; the offline explorer keeps 3 in reserve)')
    .option('--no-cache', 'Evaluate everything again (otherwise unchanged evaluations are reused)')
    .option('--watch', 'Re-evaluate candidates whose files change (debounced); keep the rest')
    .option('--repeat-each <n>', 'Run each evaluation n times with different seeds; report mean, spread and unstable evaluations')
    .option('--shard <i/n>', 'Evaluate only shard i of n (stable by query id × candidate); merge the output dirs with `cookie merge-reports`')
    .option('-t, --grep <pattern>', 'Only evaluations whose query id or candidate name matches this regular expression')
    .option('--bail <n>', 'Start no new evaluation once n did not pass (running ones finish)')
    .option('--max-failures <n>', 'Same as --bail (Playwright spelling)')
    .option('--list', 'List the evaluations that would run (after -t/--last-failed) and exit; no browser')
    .option('--last-failed', 'Only the evaluations that did not pass in the last run of this output dir')
    .option('--pass-with-no-tests', 'Exit 0 when no spec file or no evaluation is found')
    .option('--output-file <path>', 'Where a reporter writes: --output-file.junit=ci/junit.xml (also --outputFile.junit=…; json, junit, leaderboard, html); a bare path needs exactly one such --reporter')
    .example('cookie test examples')
    .example('cookie test bench/real-inputs --reporter console --reporter junit')
    .action(async (paths: string[], flags: Record<string, unknown>) => {
      const runner = runnerFlags(flags);
      if (!runner) return;
      // watch mode's file watcher loads only for --watch (a plain run starts without it)
      const { runCookie } = await load.run();
      const opts = {
        ...runner,
        paths,
        cwd: process.cwd(),
        configFile: flags.config as string | undefined,
        outputDir: flags.outputDir as string | undefined,
        reporters: toList(flags.reporter),
        concurrency: toInt(flags.concurrency, '--concurrency', FLAG_LIMITS.concurrency, 'concurrency'),
        steps: toInt(flags.steps, '--steps', FLAG_LIMITS.steps, 'agent.steps'),
        cache: flags.cache !== false,
        silent: !!flags.silent,
        repeatEach: toInt(flags.repeatEach, '--repeat-each', FLAG_LIMITS.repeatEach, 'trials.repeatEach'),
        shard: flags.shard === undefined ? undefined : parseShardFlag(String(flags.shard)),
      };
      if (flags.watch) {
        const { watchCookie } = await load.watch();
        await watchCookie(opts);
        return;
      }
      const outcome = await runCookie(opts);
      if (outcome.listed) {
        const cwd = process.cwd();
        for (const t of outcome.listed) {
          // a generated candidate has no file until it is generated: its model and mode instead
          const g = t.candidate.generate;
          const target = g ? `generated by ${typeof g.model === 'string' ? g.model : `${g.model.provider}:${g.model.model}`} (${g.mode})` : path.relative(cwd, t.candidate.artifactPath);
          console.log(`  ${t.id}  ${pc.dim(`${path.relative(cwd, t.suiteFile)} → ${target}`)}`);
          // a candidate that cannot be evaluated: marked under its line (a run records it as an error at stage load)
          if (t.inputProblem) console.log(`    ${pc.red('✗')} ${t.inputProblem}`);
        }
        console.log(`Total: ${outcome.listed.length} evaluation${outcome.listed.length === 1 ? '' : 's'} in ${new Set(outcome.listed.map((t) => t.suiteFile)).size} spec file${new Set(outcome.listed.map((t) => t.suiteFile)).size === 1 ? '' : 's'}`);
      }
      const refused = outcome.listed?.filter((t) => t.inputProblem).length ?? 0;
      if (refused) console.error(pc.red(`✗ ${refused} evaluation${refused > 1 ? 's' : ''} cannot run (marked ✗ above; a run records ${refused > 1 ? 'them' : 'it'} as status error at stage load): exit code 1`));
      if (outcome.note) console.log(outcome.note);
      if (!outcome.reported) for (const e of outcome.specErrors) console.error(`${pc.red('✗')} ${e}`);
      else if (outcome.specErrors.length && outcome.run) {
        // the summary counts evaluations; say why a run whose evaluations all passed still fails
        const files = new Set(outcome.specErrors.map((e) => e.split(':')[0]));
        console.error(pc.red(`✗ ${files.size} spec file${files.size > 1 ? 's' : ''} could not be loaded (listed above): exit code 1`));
      }
      process.exitCode = outcome.exitCode;
    });

  // cac gives a negated option the default true, and --help would print "--no-cache … (default: true)"
  for (const o of cli.commands.find((c) => c.name === 'test')?.options ?? []) if (o.negated) o.config.default = undefined;

  cli
    .command('merge-reports [...dirs]', 'Merge the output dirs of sharded runs (`cookie test --shard i/n`) into one results.json and one set of reports')
    .option('--output-dir <dir>', 'Where the merged run goes (default: cookie-results)')
    .option('--reporter <name>', 'Reporters to write (repeatable; default: console, json, junit, html, leaderboard)')
    .option('--allow-partial', 'Merge even when a shard i/n recorded by the blobs is missing (a warning names it); otherwise that is an error')
    .example('cookie merge-reports shard-1 shard-2 shard-3 --output-dir merged')
    .action(async (dirs: string[], flags: Record<string, unknown>) => {
      try {
        const reporters = toList(flags.reporter) ?? ['console', 'json', 'junit', 'html', 'leaderboard'];
        const { mergeReports } = await import('../runner/merge.js');
        const m = await mergeReports(dirs, String(flags.outputDir ?? 'cookie-results'), reporters, { allowPartial: !!flags.allowPartial });
        for (const w of m.warnings) console.error(`${pc.yellow('⚠')} ${w}`);
        console.log(`merged ${m.run.evaluations.length} evaluations from ${m.blobs.length} blobs → ${path.resolve(String(flags.outputDir ?? 'cookie-results'))}${m.duplicates.length ? ` (${m.duplicates.length} found twice; the first blob's copy kept)` : ''}`);
        process.exitCode = m.exitCode;
      } catch (e) {
        console.error(`${pc.red('✗')} ${(e as Error).message}`);
        process.exitCode = 2;
      }
    });

  cli
    .command('cache <action>', 'Manage the result cache: `cookie cache clear [--output-dir DIR]`')
    .option('--output-dir <dir>', 'Output dir whose cache to clear (default: cookie-results)')
    .action(async (action: string, flags: Record<string, unknown>) => {
      const { ResultCache, CACHE_FILE } = await load.cache();
      if (action !== 'clear') {
        console.error(`${pc.red('✗')} unknown cache action "${action}". Fix: use \`cookie cache clear\``);
        process.exitCode = 2;
        return;
      }
      const dir = path.resolve(String(flags.outputDir ?? 'cookie-results'));
      console.log(ResultCache.clear(dir) ? `cleared ${path.join(dir, CACHE_FILE)}` : `no cache in ${dir}`);
    });

  cli
    .command('judge <dir>', 'Re-run the judge on stored evidence (no browser): the output dir of a previous run')
    .option('--config <file>', 'Config whose judge and ablations to use (default: cookie.config.ts here, else the run\'s own)')
    .action(async (dir: string, flags: Record<string, unknown>) => {
      const [{ ResultsStore, RESULTS_FILE }, { loadConfig, resolveConfig }, { createJudge }, { meetsThresholds }] = await Promise.all([load.results(), load.config(), load.plugins(), load.thresholds()]);
      const outputDir = path.resolve(dir);
      let run: ReturnType<typeof ResultsStore.read>;
      try {
        run = ResultsStore.read(outputDir, { strict: true });
      } catch (e) {
        console.error(`${pc.red('✗')} ${(e as Error).message}`);
        process.exitCode = 2;
        return;
      }
      if (!run) {
        console.error(`${pc.red('✗')} ${path.join(outputDir, RESULTS_FILE)}: (file): not found or unreadable. Fix: pass the --output-dir of a finished run`);
        process.exitCode = 2;
        return;
      }
      let config;
      try {
        const loaded = await loadConfig(process.cwd(), flags.config as string | undefined);
        config = loaded.file ? loaded.config : resolveConfig({ judge: (run.config as { judge?: unknown })?.judge, ablation: (run.config as { ablation?: unknown })?.ablation });
      } catch (e) {
        console.error(`${pc.red('✗')} ${(e as Error).message}`);
        process.exitCode = 2;
        return;
      }
      let judge: Judge;
      try {
        judge = await createJudge(config, (flags.config as string | undefined) ?? 'cookie.config');
      } catch (e) {
        console.error(`${pc.red('✗')} ${(e as Error).message}`);
        process.exitCode = 2;
        return;
      }
      const { rejudgeRun } = await import('./judge.js');
      const outcome = await rejudgeRun(outputDir, run, judge, meetsThresholds);
      process.exitCode = outcome.exitCode;
    });

  cli
    .command('show-report [dir]', 'Serve the HTML report of a run (default cookie-results) on 127.0.0.1 and print its URL')
    .option('--port <port>', 'Port (default: any free port)', { default: 0 })
    .action(async (dir: string | undefined, flags: Record<string, unknown>) => {
      const { startStaticServer } = await load.server();
      const base = path.resolve(dir ?? 'cookie-results');
      if (!fs.existsSync(base)) {
        console.error(`${pc.red('✗')} ${base}: (folder): does not exist. Fix: pass the --output-dir of a run made with --reporter html`);
        process.exitCode = 2;
        return;
      }
      const root = fs.existsSync(path.join(base, 'index.html')) ? base : path.join(base, 'report');
      if (!fs.existsSync(path.join(root, 'index.html'))) {
        console.error(`${pc.red('✗')} ${root}: no index.html. Fix: run \`cookie test --reporter html\` first, or pass its output dir`);
        process.exitCode = 2;
        return;
      }
      const server = await startStaticServer(root, { port: Number(flags.port) || 0 });
      console.log(`Cookie report: ${server.origin}/  (Ctrl-C to stop)`);
      await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
      await server.close();
    });

  cli
    .command('agreement', 'Pairwise agreement of machine and human scores (paper §5.2): match rate per dimension')
    .option('--results <file>', 'results.json of a run')
    .option('--human <file>', 'CSV of human scores')
    .option('--join <how>', 'name (query + candidate columns) or path (candidate column holds the artifact path)', { default: 'name' })
    .option('--human-candidate <col>', 'CSV column naming the candidate (or its file, with --join path)', { default: 'candidate' })
    .option('--human-query <col>', 'CSV column naming the query (--join name)', { default: 'query' })
    .option('--dim <map>', 'machine dimension=CSV column, e.g. total=human_final_score (repeatable)')
    .option('--tie <points>', 'machine score difference (0-100) counted as a tie', { default: 0 })
    .option('--human-tie <points>', 'human score difference counted as a tie', { default: 0 })
    .option('--query <id>', 'only this query (repeatable)')
    .example('cookie agreement --results out/results.json --human ../shared/real-inputs/KCORES__kcores-llm-arena/_index_DERIVED.csv --join path --human-candidate copied_file_or_empty_if_not_copied --dim total=human_final_score')
    .action(async (flags: Record<string, unknown>) => {
      const { agreementFromFiles, agreementFlags } = await load.agreement();
      try {
        if (!flags.results || !flags.human) throw new Error('--results and --human are required. Fix: pass both files');
        const checked = agreementFlags({ join: flags.join, tie: flags.tie, humanTie: flags.humanTie, dims: toList(flags.dim) });
        const r = agreementFromFiles(path.resolve(String(flags.results)), path.resolve(String(flags.human)), {
          ...checked,
          candidateColumn: String(flags.humanCandidate),
          queryColumn: String(flags.humanQuery),
          queries: toList(flags.query),
        });
        for (const d of r.dropped) console.error(`${pc.yellow('⚠')} ${d.dimension}: ${d.empty + d.notNumeric} of ${r.joined} joined rows left out: column ${d.column} is ${[d.empty ? `empty in ${d.empty}` : '', d.notNumeric ? `not a number in ${d.notNumeric} (${d.examples.join(', ')})` : ''].filter(Boolean).join(' and ')}`);
        console.log(`joined ${r.joined} scored evaluations${r.unmatched.length ? `; ${r.unmatched.length} CSV rows without a result (${r.unmatched.slice(0, 3).join(', ')}${r.unmatched.length > 3 ? ', …' : ''})` : ''}`);
        console.log('dimension        pairs  matches  match rate');
        for (const a of r.agreements) console.log(`${a.dimension.padEnd(15)} ${String(a.pairs).padStart(6)}  ${String(a.matches).padStart(7)}  ${a.rate === null ? '–' : `${(a.rate * 100).toFixed(1)}%`}`);
      } catch (e) {
        console.error(`${pc.red('✗')} ${(e as Error).message}`);
        process.exitCode = 2;
      }
    });

  // the data pipeline's and generator's modules (franc's language model, the model SDKs: about 0.18 s of
  // start-up) are loaded only when their command, the overall help or an unknown command may need them: not
  // to print the version, nor for another command (`cookie test` starts that much sooner; issue 13)
  const versionOnly = argv.length === 3 && /^(-v|--version)$/.test(argv[2]!);
  const otherCommand = argv[2] !== undefined && cli.commands.some((c) => c.name === argv[2]);
  if (!versionOnly && !otherCommand) {
    (await import('./bench.js')).registerBench(cli);
    (await import('./generate.js')).registerGenerate(cli);
  }

  cli.help();
  cli.version(COOKIE_VERSION);
  try {
    // string values stay the text typed; a negative number after an option is that option's value
    const options = cli.commands.flatMap((c) => c.options).concat(cli.globalCommand.options);
    const valued = new Set(options.filter((o) => o.required !== undefined).flatMap((o) => o.names));
    const strings = new Set(['outputDir', 'reporter', 'config', 'grep', 't', 'shard', 'outputFile']);
    cli.parse(markFlagValues(argv, valued, strings), { run: false });
    unmarkFlagValues(cli.options);
    if (!cli.matchedCommand && !cli.options.help && !cli.options.version) {
      if (cli.args.length) {
        console.error(`${pc.red('✗')} unknown command "${cli.args.join(' ')}". Fix: run \`cookie --help\``);
        process.exitCode = 2;
      } else cli.outputHelp();
      return;
    }
    await cli.runMatchedCommand();
  } catch (e) {
    // cac: "Unknown option `--fo`": one line, with the closest option of the command
    const unknown = (e as Error).message.match(/^Unknown option `(-{1,2})([^`]+)`/);
    if (unknown) {
      const known = (cli.matchedCommand?.options ?? []).flatMap((o) => o.names).concat(cli.globalCommand.options.flatMap((o) => o.names));
      const guess = didYouMean(unknown[2]!.split('.')[0]!.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()), [...new Set(known)]);
      const spelled = guess ? `--${guess.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}` : null;
      console.error(`${pc.red('✗')} unknown option ${unknown[1]}${unknown[2]}${cli.matchedCommand ? ` for \`cookie ${cli.matchedCommand.name}\`` : ''}. Fix: ${spelled ? `did you mean ${spelled}? ` : ''}see \`cookie ${cli.matchedCommand?.name ?? ''} --help\``.replace(/ +`/g, ' `'));
    } else console.error(`${pc.red('✗')} ${(e as Error).message}`);
    process.exitCode = 2;
  }
}
