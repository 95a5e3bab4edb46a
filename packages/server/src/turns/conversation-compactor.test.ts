import type { SessionCommand } from '@oneclaw/core';
import { sessionScenario, testCatalogue } from '@oneclaw/core/testing';
import type { SecretRedactor } from '../security/secret-redactor';
import type { SessionRepository } from '../sessions/session-repository';
import { ConversationCompactor } from './conversation-compactor';

const compactor = new ConversationCompactor({ sessions: {} as SessionRepository, redactor: {} as SecretRedactor, contextWindowTokens: 10_000 });
const BIG_RESULT = 'row of data '.repeat(1500); // about 4500 tokens

const history = (inputTokens: number, result: string): SessionCommand[] => [
  { type: 'StartSession', sessionId: 's', agentId: 'a' },
  { type: 'RecordUserMessage', messageId: 'u1', text: 'read the table' },
  { type: 'RecordAssistantMessage', messageId: 'a1', text: '', toolCalls: [{ callId: 'c1', toolName: 'read_file', arguments: {} }], usage: { inputTokens, outputTokens: 5 } },
  { type: 'RecordToolResult', messageId: 'r1', callId: 'c1', toolName: 'read_file', durationMs: 1, status: 'success', result },
];

describe('ConversationCompactor.isDue', () => {
  it('is due from the reported input at 85% of the window', () => {
    expect(compactor.isDue(sessionScenario(testCatalogue()).given(...history(8500, 'ok')).state(), 'any-model')).toBe(true);
    expect(compactor.isDue(sessionScenario(testCatalogue()).given(...history(8000, 'ok')).state(), 'any-model')).toBe(false);
  });

  it('counts what was added since the reply: a large tool result makes the next request due', () => {
    expect(compactor.isDue(sessionScenario(testCatalogue()).given(...history(4500, BIG_RESULT)).state(), 'any-model')).toBe(true);
  });

  it('is not due while no reply has reported a size since the last compaction attempt', () => {
    const state = sessionScenario(testCatalogue())
      .given(...history(9000, 'ok'), { type: 'RecordCompactionFailed', trigger: 'auto', code: 'summary_failed', detail: 'x' })
      .state();
    expect(compactor.isDue(state, 'any-model')).toBe(false);
  });
});
