import { activeToolSet } from '../tools/active-tool-set';
import { testCatalogue } from '../testing/fixed-tool-catalogue';
import { sessionScenario } from '../testing/session-scenario';
import type { SessionCommand } from './session-commands';
import { replay } from './evolve';
import { decide } from './decide';
import { initialSessionState } from './session-state';
import { deterministicIds } from '../ids';

const start: SessionCommand = { type: 'StartSession', sessionId: 's1', agentId: 'default' };
const userSays = (messageId: string, text: string): SessionCommand => ({ type: 'RecordUserMessage', messageId, text });
const modelLoads = (groupName: string, callId: string): SessionCommand => ({
  type: 'LoadToolGroup',
  groupName,
  source: { kind: 'tool_call', callId },
});

describe('session decider', () => {
  const catalogue = testCatalogue();

  it('G1 a new session offers only the core tools', () => {
    const s = sessionScenario(catalogue).given(start, userSays('m1', 'hi'));
    expect(activeToolSet(s.state(), catalogue)).toEqual(['load_tool_group', 'get_current_time', 'read_file', 'write_file']);
  });

  it('G3 loading google_gmail records the group with its tools, and they join the active set after the core tools', () => {
    const s = sessionScenario(catalogue).given(start, userSays('m1', 'check my email'));
    const events = s.record(modelLoads('google_gmail', 'call-1'));
    expect(events).toEqual([
      {
        type: 'ToolGroupLoaded',
        data: {
          groupName: 'google_gmail',
          toolNames: ['gmail_search', 'gmail_get_message', 'gmail_send', 'gmail_trash'],
          source: { kind: 'tool_call', callId: 'call-1' },
        },
        metadata: {
          eventId: 'cmd2:0',
          occurredAt: '2026-01-01T00:00:03.000Z',
          correlationId: 'cmd2:0',
          causationId: 'cmd2:0',
          schemaVersion: 1,
        },
      },
    ]);
    expect(activeToolSet(s.state(), catalogue)).toEqual([
      'load_tool_group',
      'get_current_time',
      'read_file',
      'write_file',
      'gmail_search',
      'gmail_get_message',
      'gmail_send',
      'gmail_trash',
    ]);
  });

  it('G4 an unknown group is group_not_found and the error lists every group; nothing is recorded', () => {
    const s = sessionScenario(catalogue).given(start);
    let error: { code?: string; message?: string; details?: unknown } = {};
    try {
      s.record(modelLoads('google_mail', 'c1'));
    } catch (e) {
      error = e as typeof error;
    }
    expect(error.code).toBe('group_not_found');
    expect(error.message).toContain('google_gmail, google_drive, config, empty_group');
    expect(error.details).toEqual({ groupName: 'google_mail', available: ['google_gmail', 'google_drive', 'config', 'empty_group'] });
    expect(s.history()).toHaveLength(1);
  });

  it('G4 a missing group name is invalid_command', () => {
    const s = sessionScenario(catalogue).given(start);
    s.when({ type: 'LoadToolGroup', groupName: '', source: { kind: 'user' } }).thenThrows('invalid_command');
  });

  it('G5 a repeated load is a no-op: no event, no duplicate tools', () => {
    const s = sessionScenario(catalogue).given(start, modelLoads('google_gmail', 'c1'));
    expect(s.record(modelLoads('google_gmail', 'c2'))).toEqual([]);
    const tools = activeToolSet(s.state(), catalogue);
    expect(tools.filter((t) => t === 'gmail_search')).toHaveLength(1);
    expect(s.state().loadedGroups.map((g) => g.groupName)).toEqual(['google_gmail']);
  });

  it('G5 several groups stay loaded together, in load order, across turns', () => {
    const s = sessionScenario(catalogue).given(
      start,
      userSays('m1', 'list my drive'),
      modelLoads('google_drive', 'c1'),
      userSays('m2', 'now my email'),
      modelLoads('google_gmail', 'c2'),
      userSays('m3', 'thanks'),
    );
    expect(activeToolSet(s.state(), catalogue).slice(4)).toEqual(['drive_list_files', 'drive_get_file', 'gmail_search', 'gmail_get_message', 'gmail_send', 'gmail_trash']);
  });

  it('P1 groups loaded in an earlier message are still active in a later message, with no reload', () => {
    const s = sessionScenario(catalogue).given(start, userSays('m1', 'check my email'), modelLoads('google_gmail', 'c1'), {
      type: 'RecordAssistantMessage',
      messageId: 'm2',
      text: 'You have 3 emails.',
      toolCalls: [],
    });
    s.record(userSays('m3', 'delete the spam ones'));
    expect(activeToolSet(s.state(), catalogue)).toContain('gmail_trash');
    expect(s.history().filter((e) => e.type === 'ToolGroupLoaded')).toHaveLength(1);
  });

  it('P2 clearing the session empties the conversation and the loaded groups: core tools only', () => {
    const s = sessionScenario(catalogue).given(start, userSays('m1', 'check my email'), modelLoads('google_gmail', 'c1'));
    s.given({ type: 'RecordTurnFinished', reason: 'completed', detail: '', rounds: 1, usage: { inputTokens: 0, outputTokens: 0 } });
    expect(s.record({ type: 'ClearSession', reason: '/clear' }).map((e) => e.type)).toEqual(['SessionCleared']);
    expect(s.state().messages).toEqual([]);
    expect(activeToolSet(s.state(), catalogue)).toEqual(catalogue.coreToolNames());
    // Loading again after a clear is a real load, not a no-op.
    expect(s.record(modelLoads('google_gmail', 'c2')).map((e) => e.type)).toEqual(['ToolGroupLoaded']);
  });

  it('P4 replaying any prefix of the stream gives the state at that point', () => {
    const s = sessionScenario(catalogue).given(
      start,
      modelLoads('google_gmail', 'c1'),
      { type: 'RecordModelRequest', provider: 'openai', model: 'gpt-x', toolNames: ['load_tool_group'], schemaTokens: 120 },
      modelLoads('google_drive', 'c2'),
      { type: 'ClearSession', reason: '/clear' },
      modelLoads('config', 'c3'),
    );
    const events = s.history();
    const groupsAt = (k: number) => replay(events.slice(0, k)).loadedGroups.map((g) => g.groupName);
    expect(groupsAt(1)).toEqual([]);
    expect(groupsAt(2)).toEqual(['google_gmail']);
    expect(groupsAt(4)).toEqual(['google_gmail', 'google_drive']);
    expect(groupsAt(5)).toEqual([]);
    expect(groupsAt(6)).toEqual(['config']);
    expect(replay(events)).toEqual(s.state());
    expect(replay(events).modelRequestCount).toBe(1);
  });

  it('unloading a loaded group removes its tools; unloading one that is not loaded is group_not_loaded', () => {
    const s = sessionScenario(catalogue).given(start, modelLoads('google_gmail', 'c1'), modelLoads('google_drive', 'c2'));
    s.record({ type: 'UnloadToolGroup', groupName: 'google_gmail' });
    expect(s.state().loadedGroups.map((g) => g.groupName)).toEqual(['google_drive']);
    expect(activeToolSet(s.state(), catalogue)).not.toContain('gmail_search');
    s.when({ type: 'UnloadToolGroup', groupName: 'google_gmail' }).thenThrows('group_not_loaded');
  });

  it('a command to a session that was never started is session_not_found', () => {
    const s = sessionScenario(catalogue);
    s.when(userSays('m1', 'hi')).thenThrows('session_not_found');
    s.when(modelLoads('google_gmail', 'c1')).thenThrows('session_not_found');
    expect(s.history()).toEqual([]);
  });

  it('starting a session twice is session_already_started', () => {
    const s = sessionScenario(catalogue).given(start);
    s.when(start).thenThrows('session_already_started');
  });

  it('tool results must answer a pending call of the same tool, once', () => {
    const s = sessionScenario(catalogue).given(start, {
      type: 'RecordAssistantMessage',
      messageId: 'a1',
      text: '',
      toolCalls: [
        { callId: 'c1', toolName: 'get_current_time', arguments: {} },
        { callId: 'c2', toolName: 'read_file', arguments: { path: 'x' } },
      ],
    });
    expect([...s.state().pendingToolCalls.keys()]).toEqual(['c1', 'c2']);
    s.when({ type: 'RecordToolResult', messageId: 't0', callId: 'nope', toolName: 'read_file', durationMs: 1, status: 'success', result: '' }).thenThrows('unknown_tool_call');
    s.when({ type: 'RecordToolResult', messageId: 't0', callId: 'c1', toolName: 'read_file', durationMs: 1, status: 'success', result: '' }).thenThrows('tool_call_mismatch');
    s.record({ type: 'RecordToolResult', messageId: 't1', callId: 'c2', toolName: 'read_file', durationMs: 4, status: 'error', errorType: 'not_found', message: 'no file x' });
    expect([...s.state().pendingToolCalls.keys()]).toEqual(['c1']);
    s.when({ type: 'RecordToolResult', messageId: 't2', callId: 'c2', toolName: 'read_file', durationMs: 1, status: 'success', result: '' }).thenThrows('unknown_tool_call');
    expect(s.state().messages.at(-1)).toEqual({
      messageId: 't1',
      role: 'tool',
      callId: 'c2',
      toolName: 'read_file',
      durationMs: 4,
      status: 'error',
      errorType: 'not_found',
      message: 'no file x',
    });
  });

  it('an assistant message reusing a call id is invalid_command', () => {
    const s = sessionScenario(catalogue).given(start);
    const call = { callId: 'c1', toolName: 'read_file', arguments: {} };
    s.when({ type: 'RecordAssistantMessage', messageId: 'a1', text: '', toolCalls: [call, call] }).thenThrows('invalid_command');
  });

  it('a partial (cancelled) reply is recorded with partial: true; one with tool calls is invalid_command', () => {
    const s = sessionScenario(catalogue).given(start);
    const [event] = s.record({ type: 'RecordAssistantMessage', messageId: 'a1', text: 'Working on it, ', toolCalls: [], partial: true });
    expect(event?.data).toEqual({ messageId: 'a1', role: 'assistant', text: 'Working on it, ', toolCalls: [], partial: true });
    const call = { callId: 'c1', toolName: 'read_file', arguments: {} };
    s.when({ type: 'RecordAssistantMessage', messageId: 'a2', text: 'x', toolCalls: [call], partial: true }).thenThrows('invalid_command');
  });

  it('S6 an assistant message records which provider and model answered and the streamed reasoning; empty ones are left out, a blank model is invalid_command', () => {
    const s = sessionScenario(catalogue).given(start);
    const [event] = s.record({
      type: 'RecordAssistantMessage',
      messageId: 'a1',
      text: 'Hi.',
      toolCalls: [],
      provider: 'anthropic',
      model: 'claude-x',
      reasoning: 'The user greets me.',
    });
    expect(event?.data).toEqual({ messageId: 'a1', role: 'assistant', text: 'Hi.', toolCalls: [], provider: 'anthropic', model: 'claude-x', reasoning: 'The user greets me.' });
    expect(s.state().messages.at(-1)).toMatchObject({ provider: 'anthropic', model: 'claude-x', reasoning: 'The user greets me.' });
    const [plain] = s.record({ type: 'RecordAssistantMessage', messageId: 'a2', text: 'Hi.', toolCalls: [], reasoning: '' });
    expect(plain?.data).toEqual({ messageId: 'a2', role: 'assistant', text: 'Hi.', toolCalls: [] });
    s.when({ type: 'RecordAssistantMessage', messageId: 'a3', text: 'x', toolCalls: [], model: ' ' }).thenThrows('invalid_command');
    s.when({ type: 'RecordAssistantMessage', messageId: 'a3', text: 'x', toolCalls: [], reasoning: 5 as unknown as string }).thenThrows('invalid_command');
  });

  it('S6 an assistant message recorded before provider, model and reasoning existed still replays', () => {
    const old = {
      type: 'MessageSent',
      data: { messageId: 'a1', role: 'assistant', text: 'Old reply.', toolCalls: [] },
      metadata: { eventId: 'e1', occurredAt: '2025-01-01T00:00:00.000Z', correlationId: 'e1', causationId: 'e1', schemaVersion: 1 },
    };
    const state = replay([...decide(start, initialSessionState, { now: () => new Date(0), newId: deterministicIds('k'), catalogue }), old]);
    expect(state.messages).toEqual([{ messageId: 'a1', role: 'assistant', text: 'Old reply.', toolCalls: [] }]);
    expect(state.skippedEvents).toBe(0);
  });

  it('a model request records exactly the tools sent and the schema token count', () => {
    const s = sessionScenario(catalogue).given(start);
    const [event] = s.record({ type: 'RecordModelRequest', provider: 'anthropic', model: 'claude-x', toolNames: ['a', 'b'], schemaTokens: 321 });
    expect(event?.data).toEqual({ provider: 'anthropic', model: 'claude-x', toolNames: ['a', 'b'], schemaTokens: 321 });
    s.when({ type: 'RecordModelRequest', provider: 'x', model: 'y', toolNames: [], schemaTokens: -1 }).thenThrows('invalid_command');
  });

  it('a model request records the reasoning setting it was made with, and only a known one', () => {
    const s = sessionScenario(catalogue).given(start);
    const [event] = s.record({ type: 'RecordModelRequest', provider: 'anthropic', model: 'claude-x', toolNames: [], schemaTokens: 0, reasoningEffort: 'high' });
    expect(event?.data).toEqual({ provider: 'anthropic', model: 'claude-x', toolNames: [], schemaTokens: 0, reasoningEffort: 'high' });
    s.when({ type: 'RecordModelRequest', provider: 'x', model: 'y', toolNames: [], schemaTokens: 0, reasoningEffort: 'extreme' as 'high' }).thenThrows('invalid_command');
  });

  it('stamps every event of a decision with the given correlation and causation ids, else the first event id', () => {
    const ctx = { now: () => new Date('2026-05-01T10:00:00Z'), newId: deterministicIds('k'), catalogue };
    const started = replay(decide(start, initialSessionState, ctx));
    const [loaded] = decide(modelLoads('google_gmail', 'c1'), started, { ...ctx, newId: deterministicIds('k2'), correlationId: 'turn-7', causationId: 'call-c1' });
    expect(loaded?.metadata).toEqual({ eventId: 'k2:0', occurredAt: '2026-05-01T10:00:00.000Z', correlationId: 'turn-7', causationId: 'call-c1', schemaVersion: 1 });
    const [own] = decide(userSays('m1', 'x'), started, { ...ctx, newId: deterministicIds('k3') });
    expect(own?.metadata).toMatchObject({ correlationId: 'k3:0', causationId: 'k3:0' });
  });
});
