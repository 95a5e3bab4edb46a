import type { ToolCall, ToolGroupLoadSource, TurnStopReason } from '../events/session-events';

export interface StartSession {
  readonly type: 'StartSession';
  readonly sessionId: string;
  readonly agentId: string;
}

export interface RecordUserMessage {
  readonly type: 'RecordUserMessage';
  readonly messageId: string;
  readonly text: string;
}

export interface RecordAssistantMessage {
  readonly type: 'RecordAssistantMessage';
  readonly messageId: string;
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  readonly providerMetadata?: { readonly provider: string; readonly data: unknown };
}

export type RecordToolResult = {
  readonly type: 'RecordToolResult';
  readonly messageId: string;
  readonly callId: string;
  readonly toolName: string;
  readonly durationMs: number;
} & (
  | { readonly status: 'success'; readonly result: string }
  | { readonly status: 'error'; readonly errorType: string; readonly message: string }
);

export interface LoadToolGroup {
  readonly type: 'LoadToolGroup';
  readonly groupName: string;
  readonly source: ToolGroupLoadSource;
}

export interface UnloadToolGroup {
  readonly type: 'UnloadToolGroup';
  readonly groupName: string;
}

export interface ClearSession {
  readonly type: 'ClearSession';
  readonly reason: string;
}

export interface RecordModelRequest {
  readonly type: 'RecordModelRequest';
  readonly provider: string;
  readonly model: string;
  readonly toolNames: readonly string[];
  readonly schemaTokens: number;
}

export interface RecordTurnFinished {
  readonly type: 'RecordTurnFinished';
  readonly reason: TurnStopReason;
  readonly detail: string;
  readonly rounds: number;
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
}

export type SessionCommand =
  | StartSession
  | RecordUserMessage
  | RecordAssistantMessage
  | RecordToolResult
  | LoadToolGroup
  | UnloadToolGroup
  | ClearSession
  | RecordModelRequest
  | RecordTurnFinished;
