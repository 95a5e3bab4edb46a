import { sessionScenario, testCatalogue } from '@oneclaw/core/testing';
import type { SessionCommand } from '@oneclaw/core';
import { SUMMARY_HEADER, toChatMessages } from './conversation';

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
});
