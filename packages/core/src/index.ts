export { OneClawError } from './oneclaw-error';
export { deterministicIds } from './ids';
export { byteSize } from './byte-size';
export { toWellFormed } from './well-formed';

export type { EventEnvelope, EventMetadata, RecordedEvent } from './events/event-envelope';
export { stampEvents, type EventDraft, type StampContext } from './aggregate/stamp-events';
export { foldAggregate, type Aggregate } from './aggregate/aggregate';
export type { Decider, DecisionContext } from './aggregate/decider';
export { MAX_COMMAND_ATTEMPTS, recordCommand, type CommandPath, type RecordedCommand, type StreamSnapshot } from './aggregate/record-command';
export * from './events/session-events';
export { asSessionEvent, isAttachmentRef } from './events/session-event-guards';

export type * from './session/session-commands';
export { initialSessionState, isGroupLoaded, type LoadedGroup, type OpenTurn, type SessionState, type ConversationSummary } from './session/session-state';
export type { LastUserMessage } from './session/session-state';
export { judgeOpenTurn, type AskingServer, type OpenTurnVerdict } from './session/orphaned-turn';
export { uniqueCallIds, MISSING_TOOL_NAME, LONG_TOOL_NAME, MAX_CALL_ID_CHARS, MAX_TOOL_NAME_CHARS, type CallNaming, type NamedCalls } from './session/unique-call-ids';
export { capToolCalls, callsDroppedNote, MAX_TOOL_CALLS_PER_REPLY, type CappedCalls } from './session/cap-tool-calls';
export { fitText, type CutTextKind } from './session/fit-text';
export { fitReply, cutArgumentsMarker, type FittedReply, type ReplyParts } from './session/fit-reply';
export { SessionRuleError, sessionErrors } from './session/session-errors';
export { decide, decideSession, type DecideContext, type SessionDecisionContext } from './session/decide';
export { sessionDecider } from './session/session-decider';
export { allowedCuts, isAllowedCut, chooseCompactionBoundary } from './session/compaction-boundary';
export { modelConversation, type ModelConversation } from './session/model-conversation';
export { evolve, replay, catchUp, SESSION_PROJECTION_VERSION } from './session/evolve';
export { encodeSessionState, decodeSessionState, SnapshotDecodeError } from './session/session-state-codec';
export { loadSessionState, sessionSnapshotOf, SESSION_PROJECTION, type LoadedSessionState, type SnapshotIgnoredReason } from './session/session-snapshots';
export { executeSessionCommand, type ExecuteContext, type ExecutedCommand, type ExecuteOptions } from './session/execute-session-command';

export type { ToolCatalogue } from './tools/tool-catalogue';
export { activeToolSet, type ActiveToolSetOptions } from './tools/active-tool-set';

export * from './event-store/event-store';
export * from './event-store/event-store-errors';
export * from './event-store/expected-revision';
export { prepareAppend, resolveRetry, fingerprintOf, type PreparedEvent, type RetryResolution, type StoredEventMatch } from './event-store/append-preparation';
export { strictJsonStringify, canonicalJson } from './event-store/strict-json';
export { MAX_ARGUMENT_DEPTH, nestsDeeperThan } from './json-depth';
export { deserializeEvent, type SerializedEvent } from './event-store/serialized-event';
export { InMemoryEventStore } from './event-store/in-memory-event-store';
export type { SnapshotStore, StoredSnapshot } from './event-store/snapshot-store';
export { InMemorySnapshotStore } from './event-store/in-memory-snapshot-store';
export {
  buildAuditTrail,
  activeGroupsAt,
  type AuditTrail,
  type AuditEventLine,
  type AuditModelRequest,
  type AuditTool,
  type AuditToolReason,
  type AuditLoadedGroup,
} from './audit/audit-trail';

export * from './config/config-events';
export type * from './config/config-commands';
export {
  initialConfigState,
  modelsOf,
  reasoningOf,
  type ConfigState,
  type ConfiguredProvider,
  type ConfiguredModel,
  type ConfiguredAgent,
  type AgentOverlay,
  type ModelRef,
} from './config/config-state';
export { ConfigRuleError, configErrors } from './config/config-errors';
export { CONFIG_SETTINGS, CONFIG_SETTING_KEYS, settingDefinition, type SettingDefinition } from './config/config-settings';
export { decideConfig, normalizeBaseUrl, ENVIRONMENT_PROVIDER_ID, PROTECTED_TOOLS, PROTECTED_GROUPS, CONFIG_LIMITS } from './config/decide';
export { evolveConfig } from './config/evolve';
export { asConfigEvent } from './config/config-event-guards';
export { configAggregate } from './config/config-aggregate';

export * from './scheduled-tasks/index';
