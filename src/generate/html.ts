import fs from 'node:fs';
import type { ModelClient } from '../providers/client.js';
import type { Query } from '../types.js';
import { writeTextAtomic } from '../util/atomic.js';
import { errorMessage } from '../util/timebox.js';
import { extractHtml } from './extract.js';
import type { GenerationPaths, GenerationRecord, UsageMeter } from './ledger.js';

/** What one HTML-mode generation produced (the caller adds the ledger's identity fields). */
export type HtmlOutcome = Pick<GenerationRecord, 'status' | 'reason' | 'extraction'>;

/**
 * HTML mode (direct chat; paper §5, Appendix B.1): one call — the fixed system prompt and the query as the
 * user's message — and the document extracted from the reply ({@link extractHtml}). The reply is kept
 * beside the candidate (`<data_id>.reply.md`); the candidate file is written atomically, only when the
 * reply holds HTML. A reply without HTML is `generation-failed` (no candidate file, never an empty one);
 * a model that cannot be reached (after the client's back-off) is `error`, retried by the next run.
 * @param system the system prompt's text
 * @param meter usage accumulator (calls, tokens)
 */
export async function generateHtml(client: ModelClient, system: string, query: Query, paths: GenerationPaths, meter: UsageMeter): Promise<HtmlOutcome> {
  let text: string;
  try {
    const res = await client.complete({ system, messages: [{ role: 'user', content: [{ type: 'text', text: query.prompt }] }] });
    meter.add(res.usage);
    text = res.text;
  } catch (e) {
    return { status: 'error', reason: `model call failed: ${errorMessage(e).split('\n')[0]!.slice(0, 300)}` };
  }
  writeTextAtomic(paths.reply, text);
  const x = extractHtml(text);
  if (x.html === null) {
    fs.rmSync(paths.artifact, { force: true }); // a stale candidate of earlier settings must not be evaluated
    return { status: 'generation-failed', reason: x.reason, extraction: { method: 'none', truncated: false, blocks: x.blocks } };
  }
  writeTextAtomic(paths.artifact, x.html);
  return { status: 'done', extraction: { method: x.method, truncated: x.truncated, blocks: x.blocks }, ...(x.truncated ? { reason: 'the reply was cut off inside the document; open tags were closed' } : {}) };
}
