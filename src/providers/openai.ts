import type OpenAI from 'openai';
import { openAISdk } from './sdk.js';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { parseArguments, type ChatProvider, type ChatRequest, type ChatResponse } from './chat.js';

/** Options of an OpenAI-compatible provider. */
export interface OpenAIOptions {
  model: string;
  apiKey: string;
  /** Any OpenAI-compatible base URL (e.g. http://localhost:8000/v1 for vLLM, http://localhost:11434/v1 for Ollama). */
  baseURL?: string;
  timeoutMs?: number;
}

/**
 * Chat-completions provider for OpenAI and every OpenAI-compatible server (vLLM, Ollama, llama.cpp's
 * server), through the official `openai` SDK with its own retries off (Cookie's back-off is explicit and
 * tested). Images go as `image_url` data URLs; tools as `function` tools.
 */
export class OpenAIProvider implements ChatProvider {
  readonly provider = 'openai' as const;
  readonly model: string;
  private readonly client: OpenAI;

  constructor(opts: OpenAIOptions) {
    this.model = opts.model;
    this.client = new (openAISdk())({ apiKey: opts.apiKey, baseURL: opts.baseURL, maxRetries: 0, timeout: opts.timeoutMs ?? 120_000 });
  }

  async complete(req: ChatRequest): Promise<ChatResponse> {
    const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: req.system }];
    for (const m of req.messages) {
      if (m.role === 'user') {
        messages.push({
          role: 'user',
          content: m.content.map((p) => (p.type === 'text' ? { type: 'text' as const, text: p.text } : { type: 'image_url' as const, image_url: { url: `data:${p.mediaType};base64,${p.base64}` } })),
        });
      } else if (m.role === 'assistant') {
        messages.push({
          role: 'assistant',
          content: m.text || null,
          ...(m.toolCalls.length ? { tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) } })) } : {}),
        });
      } else {
        messages.push({ role: 'tool', tool_call_id: m.toolCallId, content: m.content });
      }
    }
    const tools: ChatCompletionTool[] | undefined = req.tools?.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
    const tool_choice = !tools ? undefined : req.toolChoice && typeof req.toolChoice === 'object' ? { type: 'function' as const, function: { name: req.toolChoice.name } } : (req.toolChoice ?? 'auto');
    const res = await this.client.chat.completions.create({
      model: this.model,
      messages,
      ...(tools ? { tools, tool_choice } : {}),
      ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      ...(req.topP !== undefined ? { top_p: req.topP } : {}),
      ...(req.maxTokens !== undefined ? { max_tokens: req.maxTokens } : {}),
    });
    const choice = res.choices?.[0];
    const msg = choice?.message;
    return {
      text: msg?.content ?? '',
      toolCalls: (msg?.tool_calls ?? []).flatMap((c) => {
        if (c.type !== 'function') return [];
        const parsed = parseArguments(c.function.arguments);
        return [{ id: c.id, name: c.function.name, arguments: parsed.value, ...(parsed.error ? { parseError: parsed.error } : {}) }];
      }),
      usage: { inputTokens: res.usage?.prompt_tokens ?? 0, outputTokens: res.usage?.completion_tokens ?? 0, ...(res.usage?.prompt_tokens_details?.cached_tokens ? { cachedInputTokens: res.usage.prompt_tokens_details.cached_tokens } : {}) },
      model: res.model ?? this.model,
    };
  }
}
