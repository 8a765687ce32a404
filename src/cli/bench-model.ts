import path from 'node:path';
import pc from 'picocolors';
import { loadConfig } from '../config/load.js';
import { writeCsv, writeJsonl } from '../data/csv.js';
import { classifyQuery, filterQuery, precision, translateRows } from '../data/model-tools.js';
import { readRows, type BenchRow } from '../data/records.js';
import { ModelClient, providerFor } from '../providers/client.js';

/**
 * The model-backed data tools (paper Appendix A.2, A.6, A.7) with the providers of the agent and judge:
 * `filter` (seven admissibility axes → reject / accept / human), `classify` (one of the 54 leaves, L2/L1
 * derived; `--validate GOLD.jsonl` prints precision), `translate` (natural language only; cached in batches
 * of ten so an interrupted run resumes). The model is `data.model` in cookie.config.ts or COOKIE_DATA_*.
 */
export async function runModelDataTool(action: string, rows: BenchRow[], o: { input: string; outDir: string; column: string; id: string; flags: Record<string, unknown> }): Promise<void> {
  if (!['filter', 'classify', 'translate'].includes(action)) throw new Error(`unknown bench action "${action}". Fix: use stats, dedup, rebalance, filter, classify or translate`);
  const { config } = await loadConfig(process.cwd(), o.flags.config as string | undefined);
  const m = config.data.model;
  if (!m) throw new Error('data.model: is missing. Fix: set data: { model: { provider, model, baseURL? } } in cookie.config.ts, or COOKIE_DATA_PROVIDER / COOKIE_DATA_MODEL / COOKIE_DATA_BASE_URL');
  const client = new ModelClient(providerFor(m), { ...m, temperature: action === 'translate' ? m.temperature : 0.2 }, config.pricing);
  const limit = o.flags.limit ? Number(o.flags.limit) : rows.length;
  const work = rows.slice(0, limit);
  const t0 = Date.now();
  if (action === 'filter') {
    const out: Record<string, unknown>[] = [];
    for (const r of work) {
      try {
        const v = await filterQuery(client, r[o.column] ?? '');
        out.push({ ...r, decision: v.decision, ...Object.fromEntries(Object.entries(v.verdicts).flatMap(([k, x]) => [[`${k}_pass`, x.pass], [`${k}_rationale`, x.rationale]])) });
      } catch (e) {
        out.push({ ...r, decision: 'error', error: (e as Error).message });
      }
    }
    writeCsv(path.join(o.outDir, 'filter.csv'), out);
    const n = (d: string) => out.filter((x) => x.decision === d).length;
    console.log(`${out.length} queries: ${n('accept')} auto-accepted, ${n('reject')} auto-rejected, ${n('human')} routed to a human, ${n('error')} errors → ${path.join(o.outDir, 'filter.csv')}`);
  } else if (action === 'classify') {
    const out: BenchRow[] = [];
    const pred = new Map<string, string>();
    for (const r of work) {
      try {
        const c = await classifyQuery(client, r[o.column] ?? '');
        pred.set(r[o.id] ?? '', c.l3);
        out.push({ ...r, L1: c.l1, L2: c.l2, L3: c.l3 });
      } catch (e) {
        out.push({ ...r, classify_error: (e as Error).message });
      }
    }
    writeJsonl(path.join(o.outDir, 'classified.jsonl'), out);
    console.log(`${out.length} queries classified → ${path.join(o.outDir, 'classified.jsonl')}`);
    if (o.flags.validate) {
      const gold = new Map(readRows(path.resolve(String(o.flags.validate))).map((g) => [g[o.id] ?? '', g.L3 ?? '']));
      const p = precision(pred, gold);
      console.log(`precision against ${o.flags.validate}: ${p.correct}/${p.predicted} = ${p.precision === null ? '–' : `${(p.precision * 100).toFixed(1)}%`}`);
    }
  } else {
    const missing = work.filter((r) => !r.target_language).length;
    if (missing) throw new Error(`${o.input}: target_language: missing on ${missing} row(s). Fix: translate the residual.jsonl written by \`cookie bench rebalance\`, or add target_language`);
    const out = await translateRows(client, work, { column: o.column, id: o.id, cacheFile: path.join(o.outDir, 'translations.cache.jsonl'), onBatch: (d) => process.stdout.write(pc.dim(`translated ${d}/${work.length}\r`)) });
    writeJsonl(path.join(o.outDir, 'translated.jsonl'), out);
    console.log(`\n${out.length} queries translated → ${path.join(o.outDir, 'translated.jsonl')}`);
  }
  console.log(pc.dim(`${client.usage.requests} model requests, ${client.usage.inputTokens} input / ${client.usage.outputTokens} output tokens, $${client.usage.costUsd.toFixed(4)}, ${((Date.now() - t0) / 1000).toFixed(1)} s`));
}
