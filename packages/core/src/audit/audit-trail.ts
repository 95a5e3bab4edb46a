import { REASONING_EFFORTS, type ReasoningEffort } from '../config/config-events';
import type { EventEnvelope, RecordedEvent } from '../events/event-envelope';
import { asSessionEvent } from '../events/session-event-guards';
import type { MessageData, ReplyAdjustments, SessionEvent, ToolCall, ToolGroupLoadSource } from '../events/session-events';

/** One event of the stream as a person reads it in an audit. */
export interface AuditEventLine {
  readonly revision: number;
  /** The stored type, also for events the projection cannot read. */
  readonly type: string;
  /** Empty when the stored metadata has no timestamp (a malformed event). */
  readonly occurredAt: string;
  /** One line, no newlines; long texts and arguments are shortened with "…". */
  readonly summary: string;
  /** True for an event evolve skips (unknown type, malformed data). */
  readonly skipped: boolean;
}

/** A group in effect at some point, named by the `ToolGroupLoaded` event that put it there. */
export interface AuditLoadedGroup {
  readonly groupName: string;
  /** The group's tools as recorded at load time. */
  readonly toolNames: readonly string[];
  readonly loadedAtRevision: number;
  readonly loadEventId: string;
  readonly loadedAt: string;
  readonly source: ToolGroupLoadSource;
}

/** Why the model saw a tool. */
export type AuditToolReason =
  | { readonly kind: 'core' }
  | {
      /**
       * The stream does not explain it: a tool of `groupName` (as an earlier load of that group
       * listed it), which was not loaded at this request. Streams written before a user's unload
       * was refused mid-turn hold such requests: the turn sent the tools it had decided on.
       */
      readonly kind: 'unexplained';
      readonly groupName: string;
    }
  | {
      readonly kind: 'group';
      readonly groupName: string;
      readonly loadedAtRevision: number;
      readonly loadEventId: string;
      readonly source: ToolGroupLoadSource;
    };

export interface AuditTool {
  readonly name: string;
  readonly reason: AuditToolReason;
}

/** What the model saw at one request, and why each tool was there. */
export interface AuditModelRequest {
  /** 1-based over the whole stream (a clear does not restart it), like `SessionState.modelRequestCount`. */
  readonly number: number;
  readonly revision: number;
  readonly occurredAt: string;
  readonly provider: string;
  readonly model: string;
  readonly schemaTokens: number;
  /**
   * The model's reasoning setting the request was made with (the provider may still send no
   * thinking for part of a turn: ModelRequested); absent: none set, or not recorded (older streams).
   */
  readonly reasoningEffort?: ReasoningEffort;
  /** Exactly what was sent, in the order sent. */
  readonly toolNames: readonly string[];
  /** `toolNames` with a reason each, same order. */
  readonly tools: readonly AuditTool[];
  /** Groups in effect at this request, in load order (the replayed prefix). */
  readonly loadedGroups: readonly AuditLoadedGroup[];
}

export interface AuditTrail {
  /** Null when the stream has no readable `SessionStarted`. */
  readonly sessionId: string | null;
  readonly agentId: string | null;
  readonly events: readonly AuditEventLine[];
  /** Events evolve skips; each also appears in `events` as "unreadable event (skipped)". */
  readonly skippedEvents: number;
  readonly requests: readonly AuditModelRequest[];
}

const TEXT_LIMIT = 80;
const ARGUMENTS_LIMIT = 60;

/**
 * The audit view of a session stream: every event as one line, and for each model request the
 * tools it carried with the load event that put each one there (S3). Pure: the same stream gives
 * the same trail. The group bookkeeping mirrors `evolve` (load once, unload, clear empties), so
 * `loadedGroups` at a request is what replaying the prefix gives; the tests hold the two together.
 */
export function buildAuditTrail(events: readonly RecordedEvent[]): AuditTrail {
  const groups = new LoadedGroups();
  /** Each tool a group load has listed so far, with that group: such a tool is never core. */
  const groupOfTool = new Map<string, string>();
  const lines: AuditEventLine[] = [];
  const requests: AuditModelRequest[] = [];
  let sessionId: string | null = null;
  let agentId: string | null = null;
  let skippedEvents = 0;

  for (const recorded of events) {
    const event = asSessionEvent(recorded);
    const line = (summary: string, skipped = false): void => {
      lines.push({ revision: recorded.revision, type: String(recorded.type), occurredAt: occurredAtOf(recorded), summary, skipped });
    };
    if (event === null) {
      skippedEvents++;
      line('unreadable event (skipped)', true);
      continue;
    }
    switch (event.type) {
      case 'SessionStarted':
        // Like evolve: a second start (a bad stream) wins; the audit shows both lines.
        sessionId = event.data.sessionId;
        agentId = event.data.agentId;
        line(`session ${event.data.sessionId} started for agent ${event.data.agentId}`);
        break;
      case 'MessageSent':
        line(messageSummary(event.data));
        break;
      case 'ToolGroupLoaded': {
        for (const name of event.data.toolNames) groupOfTool.set(name, event.data.groupName);
        const added = groups.load(event, recorded.revision);
        const count = plural(event.data.toolNames.length, 'tool');
        line(`loaded group ${event.data.groupName} (${count}) ${sourceText(event.data.source)}${added ? '' : ' (already loaded: no effect)'}`);
        break;
      }
      case 'ToolGroupUnloaded': {
        const removed = groups.unload(event.data.groupName);
        line(`unloaded group ${event.data.groupName}${removed ? '' : ' (was not loaded: no effect)'}`);
        break;
      }
      case 'SessionCleared':
        groups.clear();
        line(`cleared (${oneLine(event.data.reason, TEXT_LIMIT) || 'no reason given'})`);
        break;
      case 'ModelRequested': {
        const number = requests.length + 1;
        const { provider, model, toolNames, schemaTokens } = event.data;
        // Not checked by the event guard (nothing is derived from it): only a known value is shown.
        const reasoningEffort = REASONING_EFFORTS.find((effort) => effort === event.data.reasoningEffort);
        const loadedGroups = groups.list();
        requests.push({
          number,
          revision: recorded.revision,
          occurredAt: occurredAtOf(recorded),
          provider,
          model,
          schemaTokens,
          ...(reasoningEffort ? { reasoningEffort } : {}),
          toolNames: [...toolNames],
          tools: toolNames.map((name) => ({ name, reason: reasonFor(name, loadedGroups, groupOfTool) })),
          loadedGroups,
        });
        const effort = reasoningEffort ? `, reasoning set to ${reasoningEffort}` : '';
        line(`model request #${number} ${provider}/${model}: ${plural(toolNames.length, 'tool')}, ${schemaTokens} schema tokens${effort}`);
        break;
      }
      case 'TurnFinished':
        line(turnSummary(event.data));
        break;
      case 'ConversationCompacted': {
        // Groups are not touched: a compaction shortens what the model reads, not what it may call.
        const d = event.data;
        const cut = d.summaryCut ? ', summary cut to the limit' : '';
        line(
          `compacted (${d.trigger}): ${plural(d.summarisedMessages, 'message')} up to ${d.boundaryMessageId} summarised by ${d.provider}/${d.model}, ${d.tokensBefore} → ${d.tokensAfter} tokens${cut}`,
        );
        break;
      }
      case 'CompactionFailed':
        line(`compaction failed (${event.data.trigger}) ${event.data.code}: ${oneLine(event.data.detail, TEXT_LIMIT)}; conversation unchanged`);
        break;
      // Groups are not touched by either: they are state, not conversation.
      case 'TurnRetried': {
        const d = event.data;
        const before = d.supersededTurnId ? ` (was turn ${d.supersededTurnId})` : '';
        line(`retried: ${d.messageId} asked again as turn ${d.turnId}${before}; ${supersededText(d.supersededMessageIds)}`);
        break;
      }
      case 'UserMessageEdited':
        line(`edited: user message ${event.data.messageId} replaced by ${event.data.newMessageId}; ${supersededText(event.data.supersededMessageIds)}`);
        break;
      case 'SessionRenamed':
        line(`renamed to "${oneLine(event.data.title, TEXT_LIMIT)}"`);
        break;
      case 'SessionArchived':
        line('deleted (archived): gone from the session list; the stream and this audit keep it');
        break;
    }
  }
  return { sessionId, agentId, events: lines, skippedEvents, requests };
}

/**
 * The groups in effect after the event at `revision` (inclusive), in load order: what a
 * request recorded right after it would have carried besides the core tools.
 */
export function activeGroupsAt(events: readonly RecordedEvent[], revision: number): readonly AuditLoadedGroup[] {
  const groups = new LoadedGroups();
  for (const recorded of events) {
    if (recorded.revision > revision) break;
    const event = asSessionEvent(recorded);
    if (event === null) continue;
    if (event.type === 'ToolGroupLoaded') groups.load(event, recorded.revision);
    else if (event.type === 'ToolGroupUnloaded') groups.unload(event.data.groupName);
    else if (event.type === 'SessionCleared') groups.clear();
  }
  return groups.list();
}

/** The loaded-group part of `evolve`, keeping which event loaded each group. */
class LoadedGroups {
  private groups: AuditLoadedGroup[] = [];

  /** False when the group is already loaded: evolve ignores the event, so the first load stays the reason. */
  load(event: Extract<SessionEvent, { type: 'ToolGroupLoaded' }>, revision: number): boolean {
    if (this.groups.some((g) => g.groupName === event.data.groupName)) return false;
    this.groups.push({
      groupName: event.data.groupName,
      toolNames: [...event.data.toolNames],
      loadedAtRevision: revision,
      loadEventId: event.metadata.eventId,
      loadedAt: event.metadata.occurredAt,
      source: event.data.source,
    });
    return true;
  }

  unload(groupName: string): boolean {
    const before = this.groups.length;
    this.groups = this.groups.filter((g) => g.groupName !== groupName);
    return this.groups.length < before;
  }

  clear(): void {
    this.groups = [];
  }

  list(): readonly AuditLoadedGroup[] {
    return [...this.groups];
  }
}

/**
 * The first group in load order that lists the tool, as the projection offers it (core first,
 * then groups in load order, duplicates dropped). A tool in no loaded group is core, the only
 * other thing the projection offers, unless a group load earlier in the stream listed it: then
 * the replayed state cannot explain it, and the audit says so rather than call it core.
 */
function reasonFor(toolName: string, loadedGroups: readonly AuditLoadedGroup[], groupOfTool: ReadonlyMap<string, string>): AuditToolReason {
  const group = loadedGroups.find((g) => g.toolNames.includes(toolName));
  if (!group) {
    const groupName = groupOfTool.get(toolName);
    return groupName === undefined ? { kind: 'core' } : { kind: 'unexplained', groupName };
  }
  return {
    kind: 'group',
    groupName: group.groupName,
    loadedAtRevision: group.loadedAtRevision,
    loadEventId: group.loadEventId,
    source: group.source,
  };
}

function messageSummary(message: MessageData): string {
  switch (message.role) {
    case 'user': {
      // The audit names attached files and their hashes (the bytes are in the attachment store).
      const files = (message.attachments ?? []).map((a) => `${a.name} (${a.mediaType}, ${a.bytes} bytes, sha256 ${a.hash.slice(0, 12)}…)`);
      return `user: ${oneLine(message.text, TEXT_LIMIT)}${files.length > 0 ? ` [attached: ${files.join(', ')}]` : ''}`;
    }
    case 'assistant': {
      const text = oneLine(message.text, TEXT_LIMIT);
      const calls = message.toolCalls.map(callSummary).join(', ');
      const notes = adjustmentNotes(message.adjustments);
      // A cancel cut the reply short: the audit must not read it as the model's whole answer.
      if (message.partial) return `assistant (partial, cancelled while streaming): ${text}${notes}`;
      if (calls === '') return `assistant: ${text}${notes}`;
      return (text === '' ? `assistant → ${calls}` : `assistant: ${text} → ${calls}`) + notes;
    }
    case 'tool': {
      const took = `(${message.durationMs} ms)`;
      if (message.status === 'success') return `tool ${message.toolName} success ${took}`;
      return `tool ${message.toolName} error ${message.errorType}: ${oneLine(message.message, TEXT_LIMIT)} ${took}`;
    }
  }
}

/** What the server changed in the model's reply to record it, so the audit never hides it. */
function adjustmentNotes(adjustments: ReplyAdjustments | undefined): string {
  if (!adjustments) return '';
  const notes: string[] = [];
  for (const r of adjustments.renamedCalls ?? []) {
    if (r.originalCallIdChars !== undefined) notes.push(`call id of ${r.originalCallIdChars} characters renamed ${r.callId}`);
    else notes.push(r.originalCallId === '' ? `call without id named ${r.callId}` : `repeated call id ${r.originalCallId} renamed ${r.callId}`);
  }
  for (const callId of adjustments.unnamedCalls ?? []) notes.push(`call ${callId} had no tool name`);
  for (const l of adjustments.longToolNames ?? []) notes.push(`call ${l.callId} had a tool name of ${l.chars} characters, starting ${oneLine(l.start, 40)}`);
  for (const d of adjustments.duplicateCalls ?? []) notes.push(`call ${d.callId} repeats ${d.sameAs}, run once`);
  if (adjustments.callsDropped) notes.push(`${adjustments.callsDropped.count} calls over the limit of ${adjustments.callsDropped.limit} per reply dropped`);
  if (adjustments.providerMetadataWithheld) notes.push('provider state held a secret and was not recorded');
  const cut = adjustments.cut;
  if (cut) {
    const parts = [`text ${cut.keptTextBytes} of ${cut.textBytes} bytes kept`];
    if (cut.argumentsCut.length > 0) parts.push(`arguments of ${cut.argumentsCut.join(', ')} not kept`);
    if (cut.providerMetadataDropped) parts.push('provider state dropped');
    notes.push(`reply over the ${cut.limitBytes}-byte record limit: ${parts.join(', ')}`);
  }
  return notes.length === 0 ? '' : ` [${notes.join('; ')}]`;
}

/** The call id is shown because load lines name the call that loaded a group. */
function callSummary(call: ToolCall): string {
  return `${call.toolName}(${oneLine(jsonOf(call.arguments), ARGUMENTS_LIMIT)}) [${call.callId}]`;
}

function turnSummary(data: Extract<SessionEvent, { type: 'TurnFinished' }>['data']): string {
  const usage = data.usage as Partial<typeof data.usage> | undefined;
  const tokens = typeof usage?.inputTokens === 'number' && typeof usage.outputTokens === 'number' ? ` (in ${usage.inputTokens} / out ${usage.outputTokens} tokens)` : '';
  // A completed turn's detail says nothing the reason does not; any other stop explains itself.
  const detail = data.reason === 'completed' || data.detail.trim() === '' ? '' : `: ${oneLine(data.detail, TEXT_LIMIT)}`;
  return `turn finished: ${data.reason} after ${plural(data.rounds, 'round')}${tokens}${detail}`;
}

/** Which messages the model is no longer sent (the stream keeps them). */
function supersededText(ids: readonly string[]): string {
  if (ids.length === 0) return 'nothing superseded';
  return `${plural(ids.length, 'message')} superseded, no longer sent to the model (${oneLine(ids.join(', '), TEXT_LIMIT)})`;
}

function sourceText(source: ToolGroupLoadSource): string {
  return source.kind === 'user' ? 'by the user' : `by call ${source.callId}`;
}

function occurredAtOf(event: EventEnvelope): string {
  const at = (event.metadata as Partial<EventEnvelope['metadata']> | undefined)?.occurredAt;
  return typeof at === 'string' ? at : '';
}

function jsonOf(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '…';
  }
}

/** Whitespace (newlines included) collapsed to single spaces, cut to `limit` characters with "…". */
function oneLine(text: string, limit: number): string {
  const flat = text.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim();
  const chars = Array.from(flat); // code points, so a cut never splits a surrogate pair
  return chars.length <= limit ? flat : `${chars.slice(0, limit - 1).join('')}…`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
