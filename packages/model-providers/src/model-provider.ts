import type { ReasoningEffort } from '@oneclaw/core';
import type { ProviderName, ToolPayload } from '@oneclaw/tool-registry';

/**
 * Opaque provider state kept with an assistant message and sent back on the next request of
 * the same provider: Anthropic thinking blocks (signed, must be echoed in tool loops) and Gemini
 * thought signatures. It is recorded in the `MessageSent` event so a replayed or restarted session
 * rebuilds exactly the same request. Never holds secrets.
 */
export interface ProviderMetadata {
  readonly provider: ProviderName;
  readonly data: unknown;
}

export interface ModelToolCall {
  readonly callId: string;
  readonly toolName: string;
  /** Parsed JSON object; `{}` when the model sent none. Unparseable OpenAI argument text is kept as the raw string. */
  readonly arguments: unknown;
}

/**
 * A file attached to a user message (its reference from the event), with its bytes as base64
 * when they were loaded from the attachment store for this request (turns/load-attachments.ts).
 */
export interface ChatAttachment {
  readonly hash: string;
  readonly name: string;
  readonly mediaType: string;
  readonly bytes: number;
  /** Base64 of the bytes; absent when not loaded (the model is told the file's name only). */
  readonly data?: string;
  /** The store no longer has the file: the model is told so, and the turn runs on. */
  readonly missing?: boolean;
}

/** The conversation as the agent loop hands it over: provider-neutral, in order. */
export type ChatMessage =
  | { readonly role: 'user'; readonly text: string; readonly attachments?: readonly ChatAttachment[] }
  | {
      readonly role: 'assistant';
      readonly text: string;
      readonly toolCalls: readonly ModelToolCall[];
      readonly providerMetadata?: ProviderMetadata;
    }
  | {
      readonly role: 'tool';
      readonly callId: string;
      readonly toolName: string;
      /** What the model reads: the result text, or the error rendered for the model. */
      readonly content: string;
      readonly isError: boolean;
    };

export interface ModelRequest {
  readonly model: string;
  readonly system: string;
  readonly messages: readonly ChatMessage[];
  /** Already in this provider's wire format (tool-registry `ToolPayloads`); may hold no tools. */
  readonly tools: ToolPayload;
  readonly maxOutputTokens?: number;
  /**
   * How hard the model is asked to think (the model's reasoning setting in configuration). Absent:
   * nothing is asked, the provider's own default applies, and the body is what it was before the
   * setting existed. Each provider maps it to its own field (`reasoning_effort`, `thinking`,
   * `thinkingConfig`; shared/thinking-budget.ts).
   */
  readonly reasoning?: ReasoningEffort;
  /** Aborting it (turn cancelled, client gone) ends the HTTP request at once. */
  readonly signal?: AbortSignal;
}

export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export interface ModelResponse {
  readonly text: string;
  readonly toolCalls: readonly ModelToolCall[];
  readonly usage: TokenUsage;
  /** The provider's own stop reason, as sent (e.g. `tool_calls`, `end_turn`, `STOP`). */
  readonly stopReason: string;
  readonly providerMetadata?: ProviderMetadata;
  /**
   * The reasoning the provider streamed, as plain text (Anthropic thinking blocks, Gemini thought
   * summaries, `reasoning_content` / `reasoning` of OpenAI-compatible servers). For the reader
   * only: it is never sent back (Anthropic's signed blocks travel in `providerMetadata`).
   */
  readonly reasoning?: string;
}

/** A failed attempt that will be retried after `waitMs` (429, 5xx, connection failure). */
export interface ProviderRetryNotice {
  /** The attempt about to be made, counting the first: 2 for the first retry. */
  readonly attempt: number;
  /** Every attempt allowed, the first included. */
  readonly maxAttempts: number;
  readonly waitMs: number;
  /** The failure's code: `provider_rate_limited` or `provider_unavailable`. */
  readonly reason: string;
  /** The HTTP status, when the provider answered at all. */
  readonly status?: number;
}

export interface ModelStreamHandlers {
  /** Each piece of assistant text as it arrives. */
  readonly onTextDelta?: (text: string) => void;
  /** Each piece of reasoning ("thinking") as it arrives, before or between the text. */
  readonly onReasoningDelta?: (text: string) => void;
  /** Before each wait between attempts: the user sees why nothing arrives yet. */
  readonly onRetry?: (notice: ProviderRetryNotice) => void;
}

/**
 * One LLM API. `complete` streams the reply (text deltas through the handler) and resolves to
 * the whole reply, or rejects with a `ProviderError` (never a raw fetch or parse error).
 */
export interface ModelProvider {
  readonly name: ProviderName;
  complete(request: ModelRequest, handlers?: ModelStreamHandlers): Promise<ModelResponse>;
}
