/**
 * The provider-neutral chat interface shared by the model-backed agent and judge: messages with text and
 * image parts, tool definitions (JSON Schema) and tool calls, token usage. Implemented for any
 * OpenAI-compatible chat-completions endpoint (hosted, vLLM, Ollama, llama.cpp) and for the Anthropic
 * Messages API.
 */

/** A part of a message. Images are PNG or JPEG, base64. */
export type ChatPart = { type: 'text'; text: string } | { type: 'image'; mediaType: 'image/png' | 'image/jpeg'; base64: string };

/** A tool call the model made; `arguments` is the parsed JSON, or the raw text when it did not parse. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: unknown;
  /** Set when the arguments were not valid JSON. */
  parseError?: string;
}

/** One message of the conversation. */
export type ChatMessage =
  | { role: 'user'; content: ChatPart[] }
  | { role: 'assistant'; text: string; toolCalls: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

/** A tool the model may call (JSON Schema parameters). */
export interface ToolDef {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** One request. `toolChoice: 'required'` forces a tool call; a tool name forces that tool. */
export interface ChatRequest {
  system: string;
  messages: ChatMessage[];
  tools?: ToolDef[];
  toolChoice?: 'auto' | 'required' | { name: string };
  temperature?: number;
  topP?: number;
  maxTokens?: number;
}

/** Token counts of one response. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens served from the provider's prompt cache, when it says (OpenAI: part of inputTokens; Anthropic: cache reads, counted apart from inputTokens). */
  cachedInputTokens?: number;
}

/** One response. */
export interface ChatResponse {
  text: string;
  toolCalls: ToolCall[];
  usage: TokenUsage;
  model: string;
}

/** A chat provider: `complete` performs one HTTP request (retries and back-off are the caller's, see backoff.ts). */
export interface ChatProvider {
  readonly provider: 'openai' | 'anthropic';
  readonly model: string;
  complete(req: ChatRequest): Promise<ChatResponse>;
}

/** Parse tool-call argument text; never throws. */
export function parseArguments(text: string | undefined | null): { value: unknown; error?: string } {
  if (text === undefined || text === null || text === '') return { value: {} };
  try {
    return { value: JSON.parse(text) };
  } catch (e) {
    return { value: text, error: `arguments are not valid JSON: ${(e as Error).message}` };
  }
}
