import { describe, expect, it } from '@jest/globals';
import { buildAuditTrail } from '../audit/audit-trail';
import type { SessionEvent } from '../events/session-events';
import { testCatalogue } from '../testing/fixed-tool-catalogue';
import { sessionScenario, type SessionScenario } from '../testing/session-scenario';
import { activeToolSet } from '../tools/active-tool-set';
import { evolve, replay } from './evolve';
import { modelConversation } from './model-conversation';
import type { SessionCommand } from './session-commands';

const host = { replicaId: 'r1', processId: 'p1' };
const done: SessionCommand = { type: 'RecordTurnFinished', reason: 'completed', detail: '', rounds: 1, usage: { inputTokens: 0, outputTokens: 0 } };
const failed: SessionCommand = { type: 'RecordTurnFinished', reason: 'provider_error', detail: 'HTTP 529', rounds: 1, usage: { inputTokens: 0, outputTokens: 0 } };
const ask = (messageId: string, text: string, turnId: string): SessionCommand => ({ type: 'RecordUserMessage', messageId, text, turnId, host });
const reply = (messageId: string, text: string, inputTokens = 100): SessionCommand => ({
  type: 'RecordAssistantMessage',
  messageId,
  text,
  toolCalls: [],
  usage: { inputTokens, outputTokens: 5 },
});
const retry = (turnId: string, messageId?: string): SessionCommand => ({ type: 'RetryTurn', turnId, host, ...(messageId ? { messageId } : {}) });
const edit = (messageId: string, text: string, turnId: string): SessionCommand => ({ type: 'EditLastUserMessage', messageId, newMessageId: `${turnId}-user`, text, turnId, host });
const compact = (boundaryMessageId: string, summary: string): SessionCommand => ({
  type: 'RecordCompaction',
  summary,
  boundaryMessageId,
  trigger: 'auto',
  provider: 'anthropic',
  model: 'claude-x',
  tokensBefore: 900,
  tokensAfter: 40,
});

/** t1: "hi" → "hello"; t2: "load mail" → load_tool_group call, its result, google_gmail loaded, "loaded". */
function twoTurns(): SessionScenario {
  return sessionScenario(testCatalogue()).given(
    { type: 'StartSession', sessionId: 's', agentId: 'a' },
    ask('t1-user', 'hi', 't1'),
    reply('t1-a1', 'hello'),
    done,
    ask('t2-user', 'load mail', 't2'),
    { type: 'RecordAssistantMessage', messageId: 't2-a1', text: '', toolCalls: [{ callId: 'c1', toolName: 'load_tool_group', arguments: { group_name: 'google_gmail' } }] },
    { type: 'RecordToolResult', messageId: 't2-r1', callId: 'c1', toolName: 'load_tool_group', durationMs: 1, status: 'success', result: 'ok' },
    { type: 'LoadToolGroup', groupName: 'google_gmail', source: { kind: 'tool_call', callId: 'c1' } },
    reply('t2-a2', 'loaded', 300),
    done,
  );
}

const ids = (messages: readonly { messageId: string }[]) => messages.map((m) => m.messageId);
const codeOf = (scenario: SessionScenario, command: SessionCommand): string => {
  try {
    scenario.record(command);
  } catch (error) {
    return (error as { code: string }).code;
  }
  throw new Error('expected a rule error');
};
const trailOf = (history: readonly SessionEvent[]) => buildAuditTrail(history.map((e, i) => ({ ...e, streamId: 'session-s', revision: i, position: i + 1 })));

describe('RetryTurn (TurnRetried)', () => {
  it('supersedes the reply, keeps the user message, opens a new turn, and leaves loaded groups and the transcript alone', () => {
    const scenario = twoTurns();
    const groupsBefore = activeToolSet(scenario.state(), testCatalogue());
    const [event, ...more] = scenario.record(retry('t3', 't2-user'));
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      type: 'TurnRetried',
      data: { turnId: 't3', host, messageId: 't2-user', supersededTurnId: 't2', supersededMessageIds: ['t2-a1', 't2-r1', 't2-a2'] },
    });
    const state = scenario.state();
    expect(ids(modelConversation(state).messages)).toEqual(['t1-user', 't1-a1', 't2-user']);
    expect(ids(state.transcript)).toEqual(['t1-user', 't1-a1', 't2-user', 't2-a1', 't2-r1', 't2-a2']);
    expect(state.supersededMessageIds).toEqual(['t2-a1', 't2-r1', 't2-a2']);
    expect(state.openTurn).toMatchObject({ turnId: 't3', host, rounds: 0 });
    expect(state.lastTurnId).toBe('t3');
    expect(activeToolSet(state, testCatalogue())).toEqual(groupsBefore);
    expect(state.loadedGroups.map((g) => g.groupName)).toEqual(['google_gmail']);
    // The window estimate is the one the original turn started from (the reply before it).
    expect(state.lastInputTokens).toBe(100);
  });

  it('after a provider error (no reply) supersedes nothing; the new turn answers in place of the old', () => {
    const scenario = sessionScenario(testCatalogue()).given({ type: 'StartSession', sessionId: 's', agentId: 'a' }, ask('t1-user', 'hi', 't1'), failed);
    const [event] = scenario.record(retry('t2'));
    expect(event?.data).toMatchObject({ messageId: 't1-user', supersededTurnId: 't1', supersededMessageIds: [] });
    scenario.given(reply('t2-assistant-1', 'hello'), done);
    const state = scenario.state();
    expect(ids(state.messages)).toEqual(['t1-user', 't2-assistant-1']);
    expect(state.openTurn).toBeNull();
    expect(trailOf(scenario.history()).events.map((l) => l.summary)).toContain('retried: t1-user asked again as turn t2 (was turn t1); nothing superseded');
  });

  it('can be retried again: each retry supersedes the answer before it; the transcript keeps them in order', () => {
    const scenario = twoTurns().given(retry('t3'), reply('t3-a1', 'second answer'), done, retry('t4'), reply('t4-a1', 'third answer'), done);
    const state = scenario.state();
    expect(ids(state.messages)).toEqual(['t1-user', 't1-a1', 't2-user', 't4-a1']);
    expect(state.supersededMessageIds).toEqual(['t2-a1', 't2-r1', 't2-a2', 't3-a1']);
    expect(ids(state.transcript)).toEqual(['t1-user', 't1-a1', 't2-user', 't2-a1', 't2-r1', 't2-a2', 't3-a1', 't4-a1']);
    expect(
      scenario
        .history()
        .filter((e) => e.type === 'TurnRetried')
        .map((e) => (e.data as { supersededTurnId?: string }).supersededTurnId),
    ).toEqual(['t2', 't3']);
  });

  it('is refused while a turn is open, with nothing to retry, or for a message that is no longer the last', () => {
    const running = sessionScenario(testCatalogue()).given({ type: 'StartSession', sessionId: 's', agentId: 'a' }, ask('t1-user', 'hi', 't1'));
    expect(codeOf(running, retry('t2'))).toBe('turn_in_progress');

    const empty = sessionScenario(testCatalogue()).given({ type: 'StartSession', sessionId: 's', agentId: 'a' });
    expect(codeOf(empty, retry('t1'))).toBe('nothing_to_retry');
    expect(codeOf(twoTurns().given({ type: 'ClearSession', reason: 'user' }), retry('t3'))).toBe('nothing_to_retry');

    const stale = twoTurns();
    expect(codeOf(stale, retry('t3', 't1-user'))).toBe('not_last_user_message');
    expect(() => stale.record(retry('t3', 't1-user'))).toThrow(/not the last message you sent.*'t2-user'/);
    expect(codeOf(stale, retry(''))).toBe('invalid_command');
    expect(codeOf(sessionScenario(testCatalogue()), retry('t1'))).toBe('session_not_found');
    expect(stale.history()).toEqual(twoTurns().history()); // nothing recorded
  });

  it('a retried turn cut off (server killed) is closed by InterruptTurn like any turn', () => {
    const scenario = twoTurns().given(retry('t3'), {
      type: 'RecordAssistantMessage',
      messageId: 't3-a1',
      text: '',
      toolCalls: [{ callId: 'c9', toolName: 'read_file', arguments: {} }],
    });
    const events = scenario.record({ type: 'InterruptTurn', turnId: 't3', detail: 'The server restarted mid-turn.' });
    expect(events.map((e) => e.type)).toEqual(['MessageSent', 'TurnFinished']);
    expect(scenario.state().openTurn).toBeNull();
    expect(scenario.state().pendingToolCalls.size).toBe(0);
  });

  it('leaves pending calls of the superseded part behind (an old stream whose turn was never closed)', () => {
    const scenario = sessionScenario(testCatalogue()).given(
      { type: 'StartSession', sessionId: 's', agentId: 'a' },
      { type: 'RecordUserMessage', messageId: 'u1', text: 'hi' }, // no turn id: an older stream
      { type: 'RecordAssistantMessage', messageId: 'a1', text: '', toolCalls: [{ callId: 'c1', toolName: 'read_file', arguments: {} }] },
      done,
    );
    expect(scenario.state().pendingToolCalls.size).toBe(1);
    scenario.record(retry('t2', 'u1'));
    expect(scenario.state().pendingToolCalls.size).toBe(0);
    expect(ids(scenario.state().messages)).toEqual(['u1']);
  });
});

describe('EditLastUserMessage (UserMessageEdited + MessageSent)', () => {
  it('supersedes the message and everything after it; the new message opens the turn', () => {
    const scenario = twoTurns();
    const events = scenario.record(edit('t2-user', 'load my calendar', 't3'));
    expect(events.map((e) => e.type)).toEqual(['UserMessageEdited', 'MessageSent']);
    expect(events[0]?.data).toEqual({ messageId: 't2-user', newMessageId: 't3-user', supersededMessageIds: ['t2-user', 't2-a1', 't2-r1', 't2-a2'] });
    expect(events[1]?.data).toEqual({ messageId: 't3-user', role: 'user', text: 'load my calendar', turnId: 't3', host });
    const state = scenario.state();
    expect(ids(modelConversation(state).messages)).toEqual(['t1-user', 't1-a1', 't3-user']);
    expect(ids(state.transcript)).toEqual(['t1-user', 't1-a1', 't2-user', 't2-a1', 't2-r1', 't2-a2', 't3-user']);
    expect(state.openTurn?.turnId).toBe('t3');
    expect(state.lastUserMessage).toMatchObject({ messageId: 't3-user', index: 2 });
    expect(state.loadedGroups.map((g) => g.groupName)).toEqual(['google_gmail']);
    expect(trailOf(scenario.history()).events.map((l) => l.summary)).toEqual(
      expect.arrayContaining([
        'edited: user message t2-user replaced by t3-user; 4 messages superseded, no longer sent to the model (t2-user, t2-a1, t2-r1, t2-a2)',
        'user: load my calendar',
      ]),
    );
  });

  it('keeps the files attached to the edited message: an edit changes the words, not the attachments', () => {
    const pdf = { hash: 'a'.repeat(64), name: 'report.pdf', mediaType: 'application/pdf', bytes: 1234 } as const;
    const scenario = sessionScenario(testCatalogue()).given(
      { type: 'StartSession', sessionId: 's', agentId: 'a' },
      { type: 'RecordUserMessage', messageId: 't1-user', text: 'read this', turnId: 't1', host, attachments: [pdf] },
      reply('t1-a1', 'done'),
      done,
    );
    const [, sent] = scenario.record(edit('t1-user', 'summarise this', 't2'));
    expect(sent?.data).toEqual({ messageId: 't2-user', role: 'user', text: 'summarise this', turnId: 't2', host, attachments: [pdf] });
  });

  it('edit after retry, retry after edit: the transcript keeps the order things happened in', () => {
    const scenario = twoTurns().given(retry('t3'), reply('t3-a1', 'again'), done, edit('t2-user', 'other', 't4'), reply('t4-a1', 'ok'), done, retry('t5'));
    const state = scenario.state();
    expect(ids(state.transcript)).toEqual(['t1-user', 't1-a1', 't2-user', 't2-a1', 't2-r1', 't2-a2', 't3-a1', 't4-user', 't4-a1']);
    expect(ids(state.messages)).toEqual(['t1-user', 't1-a1', 't4-user']);
    expect(state.supersededMessageIds).toEqual(['t2-a1', 't2-r1', 't2-a2', 't2-user', 't3-a1', 't4-a1']);
  });

  it('is refused for a message that is not the last user message, while a turn runs, with nothing to edit, or with no text', () => {
    const scenario = twoTurns();
    expect(codeOf(scenario, edit('t1-user', 'x', 't3'))).toBe('not_last_user_message');
    expect(codeOf(scenario, edit('nope', 'x', 't3'))).toBe('not_last_user_message');
    expect(codeOf(scenario, edit('t2-user', '  ', 't3'))).toBe('invalid_command');
    expect(codeOf(scenario, { type: 'EditLastUserMessage', messageId: 't2-user', newMessageId: 't2-a1', text: 'x', turnId: 't3' })).toBe('invalid_command');
    expect(codeOf(scenario.given(ask('t3-user', 'more', 't3')), edit('t3-user', 'x', 't4'))).toBe('turn_in_progress');
    const empty = sessionScenario(testCatalogue()).given({ type: 'StartSession', sessionId: 's', agentId: 'a' });
    expect(codeOf(empty, edit('u1', 'x', 't1'))).toBe('nothing_to_edit');
  });

  it('a clear ends it: the transcript and superseded list start again, and the stream still has everything', () => {
    const scenario = twoTurns().given(edit('t2-user', 'other', 't3'), done, { type: 'ClearSession', reason: 'user' });
    const state = scenario.state();
    expect([state.messages, state.transcript, state.supersededMessageIds, state.lastUserMessage]).toEqual([[], [], [], null]);
    expect(scenario.history().filter((e) => e.type === 'UserMessageEdited')).toHaveLength(1);
  });
});

describe('retry and edit with compaction', () => {
  it('a summary covering the superseded part is dropped for the one in effect when the message was sent', () => {
    // t1, t2, then t3 whose turn compacted up to t3's own user message; t3 is then edited.
    const scenario = twoTurns().given(
      compact('t1-a1', 'S1: said hi'),
      ask('t3-user', 'big question', 't3'),
      reply('t3-a1', 'big answer', 3500),
      compact('t3-user', 'S2: hi, mail, big question'),
      done,
    );
    expect(modelConversation(scenario.state()).summary).toBe('S2: hi, mail, big question');
    scenario.record(edit('t3-user', 'smaller question', 't4'));
    const state = scenario.state();
    // S2 summarised the replaced question: the model would read it again. S1 was in effect when t3-user was sent.
    expect(modelConversation(state)).toEqual({ summary: 'S1: said hi', messages: state.messages.slice(2) });
    expect(ids(modelConversation(state).messages)).toEqual(['t2-user', 't2-a1', 't2-r1', 't2-a2', 't4-user']);
    expect(state.lastInputTokens).toBeNull(); // as when t3-user was sent: S1, recorded after the last reply, had made it unknown
  });

  it('a retry drops a summary that covers the retried message itself: the model must see what it answers', () => {
    const scenario = twoTurns().given(ask('t3-user', 'q', 't3'), reply('t3-a1', 'a', 3500), compact('t3-user', 'S: covers q'), done);
    scenario.record(retry('t4'));
    expect(modelConversation(scenario.state())).toEqual({ summary: null, messages: scenario.state().messages });
    expect(ids(scenario.state().messages).at(-1)).toBe('t3-user');
  });

  it('a summary of earlier messages only, recorded during the superseded turn, still holds (the window estimate is then unknown)', () => {
    const scenario = twoTurns().given(ask('t3-user', 'q', 't3'), compact('t2-a2', 'S: t1 and t2'), reply('t3-a1', 'a', 500), done);
    scenario.record(retry('t4'));
    const state = scenario.state();
    expect(modelConversation(state)).toEqual({ summary: 'S: t1 and t2', messages: [state.messages.at(-1)] });
    expect(state.lastInputTokens).toBeNull();
  });

  it('a later compaction cannot name a superseded message as its boundary', () => {
    const scenario = twoTurns().given(retry('t3'), reply('t3-a1', 'again'), done);
    expect(codeOf(scenario, compact('t2-a2', 'S'))).toBe('invalid_compaction_boundary');
    expect(scenario.record(compact('t1-a1', 'S'))[0]?.type).toBe('ConversationCompacted');
  });
});

describe('replaying retry and edit', () => {
  it('replay of the whole stream equals event-by-event evolve (P4)', () => {
    const history = twoTurns()
      .given(retry('t3'), reply('t3-a1', 'again'), done, edit('t2-user', 'other', 't4'), done)
      .history();
    const stepwise = history.reduce((state, event) => evolve(state, event), replay([]));
    expect(stepwise).toEqual(replay(history));
  });

  it('a TurnRetried or UserMessageEdited naming another message than the last user message (a bad stream) is skipped', () => {
    const scenario = twoTurns();
    const [retried] = twoTurns().record(retry('t3'));
    const bad = { ...(retried as SessionEvent), data: { ...(retried?.data as object), messageId: 't1-user' } } as SessionEvent;
    const state = evolve(scenario.state(), bad);
    expect(state.skippedEvents).toBe(1);
    expect(state.messages).toEqual(scenario.state().messages);
    expect(evolve(scenario.state(), { ...bad, type: 'UserMessageEdited', data: { messageId: 'x' } } as unknown as SessionEvent).skippedEvents).toBe(1);
  });
});
