import type { EventSourceMessage } from 'eventsource-parser';
import type { ChatMessage, ModelProvider, ModelRequest, ModelResponse, ModelStreamHandlers, ModelToolCall, ProviderMetadata } from '../model-provider';
import { BodyJson, type ConvertedMessages } from '../shared/body-json';
import { errorFromStreamError } from '../shared/http-failure';
import { ProviderError } from '../shared/provider-error';
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
import { THINKING_BUDGET_TOKENS } from '../shared/thinking-budget';
import { asArgumentsObject } from '../shared/tool-arguments';
import { userParts } from '../shared/user-content';

export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';

export interface GeminiProviderOptions extends ProviderTransportOptions {
  readonly apiKey?: string;
  /** Default `https://generativelanguage.googleapis.com`; the provider appends `/v1beta/models/...`. */
  readonly baseUrl?: string;
}

/**
 * `ProviderMetadata.data` of a Gemini reply: the thought signatures seen on its parts. Gemini
 * requires them back on the same parts in the next request of a function-calling turn.
 */
export interface GeminiMetadata {
  /** Signature that came on a text part (replies without function calls). */
  readonly textSignature?: string;
  /** Signatures of functionCall parts, by the call id this provider generated. */
  readonly callSignatures?: Readonly<Record<string, string>>;
}

/** Gemini generateContent, streamed as SSE. */
export class GeminiProvider implements ModelProvider {
  readonly name = 'gemini' as const;
  private readonly baseUrl: string;
  private readonly transport: ResolvedTransportOptions;
  /** Each conversation's JSON, and the tool lists' (shared/body-json.ts). */
  private readonly json = new BodyJson(geminiContents);

  constructor(private readonly options: GeminiProviderOptions = {}) {
    this.baseUrl = (options.baseUrl ?? GEMINI_DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.transport = resolveTransportOptions(options);
  }

  async complete(request: ModelRequest, handlers: ModelStreamHandlers = {}): Promise<ModelResponse> {
    const apiKey = this.options.apiKey;
    // The key goes in a header, never in the URL, so it cannot leak through logged URLs.
    const model = encodeURIComponent(request.model.replace(/^models\//, ''));
    return streamWithRetries(
      {
        provider: 'gemini',
        url: `${this.baseUrl}/v1beta/models/${model}:streamGenerateContent?alt=sse`,
        headers: apiKey ? { 'x-goog-api-key': apiKey } : {},
        body: this.bodyJson(request),
        secret: apiKey,
        signal: request.signal,
        onTextDelta: handlers.onTextDelta,
        onReasoningDelta: handlers.onReasoningDelta,
        onRetry: handlers.onRetry,
        createDecoder: (emitText, emitReasoning) => new GeminiStreamDecoder(emitText, apiKey, emitReasoning),
      },
      this.transport,
    );
  }

  /** Exposed for tests and audit: exactly what is POSTed (`bodyJson` is its JSON text). */
  buildBody(request: ModelRequest): Record<string, unknown> {
    return this.bodyAround(request, toGeminiContents(request.messages));
  }

  /** `JSON.stringify(buildBody(request))`, from the JSON kept from the requests before (shared/body-json.ts). */
  bodyJson(request: ModelRequest): string {
    return this.json.of(request.messages, requestTools('gemini', request.tools), (contents, tools) => this.bodyAround(request, contents, tools));
  }

  private bodyAround(request: ModelRequest, contents: unknown, tools: unknown = requestTools('gemini', request.tools)): Record<string, unknown> {
    return {
      ...(request.system !== '' ? { systemInstruction: { parts: [{ text: request.system }] } } : {}),
      contents,
      ...(tools ? { tools } : {}),
      ...generationConfigOf(request),
    };
  }
}

/**
 * `generationConfig`, when the request sets anything in it. Thinking: a budget from the model's
 * reasoning setting, and the thought summaries that make the reasoning readable (Gemini sends
 * none unless asked). Without the setting nothing is asked and the model keeps its own default.
 */
function generationConfigOf(request: ModelRequest): { generationConfig?: Record<string, unknown> } {
  const config = {
    ...(request.maxOutputTokens !== undefined ? { maxOutputTokens: request.maxOutputTokens } : {}),
    ...(request.reasoning !== undefined ? { thinkingConfig: { includeThoughts: true, thinkingBudget: THINKING_BUDGET_TOKENS[request.reasoning] } } : {}),
  };
  return Object.keys(config).length > 0 ? { generationConfig: config } : {};
}

interface GeminiContent {
  role: 'user' | 'model';
  parts: Record<string, unknown>[];
}

/** Gemini pairs results with calls by name and order; consecutive results share one `user` content. */
export function toGeminiContents(messages: readonly ChatMessage[]): GeminiContent[] {
  return geminiContents(messages).entries;
}

/** `toGeminiContents`, with the index of the last content's first chat message (body-json.ts). */
function geminiContents(messages: readonly ChatMessage[], from = 0): ConvertedMessages & { readonly entries: GeminiContent[] } {
  const out: GeminiContent[] = [];
  let lastStart = from;
  let resultsContent: GeminiContent | undefined;
  for (let index = from; index < messages.length; index++) {
    const message = messages[index] as ChatMessage;
    if (message.role === 'tool') {
      const part = {
        functionResponse: { name: message.toolName, response: message.isError ? { error: message.content } : { result: message.content } },
      };
      if (resultsContent) resultsContent.parts.push(part);
      else {
        resultsContent = { role: 'user', parts: [part] };
        out.push(resultsContent);
        lastStart = index;
      }
      continue;
    }
    resultsContent = undefined;
    if (message.role === 'user') {
      // Files as inlineData parts (Gemini reads images and PDFs), then the text; never no part at all.
      const parts = userParts(message, { pdf: true }).map((part) =>
        part.kind === 'text' ? { text: part.text } : { inlineData: { mimeType: part.kind === 'pdf' ? 'application/pdf' : part.mediaType, data: part.data } },
      );
      out.push({ role: 'user', parts: parts.length > 0 ? parts : [{ text: '' }] });
      lastStart = index;
      continue;
    }
    const signatures = geminiSignaturesOf(message.providerMetadata);
    const parts: Record<string, unknown>[] = [];
    if (message.text !== '') parts.push(withSignature({ text: message.text }, signatures.textSignature));
    for (const call of message.toolCalls) {
      parts.push(withSignature({ functionCall: { name: call.toolName, args: asArgumentsObject(call.arguments) } }, signatures.callSignatures?.[call.callId]));
    }
    // Gemini rejects a content without parts; an empty assistant turn carries nothing anyway.
    if (parts.length > 0) {
      out.push({ role: 'model', parts });
      lastStart = index;
    }
  }
  return { entries: out, lastStart };
}

function withSignature(part: Record<string, unknown>, signature: string | undefined): Record<string, unknown> {
  return signature ? { ...part, thoughtSignature: signature } : part;
}

function geminiSignaturesOf(metadata: ProviderMetadata | undefined): GeminiMetadata {
  if (metadata?.provider !== 'gemini' || typeof metadata.data !== 'object' || metadata.data === null) return {};
  return metadata.data as GeminiMetadata;
}

/** Gemini has no call ids; these are unique within a reply and the same for the same reply. */
export function geminiCallId(index: number, name: string): string {
  return `gemini-${index}-${name}`;
}

class GeminiStreamDecoder implements StreamDecoder<ModelResponse> {
  private text = '';
  private reasoning = '';
  private readonly calls: ModelToolCall[] = [];
  private textSignature: string | undefined;
  private readonly callSignatures: Record<string, string> = {};
  private finishReason: string | undefined;
  private inputTokens = 0;
  private outputTokens = 0;

  constructor(
    private readonly emitText: (text: string) => void,
    private readonly secret: string | undefined,
    private readonly emitReasoning: (text: string) => void,
  ) {}

  onEvent(event: EventSourceMessage): void {
    const data = parseEventData('gemini', event);
    if (typeof data !== 'object' || data === null) throw badResponse('gemini', 'a chunk was not a JSON object');
    const chunk = data as GeminiChunk;
    if (chunk.error !== undefined) throw errorFromStreamError('gemini', chunk.error, this.secret);
    if (chunk.usageMetadata) {
      const usage = chunk.usageMetadata;
      this.inputTokens = usage.promptTokenCount ?? this.inputTokens;
      // Thinking tokens are billed as output.
      this.outputTokens = (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0) || this.outputTokens;
    }
    const blocked = chunk.promptFeedback?.blockReason;
    if (blocked && !chunk.candidates?.length) {
      throw new ProviderError('provider_bad_request', `Gemini blocked the prompt (${blocked}); rephrase the message or adjust the safety settings.`, {
        provider: 'gemini',
        blockReason: blocked,
      });
    }
    const candidate = chunk.candidates?.find((c) => (c.index ?? 0) === 0);
    if (!candidate) return;
    for (const part of candidate.content?.parts ?? []) this.takePart(part);
    if (candidate.finishReason) this.finishReason = candidate.finishReason;
  }

  finish(): ModelResponse {
    if (this.finishReason === undefined) throw badResponse('gemini', 'the stream ended before a finishReason');
    const metadata: GeminiMetadata = {
      ...(this.textSignature ? { textSignature: this.textSignature } : {}),
      ...(Object.keys(this.callSignatures).length > 0 ? { callSignatures: { ...this.callSignatures } } : {}),
    };
    return {
      text: this.text,
      toolCalls: this.calls,
      usage: { inputTokens: this.inputTokens, outputTokens: this.outputTokens },
      stopReason: this.finishReason,
      ...(Object.keys(metadata).length > 0 ? { providerMetadata: { provider: 'gemini' as const, data: metadata } } : {}),
      ...(this.reasoning !== '' ? { reasoning: this.reasoning } : {}),
    };
  }

  private takePart(part: GeminiPart): void {
    if (part.functionCall) {
      // A call without a name is kept: the turn records it and answers it tool_not_found.
      const name = part.functionCall.name ?? '';
      const callId = geminiCallId(this.calls.length, name);
      this.calls.push({ callId, toolName: name, arguments: part.functionCall.args ?? {} });
      if (part.thoughtSignature) this.callSignatures[callId] = part.thoughtSignature;
      return;
    }
    // Thought summaries (sent when thinkingConfig.includeThoughts is set) are reasoning, not the answer.
    if (part.thought) {
      if (typeof part.text === 'string') {
        this.reasoning += part.text;
        this.emitReasoning(part.text);
      }
      return;
    }
    if (typeof part.text === 'string') {
      this.text += part.text;
      this.emitText(part.text);
    }
    if (part.thoughtSignature) this.textSignature = part.thoughtSignature;
  }
}

interface GeminiPart {
  readonly text?: string;
  readonly thought?: boolean;
  readonly thoughtSignature?: string;
  readonly functionCall?: { readonly name?: string; readonly args?: unknown };
}

interface GeminiChunk {
  readonly error?: unknown;
  readonly candidates?: readonly {
    readonly index?: number;
    readonly finishReason?: string;
    readonly content?: { readonly parts?: readonly GeminiPart[] };
  }[];
  readonly usageMetadata?: { readonly promptTokenCount?: number; readonly candidatesTokenCount?: number; readonly thoughtsTokenCount?: number };
  readonly promptFeedback?: { readonly blockReason?: string };
}
