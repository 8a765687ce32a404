import type { BenchRow } from '../data/records.js';

/** Placeholder until the model-backed data tools land (filter, classify, translate). */
export async function runModelDataTool(action: string, _rows: BenchRow[], _o: { input: string; outDir: string; column: string; id: string; flags: Record<string, unknown> }): Promise<void> {
  throw new Error(`unknown bench action "${action}". Fix: use stats, dedup or rebalance`);
}
