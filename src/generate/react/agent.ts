import type { ChatMessage } from '../../providers/chat.js';
import type { ModelClient } from '../../providers/client.js';
import { errorMessage } from '../../util/timebox.js';
import type { UsageMeter } from '../ledger.js';
import { REACT_TOOLS, type ProjectTools } from './tools.js';

/** Budgets of a React session: tool calls and tokens (input + output, summed over calls). */
export interface ReactBudgets {
  steps: number;
  tokens: number;
  /** max_tokens of one model call. */
  maxTokensPerCall: number;
}

/** One entry of the tool transcript kept with the candidate. */
export interface TranscriptEntry {
  step: number;
  /** The model's text alongside its tool calls (its reasoning, when it writes any). */
  say?: string;
  tool?: string;
  /** Arguments, long strings cut to 2,000 characters. */
  args?: unknown;
  ok?: boolean;
  /** The tool's answer, cut to 4,000 characters. */
  result?: string;
  ms?: number;
  /** Tokens of the model call that made this step (on its first tool call). */
  tokens?: { input: number; output: number };
}

/** How a React session ended. */
export interface ReactSession {
  /** `finished` | `step-budget` | `token-budget` | `no-tool-call` | `model-error: …` | `harness-error: …` */
  endedBecause: string;
  steps: number;
  transcript: TranscriptEntry[];
  /** True when the session ended for a reason that is not the model's (it could not be reached, or the build sandbox failed): the generation is retried later. */
  modelError: boolean;
}

const cut = (v: unknown, n: number): unknown => {
  if (typeof v === 'string') return v.length > n ? `${v.slice(0, n)}… (${v.length} chars)` : v;
  if (Array.isArray(v)) return v.map((x) => cut(x, n));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cut(x, n)]));
  return v;
};

/**
 * The React agent scaffold's loop (paper §5, Appendix B.1): the model gets the system prompt and the query,
 * then works through tool calls (all calls of a turn are run in order and answered) until it calls
 * `finish`, runs out of its step budget (tool calls) or token budget, or stops calling tools (after one
 * reminder). A `finish` while the project has unbuilt changes or a failing last build first builds; if
 * that build fails the model is told once and may go on. Malformed arguments are answered with the error.
 * Never throws: a model call that fails after the client's back-off ends the session (`modelError`).
 */
export async function runReactSession(client: ModelClient, system: string, query: string, tools: ProjectTools, budgets: ReactBudgets, meter: UsageMeter): Promise<ReactSession> {
  const messages: ChatMessage[] = [{ role: 'user', content: [{ type: 'text', text: query }] }];
  const transcript: TranscriptEntry[] = [];
  let steps = 0;
  let reminded = false;
  let finishRefused = false;
  const end = (endedBecause: string, modelError = false): ReactSession => ({ endedBecause, steps, transcript, modelError });
  for (;;) {
    if (meter.tokens >= budgets.tokens) return end('token-budget');
    let res;
    try {
      res = await client.complete({ system, messages, tools: REACT_TOOLS, toolChoice: 'auto', maxTokens: budgets.maxTokensPerCall });
    } catch (e) {
      return end(`model-error: ${errorMessage(e).split('\n')[0]!.slice(0, 300)}`, true);
    }
    meter.add(res.usage);
    messages.push({ role: 'assistant', text: res.text, toolCalls: res.toolCalls });
    if (!res.toolCalls.length) {
      transcript.push({ step: steps, say: String(cut(res.text, 2000)), tokens: { input: res.usage.inputTokens, output: res.usage.outputTokens } });
      if (reminded) return end('no-tool-call');
      reminded = true;
      messages.push({ role: 'user', content: [{ type: 'text', text: 'Continue with the tools. When the app is complete and builds, call finish.' }] });
      continue;
    }
    let finished = false;
    for (const [i, call] of res.toolCalls.entries()) {
      const entry: TranscriptEntry = { step: steps + 1, tool: call.name, args: cut(call.arguments, 2000), ...(i === 0 ? { tokens: { input: res.usage.inputTokens, output: res.usage.outputTokens }, ...(res.text ? { say: String(cut(res.text, 2000)) } : {}) } : {}) };
      let answer: string;
      let ok: boolean;
      const t0 = Date.now();
      if (finished || steps >= budgets.steps) {
        answer = finished ? 'ignored: the session has ended' : `ignored: the step budget (${budgets.steps} tool calls) is spent`;
        ok = false;
      } else if (call.parseError) {
        steps++;
        answer = `error: ${call.parseError}. Send the arguments as a JSON object.`;
        ok = false;
      } else if (call.name === 'finish') {
        steps++;
        if ((tools.dirty || !tools.lastBuild?.ok) && !finishRefused) {
          const b = await tools.run('build', {});
          if (b.ok) {
            finished = true;
            answer = 'finished (final build succeeded)';
            ok = true;
          } else {
            finishRefused = true;
            answer = `not finished: the project does not build yet. Fix it, then call finish again.\n${b.text}`;
            ok = false;
          }
        } else {
          finished = true;
          answer = 'finished';
          ok = true;
        }
      } else {
        steps++;
        const r = await tools.run(call.name, call.arguments);
        answer = r.text;
        ok = r.ok;
      }
      if (tools.lastBuild?.harnessError) {
        transcript.push({ ...entry, ok: false, result: String(cut(answer, 4000)), ms: Date.now() - t0 });
        return end(`harness-error: ${tools.lastBuild.harnessError}`, true);
      }
      entry.ok = ok;
      entry.result = String(cut(answer, 4000));
      entry.ms = Date.now() - t0;
      transcript.push(entry);
      messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: answer.length > 20_000 ? `${answer.slice(0, 20_000)}\n… (cut)` : answer });
    }
    if (finished) return end('finished');
    if (steps >= budgets.steps) return end('step-budget');
  }
}
