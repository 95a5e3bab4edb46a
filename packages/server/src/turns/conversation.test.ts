import v8 from 'node:v8';
import vm from 'node:vm';
import { sessionScenario, testCatalogue } from '@oneclaw/core/testing';
import type { SessionCommand, SessionState } from '@oneclaw/core';
import { KEPT_CONVERSATIONS, SUMMARY_HEADER, toChatMessages } from './conversation';

const start: SessionCommand[] = [
  { type: 'StartSession', sessionId: 's', agentId: 'a' },
  { type: 'RecordUserMessage', messageId: 'u1', text: 'early question' },
  { type: 'RecordAssistantMessage', messageId: 'a1', text: 'early answer', toolCalls: [] },
  { type: 'RecordUserMessage', messageId: 'u2', text: 'recent question' },
  { type: 'RecordAssistantMessage', messageId: 'a2', text: 'recent answer', toolCalls: [] },
];
const compactAt = (boundaryMessageId: string): SessionCommand => ({
  type: 'RecordCompaction',
  summary: 'They talked.',
  boundaryMessageId,
  trigger: 'user',
  provider: 'gemini',
  model: 'gemini-2.5-flash',
  tokensBefore: 50,
  tokensAfter: 20,
});

describe('toChatMessages after a compaction', () => {
  it('starts with the marked summary; a kept user message first is merged with it (no two user turns in a row)', () => {
    const state = sessionScenario(testCatalogue())
      .given(...start, compactAt('a1'))
      .state();
    const chat = toChatMessages(state, 'gemini');
    expect(chat).toHaveLength(2);
    expect(chat[0]).toEqual({ role: 'user', text: `${SUMMARY_HEADER}\nThey talked.\n[End of summary]\n\nrecent question` });
    expect(chat[1]).toMatchObject({ role: 'assistant', text: 'recent answer' });
  });

  it('a kept assistant message first follows the summary as its own user message', () => {
    const state = sessionScenario(testCatalogue())
      .given(...start, compactAt('u2'))
      .state();
    const chat = toChatMessages(state, 'openai');
    expect(chat.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(chat[0]).toEqual({ role: 'user', text: `${SUMMARY_HEADER}\nThey talked.\n[End of summary]` });
  });

  it('the next request sends the same summary head; a new compaction gives a new one', () => {
    const scenario = sessionScenario(testCatalogue()).given(...start, compactAt('a1'));
    const first = toChatMessages(scenario.state(), 'openai');
    scenario.record({ type: 'RecordUserMessage', messageId: 'u3', text: 'and now?' });
    const next = toChatMessages(scenario.state(), 'openai');
    expect(next).toHaveLength(3);
    expect(next[0]).toBe(first[0]);
    expect(next[1]).toBe(first[1]);

    scenario.record({ ...compactAt('a2'), summary: 'They talked more.' } as SessionCommand);
    const after = toChatMessages(scenario.state(), 'openai');
    expect(after[0]).toEqual({ role: 'user', text: `${SUMMARY_HEADER}\nThey talked more.\n[End of summary]\n\nand now?` });
  });
});

describe('toChatMessages and memory', () => {
  // A full collection on demand: what only a WeakMap entry still holds is gone after it. (The
  // flag stays set for this Jest worker; it only makes `gc` available.)
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  /** Whether the conversion behind `ref` is gone once the current job has ended (a WeakRef keeps its target until then). */
  const collected = async (ref: WeakRef<object>): Promise<boolean> => {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    return ref.deref() === undefined;
  };

  it('after a compaction, the conversions from before it are let go, though the session still holds those messages', async () => {
    const scenario = sessionScenario(testCatalogue()).given(...start);
    const beforeCompaction = new WeakRef(toChatMessages(scenario.state(), 'openai')[0] as object);
    scenario.record(compactAt('a1'));
    expect(toChatMessages(scenario.state(), 'openai')).toHaveLength(2);
    expect(await collected(beforeCompaction)).toBe(true);
    expect(scenario.state().messages[0]).toMatchObject({ role: 'user', text: 'early question' });
  });

  it('after an edit of the first message, the conversions of the superseded one are let go, though the transcript keeps it', async () => {
    const host = { replicaId: 'r1', processId: 'p1' };
    const scenario = sessionScenario(testCatalogue()).given(
      { type: 'StartSession', sessionId: 's', agentId: 'a' },
      { type: 'RecordUserMessage', messageId: 't1-user', text: 'hi', turnId: 't1', host },
      { type: 'RecordAssistantMessage', messageId: 't1-a1', text: 'hello', toolCalls: [] },
      { type: 'RecordTurnFinished', reason: 'completed', detail: '', rounds: 1, usage: { inputTokens: 0, outputTokens: 0 } },
    );
    const beforeEdit = new WeakRef(toChatMessages(scenario.state(), 'openai')[0] as object);
    scenario.record({ type: 'EditLastUserMessage', messageId: 't1-user', newMessageId: 't2-user', text: 'hi again', turnId: 't2', host });
    expect(toChatMessages(scenario.state(), 'openai')).toEqual([{ role: 'user', text: 'hi again' }]);
    expect(await collected(beforeEdit)).toBe(true);
    expect(scenario.state().transcript.map((m) => m.messageId)).toEqual(['t1-user', 't1-a1', 't2-user']);
  });

  it(`keeps the conversions of the ${KEPT_CONVERSATIONS} conversations used last only, though the sessions still hold their messages`, async () => {
    const catalogue = testCatalogue();
    const states = Array.from({ length: KEPT_CONVERSATIONS + 1 }, (_, i) =>
      sessionScenario(catalogue)
        .given({ type: 'StartSession', sessionId: `s${i}`, agentId: 'a' }, { type: 'RecordUserMessage', messageId: `u${i}`, text: `question ${i}` })
        .state(),
    );
    const [oldest, next, ...rest] = states as [SessionState, SessionState, ...SessionState[]];
    const dropped = new WeakRef(toChatMessages(oldest, 'openai')[0] as object);
    const kept = toChatMessages(next, 'openai')[0];
    for (const state of rest) toChatMessages(state, 'openai');
    expect(toChatMessages(next, 'openai')[0]).toBe(kept);
    expect(await collected(dropped)).toBe(true);
    expect(oldest.transcript[0]).toMatchObject({ text: 'question 0' });
    // Past the bound a conversation is converted again, to the same messages.
    expect(toChatMessages(oldest, 'openai')).toEqual([{ role: 'user', text: 'question 0' }]);
  });

  it('after a change of provider, the conversions for the previous one are let go', async () => {
    const scenario = sessionScenario(testCatalogue()).given(...start);
    const openai = new WeakRef(toChatMessages(scenario.state(), 'openai')[0] as object);
    expect(toChatMessages(scenario.state(), 'anthropic')).toHaveLength(4);
    expect(await collected(openai)).toBe(true);
  });
});

describe('toChatMessages from one request to the next (F5)', () => {
  const withToolRound: SessionCommand[] = [
    { type: 'StartSession', sessionId: 's', agentId: 'a' },
    { type: 'RecordUserMessage', messageId: 'u1', text: 'what time is it?' },
    { type: 'RecordAssistantMessage', messageId: 'a1', text: '', toolCalls: [{ callId: 'c1', toolName: 'read_file', arguments: { path: 'x' } }] },
    { type: 'RecordToolResult', messageId: 't1', callId: 'c1', toolName: 'read_file', durationMs: 1, status: 'success', result: 'file body' },
  ];

  it('reuses the conversions of messages already sent and converts only the new one; another provider gets its own', () => {
    const scenario = sessionScenario(testCatalogue()).given(...withToolRound);
    const first = toChatMessages(scenario.state(), 'openai');
    scenario.record({ type: 'RecordAssistantMessage', messageId: 'a2', text: 'It says: file body', toolCalls: [] });
    const next = toChatMessages(scenario.state(), 'openai');
    expect(first.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(next).toHaveLength(first.length + 1);
    first.forEach((message, i) => expect(next[i]).toBe(message));
    expect(next.at(-1)).toEqual({ role: 'assistant', text: 'It says: file body', toolCalls: [] });
    expect(next.find((m) => m.role === 'tool')).toMatchObject({ role: 'tool', callId: 'c1', isError: false, content: expect.stringContaining('file body') });

    const gemini = toChatMessages(scenario.state(), 'gemini');
    expect(gemini[0]).not.toBe(next[0]);
    expect(gemini).toEqual(next);
  });

  it('a conversation that shares only its start with the last request keeps that start and converts the rest', () => {
    const scenario = sessionScenario(testCatalogue()).given(...withToolRound);
    const before = scenario.state();
    const first = toChatMessages(before, 'openai');
    scenario.record({ type: 'RecordAssistantMessage', messageId: 'a2', text: 'done', toolCalls: [] });
    const longer = toChatMessages(scenario.state(), 'openai');
    // An older state of the same session (e.g. a request built before): shorter than the last.
    const again = toChatMessages(before, 'openai');
    expect(again).toEqual(first);
    again.forEach((message, i) => expect(message).toBe(longer[i]));
    const longerAgain = toChatMessages(scenario.state(), 'openai');
    expect(longerAgain).toEqual(longer);
    longer.slice(0, 3).forEach((message, i) => expect(longerAgain[i]).toBe(message));
  });

  it('a state folded again from the same events (another process, a reload) converts to the same messages', () => {
    const fold = () =>
      sessionScenario(testCatalogue())
        .given(...withToolRound)
        .state();
    const once = toChatMessages(fold(), 'anthropic');
    const again = toChatMessages(fold(), 'anthropic');
    expect(again[0]).not.toBe(once[0]);
    expect(again).toEqual(once);
  });
});
