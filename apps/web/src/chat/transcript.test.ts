import { describe, expect, test } from '@jest/globals';
import type { StreamEvent } from '../api/client';
import type { MessageData, SessionView, StoredEvent } from '@oneclaw/api-contract';
import {
  chatReducer,
  initialChatState,
  isClearCommand,
  isFailureStop,
  retryNotice,
  sessionTitle,
  stopReasonLabel,
  transcriptFromEvents,
  transcriptFromMessages,
  waitingNotice,
  type AssistantItem,
  type ChatAction,
  type ChatState,
  type ToolItem,
} from './transcript';

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

function view(overrides: Partial<SessionView> = {}): SessionView {
  return {
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
  };
}

function sse(event: string, data: unknown = {}): ChatAction {
  return { type: 'sse', event: { event, data } as StreamEvent };
}

function run(state: ChatState, ...actions: ChatAction[]): ChatState {
  return actions.reduce(chatReducer, state);
}

/** A turn that loads a group, calls one of its tools, then answers: as stored, and as streamed. */
const loadTurnEvents: StoredEvent[] = [
  stored('SessionStarted', { sessionId: 's1', agentId: 'default' }),
  sent({ messageId: 't1-user', role: 'user', text: 'List my tasks' }),
  stored('ModelRequested', { provider: 'openai', model: 'm', toolNames: ['load_tool_group'], schemaTokens: 10 }),
  sent({ messageId: 't1-assistant-1', role: 'assistant', text: '', toolCalls: [{ callId: 'c1', toolName: 'load_tool_group', arguments: { group_name: 'scheduled_tasks' } }] }),
  sent({ messageId: 't1-tool-1-c1', role: 'tool', callId: 'c1', toolName: 'load_tool_group', durationMs: 3, status: 'success', result: '{"loaded":["list_scheduled_tasks"]}' }),
  stored('ToolGroupLoaded', { groupName: 'scheduled_tasks', toolNames: ['list_scheduled_tasks'], source: { kind: 'tool_call', callId: 'c1' } }),
  sent({ messageId: 't1-assistant-2', role: 'assistant', text: 'Checking.', toolCalls: [{ callId: 'c2', toolName: 'list_scheduled_tasks', arguments: {} }] }),
  sent({
    messageId: 't1-tool-2-c2',
    role: 'tool',
    callId: 'c2',
    toolName: 'list_scheduled_tasks',
    durationMs: 1500,
    status: 'error',
    errorType: 'timeout',
    message: 'Timed out after 1 s.',
  }),
  sent({ messageId: 't1-assistant-3', role: 'assistant', text: 'No tasks.\nDone.', toolCalls: [] }),
  stored('TurnFinished', { reason: 'completed', detail: 'Answered.', rounds: 3, usage: { inputTokens: 1, outputTokens: 1 } }),
];

const loadTurnStream: ChatAction[] = [
  { type: 'send', text: 'List my tasks' },
  sse('turn_started', { sessionId: 's1', turnId: 't1' }),
  sse('model_requested', { round: 1, toolNames: ['load_tool_group'], schemaTokens: 10 }),
  sse('assistant_message', { messageId: 't1-assistant-1', text: '', toolCalls: 1 }),
  sse('tool_call_started', { callId: 'c1', toolName: 'load_tool_group', arguments: { group_name: 'scheduled_tasks' } }),
  sse('tool_call_finished', { callId: 'c1', toolName: 'load_tool_group', status: 'success', durationMs: 3, preview: '{"loaded":["list_scheduled_tasks"]}' }),
  sse('group_loaded', { groupName: 'scheduled_tasks', toolNames: ['list_scheduled_tasks'] }),
  sse('model_requested', { round: 2 }),
  sse('text_delta', { text: 'Check' }),
  sse('text_delta', { text: 'ing.' }),
  sse('assistant_message', { messageId: 't1-assistant-2', text: 'Checking.', toolCalls: 1 }),
  sse('tool_call_started', { callId: 'c2', toolName: 'list_scheduled_tasks', arguments: {} }),
  sse('tool_call_finished', { callId: 'c2', toolName: 'list_scheduled_tasks', status: 'error', errorType: 'timeout', durationMs: 1500, preview: 'Timed out after 1 s.' }),
  sse('model_requested', { round: 3 }),
  sse('text_delta', { text: 'No tasks.\n' }),
  sse('text_delta', { text: 'Done.' }),
  sse('assistant_message', { messageId: 't1-assistant-3', text: 'No tasks.\nDone.', toolCalls: 0 }),
  sse('turn_finished', { reason: 'completed', detail: 'Answered.', rounds: 3, usage: { inputTokens: 1, outputTokens: 1 }, revision: 9 }),
  sse('done', { reason: 'completed' }),
  { type: 'stream-ended', aborted: false },
];

describe('the stored transcript', () => {
  test('user, assistant and tool cards in order; results matched to calls; the call that loaded a group is marked', () => {
    const items = transcriptFromEvents(loadTurnEvents);
    expect(items.map((item) => `${item.kind}:${item.key}`)).toEqual([
      'user:t1-user',
      'tool:t1-assistant-1:0',
      'assistant:t1-assistant-2',
      'tool:t1-assistant-2:0',
      'assistant:t1-assistant-3',
    ]);
    const [load, failed] = items.filter((item): item is ToolItem => item.kind === 'tool');
    expect(load).toMatchObject({ status: 'success', durationMs: 3, output: '{"loaded":["list_scheduled_tasks"]}', outputIsPreview: false, loadedGroup: 'scheduled_tasks' });
    expect(failed).toMatchObject({ status: 'error', errorType: 'timeout', output: 'Timed out after 1 s.', durationMs: 1500 });
  });

  test('a clear empties the transcript; only later events count', () => {
    const items = transcriptFromEvents([...loadTurnEvents, stored('SessionCleared', { reason: 'user' }), sent({ messageId: 't2-user', role: 'user', text: 'again' })]);
    expect(items).toEqual([{ kind: 'user', key: 't2-user', text: 'again', messageId: 't2-user' }]);
  });

  test('a turn that stopped early leaves a notice with its reason and detail; a completed one does not', () => {
    const items = transcriptFromEvents([
      sent({ messageId: 'u', role: 'user', text: 'hi' }),
      stored('TurnFinished', { reason: 'round_cap', detail: 'Stopped after 20 model requests.' }),
    ]);
    expect(items[1]).toMatchObject({ kind: 'turn-stop', reason: 'round_cap', detail: 'Stopped after 20 model requests.' });
  });

  test('a call without a result is running while the server runs a turn, otherwise it has no result', () => {
    const events = [sent({ messageId: 'a', role: 'assistant', text: '', toolCalls: [{ callId: 'c', toolName: 'exec', arguments: { command: 'ls' } }] })];
    expect(transcriptFromEvents(events, true)[0]).toMatchObject({ status: 'running' });
    expect(transcriptFromEvents(events, false)[0]).toMatchObject({ status: 'no_result' });
  });

  test('a call id reused in a later round (Gemini) gets its own result', () => {
    const items = transcriptFromMessages([
      { messageId: 'a1', role: 'assistant', text: '', toolCalls: [{ callId: 'same', toolName: 'get_current_time', arguments: {} }] },
      { messageId: 'r1', role: 'tool', callId: 'same', toolName: 'get_current_time', durationMs: 1, status: 'success', result: 'first' },
      { messageId: 'a2', role: 'assistant', text: '', toolCalls: [{ callId: 'same', toolName: 'get_current_time', arguments: {} }] },
      { messageId: 'r2', role: 'tool', callId: 'same', toolName: 'get_current_time', durationMs: 1, status: 'success', result: 'second' },
    ]);
    expect(items.map((item) => (item as ToolItem).output)).toEqual(['first', 'second']);
  });
});

describe('the streamed turn', () => {
  test('folds into the same items and keys as the stored session, with previews marked as such', () => {
    const streamed = run(initialChatState, ...loadTurnStream);
    const fromStore = transcriptFromEvents(loadTurnEvents);
    expect(streamed.items.filter((item) => item.kind !== 'user').map((item) => item.key)).toEqual(fromStore.filter((item) => item.kind !== 'user').map((item) => item.key));
    const cards = streamed.items.filter((item): item is ToolItem => item.kind === 'tool');
    expect(cards[0]).toMatchObject({ status: 'success', loadedGroup: 'scheduled_tasks', outputIsPreview: true });
    expect(cards[1]).toMatchObject({ status: 'error', errorType: 'timeout' });
    expect(streamed.items.at(-1)).toMatchObject({ kind: 'assistant', text: 'No tasks.\nDone.', streaming: false });
    expect(streamed.loadedGroups).toEqual(['scheduled_tasks']);
    expect(streamed.turn).toBe('none');
    expect(streamed.status).toBe('The assistant replied: No tasks.\nDone.');
  });

  test('text deltas build one streaming reply that the complete message replaces', () => {
    const state = run(
      initialChatState,
      { type: 'send', text: 'hi' },
      sse('turn_started'),
      sse('model_requested', { round: 1 }),
      sse('text_delta', { text: 'Hel' }),
      sse('text_delta', { text: 'lo' }),
    );
    expect(state.items.at(-1)).toMatchObject({ kind: 'assistant', text: 'Hello', streaming: true });
    expect(state.turn).toBe('running');
    const done = run(state, sse('assistant_message', { messageId: 'm1', text: 'Hello!', toolCalls: 0 }));
    expect(done.items.filter((item) => item.kind === 'assistant')).toEqual([{ kind: 'assistant', key: 'm1', text: 'Hello!', streaming: false }]);
  });

  test('the user message is pending until the server starts the turn', () => {
    const sending = run(initialChatState, { type: 'send', text: 'hi' });
    expect(sending.items).toEqual([expect.objectContaining({ kind: 'user', text: 'hi', pending: true })]);
    expect(run(sending, sse('turn_started')).items[0]).toMatchObject({ pending: false });
  });

  test('a refused send takes the user message back and shows the error', () => {
    const state = run(initialChatState, { type: 'send', text: 'hi' }, { type: 'stream-failed', refused: true, code: 'turn_in_progress', detail: 'Still answering.' });
    expect(state.items).toEqual([expect.objectContaining({ kind: 'error', code: 'turn_in_progress', detail: 'Still answering.' })]);
    expect(state.turn).toBe('none');
  });

  test('a send that got no answer stays as one not-sent message (no separate error), survives a re-read, and its retry replaces it', () => {
    const unsent = run(
      initialChatState,
      { type: 'send', text: 'hi', idempotencyKey: 'k1' },
      { type: 'stream-failed', refused: false, unreachable: true, code: 'network_error', detail: 'Cannot reach the server.' },
    );
    expect(unsent.turn).toBe('none');
    expect(unsent.items).toEqual([expect.objectContaining({ kind: 'user', text: 'hi', idempotencyKey: 'k1', unsent: 'Cannot reach the server.', pending: false })]);
    const reread = run(unsent, { type: 'stored', view: view(), events: [] });
    expect(reread.items).toEqual(unsent.items);
    const retried = run(reread, { type: 'send', text: 'hi', idempotencyKey: 'k1', retryOf: reread.items[0]!.key });
    expect(retried.items).toEqual([expect.objectContaining({ kind: 'user', text: 'hi', idempotencyKey: 'k1', pending: true })]);
    expect(retried.items[0]).not.toHaveProperty('unsent');
  });

  test('an error event ends the turn with the problem detail; the error stays after a stored read, and goes with the next send', () => {
    const failed = run(initialChatState, { type: 'send', text: 'hi' }, sse('turn_started'), sse('error', { code: 'internal_error', detail: 'Something broke.' }));
    expect(failed.turn).toBe('none');
    expect(failed.items.at(-1)).toMatchObject({ kind: 'error', code: 'internal_error', detail: 'Something broke.' });
    const reread = run(failed, { type: 'stored', view: view(), events: [sent({ messageId: 'u', role: 'user', text: 'hi' })] });
    expect(reread.items.map((item) => item.kind)).toEqual(['user', 'error']);
    expect(run(reread, { type: 'send', text: 'again' }).items.map((item) => item.kind)).toEqual(['user', 'user']);
  });

  test('a turn that stops early shows why; a cancelled stream without a recorded stop shows a local notice', () => {
    const capped = run(initialChatState, { type: 'send', text: 'hi' }, sse('turn_finished', { reason: 'round_cap', detail: 'Stopped after 2 model requests.' }));
    expect(capped.items.at(-1)).toMatchObject({ kind: 'turn-stop', reason: 'round_cap', detail: 'Stopped after 2 model requests.' });
    expect(capped.status).toContain('Round limit reached');

    const aborted = run(initialChatState, { type: 'send', text: 'hi' }, { type: 'cancel-requested' }, sse('tool_call_started', { callId: 'c', toolName: 'exec' }), {
      type: 'stream-ended',
      aborted: true,
    });
    expect(aborted.items.map((item) => item.kind)).toEqual(['user', 'tool', 'turn-stop']);
    expect(aborted.items[1]).toMatchObject({ status: 'no_result' });
    expect(aborted.turn).toBe('none');

    const recorded = run(
      initialChatState,
      { type: 'send', text: 'hi' },
      { type: 'cancel-requested' },
      sse('turn_finished', { reason: 'cancelled', detail: 'The turn was cancelled.' }),
      { type: 'stream-ended', aborted: true },
    );
    expect(recorded.items.filter((item) => item.kind === 'turn-stop')).toHaveLength(1);
  });

  test('cancelling is a phase of a running turn only', () => {
    expect(run(initialChatState, { type: 'cancel-requested' }).turn).toBe('none');
    expect(run(initialChatState, { type: 'send', text: 'x' }, { type: 'cancel-requested' }).turn).toBe('cancelling');
  });

  test('/clear empties the transcript and the chips without showing a user message', () => {
    const before = run(initialChatState, { type: 'stored', view: view({ loadedGroups: ['pdf'] }), events: loadTurnEvents });
    const sending = run(before, { type: 'send', text: ' /clear ' });
    expect(sending.items.some((item) => item.kind === 'user' && item.pending)).toBe(false);
    const cleared = run(sending, sse('session_cleared'), sse('done', { reason: 'cleared' }), { type: 'stream-ended', aborted: false });
    expect(cleared.items).toEqual([]);
    expect(cleared.loadedGroups).toEqual([]);
    expect(cleared.turn).toBe('none');
  });

  test('/compact keeps the transcript, shows no user message, and reports what the compaction did', () => {
    const before = run(initialChatState, { type: 'stored', view: view({ loadedGroups: ['pdf'] }), events: loadTurnEvents });
    const sending = run(before, { type: 'send', text: '/compact' });
    expect(sending.items.some((item) => item.kind === 'user' && item.pending)).toBe(false);
    const detail = 'Compacted: 4 earlier messages are now a summary (about 900 → 40 tokens).';
    const done = run(sending, sse('conversation_compacted', { detail }), sse('done', { reason: 'compacted' }), { type: 'stream-ended', aborted: false });
    expect(done.items).toEqual([...before.items, { kind: 'compacted', key: expect.any(String), detail }]);
    expect(done.loadedGroups).toEqual(['pdf']);
    expect(done.status).toBe(detail);
  });

  test('a stored compaction shows as a note where it happened; the messages before it stay', () => {
    const compacted = {
      type: 'ConversationCompacted',
      revision: 99,
      data: { summarisedMessages: 4, trigger: 'auto' },
      metadata: { eventId: 'ev-compact' },
    } as unknown as StoredEvent;
    const items = transcriptFromEvents([...loadTurnEvents, compacted]);
    expect(items.slice(0, -1)).toEqual(transcriptFromEvents(loadTurnEvents));
    expect(items.at(-1)).toEqual({ kind: 'compacted', key: 'ev-compact', detail: '4 earlier messages were summarised for the model (the context window was nearly full).' });
  });

  test('a stored compaction says why it happened: /compact, nearly full, or the provider refusing a too-long request', () => {
    const detailFor = (trigger: string) => {
      const event = { type: 'ConversationCompacted', revision: 99, data: { summarisedMessages: 2, trigger }, metadata: { eventId: `ev-${trigger}` } } as unknown as StoredEvent;
      return (transcriptFromEvents([event]).at(-1) as { detail: string }).detail;
    };
    expect(detailFor('user')).toBe('2 earlier messages were summarised for the model (/compact).');
    expect(detailFor('auto')).toBe('2 earlier messages were summarised for the model (the context window was nearly full).');
    expect(detailFor('overflow')).toBe('2 earlier messages were summarised for the model (the provider said the conversation was too long).');
  });

  test("a stored read during this page's own turn is ignored; afterwards it replaces the streamed items", () => {
    const running = run(initialChatState, { type: 'send', text: 'hi' }, sse('turn_started'));
    expect(run(running, { type: 'stored', view: view(), events: [] })).toBe(running);
    const idle = run(running, sse('turn_finished', { reason: 'completed' }));
    expect(run(idle, { type: 'stored', view: view({ loadedGroups: ['pdf'] }), events: [] })).toMatchObject({ items: [], loadedGroups: ['pdf'], loaded: true });
  });

  test('a turn the server runs for someone else is flagged; the view of a user action updates the chips', () => {
    const busy = run(initialChatState, { type: 'stored', view: view({ turnInProgress: true }), events: [] });
    expect(busy.busyElsewhere).toBe(true);
    const loaded = run(busy, { type: 'view', view: view({ loadedGroups: ['pdf', 'config'], messages: [{ messageId: 'u', role: 'user', text: 'hi' }] }) });
    expect(loaded.loadedGroups).toEqual(['pdf', 'config']);
  });

  test('a group loaded twice shows one chip', () => {
    const state = run(initialChatState, { type: 'send', text: 'x' }, sse('group_loaded', { groupName: 'pdf' }), sse('group_loaded', { groupName: 'pdf' }));
    expect(state.loadedGroups).toEqual(['pdf']);
  });

  test('unknown events from a newer server change nothing', () => {
    const state = run(initialChatState, { type: 'send', text: 'x' });
    expect(run(state, sse('something_new', { a: 1 }))).toBe(state);
  });

  test('data of the wrong shape (not an object, fields of other types) is read as missing, never shown as text and never thrown on', () => {
    const junk = [null, 'not json', 42, [1, 2]];
    const events = ['model_requested', 'text_delta', 'reasoning_delta', 'assistant_message', 'tool_call_started', 'tool_call_finished', 'group_loaded', 'turn_finished', 'error'];
    for (const data of junk) {
      const state = run(initialChatState, { type: 'send', text: 'x' }, ...events.map((event) => sse(event, data)));
      expect([data, state.turn, state.loadedGroups]).toEqual([data, 'none', []]);
      expect(state.items.at(-1)).toMatchObject({ kind: 'error', code: 'error', detail: 'The turn failed.' });
    }
    const typed = run(
      initialChatState,
      { type: 'send', text: 'x' },
      sse('text_delta', { text: 7 }),
      sse('assistant_message', { messageId: { id: 1 }, text: ['a'], toolCalls: 1 }),
      sse('tool_call_started', { callId: 3, toolName: null }),
      sse('tool_call_finished', { callId: 3, status: 'error', errorType: 5, preview: { p: 1 } }),
    );
    expect(typed.items.filter((item) => item.kind !== 'user')).toEqual([expect.objectContaining({ kind: 'tool', callId: '', toolName: '', status: 'running' })]);
    expect(JSON.stringify(typed.items)).not.toMatch(/\[object Object\]|"7"|"a"/);
    // A count sent as text is no count: no tool calls are announced.
    const counted = run(initialChatState, { type: 'send', text: 'x' }, sse('assistant_message', { messageId: 'm9', text: 'hi', toolCalls: '3' }));
    expect(counted.status).toBe('The assistant replied: hi');
  });
});

describe('S6 the answering model, the wait and the reasoning', () => {
  const openai = { provider: 'openai', model: 'deepseek-reasoner' };

  test('"Thinking…" from the send to the first token, again from the next model request; not for /clear', () => {
    const sending = run(initialChatState, { type: 'send', text: 'hi' });
    expect(waitingNotice(sending)).toBe('Thinking…');
    const asked = run(sending, sse('turn_started'), sse('model_requested', { round: 1, ...openai }));
    expect(waitingNotice(asked)).toBe('Thinking…');
    expect(asked.live.answeredBy).toEqual(openai);
    expect(waitingNotice(run(asked, sse('reasoning_delta', { text: 'Hm' })))).toBeUndefined();
    const calling = run(asked, sse('text_delta', { text: 'Let me look.' }));
    expect(waitingNotice(calling)).toBeUndefined();
    const tools = run(
      calling,
      sse('assistant_message', { messageId: 'a1', text: 'Let me look.', toolCalls: 1, ...openai }),
      sse('tool_call_started', { callId: 'c', toolName: 'x' }),
    );
    expect(waitingNotice(tools)).toBeUndefined();
    expect(waitingNotice(run(tools, sse('tool_call_finished', { callId: 'c', status: 'success' }), sse('model_requested', { round: 2, ...openai })))).toBe('Thinking…');
    expect(waitingNotice(run(asked, sse('turn_finished', { reason: 'completed' })))).toBeUndefined();
    expect(waitingNotice(run(initialChatState, { type: 'send', text: '/clear' }))).toBeUndefined();
  });

  test('a provider retry is said in the notice until the first token', () => {
    const retrying = run(
      initialChatState,
      { type: 'send', text: 'hi' },
      sse('model_requested', { round: 1, ...openai }),
      sse('provider_retry', { attempt: 2, maxAttempts: 3, waitMs: 4000, reason: 'provider_rate_limited', status: 429, ...openai }),
    );
    expect(waitingNotice(retrying)).toBe('The provider is busy (HTTP 429); retrying in 4 s (attempt 2 of 3).');
    expect(waitingNotice(run(retrying, sse('text_delta', { text: 'ok' })))).toBeUndefined();
    expect(retryNotice({ attempt: 3, maxAttempts: 3, waitMs: 1500, reason: 'provider_unavailable', status: 503 })).toBe(
      'The provider is unavailable (HTTP 503); retrying in 2 s (attempt 3 of 3).',
    );
    expect(retryNotice({ attempt: 2, maxAttempts: 2, waitMs: 0, reason: 'provider_unavailable' })).toBe('The provider could not be reached; retrying now (attempt 2 of 2).');
  });

  test('streamed reasoning opens the draft reply, the text joins it, and the complete message keeps both with the model', () => {
    const state = run(
      initialChatState,
      { type: 'send', text: 'hi' },
      sse('model_requested', { round: 1, ...openai }),
      sse('reasoning_delta', { text: 'The user ' }),
      sse('reasoning_delta', { text: 'greets me.' }),
    );
    expect(state.items.at(-1)).toEqual({ kind: 'assistant', key: expect.any(String), text: '', streaming: true, reasoning: 'The user greets me.', answeredBy: openai });
    const answered = run(state, sse('text_delta', { text: 'Hello!' }));
    expect(answered.items.at(-1)).toMatchObject({ text: 'Hello!', reasoning: 'The user greets me.', streaming: true });
    const done = run(answered, sse('assistant_message', { messageId: 'm1', text: 'Hello!', toolCalls: 0, reasoning: 'The user greets me.', ...openai }));
    expect(done.items.filter((item) => item.kind === 'assistant')).toEqual([
      { kind: 'assistant', key: 'm1', text: 'Hello!', streaming: false, reasoning: 'The user greets me.', answeredBy: openai },
    ]);
  });

  test('stored messages show their model and reasoning; older streams take the model from the request before the message', () => {
    const items = transcriptFromEvents([
      sent({ messageId: 'u', role: 'user', text: 'hi' }),
      stored('ModelRequested', { provider: 'anthropic', model: 'claude-old', toolNames: [], schemaTokens: 0 }),
      sent({ messageId: 'a1', role: 'assistant', text: 'Old style.', toolCalls: [] }),
      stored('ModelRequested', { provider: 'anthropic', model: 'claude-old', toolNames: [], schemaTokens: 0 }),
      sent({ messageId: 'a2', role: 'assistant', text: 'New style.', toolCalls: [], provider: 'openai', model: 'deepseek-reasoner', reasoning: 'Thought.' }),
      sent({ messageId: 'a3', role: 'assistant', text: '', toolCalls: [], reasoning: 'Only thought.' }),
    ]);
    const replies = items.filter((item): item is AssistantItem => item.kind === 'assistant');
    expect(replies.map((r) => [r.key, r.answeredBy?.model, r.reasoning])).toEqual([
      ['a1', 'claude-old', undefined],
      ['a2', 'deepseek-reasoner', 'Thought.'],
      ['a3', 'claude-old', 'Only thought.'],
    ]);
    expect(transcriptFromMessages([{ messageId: 'a', role: 'assistant', text: 'x', toolCalls: [] }])[0]).not.toHaveProperty('answeredBy');
  });
});

describe('words', () => {
  test('stop reasons read as words; failures are told apart from information', () => {
    expect(stopReasonLabel('round_cap')).toBe('Round limit reached');
    expect(stopReasonLabel('brand_new')).toBe('brand new');
    expect(isFailureStop('provider_error')).toBe(true);
    expect(isFailureStop('cancelled')).toBe(false);
  });

  test('/clear is recognised with blanks around it only', () => {
    expect(isClearCommand('/clear')).toBe(true);
    expect(isClearCommand('  /clear\n')).toBe(true);
    expect(isClearCommand('/clear now')).toBe(false);
  });

  test('the title is the first user message, on one line and cut', () => {
    expect(sessionTitle([])).toBe('New conversation');
    expect(sessionTitle([{ kind: 'user', key: 'u', text: 'Plan\n my   week' }])).toBe('Plan my week');
    expect(sessionTitle([{ kind: 'user', key: 'u', text: 'x'.repeat(100) }], 10)).toBe(`${'x'.repeat(9)}…`);
  });
});
