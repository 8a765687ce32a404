import path from 'node:path';
import type { CAC } from 'cac';
import pc from 'picocolors';
import { loadConfig } from '../config/load.js';
import { projectOptionsOf } from '../deploy/project.js';
import { writeLedger, type GenerationRecord, type LedgerTotals } from '../generate/ledger.js';
import { generateAll, loadQueriesFrom, parseModelFlag, type GenerateEvent } from '../generate/run.js';

const int = (v: unknown, flag: string, min = 1): number | undefined => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error(`${flag}: "${v}" is not a whole number ≥ ${min}. Fix: pass e.g. ${flag} ${Math.max(min, 2)}`);
  return n;
};

/** Print the ledger totals (per model × mode) as a small table. */
export function formatTotals(totals: LedgerTotals[]): string {
  const head = 'model                      mode   queries  done  no-html  build-failed  errors  calls  input tok  output tok  cached tok  tok/query  wall s   cost USD';
  const rows = totals.map((t) =>
    [
      t.model.padEnd(26).slice(0, 26),
      t.mode.padEnd(5),
      String(t.queries).padStart(8),
      String(t.done).padStart(5),
      String(t.generationFailed).padStart(8),
      String(t.buildFailed).padStart(13),
      String(t.errors).padStart(7),
      String(t.calls).padStart(6),
      String(t.inputTokens).padStart(10),
      String(t.outputTokens).padStart(11),
      String(t.cachedTokens).padStart(11),
      String(t.tokensPerQuery).padStart(10),
      (t.wallMs / 1000).toFixed(1).padStart(7),
      t.costUsd.toFixed(6).padStart(10),
    ].join(' '),
  );
  return [head, ...rows].join('\n');
}

/** One finished generation as a line. */
function recordLine(r: GenerationRecord): string {
  const word = r.status === 'done' ? pc.green('done') : r.status === 'error' ? pc.red('error') : pc.yellow(r.status);
  return `${word} ${r.queryId}  ${r.calls} call(s) · ${r.inputTokens}+${r.outputTokens} tok · ${(r.wallMs / 1000).toFixed(1)} s · $${r.costUsd.toFixed(6)}${r.reason ? pc.dim(`  (${r.reason})`) : ''}`;
}

/**
 * `cookie generate --queries FILE|SPEC --model PROVIDER:MODEL --mode html|react --out DIR`: generate
 * candidates in the layout a spec reads (paper §5, Appendix B.1), print a progress line and the ledger's
 * totals, write `DIR/ledger.json`. Ctrl-C stops at once: every finished generation is kept (rows and
 * candidates are written atomically), the rest are redone by the next run.
 */
export function registerGenerate(cli: CAC): void {
  cli
    .command('generate', 'Generate candidates with a model: HTML (direct chat) or React (agent scaffold), resumable, with a cost ledger')
    .option('--queries <file>', 'Cookie-Bench JSONL file, or a spec whose queries to answer')
    .option('--model <provider:model>', 'openai:MODEL (any OpenAI-compatible server) or anthropic:MODEL')
    .option('--mode <mode>', 'html (one self-contained file) or react (edit a Vite + React project through tools)', { default: 'html' })
    .option('--out <dir>', 'Output dir: DIR/<model>/<data_id>.html or DIR/<model>/<data_id>/', { default: 'generated' })
    .option('--base-url <url>', 'Endpoint (e.g. http://localhost:8000/v1 for vLLM)')
    .option('--api-key-env <name>', 'Variable holding the API key (default OPENAI_API_KEY / ANTHROPIC_API_KEY)')
    .option('--prompt <file>', 'System prompt file (default prompts/generate-<mode>.md)')
    .option('--select <ids>', 'Only these data_id values (comma-separated)')
    .option('--limit <n>', 'Only the first n queries')
    .option('--concurrency <n>', 'Generations at once', { default: 2 })
    .option('--rpm <n>', 'Requests per minute to this provider, shared by all workers (429s still back off)')
    .option('--max-tokens <n>', 'max_tokens of one call (default 16384)')
    .option('--temperature <t>', 'Sampling temperature (default 0.2)')
    .option('--steps <n>', 'React: most tool calls (default 60)')
    .option('--token-budget <n>', 'React: most tokens per query, input + output (default 1500000)')
    .option('--config <file>', 'Config for pricing, npmCache and install/build time limits (default cookie.config.ts here)')
    .example('cookie generate --queries ../shared/cookie-bench/cookie_bench_1000q.jsonl --select webdev_1,webdev_7 --model openai:qwen2.5-coder --base-url http://localhost:8000/v1 --out answers')
    .action(async (flags: Record<string, unknown>) => {
      try {
        if (!flags.queries || !flags.model) throw new Error('--queries and --model are required. Fix: e.g. cookie generate --queries queries.jsonl --model openai:gpt-4.1 --out answers');
        const mode = String(flags.mode);
        if (mode !== 'html' && mode !== 'react') throw new Error(`--mode "${mode}": use html or react`);
        const { config } = await loadConfig(process.cwd(), flags.config as string | undefined);
        const model = parseModelFlag(String(flags.model), {
          baseURL: flags.baseUrl as string | undefined,
          apiKeyEnv: flags.apiKeyEnv as string | undefined,
          maxTokens: int(flags.maxTokens, '--max-tokens'),
          temperature: flags.temperature === undefined ? undefined : Number(flags.temperature),
        });
        let queries = await loadQueriesFrom(path.resolve(String(flags.queries)));
        if (flags.select) {
          const ids = String(flags.select).split(',').map((s) => s.trim()).filter(Boolean);
          const missing = ids.filter((id) => !queries.some((q) => q.id === id));
          if (missing.length) throw new Error(`--select: ids not in ${flags.queries}: ${missing.slice(0, 5).join(', ')}. Fix: list data_id values that exist`);
          queries = ids.map((id) => queries.find((q) => q.id === id)!);
        }
        const lim = int(flags.limit, '--limit');
        if (lim) queries = queries.slice(0, lim);
        const outDir = path.resolve(String(flags.out));
        const total = queries.length;
        let done = 0;
        let skipped = 0;
        let running = 0;
        let cost = 0;
        const tty = process.stdout.isTTY;
        const line = () => `[${done + skipped}/${total}] ${running} running · ${done} generated · ${skipped} already done · $${cost.toFixed(4)}`;
        const onEvent = (e: GenerateEvent) => {
          if (e.kind === 'start') running++;
          else {
            running--;
            if (e.kind === 'skip') skipped++;
            else {
              done++;
              cost += e.record.costUsd;
            }
          }
          if (tty) {
            process.stdout.write(`\r\x1b[2K${e.kind === 'end' ? `${recordLine(e.record)}\n` : ''}${line()}`);
          } else if (e.kind === 'end') process.stdout.write(`${line()}  ${recordLine(e.record)}\n`);
        };
        const onSignal = () => {
          // finished generations are on disk (atomic writes); in-flight ones are redone next run
          writeLedger(outDir);
          process.stdout.write(`\n${pc.yellow('interrupted')}: ${done} generated this run, ${skipped} already done; the rest are generated by the next run (same command)\n`);
          process.exit(130);
        };
        process.on('SIGINT', onSignal);
        process.on('SIGTERM', onSignal);
        console.log(`generating ${total} quer${total === 1 ? 'y' : 'ies'} with ${model.provider}:${model.model} (${mode}) into ${outDir}`);
        try {
          await generateAll({
            queries,
            outDir,
            settings: { model, mode, promptFile: flags.prompt ? path.resolve(String(flags.prompt)) : undefined, steps: int(flags.steps, '--steps'), tokenBudget: int(flags.tokenBudget, '--token-budget') },
            concurrency: int(flags.concurrency, '--concurrency'),
            rpm: int(flags.rpm, '--rpm'),
            prices: config.pricing,
            host: projectOptionsOf(config),
            onEvent,
          });
        } finally {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
        }
        process.stdout.write(tty ? '\n' : `${line()}\n`);
        const { rows, totals } = writeLedger(outDir);
        const mine = totals.filter((t) => t.model === model.model && t.mode === mode);
        console.log(`\nLedger (${rows.filter((r) => r.model === model.model && r.mode === mode).length} rows, ${path.join(outDir, 'ledger.json')}):`);
        console.log(formatTotals(mine));
        const errs = rows.filter((r) => r.model === model.model && r.mode === mode && r.status === 'error' && queries.some((q) => q.id === r.queryId));
        if (errs.length) console.log(pc.red(`${errs.length} generation(s) could not reach the model; run the same command again to retry them`));
        process.exitCode = errs.length ? 1 : 0;
      } catch (e) {
        console.error(`${pc.red('✗')} ${(e as Error).message}`);
        process.exitCode = 2;
      }
    });
}
