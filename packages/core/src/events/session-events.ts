import type { EventEnvelope } from './event-envelope';

/** Schema version written into new session events; readers accept this version and older. */
export const SESSION_EVENT_SCHEMA_VERSION = 1;

export interface ToolCall {
  readonly callId: string;
  readonly toolName: string;
  /** Parsed JSON arguments as the model sent them (never containing `_env` values). */
  readonly arguments: Readonly<Record<string, unknown>>;
}

export type ToolCallStatus = 'success' | 'error';

export interface UserMessageData {
  readonly messageId: string;
  readonly role: 'user';
  readonly text: string;
}

export interface AssistantMessageData {
  readonly messageId: string;
  readonly role: 'assistant';
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  /**
   * Opaque provider state to send back with this message on the next request to the same
   * provider (Anthropic thinking blocks, Gemini thought signatures). Kept in the event so a
   * replayed or restarted session rebuilds the same request. Never holds secrets.
   */
  readonly providerMetadata?: { readonly provider: string; readonly data: unknown };
}

interface ToolResultBase {
  readonly messageId: string;
  readonly role: 'tool';
  readonly callId: string;
  readonly toolName: string;
  readonly durationMs: number;
}

export interface ToolSuccessData extends ToolResultBase {
  readonly status: 'success';
  readonly result: string;
}

export interface ToolErrorData extends ToolResultBase {
  readonly status: 'error';
  readonly errorType: string;
  readonly message: string;
}

export type ToolResultMessageData = ToolSuccessData | ToolErrorData;
export type MessageData = UserMessageData | AssistantMessageData | ToolResultMessageData;

/** Who asked for a group: the model through a `load_tool_group` call, or the user directly. */
export type ToolGroupLoadSource = { readonly kind: 'tool_call'; readonly callId: string } | { readonly kind: 'user' };

export type SessionStarted = EventEnvelope<'SessionStarted', { readonly sessionId: string; readonly agentId: string }>;
export type MessageSent = EventEnvelope<'MessageSent', MessageData>;
export type ToolGroupLoaded = EventEnvelope<
  'ToolGroupLoaded',
  {
    readonly groupName: string;
    /** The group's tools as resolved at load time (audit); the live set follows the catalogue. */
    readonly toolNames: readonly string[];
    readonly source: ToolGroupLoadSource;
  }
>;
export type ToolGroupUnloaded = EventEnvelope<'ToolGroupUnloaded', { readonly groupName: string }>;
export type SessionCleared = EventEnvelope<'SessionCleared', { readonly reason: string }>;
export type ModelRequested = EventEnvelope<
  'ModelRequested',
  {
    readonly provider: string;
    readonly model: string;
    /** Exactly the tool names sent with this request, in the order sent. */
    readonly toolNames: readonly string[];
    /** Tokens the tool schemas cost in this request, counted with a real tokenizer. */
    readonly schemaTokens: number;
  }
>;

/** Why a turn (one user message and the model rounds it caused) ended. */
export type TurnStopReason =
  | 'completed' // the model answered with no tool call
  | 'round_cap' // the agent's round cap was reached
  | 'cancelled' // CancelTurn, or the client went away
  | 'loop_breaker' // the same call kept failing
  | 'provider_error' // the LLM API failed after bounded retries
  | 'interrupted'; // the server stopped mid-turn; recorded when the session is next used

export const TURN_STOP_REASONS: readonly TurnStopReason[] = ['completed', 'round_cap', 'cancelled', 'loop_breaker', 'provider_error', 'interrupted'];

export type TurnFinished = EventEnvelope<
  'TurnFinished',
  {
    readonly reason: TurnStopReason;
    /** Plain words for the user: what stopped the turn and, if it failed, what to do. */
    readonly detail: string;
    /** Model requests made in the turn. */
    readonly rounds: number;
    readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
  }
>;

export type SessionEvent =
  | SessionStarted
  | MessageSent
  | ToolGroupLoaded
  | ToolGroupUnloaded
  | SessionCleared
  | ModelRequested
  | TurnFinished;

export type SessionEventType = SessionEvent['type'];

export const SESSION_EVENT_TYPES: readonly SessionEventType[] = [
  'SessionStarted',
  'MessageSent',
  'ToolGroupLoaded',
  'ToolGroupUnloaded',
  'SessionCleared',
  'ModelRequested',
  'TurnFinished',
];

/** One stream per session. */
export function sessionStreamId(sessionId: string): string {
  return `session-${sessionId}`;
}
