import { describe, expect, it } from '@jest/globals';
import type { AttachmentRef, SessionEvent } from '../events/session-events';
import { testCatalogue } from '../testing/fixed-tool-catalogue';
import { sessionScenario } from '../testing/session-scenario';
import { replay } from './evolve';
import type { SessionCommand } from './session-commands';
import { decodeSessionState, encodeSessionState, SnapshotDecodeError } from './session-state-codec';
import { initialSessionState, type SessionState } from './session-state';

const host = { replicaId: 'r1', processId: 'p1' };
const PDF: AttachmentRef = { hash: 'a'.repeat(64), name: 'report.pdf', mediaType: 'application/pdf', bytes: 1234 };
const done: SessionCommand = { type: 'RecordTurnFinished', reason: 'completed', detail: '', rounds: 1, usage: { inputTokens: 0, outputTokens: 0 } };
const ask = (messageId: string, text: string, turnId: string): SessionCommand => ({ type: 'RecordUserMessage', messageId, text, turnId, host });
const reply = (messageId: string, text: string, inputTokens = 100): SessionCommand => ({
  type: 'RecordAssistantMessage',
  messageId,
  text,
  toolCalls: [],
  usage: { inputTokens, outputTokens: 5 },
});

/**
 * One history that reaches every part of the state: attachments, a tool call pending and
 * answered, loaded and unloaded groups, a compaction, a failed one, a retry, an edit, a clear,
 * a rename, a cut-off turn left open and an archive.
 */
function everything(): readonly SessionEvent[] {
  const s = sessionScenario(testCatalogue()).given(
    { type: 'StartSession', sessionId: 's', agentId: 'a' },
    { type: 'LoadToolGroup', groupName: 'config', source: { kind: 'user' } },
    { type: 'RecordUserMessage', messageId: 't1-user', text: 'read this', turnId: 't1', host, attachments: [PDF] },
    { type: 'RecordModelRequest', provider: 'anthropic', model: 'claude', toolNames: ['load_tool_group'], schemaTokens: 10 },
    { type: 'RecordAssistantMessage', messageId: 't1-a1', text: '', toolCalls: [{ callId: 'c1', toolName: 'load_tool_group', arguments: { group_name: 'google_gmail' } }] },
    { type: 'RecordToolResult', messageId: 't1-r1', callId: 'c1', toolName: 'load_tool_group', durationMs: 1, status: 'success', result: 'ok' },
    { type: 'LoadToolGroup', groupName: 'google_gmail', source: { kind: 'tool_call', callId: 'c1' } },
    reply('t1-a2', 'loaded', 900),
    done,
    { type: 'UnloadToolGroup', groupName: 'config' },
    ask('t2-user', 'and now?', 't2'),
    reply('t2-a1', 'now this', 950),
    done,
    {
      type: 'RecordCompaction',
      summary: 'they read a file and loaded mail',
      boundaryMessageId: 't1-a2',
      trigger: 'auto',
      provider: 'anthropic',
      model: 'claude',
      tokensBefore: 900,
      tokensAfter: 40,
    },
    ask('t3-user', 'again', 't3'),
    reply('t3-a1', 'first answer', 300),
    done,
    { type: 'RetryTurn', turnId: 't4', host },
    reply('t4-a1', 'second answer', 310),
    done,
    { type: 'EditLastUserMessage', messageId: 't3-user', newMessageId: 't5-user', text: 'again, better', turnId: 't5', host },
    { type: 'RecordAssistantMessage', messageId: 't5-a1', text: '', toolCalls: [{ callId: 'c2', toolName: 'get_current_time', arguments: {} }] },
    { type: 'RecordCompactionFailed', trigger: 'auto', code: 'summary_failed', detail: 'HTTP 500' },
    { type: 'RenameSession', title: 'A long one' },
  );
  s.record({ type: 'RecordToolResult', messageId: 't5-r1', callId: 'c2', toolName: 'get_current_time', durationMs: 1, status: 'success', result: 'noon' });
  s.record(reply('t5-a2', 'it is noon'));
  s.record(done);
  s.record({ type: 'ClearSession', reason: 'user' });
  s.record(ask('t6-user', 'fresh start', 't6'));
  s.record({ type: 'RecordAssistantMessage', messageId: 't6-a1', text: '', toolCalls: [{ callId: 'c3', toolName: 'get_current_time', arguments: {} }] });
  s.record({ type: 'ArchiveSession' });
  return s.history();
}

const roundTrip = (state: SessionState): SessionState => decodeSessionState(encodeSessionState(state));

describe('session state snapshot codec (F4)', () => {
  const history = everything();

  it('F4 gives back the replayed state after every event of a history with attachments, groups, compaction, retry, edit, clear and archive', () => {
    for (let k = 0; k <= history.length; k++) {
      const replayed = replay(history.slice(0, k));
      expect({ k, state: roundTrip(replayed) }).toEqual({ k, state: replayed });
    }
    const last = replay(history);
    // The history really reached what it is meant to cover, so the loop above tested it.
    expect(last.supersededMessageIds).toEqual([]);
    expect(last.clearCount).toBe(1);
    expect(last.pendingToolCalls.size).toBe(1);
    expect(last.archivedAt).not.toBeNull();
    const beforeClear = replay(
      history.slice(
        0,
        history.findIndex((e) => e.type === 'SessionCleared'),
      ),
    );
    expect(beforeClear.supersededMessageIds).toEqual(['t3-a1', 't3-user', 't4-a1']);
    expect(beforeClear.summary?.boundaryMessageId).toBe('t1-a2');
    expect(beforeClear.loadedGroups.map((g) => g.groupName)).toEqual(['google_gmail']);
    expect(beforeClear.messages[0]).toMatchObject({ attachments: [PDF] });
  });

  it('F4 folding more events into a decoded state gives the same state as replaying everything', () => {
    for (const k of [1, 5, 12, 20, history.length - 3]) {
      expect(replay(history.slice(k), roundTrip(replay(history.slice(0, k))))).toEqual(replay(history));
    }
  });

  it('writes messages as ranges of the transcript, not twice', () => {
    const state = replay(
      history.slice(
        0,
        history.findIndex((e) => e.type === 'SessionCleared'),
      ),
    );
    const encoded = JSON.parse(encodeSessionState(state)) as { messages: { ranges?: unknown } };
    expect(encoded.messages.ranges).toEqual([
      [0, 6],
      [9, 13],
    ]);
    expect(state.transcript.map((m) => m.messageId).slice(6, 9)).toEqual(['t3-user', 't3-a1', 't4-a1']);
  });

  it('keeps messages that are not the transcript own objects as a list', () => {
    const state = replay(history.slice(0, 6));
    const copied: SessionState = { ...state, messages: state.messages.map((m) => ({ ...m })) };
    expect(JSON.parse(encodeSessionState(copied)).messages.list).toHaveLength(state.messages.length);
    expect(roundTrip(copied)).toEqual(state);
  });

  it('refuses text that is not its format with SnapshotDecodeError', () => {
    const good = JSON.parse(encodeSessionState(replay(history.slice(0, 8)))) as Record<string, unknown>;
    const bad: string[] = [
      '{"status":',
      'null',
      '[]',
      JSON.stringify({ ...good, status: 'closed' }),
      JSON.stringify({ ...good, eventCount: -1 }),
      JSON.stringify({ ...good, transcript: [{ role: 'user' }] }),
      JSON.stringify({ ...good, messages: { ranges: [[0, 99]] } }),
      JSON.stringify({ ...good, pendingToolCalls: {} }),
      JSON.stringify({ ...good, lastInputTokens: 'many' }),
      JSON.stringify({ ...good, loadedGroups: undefined }),
    ];
    for (const text of bad) expect(() => decodeSessionState(text)).toThrow(SnapshotDecodeError);
  });

  it('encodes the initial state too', () => {
    expect(roundTrip(initialSessionState)).toEqual(initialSessionState);
  });
});
