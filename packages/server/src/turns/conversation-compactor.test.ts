import type { SessionCommand } from '@oneclaw/core';
import { sessionScenario, testCatalogue } from '@oneclaw/core/testing';
import type { SecretRedactor } from '../security/secret-redactor';
import type { SessionRepository } from '../sessions/session-repository';
import { ConversationCompactor } from './conversation-compactor';

const compactor = new ConversationCompactor({ sessions: {} as SessionRepository, redactor: {} as SecretRedactor, contextWindowTokens: 10_000 });
const ANY = { providerId: 'env', model: 'any-model' };
const BIG_RESULT = 'row of data '.repeat(1500); // about 4500 tokens

const history = (inputTokens: number, result: string): SessionCommand[] => [
  { type: 'StartSession', sessionId: 's', agentId: 'a' },
  { type: 'RecordUserMessage', messageId: 'u1', text: 'read the table' },
  { type: 'RecordAssistantMessage', messageId: 'a1', text: '', toolCalls: [{ callId: 'c1', toolName: 'read_file', arguments: {} }], usage: { inputTokens, outputTokens: 5 } },
  { type: 'RecordToolResult', messageId: 'r1', callId: 'c1', toolName: 'read_file', durationMs: 1, status: 'success', result },
];

describe('ConversationCompactor.isDue', () => {
  it('is due from the reported input at 85% of the window', () => {
    expect(
      compactor.isDue(
        sessionScenario(testCatalogue())
          .given(...history(8500, 'ok'))
          .state(),
        ANY,
      ),
    ).toBe(true);
    expect(
      compactor.isDue(
        sessionScenario(testCatalogue())
          .given(...history(8000, 'ok'))
          .state(),
        ANY,
      ),
    ).toBe(false);
  });

  it('counts what was added since the reply: a large tool result makes the next request due', () => {
    expect(
      compactor.isDue(
        sessionScenario(testCatalogue())
          .given(...history(4500, BIG_RESULT))
          .state(),
        ANY,
      ),
    ).toBe(true);
  });

  it('counts tokens, not bytes: a result whose 18,000 bytes would cross the line but whose ~4,500 tokens do not is not due', () => {
    const due = (inputTokens: number) =>
      compactor.isDue(
        sessionScenario(testCatalogue())
          .given(...history(inputTokens, BIG_RESULT))
          .state(),
        ANY,
      );
    expect(due(3000)).toBe(false);
    expect(due(4500)).toBe(true);
  });

  it('is not due while no reply has reported a size since the last compaction attempt', () => {
    const state = sessionScenario(testCatalogue())
      .given(...history(9000, 'ok'), { type: 'RecordCompactionFailed', trigger: 'auto', code: 'summary_failed', detail: 'x' })
      .state();
    expect(compactor.isDue(state, ANY)).toBe(false);
  });

  it('plans with the window the model list states and a limit the provider named, each for its own provider and model', () => {
    const planner = new ConversationCompactor({ sessions: {} as SessionRepository, redactor: {} as SecretRedactor });
    const state = sessionScenario(testCatalogue())
      .given(...history(8500, 'ok'))
      .state();
    const listed = { providerId: 'p1', model: 'llama3.1:8b', contextWindowTokens: 10_000 };
    expect(planner.windowFor(listed)).toBe(10_000);
    expect(planner.isDue(state, listed)).toBe(true);
    expect(planner.isDue(state, { providerId: 'p1', model: 'llama3.1:8b' })).toBe(false); // the 128 000 default

    planner.noteStatedLimit({ providerId: 'p2', model: 'claude-x' }, 9000);
    expect(planner.windowFor({ providerId: 'p2', model: 'claude-x' })).toBe(9000);
    expect(planner.windowFor({ providerId: 'p3', model: 'claude-x' })).toBe(200_000);
    expect(planner.isDue(state, { providerId: 'p2', model: 'claude-x' })).toBe(true);
  });
});
