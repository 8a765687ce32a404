import fs from 'node:fs';
import path from 'node:path';
import type { CAC } from 'cac';
import pc from 'picocolors';
import { writeCsv, writeJsonl } from '../data/csv.js';
import { dedup, DEDUP_DEFAULTS } from '../data/dedup.js';
import { readRows } from '../data/records.js';
import { defaultTargets, rebalance } from '../data/rebalance.js';
import { benchStats } from '../data/stats.js';
import { toIso6391 } from '../spec/language.js';

const fail = (msg: string) => {
  console.error(`${pc.red('✗')} ${msg}`);
  process.exitCode = 2;
};

/** Parse `zh=300,en=300,…` into targets. @throws Error naming the bad entry */
export function parseTargets(s: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of s.split(',')) {
    const [k, v] = part.split('=');
    const code = k ? toIso6391(k) : null;
    if (!code || !v || !Number.isInteger(Number(v))) throw new Error(`--targets "${part}": expected language=count. Fix: e.g. --targets zh=300,en=300,fr=67`);
    out[code] = Number(v);
  }
  return out;
}

/**
 * `cookie bench stats|dedup|rebalance|filter|classify|translate`: Cookie-Bench's data pipeline (paper §3,
 * Appendix A; METHOD.md §8, §10).
 */
export function registerBench(cli: CAC): void {
  cli
    .command('bench <action> <file>', 'Data tools: stats | dedup | rebalance | filter | classify | translate on a Cookie-Bench JSONL (or CSV) file')
    .option('--column <name>', 'Column holding the query text', { default: 'query' })
    .option('--id <name>', 'Column holding the query id', { default: 'data_id' })
    .option('--out <dir>', 'Output folder (default: <name>-<action>/ in the current folder, so a read-only data folder works)')
    .option('--ngram <n>', 'dedup: SimHash character n-gram size', { default: DEDUP_DEFAULTS.n })
    .option('--hamming <d>', 'dedup: link pairs with Hamming distance below this', { default: DEDUP_DEFAULTS.hamming })
    .option('--tfidf-ngram <n>', 'dedup: TF-IDF character n-gram size', { default: DEDUP_DEFAULTS.tfidfN })
    .option('--cosine <c>', 'dedup: link pairs with TF-IDF cosine at or above this', { default: DEDUP_DEFAULTS.cosine })
    .option('--targets <list>', 'rebalance: language=count,… (default 30% zh, 30% en, 40% over fr es ja de ko pt)')
    .option('--seed <n>', 'rebalance: seed of every random draw', { default: 1 })
    .option('--json', 'stats: print JSON')
    .option('--config <file>', 'filter/classify/translate: config file with a `data.model`')
    .option('--validate <gold>', 'classify: JSONL with gold L3 labels: print precision')
    .option('--limit <n>', 'filter/classify/translate: only the first n rows')
    .example('cookie bench stats ../shared/cookie-bench/cookie_bench_1000q.jsonl')
    .example('cookie bench dedup ../shared/cookie-bench/cookie_bench_1000q.jsonl --out out/dedup')
    .action(async (action: string, file: string, f: Record<string, unknown>) => {
      try {
        const input = path.resolve(file);
        const rows = readRows(input);
        const outDir = path.resolve(String(f.out ?? `${path.basename(input).replace(/\.\w+$/, '')}-${action}`));
        const column = String(f.column);
        const id = String(f.id);
        if (rows.length && !(column in rows[0]!)) return fail(`${input}: ${column}: column not found (columns: ${Object.keys(rows[0]!).join(', ')}). Fix: pass --column`);
        const t0 = Date.now();
        switch (action) {
          case 'stats': {
            const s = benchStats(rows, column, id);
            if (f.json) return void console.log(JSON.stringify(s, null, 2));
            console.log(`${s.total} queries in ${input}`);
            for (const [k, list] of Object.entries(s.counts)) {
              console.log(`\n${pc.bold(k)} (${list.length} distinct)`);
              for (const [v, n] of list) console.log(`  ${String(n).padStart(5)}  ${v || '(empty)'}`);
            }
            console.log(`\n${pc.bold('label problems')} (${s.problems.length})`);
            // the same problem on many records is one line with the ids
            const groups = new Map<string, string[]>();
            for (const p of s.problems) groups.set(`${p.field}: ${p.problem}`, [...(groups.get(`${p.field}: ${p.problem}`) ?? []), p.id]);
            for (const [what, ids] of [...groups.entries()].sort((a, b) => b[1].length - a[1].length)) console.log(`  ${String(ids.length).padStart(4)}×  ${what}  (${ids.slice(0, 6).join(', ')}${ids.length > 6 ? `, … ${ids.length - 6} more` : ''})`);
            return;
          }
          case 'dedup': {
            const r = dedup(rows, { column, n: Number(f.ngram), hamming: Number(f.hamming), tfidfN: Number(f.tfidfNgram), cosine: Number(f.cosine) });
            fs.mkdirSync(outDir, { recursive: true });
            const groupsCsv = (clusters: typeof r.lexical) =>
              clusters.flatMap((c, g) => c.members.map((m) => ({ group_id: g, group_size: c.members.length, representative_id: rows[c.representative]![id] ?? c.representative, [id]: rows[m]![id] ?? m, is_representative: m === c.representative ? 1 : 0, [column]: rows[m]![column], normalised: r.normalised[m] })));
            writeCsv(path.join(outDir, 'deduped_queries.csv'), r.lexical.map((c) => ({ ...rows[c.representative]!, group_size: c.members.length })));
            writeCsv(path.join(outDir, 'query_groups.csv'), groupsCsv(r.lexical));
            writeCsv(path.join(outDir, 'semantic_deduped_queries.csv'), r.semantic.map((c) => ({ ...rows[c.representative]!, group_size: c.members.length })));
            writeCsv(path.join(outDir, 'semantic_query_groups.csv'), groupsCsv(r.semantic));
            console.log(`input ${r.counts.input} → exact ${r.counts.afterExact} → SimHash (n=${f.ngram}, Hamming < ${f.hamming}) ${r.counts.afterSimhash} → TF-IDF (n=${f.tfidfNgram}, cosine ≥ ${f.cosine}) ${r.counts.afterTfidf}  in ${Date.now() - t0} ms`);
            console.log(`wrote deduped_queries.csv, query_groups.csv, semantic_deduped_queries.csv, semantic_query_groups.csv to ${outDir}`);
            return;
          }
          case 'rebalance': {
            const targets = f.targets ? parseTargets(String(f.targets)) : defaultTargets(rows.length);
            const r = rebalance(rows, targets, Number(f.seed), id);
            fs.mkdirSync(outDir, { recursive: true });
            writeJsonl(path.join(outDir, 'retained.jsonl'), r.retained);
            writeJsonl(path.join(outDir, 'residual.jsonl'), r.residual);
            writeCsv(path.join(outDir, 'audit.csv'), r.audit as unknown as Record<string, unknown>[], [id === 'data_id' ? 'data_id' : 'data_id', 'original_language', 'final_language', 'action', 'stratum']);
            console.log(`targets ${Object.entries(targets).map(([k, v]) => `${k} ${v}`).join(', ')} (seed ${f.seed})`);
            console.log('language   before  retained  translated-in  final');
            for (const [k, s] of Object.entries(r.summary).sort((a, b) => b[1].final - a[1].final || a[0].localeCompare(b[0]))) console.log(`${k.padEnd(9)} ${String(s.before).padStart(7)} ${String(s.retained).padStart(9)} ${String(s.translatedIn).padStart(14)} ${String(s.final).padStart(6)}`);
            console.log(`wrote retained.jsonl (${r.retained.length}), residual.jsonl (${r.residual.length}, with target_language), audit.csv to ${outDir}`);
            return;
          }
          default: {
            const { runModelDataTool } = await import('./bench-model.js');
            await runModelDataTool(action, rows, { input, outDir, column, id, flags: f });
          }
        }
      } catch (e) {
        fail((e as Error).message);
      }
    });
}
