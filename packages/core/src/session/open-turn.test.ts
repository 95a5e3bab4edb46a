import { testCatalogue } from '../testing/fixed-tool-catalogue';
import { sessionScenario } from '../testing/session-scenario';
import { replay } from './evolve';
import type { SessionCommand } from './session-commands';

const catalogue = testCatalogue();
const host = { replicaId: 'replica-a', processId: 'p1' };
const start: SessionCommand = { type: 'StartSession', sessionId: 's1', agentId: 'default' };
const userOpens = (turnId: string): SessionCommand => ({ type: 'RecordUserMessage', messageId: `${turnId}-user`, text: 'hi', turnId, host });
const finished: SessionCommand = { type: 'RecordTurnFinished', reason: 'completed', detail: '', rounds: 1, usage: { inputTokens: 1, outputTokens: 1 } };
const spinCall: SessionCommand = {
  type: 'RecordAssistantMessage',
  messageId: 't1-assistant-1',
  text: '',
  toolCalls: [
    { callId: 'c1', toolName: 'read_file', arguments: { path: 'a' } },
    { callId: 'c2', toolName: 'get_current_time', arguments: {} },
  ],
};

describe('open turns in the session state', () => {
  it('a user message opens a turn (with its host and model request count) and TurnFinished closes it', () => {
    const s = sessionScenario(catalogue).given(start, userOpens('t1'));
    expect(s.state().openTurn).toEqual({ turnId: 't1', host, startedAt: '2026-01-01T00:00:02.000Z', lastEventAt: '2026-01-01T00:00:02.000Z', rounds: 0 });
    s.given({ type: 'RecordModelRequest', provider: 'openai', model: 'm', toolNames: [], schemaTokens: 0 });
    expect(s.state().openTurn).toMatchObject({ turnId: 't1', rounds: 1, lastEventAt: '2026-01-01T00:00:03.000Z' });
    // Streams written before a clear was refused mid-turn can hold one: it leaves the turn open.
    s.givenEvents({ type: 'SessionCleared', data: { reason: '/clear' } });
    expect(s.state().openTurn?.turnId).toBe('t1');
    s.given(finished);
    expect(s.state().openTurn).toBeNull();
  });

  it('a message opening a new turn while another is open is refused with turn_in_progress (two replicas racing: the loser re-decides on fresh state); its own turn id again is not', () => {
    const s = sessionScenario(catalogue).given(start, userOpens('t1'));
    expect(() => s.record(userOpens('t2'))).toThrow(expect.objectContaining({ code: 'turn_in_progress', details: { turnId: 't1' } }));
    s.given(finished);
    expect(s.record(userOpens('t2')).map((e) => e.type)).toEqual(['MessageSent']);
  });

  it('a clear while a turn is open is refused with turn_in_progress (its results would land in the cleared conversation); after the turn ends it clears', () => {
    const s = sessionScenario(catalogue).given(start, userOpens('t1'));
    expect(() => s.record({ type: 'ClearSession', reason: 'user' })).toThrow(expect.objectContaining({ code: 'turn_in_progress', details: { turnId: 't1' } }));
    s.given(finished);
    expect(s.record({ type: 'ClearSession', reason: 'user' }).map((e) => e.type)).toEqual(['SessionCleared']);
  });

  it("the user's load or unload while a turn is open is refused with turn_in_progress (the turn's next request would not carry it); the model's own load is the turn's and is recorded", () => {
    const s = sessionScenario(catalogue).given(start, { type: 'LoadToolGroup', groupName: 'google_gmail', source: { kind: 'user' } }, userOpens('t1'));
    const refused = expect.objectContaining({ code: 'turn_in_progress', details: { turnId: 't1' } });
    expect(() => s.record({ type: 'UnloadToolGroup', groupName: 'google_gmail' })).toThrow(refused);
    expect(() => s.record({ type: 'LoadToolGroup', groupName: 'google_drive', source: { kind: 'user' } })).toThrow(refused);
    expect(s.record({ type: 'LoadToolGroup', groupName: 'google_drive', source: { kind: 'tool_call', callId: 'c1' } }).map((e) => e.type)).toEqual(['ToolGroupLoaded']);
    s.given(finished);
    expect(s.record({ type: 'UnloadToolGroup', groupName: 'google_gmail' }).map((e) => e.type)).toEqual(['ToolGroupUnloaded']);
  });

  it('openedTurnIds keeps every turn the stream opened (message, retry, edit), across a clear and later turns, without changing a state it was given', () => {
    const s = sessionScenario(catalogue).given(start, userOpens('t1'), finished);
    const before = s.state();
    s.given({ type: 'ClearSession', reason: 'user' }, userOpens('t2'), finished, { type: 'RetryTurn', turnId: 't3', host }, finished);
    s.given({ type: 'EditLastUserMessage', messageId: 't2-user', newMessageId: 't4-user', text: 'better', turnId: 't4', host }, finished);
    expect([...s.state().openedTurnIds]).toEqual(['t1', 't2', 't3', 't4']);
    expect([...before.openedTurnIds]).toEqual(['t1']);
    expect(replay(s.history()).openedTurnIds).toEqual(s.state().openedTurnIds);
  });

  it('a user message recorded before turns were tracked opens a turn named by its correlation id, with no host', () => {
    const s = sessionScenario(catalogue).given(start, { type: 'RecordUserMessage', messageId: 'm1', text: 'hi' });
    const [started, user] = s.history();
    const legacy = [started!, { ...user!, metadata: { ...user!.metadata, correlationId: 'old-turn' } }];
    expect(replay(legacy).openTurn).toMatchObject({ turnId: 'old-turn', rounds: 0 });
    expect(replay(legacy).openTurn?.host).toBeUndefined();
  });

  it('InterruptTurn answers every pending call as interrupted and closes the turn, in one decision, with ids from the cut-off turn', () => {
    const s = sessionScenario(catalogue).given(start, userOpens('t1'), { type: 'RecordModelRequest', provider: 'openai', model: 'm', toolNames: [], schemaTokens: 0 }, spinCall);
    const events = s.record({ type: 'InterruptTurn', turnId: 't1', detail: 'The server restarted mid-turn.' });
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['MessageSent', expect.objectContaining({ messageId: 't1-interrupted-c1', role: 'tool', callId: 'c1', status: 'error', errorType: 'interrupted' })],
      ['MessageSent', expect.objectContaining({ messageId: 't1-interrupted-c2', callId: 'c2', errorType: 'interrupted' })],
      ['TurnFinished', { reason: 'interrupted', detail: 'The server restarted mid-turn.', rounds: 1, usage: { inputTokens: 0, outputTokens: 0 } }],
    ]);
    expect(s.state().openTurn).toBeNull();
    expect(s.state().pendingToolCalls.size).toBe(0);
  });

  it('InterruptTurn with no pending call still closes the turn (cut off while the model was answering)', () => {
    const s = sessionScenario(catalogue).given(start, userOpens('t1'));
    expect(s.record({ type: 'InterruptTurn', turnId: 't1', detail: 'cut' }).map((e) => e.type)).toEqual(['TurnFinished']);
  });

  it('InterruptTurn records nothing once the turn is closed or another turn is open (a second replica closing it too)', () => {
    const s = sessionScenario(catalogue).given(start, userOpens('t1'), finished);
    expect(s.record({ type: 'InterruptTurn', turnId: 't1', detail: 'cut' })).toEqual([]);
    s.given(userOpens('t2'));
    expect(s.record({ type: 'InterruptTurn', turnId: 't1', detail: 'cut' })).toEqual([]);
    expect(s.state().openTurn?.turnId).toBe('t2');
  });
});
