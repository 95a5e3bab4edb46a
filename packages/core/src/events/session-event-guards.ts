import type { EventEnvelope } from './event-envelope';
import { ATTACHMENT_MEDIA_TYPES, COMPACTION_TRIGGERS, TURN_STOP_REASONS, type AttachmentRef, type SessionEvent, type ToolCall, type TurnStopReason } from './session-events';

/**
 * Narrows a stored envelope to a session event, checking the fields evolve relies on.
 * Returns null for an unknown type or malformed data, so a projection can skip a poison
 * event instead of throwing (EST-17).
 */
export function asSessionEvent(event: EventEnvelope): SessionEvent | null {
  const d = event.data as Record<string, unknown> | null;
  if (d === null || typeof d !== 'object') return null;
  switch (event.type) {
    case 'SessionStarted':
      return str(d.sessionId) && str(d.agentId) ? (event as SessionEvent) : null;
    case 'MessageSent':
      return isMessage(d) ? (event as SessionEvent) : null;
    case 'ToolGroupLoaded':
      return str(d.groupName) && strings(d.toolNames) && isSource(d.source) ? (event as SessionEvent) : null;
    case 'ToolGroupUnloaded':
      return str(d.groupName) ? (event as SessionEvent) : null;
    case 'SessionCleared':
      return typeof d.reason === 'string' ? (event as SessionEvent) : null;
    case 'ModelRequested':
      return str(d.provider) && str(d.model) && strings(d.toolNames) && typeof d.schemaTokens === 'number' ? (event as SessionEvent) : null;
    case 'TurnFinished':
      return TURN_STOP_REASONS.includes(d.reason as TurnStopReason) && typeof d.detail === 'string' && typeof d.rounds === 'number' ? (event as SessionEvent) : null;
    case 'ConversationCompacted':
      return typeof d.summary === 'string' &&
        str(d.boundaryMessageId) &&
        isTrigger(d.trigger) &&
        str(d.provider) &&
        str(d.model) &&
        typeof d.summarisedMessages === 'number' &&
        typeof d.tokensBefore === 'number' &&
        typeof d.tokensAfter === 'number'
        ? (event as SessionEvent)
        : null;
    case 'CompactionFailed':
      return isTrigger(d.trigger) && str(d.code) && typeof d.detail === 'string' ? (event as SessionEvent) : null;
    case 'TurnRetried':
      return str(d.turnId) && str(d.messageId) && strings(d.supersededMessageIds) && (d.host === undefined || isHost(d.host)) ? (event as SessionEvent) : null;
    case 'UserMessageEdited':
      return str(d.messageId) && str(d.newMessageId) && strings(d.supersededMessageIds) ? (event as SessionEvent) : null;
    case 'SessionRenamed':
      return str(d.title) ? (event as SessionEvent) : null;
    case 'SessionArchived':
      return event as SessionEvent;
    default:
      return null;
  }
}

function isTrigger(t: unknown): boolean {
  return (COMPACTION_TRIGGERS as readonly unknown[]).includes(t);
}

function isMessage(d: Record<string, unknown>): boolean {
  if (!str(d.messageId) || (d.role !== 'tool' && typeof d.text !== 'string')) return false;
  switch (d.role) {
    case 'user':
      return (
        (d.turnId === undefined || str(d.turnId)) &&
        (d.host === undefined || isHost(d.host)) &&
        (d.attachments === undefined || (Array.isArray(d.attachments) && d.attachments.every(isAttachmentRef)))
      );
    case 'assistant':
      return Array.isArray(d.toolCalls) && d.toolCalls.every(isToolCall);
    case 'tool':
      return str(d.callId) && str(d.toolName) && (d.status === 'success' ? typeof d.result === 'string' : d.status === 'error' && str(d.errorType));
    default:
      return false;
  }
}

function isToolCall(c: unknown): c is ToolCall {
  const call = c as Record<string, unknown> | null;
  return call !== null && typeof call === 'object' && str(call.callId) && str(call.toolName) && typeof call.arguments === 'object';
}

/** A reference into the attachment store: a SHA-256 hex hash, a name, an allowed media type, a size. */
export function isAttachmentRef(a: unknown): a is AttachmentRef {
  const ref = a as Record<string, unknown> | null;
  return (
    ref !== null &&
    typeof ref === 'object' &&
    typeof ref.hash === 'string' &&
    /^[0-9a-f]{64}$/.test(ref.hash) &&
    str(ref.name) &&
    (ATTACHMENT_MEDIA_TYPES as readonly unknown[]).includes(ref.mediaType) &&
    typeof ref.bytes === 'number' &&
    Number.isSafeInteger(ref.bytes) &&
    ref.bytes >= 0
  );
}

function isHost(h: unknown): boolean {
  const host = h as Record<string, unknown> | null;
  return host !== null && typeof host === 'object' && str(host.replicaId) && str(host.processId);
}

function isSource(s: unknown): boolean {
  const source = s as Record<string, unknown> | null;
  return source !== null && typeof source === 'object' && (source.kind === 'user' || (source.kind === 'tool_call' && str(source.callId)));
}

function str(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0;
}

function strings(v: unknown): boolean {
  return Array.isArray(v) && v.every((s) => typeof s === 'string');
}
