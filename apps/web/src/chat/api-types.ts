/**
 * The shapes the chat and the groups browser read from the server (docs/api.md). Declared here
 * rather than imported from the server packages: the bundle must not pull in Node code, and
 * these are only the fields the UI uses.
 */

export interface ToolCallData {
  readonly callId: string;
  readonly toolName: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** A file attached to a user message (POST /api/attachments answers it; MessageSent keeps it). */
export interface AttachmentRef {
  readonly hash: string;
  readonly name: string;
  readonly mediaType: string;
  readonly bytes: number;
}

export type MessageData =
  | { readonly messageId: string; readonly role: 'user'; readonly text: string; readonly attachments?: readonly AttachmentRef[] }
  | {
      readonly messageId: string;
      readonly role: 'assistant';
      readonly text: string;
      readonly toolCalls: readonly ToolCallData[];
      /** Who answered (absent in older streams: the last ModelRequested before it says). */
      readonly provider?: string;
      readonly model?: string;
      /** The model's reasoning, plain text. */
      readonly reasoning?: string;
    }
  | ToolResultData;

export type ToolResultData =
  | { readonly messageId: string; readonly role: 'tool'; readonly callId: string; readonly toolName: string; readonly durationMs: number; readonly status: 'success'; readonly result: string }
  | {
      readonly messageId: string;
      readonly role: 'tool';
      readonly callId: string;
      readonly toolName: string;
      readonly durationMs: number;
      readonly status: 'error';
      readonly errorType: string;
      readonly message: string;
    };

/** GET /api/sessions/:id (and the answer of clear, load and unload). */
export interface SessionView {
  readonly sessionId: string;
  readonly agentId: string | null;
  readonly revision: number | 'no_stream';
  readonly messages: readonly MessageData[];
  readonly loadedGroups: readonly string[];
  readonly activeTools: readonly string[];
  readonly turnInProgress: boolean;
  /** Messages a retry or an edit superseded: the model no longer gets them, the chat hides them (newer servers). */
  readonly supersededMessageIds?: readonly string[];
  /** The name the user gave the session; null (or absent on older servers): the first message stands for it. */
  readonly title?: string | null;
}

/** One entry of GET /api/agents, as the new-session agent picker reads it. */
export interface AgentOption {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  readonly source: string;
}

/** One entry of GET /api/sessions. */
export interface SessionSummary {
  readonly sessionId: string;
  readonly agentId: string;
  readonly startedAt: string;
  readonly lastActivityAt: string;
  readonly revision: number;
  readonly title: string;
}

/** One event of GET /api/sessions/:id/events; `data` depends on `type` (docs/events.md). */
export interface StoredEvent {
  readonly type: string;
  readonly data: any;
  readonly metadata: { readonly eventId: string; readonly occurredAt: string };
  readonly revision: number;
}

/** One entry of GET /api/tool-groups. */
export interface ToolGroupView {
  readonly name: string;
  readonly displayName: string;
  readonly description: string;
  readonly toolNames: readonly string[];
  readonly enabled: boolean;
  readonly source: { readonly kind: string; readonly fileName?: string };
  /** What sending the group's tool schemas costs, as ModelRequested counts it (newer servers). */
  readonly schemaTokens?: number;
}

/** One source file of GET /api/tools. */
export interface ToolSourceView {
  readonly fileName: string;
  readonly kind: string;
  readonly group?: string;
  readonly tools: readonly { readonly name: string; readonly description: string; readonly group?: string; readonly enabled?: boolean }[];
  readonly problems: readonly { readonly severity: string; readonly tool?: string; readonly message: string }[];
}

/** Why a turn ended (TurnFinished.reason); `cleared` only comes in the `done` of `/clear`. */
export type TurnStopReason = 'completed' | 'round_cap' | 'cancelled' | 'loop_breaker' | 'provider_error' | 'interrupted' | (string & {});
