import type Anthropic from '@anthropic-ai/sdk';
import { anthropicSdk } from './sdk.js';
import type { ChatProvider, ChatRequest, ChatResponse, ToolCall } from './chat.js';

/** Options of the Anthropic provider. */
export interface AnthropicOptions {
  model: string;
  apiKey: string;
  /** Base URL of an Anthropic Messages API (default the hosted one). */
  baseURL?: string;
  timeoutMs?: number;
}

type Block = Anthropic.Messages.ContentBlockParam;

/**
 * Anthropic Messages API provider through the official SDK (its own retries off). Images go as base64
 * `image` blocks; tool calls come back as `tool_use` blocks and results go as `tool_result` blocks in the
 * next user turn.
 */
export class AnthropicProvider implements ChatProvider {
  readonly provider = 'anthropic' as const;
  readonly model: string;
  private readonly client: Anthropic;

  constructor(opts: AnthropicOptions) {
    this.model = opts.model;
    this.client = new (anthropicSdk())({ apiKey: opts.apiKey, baseURL: opts.baseURL, maxRetries: 0, timeout: opts.timeoutMs ?? 120_000 });
  }

  async complete(req: ChatRequest): Promise<ChatResponse> {
    const messages: Anthropic.Messages.MessageParam[] = [];
    const push = (role: 'user' | 'assistant', blocks: Block[]) => {
      const last = messages[messages.length - 1];
      if (last && last.role === role && Array.isArray(last.content)) (last.content as Block[]).push(...blocks);
      else messages.push({ role, content: blocks });
    };
    for (const m of req.messages) {
      if (m.role === 'user') {
        push('user', m.content.map((p): Block => (p.type === 'text' ? { type: 'text', text: p.text } : { type: 'image', source: { type: 'base64', media_type: p.mediaType, data: p.base64 } })));
      } else if (m.role === 'assistant') {
        const blocks: Block[] = [];
        if (m.text) blocks.push({ type: 'text', text: m.text });
        for (const c of m.toolCalls) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: (typeof c.arguments === 'object' && c.arguments) || {} });
        push('assistant', blocks.length ? blocks : [{ type: 'text', text: '(no text)' }]);
      } else {
        push('user', [{ type: 'tool_result', tool_use_id: m.toolCallId, content: m.content }]);
      }
    }
    const tools = req.tools?.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters as Anthropic.Messages.Tool.InputSchema }));
    const tool_choice = !tools ? undefined : req.toolChoice && typeof req.toolChoice === 'object' ? { type: 'tool' as const, name: req.toolChoice.name } : req.toolChoice === 'required' ? { type: 'any' as const } : { type: 'auto' as const };
    const res = await this.client.messages.create({
      model: this.model,
      system: req.system,
      messages,
      max_tokens: req.maxTokens ?? 1024,
      ...(tools ? { tools, tool_choice } : {}),
      ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      ...(req.topP !== undefined ? { top_p: req.topP } : {}),
    });
    const toolCalls: ToolCall[] = [];
    let text = '';
    for (const b of res.content ?? []) {
      if (b.type === 'text') text += b.text;
      else if (b.type === 'tool_use') toolCalls.push({ id: b.id, name: b.name, arguments: b.input });
    }
    return { text, toolCalls, usage: { inputTokens: res.usage?.input_tokens ?? 0, outputTokens: res.usage?.output_tokens ?? 0, ...(res.usage?.cache_read_input_tokens ? { cachedInputTokens: res.usage.cache_read_input_tokens } : {}) }, model: res.model ?? this.model };
  }
}
