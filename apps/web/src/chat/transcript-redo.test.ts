import { describe, expect, test } from '@jest/globals';
import type { StreamEvent } from '../api/client';
import type { MessageData, SessionView, StoredEvent } from '@oneclaw/api-contract';
import { chatReducer, initialChatState, redoTargets, sessionTitle, transcriptFromEvents, transcriptFromMessages, type ChatAction, type ChatState } from './transcript';

let revision = 0;
function stored(type: string, data: unknown): StoredEvent {
  revision += 1;
  return {
    type,
    data,
    metadata: { eventId: `e${revision}`, occurredAt: '2026-01-01T00:00:00Z', correlationId: 'c', causationId: 'c', schemaVersion: 1 },
    streamId: 'session-s1',
    revision,
    position: revision,
  };
}
const sent = (message: MessageData) => stored('MessageSent', message);
const finished = (reason: string, detail = '') => stored('TurnFinished', { reason, detail, rounds: 1, usage: { inputTokens: 0, outputTokens: 0 } });
const view = (overrides: Partial<SessionView> = {}): SessionView => ({
  sessionId: 's1',
  agentId: 'default',
  revision: 3,
  messages: [],
  supersededMessageIds: [],
  loadedGroups: [],
  activeTools: [],
  turnInProgress: false,
  title: null,
  summary: null,
  ...overrides,
});
const sse = (event: string, data: unknown = {}): ChatAction => ({ type: 'sse', event: { event, data } as StreamEvent });
const run = (state: ChatState, ...actions: ChatAction[]): ChatState => actions.reduce(chatReducer, state);
const texts = (items: readonly { kind: string; text?: string; reason?: string }[]) => items.map((i) => (i.kind === 'turn-stop' ? `[${i.reason}]` : `${i.kind}: ${i.text ?? ''}`));

/** "hi" → "hello"; "joke?" → provider error. */
const history: StoredEvent[] = [
  stored('SessionStarted', { sessionId: 's1', agentId: 'default' }),
  sent({ messageId: 't1-user', role: 'user', text: 'hi' }),
  sent({ messageId: 't1-assistant-1', role: 'assistant', text: 'hello', toolCalls: [] }),
  finished('completed'),
  sent({ messageId: 't2-user', role: 'user', text: 'joke?' }),
  finished('provider_error', 'HTTP 529'),
];

describe('S6 retry and edit in the chat transcript', () => {
  test('a stored TurnRetried hides what it superseded (the failure notice, the old reply); the user message stays once', () => {
    const events = [
      ...history,
      stored('TurnRetried', { turnId: 't3', messageId: 't2-user', supersededMessageIds: [] }),
      sent({ messageId: 't3-assistant-1', role: 'assistant', text: 'A joke.', toolCalls: [] }),
      finished('completed'),
      stored('TurnRetried', { turnId: 't4', messageId: 't2-user', supersededMessageIds: ['t3-assistant-1'] }),
      sent({ messageId: 't4-assistant-1', role: 'assistant', text: 'Another joke.', toolCalls: [] }),
      finished('completed'),
    ];
    expect(texts(transcriptFromEvents(history))).toEqual(['user: hi', 'assistant: hello', 'user: joke?', '[provider_error]']);
    expect(texts(transcriptFromEvents(events))).toEqual(['user: hi', 'assistant: hello', 'user: joke?', 'assistant: Another joke.']);
  });

  test('a stored UserMessageEdited hides the replaced message and everything after it; the title follows the edit', () => {
    const events = [
      ...history.slice(0, 2),
      stored('UserMessageEdited', { messageId: 't1-user', newMessageId: 't2-user', supersededMessageIds: ['t1-user', 't1-assistant-1'] }),
      sent({ messageId: 't2-user', role: 'user', text: 'good morning' }),
      sent({ messageId: 't2-assistant-1', role: 'assistant', text: 'morning!', toolCalls: [] }),
    ];
    const items = transcriptFromEvents(events);
    expect(texts(items)).toEqual(['user: good morning', 'assistant: morning!']);
    expect(sessionTitle(items)).toBe('good morning');
  });

  test("the view's messages leave out supersededMessageIds (when the events cannot be read)", () => {
    const messages: MessageData[] = [
      { messageId: 'u1', role: 'user', text: 'hi' },
      { messageId: 'a1', role: 'assistant', text: 'old', toolCalls: [] },
      { messageId: 'a2', role: 'assistant', text: 'new', toolCalls: [] },
    ];
    expect(texts(transcriptFromMessages(messages, false, ['a1']))).toEqual(['user: hi', 'assistant: new']);
    expect(texts(run(initialChatState, { type: 'stored', view: view({ messages, supersededMessageIds: ['a1'] }) }).items)).toEqual(['user: hi', 'assistant: new']);
  });

  test('Retry goes on the last stop notice or reply, Edit on the last stored user message; none while it is not stored', () => {
    const failed = transcriptFromEvents(history);
    expect(redoTargets(failed)).toEqual({ messageId: 't2-user', editKey: 't2-user', retryKey: 'e6' });
    const answered = transcriptFromEvents(history.slice(0, 4));
    expect(redoTargets(answered)).toEqual({ messageId: 't1-user', editKey: 't1-user', retryKey: 't1-assistant-1' });
    expect(redoTargets(transcriptFromEvents(history.slice(0, 2)))).toEqual({ messageId: 't1-user', editKey: 't1-user' });
    expect(redoTargets([])).toBeUndefined();
    // A message typed here and not yet stored (or not sent) is not the server's last message.
    const sending = run({ ...initialChatState, loaded: true, items: answered }, { type: 'send', text: 'more' });
    expect(redoTargets(sending.items)).toBeUndefined();
  });

  test('a cut-off turn (TurnFinished interrupted, closed by the server) carries Retry on its stop notice', () => {
    const cutOff = [
      ...history.slice(0, 4),
      sent({ messageId: 't5-user', role: 'user', text: 'still there?' }),
      finished('interrupted', 'The turn was interrupted (the server restarted mid-turn). Press Retry to run it again.'),
    ];
    const items = transcriptFromEvents(cutOff);
    const stop = items.at(-1)!;
    expect(stop).toMatchObject({ kind: 'turn-stop', reason: 'interrupted', detail: expect.stringContaining('Press Retry') });
    expect(redoTargets(items)).toEqual({ messageId: 't5-user', editKey: 't5-user', retryKey: stop.key });
  });

  test('the redo action shows the retry or the edited message at once and streams like a send', () => {
    const loaded = run(initialChatState, { type: 'stored', view: view(), events: history });
    const retrying = run(loaded, { type: 'redo', kind: 'retry', messageId: 't2-user' });
    expect(retrying.turn).toBe('running');
    expect(texts(retrying.items)).toEqual(['user: hi', 'assistant: hello', 'user: joke?']);
    const answered = run(
      retrying,
      sse('turn_started'),
      sse('text_delta', { text: 'Ha' }),
      sse('assistant_message', { messageId: 't3-assistant-1', text: 'Ha.', toolCalls: 0 }),
      sse('turn_finished', { reason: 'completed' }),
    );
    expect(texts(answered.items)).toEqual(['user: hi', 'assistant: hello', 'user: joke?', 'assistant: Ha.']);
    expect(answered.turn).toBe('none');

    const editing = run(loaded, { type: 'redo', kind: 'edit', messageId: 't2-user', text: 'a riddle?' });
    expect(texts(editing.items)).toEqual(['user: hi', 'assistant: hello', 'user: a riddle?']);
    expect(editing.items.at(-1)).toMatchObject({ pending: true });
    // Refused before it started (a stale message): the local message goes, an error says why.
    const refused = run(editing, { type: 'stream-failed', refused: true, code: 'not_last_user_message', detail: 'Reload.' });
    expect(texts(refused.items)).toEqual(['user: hi', 'assistant: hello', 'error: ']);
  });
});
