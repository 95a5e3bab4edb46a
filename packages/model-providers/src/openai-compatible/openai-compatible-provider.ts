import type { EventSourceMessage } from 'eventsource-parser';
import type { ChatMessage, ModelProvider, ModelRequest, ModelResponse, ModelStreamHandlers, ModelToolCall } from '../model-provider';
import { BodyJson } from '../shared/body-json';
import { errorFromStreamError } from '../shared/http-failure';
import {
  badResponse,
  parseEventData,
  resolveTransportOptions,
  streamWithRetries,
  type ProviderTransportOptions,
  type ResolvedTransportOptions,
  type StreamDecoder,
} from '../shared/provider-transport';
import { requestTools } from '../shared/request-tools';
import { argumentsAsJsonText, parseToolArguments } from '../shared/tool-arguments';
import { userParts, type UserPart, type UserPartOptions } from '../shared/user-content';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export interface OpenAiCompatibleProviderOptions extends ProviderTransportOptions {
  /** Sent as a Bearer token when set; local servers (Ollama, llama.cpp) need none. */
  readonly apiKey?: string;
  /** Default `https://api.openai.com/v1`; the provider appends `/chat/completions`. */
  readonly baseUrl?: string;
  /**
   * Body field for `maxOutputTokens`. OpenAI's current models only accept
   * `max_completion_tokens`, while many compatible servers only know `max_tokens`, so the
   * default follows the base URL.
   */
  readonly maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /**
   * Send attached PDFs as `file` content parts (`file_data` as a data URL). OpenAI and OpenRouter
   * read them; local servers (Ollama, llama.cpp, vLLM) refuse the part type, so for them the
   * model gets a note pointing to the pdf tools instead. Default: true for OpenAI's and
   * OpenRouter's base URLs only. Images go as `image_url` data URLs everywhere.
   */
  readonly pdfFileParts?: boolean;
}

/** OpenAI chat completions, streamed; also any compatible server (Ollama, vLLM, llama.cpp, OpenRouter). */
export class OpenAiCompatibleProvider implements ModelProvider {
  readonly name = 'openai' as const;
  private readonly baseUrl: string;
  private readonly transport: ResolvedTransportOptions;
  private readonly maxTokensField: 'max_tokens' | 'max_completion_tokens';
  private readonly pdfFileParts: boolean;
  /** Each conversation's JSON, and the tool lists' (shared/body-json.ts). */
  private readonly json = new BodyJson((messages, from) => ({
    entries: messages.slice(from).map((message) => toOpenAiMessage(message, { pdf: this.pdfFileParts })),
    lastStart: Math.max(from, messages.length - 1),
  }));

  constructor(private readonly options: OpenAiCompatibleProviderOptions = {}) {
    this.baseUrl = (options.baseUrl ?? OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.transport = resolveTransportOptions(options);
    this.maxTokensField = options.maxTokensField ?? (this.baseUrl === OPENAI_DEFAULT_BASE_URL ? 'max_completion_tokens' : 'max_tokens');
    this.pdfFileParts = options.pdfFileParts ?? (this.baseUrl === OPENAI_DEFAULT_BASE_URL || /^https:\/\/openrouter\.ai\//.test(this.baseUrl));
  }

  async complete(request: ModelRequest, handlers: ModelStreamHandlers = {}): Promise<ModelResponse> {
    const apiKey = this.options.apiKey;
    return streamWithRetries(
      {
        provider: 'openai',
        url: `${this.baseUrl}/chat/completions`,
        headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
        body: this.bodyJson(request),
        secret: apiKey,
        signal: request.signal,
        onTextDelta: handlers.onTextDelta,
        onReasoningDelta: handlers.onReasoningDelta,
        onRetry: handlers.onRetry,
        createDecoder: (emitText, emitReasoning) => new OpenAiStreamDecoder(emitText, apiKey, emitReasoning),
      },
      this.transport,
    );
  }

  /** Exposed for tests and audit: exactly what is POSTed (`bodyJson` is its JSON text). */
  buildBody(request: ModelRequest): Record<string, unknown> {
    return this.bodyAround(request, toOpenAiMessages(request.system, request.messages, { pdf: this.pdfFileParts }));
  }

  /** `JSON.stringify(buildBody(request))`, from the JSON kept from the requests before (shared/body-json.ts). */
  bodyJson(request: ModelRequest): string {
    const system = request.system !== '' ? [JSON.stringify(systemMessage(request.system))] : [];
    return this.json.of(request.messages, requestTools('openai', request.tools), (messages, tools) => this.bodyAround(request, messages, tools), system);
  }

  private bodyAround(request: ModelRequest, messages: unknown, tools: unknown = requestTools('openai', request.tools)): Record<string, unknown> {
    return {
      model: request.model,
      messages,
      ...(tools ? { tools } : {}),
      ...(request.maxOutputTokens !== undefined ? { [this.maxTokensField]: request.maxOutputTokens } : {}),
      // OpenAI's own field, which many compatible servers (OpenRouter among them) take too. A model
      // or server that cannot reason may refuse it, so it goes only when the model's setting asks.
      ...(request.reasoning !== undefined ? { reasoning_effort: request.reasoning } : {}),
      stream: true,
      stream_options: { include_usage: true },
    };
  }
}

function systemMessage(system: string): Record<string, unknown> {
  return { role: 'system', content: system };
}

export function toOpenAiMessages(system: string, messages: readonly ChatMessage[], files: UserPartOptions = { pdf: false }): Record<string, unknown>[] {
  const out = messages.map((message) => toOpenAiMessage(message, files));
  return system !== '' ? [systemMessage(system), ...out] : out;
}

function toOpenAiMessage(message: ChatMessage, files: UserPartOptions): Record<string, unknown> {
  switch (message.role) {
    case 'user':
      // Plain text stays a string (what every compatible server takes); files make it a part list.
      return { role: 'user', content: (message.attachments ?? []).length === 0 ? message.text : userParts(message, files).map(openAiUserPart) };
    case 'assistant':
      if (message.toolCalls.length === 0) return { role: 'assistant', content: message.text };
      // OpenAI wants null, not '', when the turn is only tool calls.
      return {
        role: 'assistant',
        content: message.text === '' ? null : message.text,
        tool_calls: message.toolCalls.map((call) => ({
          id: call.callId,
          type: 'function',
          function: { name: call.toolName, arguments: argumentsAsJsonText(call.arguments) },
        })),
      };
    case 'tool':
      // No error flag in this API: `content` already reads as an error for the model.
      return { role: 'tool', tool_call_id: message.callId, content: message.content };
  }
}

function openAiUserPart(part: UserPart): Record<string, unknown> {
  switch (part.kind) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return { type: 'image_url', image_url: { url: `data:${part.mediaType};base64,${part.data}` } };
    case 'pdf':
      return { type: 'file', file: { filename: part.name, file_data: `data:application/pdf;base64,${part.data}` } };
  }
}

interface PartialToolCall {
  id: string;
  name: string;
  argumentsText: string;
}

class OpenAiStreamDecoder implements StreamDecoder<ModelResponse> {
  private text = '';
  private reasoning = '';
  private readonly calls = new Map<number, PartialToolCall>();
  private finishReason: string | undefined;
  private sawDone = false;
  private inputTokens = 0;
  private outputTokens = 0;

  constructor(
    private readonly emitText: (text: string) => void,
    private readonly secret: string | undefined,
    private readonly emitReasoning: (text: string) => void,
  ) {}

  onEvent(event: EventSourceMessage): void {
    if (event.data.trim() === '[DONE]') {
      this.sawDone = true;
      return;
    }
    const chunk = parseEventData('openai', event);
    if (typeof chunk !== 'object' || chunk === null) throw badResponse('openai', 'a chunk was not a JSON object');
    const record = chunk as OpenAiChunk;
    if (record.error !== undefined) throw errorFromStreamError('openai', record.error, this.secret);
    if (record.usage) {
      this.inputTokens = record.usage.prompt_tokens ?? this.inputTokens;
      this.outputTokens = record.usage.completion_tokens ?? this.outputTokens;
    }
    // We never ask for n > 1, so the first choice is the reply.
    const choice = record.choices?.find((c) => (c.index ?? 0) === 0);
    if (!choice) return;
    const delta = choice.delta ?? {};
    // DeepSeek and vLLM name it `reasoning_content`, OpenRouter and Ollama `reasoning`; a server
    // sending both sends the same text twice, so the first one wins.
    const reasoning = nonEmpty(delta.reasoning_content) ?? nonEmpty(delta.reasoning);
    if (reasoning !== undefined) {
      this.reasoning += reasoning;
      this.emitReasoning(reasoning);
    }
    if (typeof delta.content === 'string' && delta.content !== '') {
      this.text += delta.content;
      this.emitText(delta.content);
    }
    for (const [position, piece] of (delta.tool_calls ?? []).entries()) {
      const index = piece.index ?? position;
      const call = this.calls.get(index) ?? { id: '', name: '', argumentsText: '' };
      if (piece.id) call.id = piece.id;
      if (piece.function?.name && call.name === '') call.name = piece.function.name;
      if (typeof piece.function?.arguments === 'string') call.argumentsText += piece.function.arguments;
      this.calls.set(index, call);
    }
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
  }

  finish(): ModelResponse {
    // A cut connection has neither a finish reason nor [DONE]; a partial reply must not pass as whole.
    if (this.finishReason === undefined && !this.sawDone) throw badResponse('openai', 'the stream ended before a finish_reason');
    const toolCalls: ModelToolCall[] = [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => {
        // Some local servers omit ids; the loop needs one to pair the result with the call. A call
        // without a name is kept: the turn records it and answers it tool_not_found.
        return { callId: call.id || `call_${index}`, toolName: call.name, arguments: parseToolArguments(call.argumentsText) };
      });
    return {
      text: this.text,
      toolCalls,
      usage: { inputTokens: this.inputTokens, outputTokens: this.outputTokens },
      stopReason: this.finishReason ?? 'stop',
      ...(this.reasoning !== '' ? { reasoning: this.reasoning } : {}),
    };
  }
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

interface OpenAiChunk {
  readonly error?: unknown;
  readonly usage?: { readonly prompt_tokens?: number; readonly completion_tokens?: number } | null;
  readonly choices?: readonly {
    readonly index?: number;
    readonly finish_reason?: string | null;
    readonly delta?: {
      readonly content?: string | null;
      readonly reasoning_content?: string | null;
      readonly reasoning?: string | null;
      readonly tool_calls?: readonly {
        readonly index?: number;
        readonly id?: string;
        readonly function?: { readonly name?: string; readonly arguments?: string };
      }[];
    };
  }[];
}
