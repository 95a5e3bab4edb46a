// The HTTP API's shapes (docs/api.md), shared by the server that produces them and the web UI
// that reads them. Types only, plus the error-code table: the browser bundle imports this with
// `import type`, and core is used only through `import type` (its runtime never ships here).

export type { ActiveTools, ActiveToolView, CancelAnswer, CompactAnswer, SessionEvents, SessionsAnswer, SessionSummary, SessionView, StoredEvent } from './session-views';
export { SESSION_EVENTS_PAGE } from './session-views';
export type { TokenUsage, TurnAnswer, TurnResult, TurnStreamEventName, TurnStreamEvents, TurnUpdate } from './turn-updates';
export { ERROR_STATUS, type ErrorCode, type HttpLayerCode, type Problem } from './problem';
export type { AgentSource, AgentsAnswer, AgentView } from './agent-views';
export type { ModelRef, ModelsAnswer, ModelView, ProviderKind, ProvidersAnswer, ProviderView } from './provider-views';
export type { SchemaTokenTotals, ToolGroupsAnswer, ToolGroupView, ToolProblem, ToolSourceKind, ToolSourceView, ToolsAnswer, ToolView } from './tool-views';

// Shapes the API sends as core records them (events' data): re-exported so a client needs one import.
export type { AttachmentMediaType, AttachmentRef, MessageData, SessionEvent, ToolCall, ToolGroupLoadSource, TurnStopReason } from '@oneclaw/core';
export type { AuditEventLine, AuditLoadedGroup, AuditModelRequest, AuditTool, AuditToolReason, AuditTrail } from '@oneclaw/core';
