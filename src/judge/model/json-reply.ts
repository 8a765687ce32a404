import type { z } from '../../vendor/zod.js';
import type { ChatMessage, ChatPart } from '../../providers/chat.js';
import type { ModelClient } from '../../providers/client.js';
import type { Usage } from '../../types.js';

/** Replies that fail to parse or validate are retried this many times before the judge gives up. */
export const MAX_JSON_RETRIES = 3;

/** The JSON object in a model reply: a ```json block, or the first balanced {...}. @returns null when none parses */
export function extractJson(text: string): unknown {
  const fence = text.match(/```(?:json)?\s*([\s\S]*?)```/);
  const candidates = [fence?.[1], text];
  for (const c of candidates) {
    if (!c) continue;
    const start = c.indexOf('{');
    if (start < 0) continue;
    let depth = 0;
    let inStr = false;
    for (let i = start; i < c.length; i++) {
      const ch = c[i];
      if (inStr) {
        if (ch === '\\') i++;
        else if (ch === '"') inStr = false;
      } else if (ch === '"') inStr = true;
      else if (ch === '{') depth++;
      else if (ch === '}' && --depth === 0) {
        try {
          return JSON.parse(c.slice(start, i + 1));
        } catch {
          break;
        }
      }
    }
  }
  return null;
}

/** A judge stage's failure after its retries: becomes a judge error of the evaluation, not a crash. */
export class JudgeReplyError extends Error {
  constructor(
    readonly stage: string,
    message: string,
  ) {
    super(`${stage}: ${message}`);
    this.name = 'JudgeReplyError';
  }
}

/**
 * Ask for a JSON reply validated by `schema`; a reply that does not parse or validate is answered with the
 * problem and asked again, up to {@link MAX_JSON_RETRIES} times.
 * @throws JudgeReplyError after the retries (the evaluation then records a judge error)
 */
export async function askJson<T>(client: ModelClient, stage: string, system: string, content: ChatPart[], schema: z.ZodType<T>): Promise<{ value: T; retries: number; usage: Usage }> {
  const messages: ChatMessage[] = [{ role: 'user', content }];
  const usage: Usage = { requests: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
  let problem = '';
  for (let attempt = 0; attempt <= MAX_JSON_RETRIES; attempt++) {
    const res = await client.complete({ system, messages });
    usage.requests++;
    usage.inputTokens += res.cost.inputTokens;
    usage.outputTokens += res.cost.outputTokens;
    usage.costUsd = Math.round((usage.costUsd + res.cost.costUsd) * 1e6) / 1e6;
    const json = extractJson(res.text);
    if (json === null) problem = 'the reply holds no JSON object';
    else {
      const parsed = schema.safeParse(json);
      if (parsed.success) return { value: parsed.data, retries: attempt, usage };
      problem = `the JSON does not match the required shape: ${parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`;
    }
    messages.push({ role: 'assistant', text: res.text, toolCalls: [] }, { role: 'user', content: [{ type: 'text', text: `Your reply could not be used: ${problem}. Reply again with JSON only, in the required shape.` }] });
  }
  throw new JudgeReplyError(stage, `no valid reply after ${MAX_JSON_RETRIES + 1} attempts (${problem})`);
}
