import { REASONING_EFFORTS } from '../config/config-events';
import type { DecisionContext } from '../aggregate/decider';
import { stampEvents } from '../aggregate/stamp-events';
import {
  COMPACTION_TRIGGERS,
  SESSION_EVENT_SCHEMA_VERSION,
  SESSION_TITLE_MAX_CHARS,
  TURN_STOP_REASONS,
  type AssistantMessageData,
  type AttachmentRef,
  type SessionEvent,
  type TurnHost,
} from '../events/session-events';
import { isAttachmentRef } from '../events/session-event-guards';
import type { ToolCatalogue } from '../tools/tool-catalogue';
import type { RecordAssistantMessage, SessionCommand } from './session-commands';
import { sessionErrors } from './session-errors';
import { isAllowedCut } from './compaction-boundary';
import { isGroupLoaded, type SessionState } from './session-state';
import { idsFrom, lastUserMessageFor } from './supersede';

/** What decide needs from outside, passed in so decide stays pure and replayable in tests. */
export interface DecideContext {
  readonly now: () => Date;
  /** Event ids; give a deterministic generator per command so a retried append is idempotent. */
  readonly newId: () => string;
  readonly catalogue: ToolCatalogue;
  /** Defaults to the first event id of the decision. */
  readonly correlationId?: string;
  /** Defaults to the correlation id. */
  readonly causationId?: string;
}

type EventDraft = Pick<SessionEvent, 'type' | 'data'>;

/** The session decider's context: the clock (unused: no session rule depends on time) and the tool catalogue. */
export interface SessionDecisionContext extends DecisionContext {
  readonly catalogue: ToolCatalogue;
}

/**
 * Turns a command into the events that record it, stamped, or throws a `SessionRuleError` with a
 * stable code. An empty list means "already so": loading a loaded group records nothing (G5).
 */
export function decide(command: SessionCommand, state: SessionState, ctx: DecideContext): SessionEvent[] {
  return stamp(decideSession(command, state, ctx), ctx);
}

/** The session's decision as drafts, like `decideConfig` and `decideScheduledTasks` (sessionDecider). */
export function decideSession(command: SessionCommand, state: SessionState, ctx: Pick<DecideContext, 'catalogue'>): EventDraft[] {
  if (command.type === 'StartSession') {
    if (state.status !== 'not_started') throw sessionErrors.alreadyStarted(state.sessionId ?? command.sessionId);
    requireText('sessionId', command.sessionId);
    requireText('agentId', command.agentId);
    return [{ type: 'SessionStarted', data: { sessionId: command.sessionId, agentId: command.agentId } }];
  }
  if (state.status !== 'active') throw sessionErrors.notFound(state.sessionId);
  if (state.archivedAt !== null && !allowedWhenArchived(command)) throw sessionErrors.archived(state.sessionId);

  switch (command.type) {
    case 'RecordUserMessage':
      requireText('messageId', command.messageId);
      requireString('text', command.text);
      if (command.turnId !== undefined) requireText('turnId', command.turnId);
      if (command.host !== undefined) {
        requireText('host.replicaId', command.host.replicaId);
        requireText('host.processId', command.host.processId);
      }
      for (const attachment of command.attachments ?? []) requireAttachment(attachment);
      // A new message while another turn is open is refused here, on the state the append is
      // decided on, not only by the server's check before the turn: two replicas that both saw
      // no open turn would otherwise both append (the loser's conflict retry re-decides on fresh
      // state and lands here) and run two interleaved turns in one session (issue 18, PG-31).
      // Only for a message that opens a tracked turn (the server always gives its turn id).
      if (command.turnId !== undefined && state.openTurn !== null && state.openTurn.turnId !== command.turnId) throw sessionErrors.turnInProgress(state.openTurn.turnId);
      return [
        {
          type: 'MessageSent',
          data: {
            messageId: command.messageId,
            role: 'user',
            text: command.text,
            ...(command.turnId !== undefined ? { turnId: command.turnId } : {}),
            ...(command.host ? { host: { replicaId: command.host.replicaId, processId: command.host.processId } } : {}),
            ...(command.attachments && command.attachments.length > 0
              ? { attachments: command.attachments.map((a) => ({ hash: a.hash, name: a.name, mediaType: a.mediaType, bytes: a.bytes })) }
              : {}),
          },
        },
      ];

    case 'RecordAssistantMessage': {
      requireText('messageId', command.messageId);
      requireString('text', command.text);
      // Calls half streamed when the turn was cancelled never ran and have no results.
      if (command.partial && (command.toolCalls ?? []).length > 0) {
        throw sessionErrors.invalidCommand('A partial (cancelled) reply has no tool calls. Record it with an empty toolCalls list.');
      }
      const callIds = new Set<string>();
      for (const call of command.toolCalls ?? []) {
        requireText('toolCalls[].callId', call.callId);
        requireText('toolCalls[].toolName', call.toolName);
        if (callIds.has(call.callId) || state.pendingToolCalls.has(call.callId)) {
          throw sessionErrors.invalidCommand(`Tool call id '${call.callId}' is used twice. Give every tool call its own id.`);
        }
        callIds.add(call.callId);
      }
      return [
        {
          type: 'MessageSent',
          data: {
            messageId: command.messageId,
            role: 'assistant',
            text: command.text,
            toolCalls: command.toolCalls ?? [],
            ...(command.providerMetadata ? { providerMetadata: command.providerMetadata } : {}),
            ...(command.adjustments ? { adjustments: command.adjustments } : {}),
            ...(command.partial ? { partial: true as const } : {}),
            ...(command.usage
              ? { usage: { inputTokens: tokenCount('usage.inputTokens', command.usage.inputTokens), outputTokens: tokenCount('usage.outputTokens', command.usage.outputTokens) } }
              : {}),
            ...answeredBy(command),
          },
        },
      ];
    }

    case 'RecordToolResult': {
      requireText('messageId', command.messageId);
      const call = state.pendingToolCalls.get(command.callId);
      if (!call) throw sessionErrors.unknownToolCall(command.callId);
      if (call.toolName !== command.toolName) throw sessionErrors.toolNameMismatch(command.callId, call.toolName, command.toolName);
      const { messageId, callId, toolName } = command;
      const durationMs = Math.max(0, command.durationMs);
      // Literals, not `{ ...base, status, result }`: in code V8 (Node 20) has optimized, a spread
      // first in a literal, of an object made in the same call, gives every result a hidden class
      // of its own, about 250 bytes more for each tool result a session keeps (docs/memory.md).
      return [
        {
          type: 'MessageSent',
          data:
            command.status === 'success'
              ? { messageId, role: 'tool', callId, toolName, durationMs, status: 'success', result: command.result }
              : { messageId, role: 'tool', callId, toolName, durationMs, status: 'error', errorType: command.errorType, message: command.message },
        },
      ];
    }

    case 'LoadToolGroup':
      requireText('groupName', command.groupName);
      // The user's change waits for no turn, like a clear: a turn decides each round's tools on
      // the state it recorded, so a load or unload landing mid-turn would not reach its next
      // request, and the audit would explain that request from a state it was not built on.
      // The model's own load (source tool_call) is the turn's and is recorded by it.
      if (command.source.kind === 'user' && state.openTurn) throw sessionErrors.turnInProgress(state.openTurn.turnId);
      if (!ctx.catalogue.hasGroup(command.groupName)) {
        throw sessionErrors.groupNotFound(command.groupName, ctx.catalogue.groupNames());
      }
      if (isGroupLoaded(state, command.groupName)) return [];
      return [
        {
          type: 'ToolGroupLoaded',
          data: {
            groupName: command.groupName,
            toolNames: [...ctx.catalogue.groupToolNames(command.groupName)],
            source: command.source,
          },
        },
      ];

    case 'UnloadToolGroup':
      // Only the user unloads, and never mid-turn (see LoadToolGroup).
      if (state.openTurn) throw sessionErrors.turnInProgress(state.openTurn.turnId);
      if (!isGroupLoaded(state, command.groupName)) throw sessionErrors.groupNotLoaded(command.groupName);
      return [{ type: 'ToolGroupUnloaded', data: { groupName: command.groupName } }];

    case 'ClearSession':
      // A turn still running would go on recording into the cleared conversation: its tool
      // results would answer calls the clear forgot, and its reply would open the new one.
      if (state.openTurn) throw sessionErrors.turnInProgress(state.openTurn.turnId);
      return [{ type: 'SessionCleared', data: { reason: command.reason || 'user' } }];

    case 'RecordModelRequest':
      requireText('provider', command.provider);
      requireText('model', command.model);
      if (!Number.isInteger(command.schemaTokens) || command.schemaTokens < 0) {
        throw sessionErrors.invalidCommand('schemaTokens must be a whole number of tokens, 0 or more.');
      }
      if (command.reasoningEffort !== undefined && !REASONING_EFFORTS.includes(command.reasoningEffort)) {
        throw sessionErrors.invalidCommand(`reasoningEffort must be one of ${REASONING_EFFORTS.join(', ')}, or left out when none is asked.`);
      }
      return [
        {
          type: 'ModelRequested',
          data: {
            provider: command.provider,
            model: command.model,
            toolNames: [...command.toolNames],
            schemaTokens: command.schemaTokens,
            ...(command.reasoningEffort !== undefined ? { reasoningEffort: command.reasoningEffort } : {}),
          },
        },
      ];

    case 'RecordTurnFinished':
      if (!TURN_STOP_REASONS.includes(command.reason)) throw sessionErrors.invalidCommand(`Unknown turn stop reason '${command.reason}'.`);
      if (!Number.isInteger(command.rounds) || command.rounds < 0) throw sessionErrors.invalidCommand('rounds must be a whole number, 0 or more.');
      return [
        {
          type: 'TurnFinished',
          data: {
            reason: command.reason,
            detail: command.detail,
            rounds: command.rounds,
            usage: { inputTokens: command.usage.inputTokens, outputTokens: command.usage.outputTokens },
          },
        },
      ];

    case 'InterruptTurn':
      requireText('turnId', command.turnId);
      return interruptDrafts(command.turnId, command.detail, state);

    case 'RecordCompaction': {
      requireText('summary', command.summary);
      requireText('provider', command.provider);
      requireText('model', command.model);
      requireTrigger(command.trigger);
      const at = state.messages.findIndex((m) => m.messageId === command.boundaryMessageId);
      if (at < 0) throw sessionErrors.invalidCompactionBoundary(command.boundaryMessageId, 'no such message in the conversation since the last clear.');
      if (at < (state.summary?.keptFrom ?? 0)) {
        throw sessionErrors.invalidCompactionBoundary(command.boundaryMessageId, 'it is already covered by the current summary.');
      }
      if (!isAllowedCut(state.messages, at)) {
        throw sessionErrors.invalidCompactionBoundary(command.boundaryMessageId, 'it would separate a tool call from its result.');
      }
      return [
        {
          type: 'ConversationCompacted',
          data: {
            summary: command.summary,
            boundaryMessageId: command.boundaryMessageId,
            summarisedMessages: at + 1,
            trigger: command.trigger,
            provider: command.provider,
            model: command.model,
            tokensBefore: tokenCount('tokensBefore', command.tokensBefore),
            tokensAfter: tokenCount('tokensAfter', command.tokensAfter),
            ...(command.summaryCut ? { summaryCut: true } : {}),
          },
        },
      ];
    }

    case 'RecordCompactionFailed':
      requireTrigger(command.trigger);
      requireText('code', command.code);
      requireString('detail', command.detail);
      return [
        {
          type: 'CompactionFailed',
          data: {
            trigger: command.trigger,
            code: command.code,
            detail: command.detail,
            ...(command.provider ? { provider: command.provider } : {}),
            ...(command.model ? { model: command.model } : {}),
          },
        },
      ];

    case 'RetryTurn': {
      requireText('turnId', command.turnId);
      requireHost(command.host);
      if (command.messageId !== undefined) requireText('messageId', command.messageId);
      const { last } = lastUserMessageFor(state, command.messageId, sessionErrors.nothingToRetry);
      return [
        {
          type: 'TurnRetried',
          data: {
            turnId: command.turnId,
            ...(command.host ? { host: { replicaId: command.host.replicaId, processId: command.host.processId } } : {}),
            messageId: last.messageId,
            ...(state.lastTurnId ? { supersededTurnId: state.lastTurnId } : {}),
            supersededMessageIds: idsFrom(state, last.index + 1),
          },
        },
      ];
    }

    case 'EditLastUserMessage': {
      requireText('messageId', command.messageId);
      requireText('newMessageId', command.newMessageId);
      requireText('text', command.text);
      requireText('turnId', command.turnId);
      requireHost(command.host);
      const { last, message } = lastUserMessageFor(state, command.messageId, sessionErrors.nothingToEdit);
      const superseded = idsFrom(state, last.index);
      // An edit changes the words; the files attached to the message go with the new text.
      const attachments = message.role === 'user' ? message.attachments : undefined;
      if (superseded.includes(command.newMessageId)) throw sessionErrors.invalidCommand('newMessageId must be a new message id, not one of the messages it replaces.');
      return [
        { type: 'UserMessageEdited', data: { messageId: last.messageId, newMessageId: command.newMessageId, supersededMessageIds: superseded } },
        {
          type: 'MessageSent',
          data: {
            messageId: command.newMessageId,
            role: 'user',
            text: command.text,
            turnId: command.turnId,
            ...(command.host ? { host: { replicaId: command.host.replicaId, processId: command.host.processId } } : {}),
            ...(attachments?.length ? { attachments } : {}),
          },
        },
      ];
    }

    case 'RenameSession': {
      const title = sessionTitle(command.title);
      return title === state.title ? [] : [{ type: 'SessionRenamed', data: { title } }];
    }

    case 'ArchiveSession':
      // Deleting twice is deleting once: the second records nothing.
      return state.archivedAt !== null ? [] : [{ type: 'SessionArchived', data: {} }];

    default: {
      const unknown: never = command;
      throw sessionErrors.invalidCommand(`Unknown command type '${(unknown as { type?: string }).type}'.`);
    }
  }
}

/**
 * What an archived session still records: the rest of a turn that was running when it was
 * archived (its replies, results, groups the model loads, compaction, its stop), so that turn
 * ends consistently, and a repeated archive. Anything that starts a turn or is the user's own
 * change is refused; a command added later is refused too unless it is listed here.
 */
function allowedWhenArchived(command: SessionCommand): boolean {
  switch (command.type) {
    case 'RecordAssistantMessage':
    case 'RecordToolResult':
    case 'RecordModelRequest':
    case 'RecordTurnFinished':
    case 'InterruptTurn':
    case 'RecordCompaction':
    case 'RecordCompactionFailed':
    case 'ArchiveSession':
      return true;
    case 'LoadToolGroup':
      return command.source.kind === 'tool_call';
    default:
      return false;
  }
}

/** A title on one line: control characters and runs of white space become one space. */
function sessionTitle(raw: unknown): string {
  if (typeof raw !== 'string') throw sessionErrors.invalidCommand('title must be a string.');
  const title = raw.replace(/[\u0000-\u001f\u007f\s]+/g, ' ').trim();
  if (title === '') throw sessionErrors.titleEmpty();
  const length = [...title].length;
  if (length > SESSION_TITLE_MAX_CHARS) throw sessionErrors.titleTooLong(length, SESSION_TITLE_MAX_CHARS);
  return title;
}

const INTERRUPTED_CALL_MESSAGE = 'The server stopped before this call finished; it may or may not have run. Check before repeating it.';

/**
 * The open turn's calls without a result get an `interrupted` error (providers refuse a history
 * with an unanswered call), then the turn is closed. Calls left pending with no open turn (a
 * stream from before turns were tracked) are answered too. Ids derive from the cut-off turn, so
 * every replica that closes it decides the same events.
 */
function interruptDrafts(turnId: string, detail: string, state: SessionState): EventDraft[] {
  const turn = state.openTurn;
  const closing = turn !== null && turn.turnId === turnId;
  if (!closing && (turn !== null || state.pendingToolCalls.size === 0)) return [];
  const drafts: EventDraft[] = [...state.pendingToolCalls.values()].map((call) => ({
    type: 'MessageSent',
    data: {
      messageId: `${turnId}-interrupted-${call.callId}`,
      role: 'tool',
      callId: call.callId,
      toolName: call.toolName,
      durationMs: 0,
      status: 'error',
      errorType: 'interrupted',
      message: INTERRUPTED_CALL_MESSAGE,
    },
  }));
  if (closing) {
    drafts.push({ type: 'TurnFinished', data: { reason: 'interrupted', detail, rounds: turn.rounds, usage: { inputTokens: 0, outputTokens: 0 } } });
  }
  return drafts;
}

function stamp(drafts: EventDraft[], ctx: DecideContext): SessionEvent[] {
  return stampEvents<SessionEvent>(drafts, ctx, SESSION_EVENT_SCHEMA_VERSION);
}

function requireText(field: string, value: unknown): void {
  if (typeof value !== 'string' || value.trim().length === 0) {
    throw sessionErrors.invalidCommand(`${field} is required and must be a non-empty string.`);
  }
}

function requireHost(host: TurnHost | undefined): void {
  if (host === undefined) return;
  requireText('host.replicaId', host.replicaId);
  requireText('host.processId', host.processId);
}

function requireTrigger(trigger: unknown): void {
  if (!(COMPACTION_TRIGGERS as readonly unknown[]).includes(trigger)) throw sessionErrors.invalidCommand(`trigger must be one of ${COMPACTION_TRIGGERS.join(', ')}.`);
}

function tokenCount(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw sessionErrors.invalidCommand(`${field} must be a whole number of tokens, 0 or more.`);
  }
  return value;
}

function requireString(field: string, value: unknown): void {
  if (typeof value !== 'string') throw sessionErrors.invalidCommand(`${field} must be a string.`);
}

/** The optional "who answered" and reasoning fields of an assistant message; empty ones are left out. */
function answeredBy(command: RecordAssistantMessage): Pick<AssistantMessageData, 'provider' | 'model' | 'reasoning'> {
  if (command.provider !== undefined) requireText('provider', command.provider);
  if (command.model !== undefined) requireText('model', command.model);
  if (command.reasoning !== undefined) requireString('reasoning', command.reasoning);
  return {
    ...(command.provider ? { provider: command.provider } : {}),
    ...(command.model ? { model: command.model } : {}),
    ...(command.reasoning ? { reasoning: command.reasoning } : {}),
  };
}

/** An attachment reference is checked whole: a bad one would break every later request of the session. */
function requireAttachment(attachment: AttachmentRef): void {
  if (!isAttachmentRef(attachment)) {
    throw sessionErrors.invalidCommand(
      'Each attachment needs a hash (64 lowercase hex digits), a name, an allowed mediaType and a byte count. Upload the file first (POST /api/attachments) and send what it answers.',
    );
  }
}
