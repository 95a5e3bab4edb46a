import type { EventSourceMessage } from 'eventsource-parser';
import type { ChatMessage, ModelProvider, ModelRequest, ModelResponse, ModelStreamHandlers, ModelToolCall, ProviderMetadata } from '../model-provider';
import { BodyJson, type ConvertedMessages } from '../shared/body-json';
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
import { THINKING_BUDGET_TOKENS } from '../shared/thinking-budget';
import { anthropicThinkingMode } from './anthropic-thinking-mode';
import { AnthropicToolUseIds } from './anthropic-tool-use-ids';
import { asArgumentsObject, parseToolArguments } from '../shared/tool-arguments';
import { userParts, type UserPart } from '../shared/user-content';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_VERSION = '2023-06-01';

export interface AnthropicProviderOptions extends ProviderTransportOptions {
  readonly apiKey?: string;
  /** Default `https://api.anthropic.com`; the provider appends `/v1/messages`. */
  readonly baseUrl?: string;
  /** `max_tokens` when the request sets none; the API requires the field. Default 4096. */
  readonly defaultMaxTokens?: number;
}

/** Signed reasoning blocks. The API rejects a tool-use follow-up that drops them, so they travel back verbatim. */
export type AnthropicThinkingBlock =
  { readonly type: 'thinking'; readonly thinking: string; readonly signature: string } | { readonly type: 'redacted_thinking'; readonly data: string };

/** `ProviderMetadata.data` of an Anthropic reply. */
export interface AnthropicMetadata {
  readonly blocks: readonly AnthropicThinkingBlock[];
}

/** Anthropic Messages API, streamed. */
export class AnthropicProvider implements ModelProvider {
  readonly name = 'anthropic' as const;
  private readonly baseUrl: string;
  private readonly transport: ResolvedTransportOptions;
  /** Each conversation's JSON, and the tool lists' (shared/body-json.ts). */
  private readonly json = new BodyJson(anthropicMessages);

  constructor(private readonly options: AnthropicProviderOptions = {}) {
    this.baseUrl = (options.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.transport = resolveTransportOptions(options);
  }

  async complete(request: ModelRequest, handlers: ModelStreamHandlers = {}): Promise<ModelResponse> {
    const apiKey = this.options.apiKey;
    return streamWithRetries(
      {
        provider: 'anthropic',
        url: `${this.baseUrl}/v1/messages`,
        headers: { 'anthropic-version': ANTHROPIC_VERSION, ...(apiKey ? { 'x-api-key': apiKey } : {}) },
        body: this.bodyJson(request),
        secret: apiKey,
        signal: request.signal,
        onTextDelta: handlers.onTextDelta,
        onReasoningDelta: handlers.onReasoningDelta,
        onRetry: handlers.onRetry,
        createDecoder: (emitText, emitReasoning) => new AnthropicStreamDecoder(emitText, apiKey, emitReasoning),
      },
      this.transport,
    );
  }

  /** Exposed for tests and audit: exactly what is POSTed (`bodyJson` is its JSON text). */
  buildBody(request: ModelRequest): Record<string, unknown> {
    return this.bodyAround(request, toAnthropicMessages(request.messages));
  }

  /** `JSON.stringify(buildBody(request))`, from the JSON kept from the requests before (shared/body-json.ts). */
  bodyJson(request: ModelRequest): string {
    return this.json.of(request.messages, requestTools('anthropic', request.tools), (messages, tools) => this.bodyAround(request, messages, tools));
  }

  private bodyAround(request: ModelRequest, messages: unknown, tools: unknown = requestTools('anthropic', request.tools)): Record<string, unknown> {
    const thinking = thinkingOf(request);
    return {
      model: request.model,
      // Thinking tokens count against max_tokens, which must exceed the budget: the budget is
      // added so the answer keeps the room it had without thinking (adaptive thinking too).
      max_tokens: (request.maxOutputTokens ?? this.options.defaultMaxTokens ?? 4096) + (thinking?.budget ?? 0),
      // The body sends no temperature, top_p, top_k or forced tool_choice, which thinking forbids.
      ...thinking?.fields,
      ...(request.system !== '' ? { system: request.system } : {}),
      messages,
      ...(tools ? { tools } : {}),
      stream: true,
    };
  }
}

/**
 * What the request asks of thinking, if anything (the model's reasoning setting): its token
 * budget (shared/thinking-budget.ts) and the body fields, in the form the model takes
 * (anthropic-thinking-mode.ts).
 */
function thinkingOf(request: ModelRequest): { readonly budget: number; readonly fields: Record<string, unknown> } | undefined {
  if (request.reasoning === undefined) return undefined;
  // An assistant turn (a reply, its tool results and the replies after them, up to the next user
  // input) runs in one thinking mode: with thinking on, the API refuses (400) a request whose
  // turn so far calls tools unless the turn's first reply starts with a thinking block. Later
  // replies of the loop may carry none (without interleaved thinking the model thinks once, at
  // the start). The signed blocks come back through providerMetadata, but a turn begun without
  // thinking (the setting switched on in the middle of it, a reply from another provider, blocks
  // dropped because they held a secret) has none: the rest of that turn goes without thinking.
  if (turnCallsToolsWithoutThinking(request.messages)) return undefined;
  const budget = THINKING_BUDGET_TOKENS[request.reasoning];
  return anthropicThinkingMode(request.model) === 'adaptive'
    ? { budget, fields: { thinking: { type: 'adaptive' }, output_config: { effort: request.reasoning } } }
    : { budget, fields: { thinking: { type: 'enabled', budget_tokens: budget } } };
}

/**
 * Whether the assistant turn the request continues (the replies and tool results after the last
 * user input) calls tools and its first reply does not start with a thinking block. Consecutive
 * assistant messages merge into one (toAnthropicMessages), so the earliest reply with a block
 * decides. Walks back from the end only to the last user input, so a long conversation costs
 * nothing more (shared/body-json.ts).
 */
function turnCallsToolsWithoutThinking(messages: readonly ChatMessage[]): boolean {
  let callsTools = false;
  let startsWithThinking = false;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as ChatMessage;
    if (message.role === 'assistant') {
      const thinking = thinkingBlocksOf(message.providerMetadata).length > 0;
      // An empty reply adds no block, so it does not start the turn.
      if (!thinking && isBlank(message.text) && message.toolCalls.length === 0) continue;
      callsTools ||= message.toolCalls.length > 0;
      // Walking back, the earliest reply of the turn decides how it starts.
      startsWithThinking = thinking;
    } else if (message.role === 'user' && addsBlock(message)) break;
  }
  return callsTools && !startsWithThinking;
}

/** Whether a user or tool message adds a block (the converter drops a user message with none, and its neighbours merge). */
function addsBlock(message: Exclude<ChatMessage, { role: 'assistant' }>): boolean {
  return message.role === 'tool' || userBlocks(message).length > 0;
}

/**
 * The API refuses a text block that is empty or only whitespace (400 "text content blocks must
 * contain non-whitespace text"), on every later request of the session, so such text is never
 * sent. A model may well answer only "  \n " (it is recorded as it came): the reply then adds no
 * block, which also heals streams recorded before this rule.
 */
function isBlank(text: string): boolean {
  return !/\S/.test(text);
}

function userBlocks(message: Extract<ChatMessage, { role: 'user' }>): Record<string, unknown>[] {
  return userParts(message, { pdf: true })
    .filter((part) => part.kind !== 'text' || !isBlank(part.text))
    .map(anthropicUserBlock);
}

interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: Record<string, unknown>[];
}

/**
 * The API demands strict user/assistant alternation, so consecutive same-role entries are merged
 * into one message: several tool results become one user message of `tool_result` blocks, and a
 * user message right after them joins that same message. A message without blocks (a blank reply)
 * is left out, as the API refuses a message with empty content, and its neighbours merge.
 */
export function toAnthropicMessages(messages: readonly ChatMessage[]): AnthropicMessage[] {
  return anthropicMessages(messages).entries;
}

/**
 * `toAnthropicMessages` of the chat messages from `from` on, with the index of the last message's
 * first chat message (body-json.ts). The messages before `from` are walked too, without building
 * their blocks: the tool_use ids they took decide the ids from there on (anthropic-tool-use-ids.ts).
 */
function anthropicMessages(messages: readonly ChatMessage[], from = 0): ConvertedMessages & { readonly entries: AnthropicMessage[] } {
  const out: AnthropicMessage[] = [];
  const ids = new AnthropicToolUseIds();
  /** The role of the last message with blocks, sent or not: consecutive ones merge into one. */
  let lastRole: AnthropicMessage['role'] | undefined;
  let lastStart = from;
  let index = 0;
  const append = (role: AnthropicMessage['role'], blocks: Record<string, unknown>[]): void => {
    if (blocks.length === 0) return;
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else {
      out.push({ role, content: blocks });
      lastStart = index;
    }
  };
  for (const [i, message] of messages.entries()) {
    index = i;
    const sent = i >= from;
    switch (message.role) {
      case 'user': {
        const blocks = sent ? userBlocks(message) : [];
        if (sent ? blocks.length > 0 : addsBlock(message)) lastRole = 'user';
        append('user', blocks);
        break;
      }
      case 'assistant': {
        const thinking = thinkingBlocksOf(message.providerMetadata);
        // A blank reply adds no block (isBlank), so it neither starts nor joins a message.
        if (thinking.length === 0 && isBlank(message.text) && message.toolCalls.length === 0) break;
        if (lastRole !== 'assistant') ids.startMessage();
        lastRole = 'assistant';
        const toolUses = message.toolCalls.map((call) => {
          const id = ids.toolUse(call.callId);
          return sent ? { type: 'tool_use', id, name: call.toolName, input: asArgumentsObject(call.arguments) } : undefined;
        });
        if (sent) append('assistant', [...thinking, ...(isBlank(message.text) ? [] : [{ type: 'text', text: message.text }]), ...(toolUses as Record<string, unknown>[])]);
        break;
      }
      case 'tool': {
        const id = ids.toolResult(message.callId);
        lastRole = 'user';
        if (sent) append('user', [{ type: 'tool_result', tool_use_id: id, content: message.content, is_error: message.isError }]);
        break;
      }
    }
  }
  return { entries: out, lastStart };
}

/** Images and PDFs go as base64 `image` and `document` blocks, before the text that refers to them. */
function anthropicUserBlock(part: UserPart): Record<string, unknown> {
  switch (part.kind) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return { type: 'image', source: { type: 'base64', media_type: part.mediaType, data: part.data } };
    case 'pdf':
      return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: part.data }, title: part.name };
  }
}

function thinkingBlocksOf(metadata: ProviderMetadata | undefined): Record<string, unknown>[] {
  // Another provider's state means nothing here (e.g. a session whose provider changed).
  if (metadata?.provider !== 'anthropic') return [];
  const blocks = (metadata.data as Partial<AnthropicMetadata> | undefined)?.blocks;
  return Array.isArray(blocks) ? blocks.map((block) => ({ ...block })) : [];
}

type OpenBlock =
  | { kind: 'text'; text: string }
  | { kind: 'tool_use'; id: string; name: string; json: string; startInput: unknown }
  | { kind: 'thinking'; thinking: string; signature: string }
  | { kind: 'redacted_thinking'; data: string }
  | { kind: 'other' };

class AnthropicStreamDecoder implements StreamDecoder<ModelResponse> {
  private readonly blocks = new Map<number, OpenBlock>();
  private stopReason: string | undefined;
  private stopped = false;
  private inputTokens = 0;
  private outputTokens = 0;

  constructor(
    private readonly emitText: (text: string) => void,
    private readonly secret: string | undefined,
    private readonly emitReasoning: (text: string) => void,
  ) {}

  onEvent(event: EventSourceMessage): void {
    const data = parseEventData('anthropic', event);
    if (typeof data !== 'object' || data === null) throw badResponse('anthropic', 'an event was not a JSON object');
    const payload = data as AnthropicEvent;
    const type = payload.type ?? event.event;
    switch (type) {
      case 'message_start': {
        const usage = payload.message?.usage;
        // Cached prompt tokens are reported apart; all of them were sent as input.
        this.inputTokens = (usage?.input_tokens ?? 0) + (usage?.cache_creation_input_tokens ?? 0) + (usage?.cache_read_input_tokens ?? 0);
        this.outputTokens = usage?.output_tokens ?? 0;
        return;
      }
      case 'content_block_start':
        this.blocks.set(this.indexOf(payload), this.openBlock(payload.content_block));
        return;
      case 'content_block_delta':
        this.applyDelta(this.blockAt(payload), payload.delta);
        return;
      case 'content_block_stop':
        this.blockAt(payload);
        return;
      case 'message_delta':
        if (payload.delta?.stop_reason) this.stopReason = payload.delta.stop_reason;
        if (typeof payload.usage?.output_tokens === 'number') this.outputTokens = payload.usage.output_tokens;
        return;
      case 'message_stop':
        this.stopped = true;
        return;
      case 'error':
        throw errorFromStreamError('anthropic', payload.error, this.secret);
      default:
        // ping, and event types added after this was written, carry nothing we need.
        return;
    }
  }

  finish(): ModelResponse {
    if (!this.stopped) throw badResponse('anthropic', 'the stream ended before message_stop');
    const ordered = [...this.blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
    let text = '';
    const toolCalls: ModelToolCall[] = [];
    const thinking: AnthropicThinkingBlock[] = [];
    for (const block of ordered) {
      if (block.kind === 'text') text += block.text;
      else if (block.kind === 'tool_use') {
        toolCalls.push({ callId: block.id, toolName: block.name, arguments: block.json === '' ? (block.startInput ?? {}) : parseToolArguments(block.json) });
      } else if (block.kind === 'thinking') thinking.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
      else if (block.kind === 'redacted_thinking') thinking.push({ type: 'redacted_thinking', data: block.data });
    }
    const metadata: AnthropicMetadata = { blocks: thinking };
    const reasoning = thinking.flatMap((block) => (block.type === 'thinking' && block.thinking !== '' ? [block.thinking] : [])).join('\n\n');
    return {
      text,
      toolCalls,
      usage: { inputTokens: this.inputTokens, outputTokens: this.outputTokens },
      stopReason: this.stopReason ?? 'end_turn',
      ...(thinking.length > 0 ? { providerMetadata: { provider: 'anthropic' as const, data: metadata } } : {}),
      ...(reasoning !== '' ? { reasoning } : {}),
    };
  }

  private openBlock(block: AnthropicEvent['content_block']): OpenBlock {
    switch (block?.type) {
      case 'text': {
        const text = block.text ?? '';
        this.emitText(text);
        return { kind: 'text', text };
      }
      case 'tool_use':
        // A call without id or name is the model's mistake, not an unreadable reply: the turn
        // gives it an id (uniqueCallIds) and answers it tool_not_found, and the user's request goes on.
        return { kind: 'tool_use', id: block.id ?? '', name: block.name ?? '', json: '', startInput: block.input };
      case 'thinking': {
        const thinking = block.thinking ?? '';
        this.emitReasoning(thinking);
        return { kind: 'thinking', thinking, signature: block.signature ?? '' };
      }
      case 'redacted_thinking':
        return { kind: 'redacted_thinking', data: block.data ?? '' };
      default:
        return { kind: 'other' };
    }
  }

  private applyDelta(block: OpenBlock, delta: AnthropicEvent['delta']): void {
    switch (delta?.type) {
      case 'text_delta':
        if (block.kind === 'text' && typeof delta.text === 'string') {
          block.text += delta.text;
          this.emitText(delta.text);
        }
        return;
      case 'input_json_delta':
        if (block.kind === 'tool_use' && typeof delta.partial_json === 'string') block.json += delta.partial_json;
        return;
      case 'thinking_delta':
        if (block.kind === 'thinking' && typeof delta.thinking === 'string') {
          block.thinking += delta.thinking;
          this.emitReasoning(delta.thinking);
        }
        return;
      case 'signature_delta':
        if (block.kind === 'thinking' && typeof delta.signature === 'string') block.signature += delta.signature;
        return;
      default:
        return;
    }
  }

  private indexOf(payload: AnthropicEvent): number {
    if (typeof payload.index !== 'number') throw badResponse('anthropic', `${payload.type ?? 'an'} event had no block index`);
    return payload.index;
  }

  private blockAt(payload: AnthropicEvent): OpenBlock {
    const block = this.blocks.get(this.indexOf(payload));
    if (!block) throw badResponse('anthropic', `${payload.type ?? 'an'} event referred to block ${payload.index} that never started`);
    return block;
  }
}

interface AnthropicEvent {
  readonly type?: string;
  readonly index?: number;
  readonly message?: {
    readonly usage?: {
      readonly input_tokens?: number;
      readonly output_tokens?: number;
      readonly cache_creation_input_tokens?: number;
      readonly cache_read_input_tokens?: number;
    };
  };
  readonly content_block?: {
    readonly type?: string;
    readonly text?: string;
    readonly id?: string;
    readonly name?: string;
    readonly input?: unknown;
    readonly thinking?: string;
    readonly signature?: string;
    readonly data?: string;
  };
  readonly delta?: {
    readonly type?: string;
    readonly text?: string;
    readonly partial_json?: string;
    readonly thinking?: string;
    readonly signature?: string;
    readonly stop_reason?: string | null;
  };
  readonly usage?: { readonly output_tokens?: number };
  readonly error?: unknown;
}
