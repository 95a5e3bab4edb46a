import type { MessageData } from '../events/session-events';
import { buildAuditTrail } from '../audit/audit-trail';
import { testCatalogue } from '../testing/fixed-tool-catalogue';
import { sessionScenario } from '../testing/session-scenario';
import type { SessionCommand } from './session-commands';
import { allowedCuts, chooseCompactionBoundary } from './compaction-boundary';
import { modelConversation } from './model-conversation';
import { evolve } from './evolve';

const user = (id: string, text = 'x'): MessageData => ({ messageId: id, role: 'user', text });
const say = (id: string, ...calls: string[]): MessageData => ({
  messageId: id,
  role: 'assistant',
  text: 'x',
  toolCalls: calls.map((callId) => ({ callId, toolName: 't', arguments: {} })),
});
const result = (id: string, callId: string): MessageData => ({ messageId: id, role: 'tool', callId, toolName: 't', status: 'success', result: 'x', durationMs: 1 });
const oneEach = () => 1;

describe('compaction boundary', () => {
  // u1 a1(c1,c2) r1 r2 a2 u2 a3(c3) r3
  const messages = [user('u1'), say('a1', 'c1', 'c2'), result('r1', 'c1'), result('r2', 'c2'), say('a2'), user('u2'), say('a3', 'c3'), result('r3', 'c3')];

  it('allows a cut only where every call so far has its result and no result follows', () => {
    expect(allowedCuts(messages)).toEqual([true, false, false, true, true, true, false, true]);
  });

  it('never cuts between a call and its results: the protected window moves the cut back to a complete set', () => {
    // Keeping 3 messages protects a3..r3 and u2; the latest allowed cut before u2 is after a2 (index 4).
    expect(chooseCompactionBoundary(messages, { from: 0, keepTokens: 3, tokensOf: oneEach })).toBe(4);
    // Keeping 4 would start the window inside a2's neighbourhood: a2 is protected, so cut after r2.
    expect(chooseCompactionBoundary(messages, { from: 0, keepTokens: 4, tokensOf: oneEach })).toBe(3);
    // Keeping 5 starts the window at r2: the cut cannot fall between a1 and its results, so it is after u1.
    expect(chooseCompactionBoundary(messages, { from: 0, keepTokens: 5, tokensOf: oneEach })).toBe(0);
  });

  it('always keeps the last message, and summarises nothing already covered', () => {
    expect(chooseCompactionBoundary(messages, { from: 0, keepTokens: 0, tokensOf: oneEach })).toBe(5);
    expect(chooseCompactionBoundary(messages, { from: 6, keepTokens: 0, tokensOf: oneEach })).toBeNull();
    expect(chooseCompactionBoundary(messages, { from: 0, keepTokens: 100, tokensOf: oneEach })).toBeNull();
    expect(chooseCompactionBoundary([user('only')], { from: 0, keepTokens: 0, tokensOf: oneEach })).toBeNull();
  });
});

describe('ConversationCompacted (decide and evolve)', () => {
  const start: SessionCommand[] = [
    { type: 'StartSession', sessionId: 's', agentId: 'a' },
    { type: 'RecordUserMessage', messageId: 'u1', text: 'first' },
    { type: 'RecordAssistantMessage', messageId: 'a1', text: '', toolCalls: [{ callId: 'c1', toolName: 'load_tool_group', arguments: {} }] },
    { type: 'RecordToolResult', messageId: 'r1', callId: 'c1', toolName: 'load_tool_group', durationMs: 1, status: 'success', result: 'ok' },
    { type: 'LoadToolGroup', groupName: 'google_gmail', source: { kind: 'tool_call', callId: 'c1' } },
    { type: 'RecordAssistantMessage', messageId: 'a2', text: 'loaded', toolCalls: [], usage: { inputTokens: 900, outputTokens: 5 } },
    { type: 'RecordUserMessage', messageId: 'u2', text: 'second' },
  ];
  const compact = (boundaryMessageId: string): SessionCommand => ({
    type: 'RecordCompaction',
    summary: 'The user loaded gmail.',
    boundaryMessageId,
    trigger: 'auto',
    provider: 'anthropic',
    model: 'claude-x',
    tokensBefore: 900,
    tokensAfter: 40,
  });

  it('sends the summary and the messages after the boundary; loaded groups and the stream are unchanged', () => {
    const scenario = sessionScenario(testCatalogue()).given(...start);
    expect(scenario.state().lastInputTokens).toBe(900);
    const [event] = scenario.record(compact('a2'));
    expect(event?.type).toBe('ConversationCompacted');
    expect(event?.data).toMatchObject({ boundaryMessageId: 'a2', summarisedMessages: 4 });
    const state = scenario.state();
    expect(modelConversation(state)).toEqual({ summary: 'The user loaded gmail.', messages: [state.messages[4]] });
    expect(state.messages.map((m) => m.messageId)).toEqual(['u1', 'a1', 'r1', 'a2', 'u2']);
    expect(state.loadedGroups.map((g) => g.groupName)).toEqual(['google_gmail']);
    expect(state.lastInputTokens).toBeNull();

    const trail = buildAuditTrail(scenario.history().map((e, i) => ({ ...e, streamId: 'session-s', revision: i, position: i + 1 })));
    expect(trail.events.at(-1)?.summary).toBe('compacted (auto): 4 messages up to a2 summarised by anthropic/claude-x, 900 → 40 tokens');
  });

  it('refuses a boundary between a call and its result, an unknown one, or one already summarised', () => {
    const scenario = sessionScenario(testCatalogue()).given(...start);
    scenario.when(compact('a1')).thenThrows('invalid_compaction_boundary');
    scenario.when(compact('nope')).thenThrows('invalid_compaction_boundary');
    scenario.record(compact('r1'));
    scenario.when(compact('u1')).thenThrows('invalid_compaction_boundary');
  });

  it('a clear removes the summary; a failed compaction changes nothing but the trigger level', () => {
    const scenario = sessionScenario(testCatalogue()).given(...start);
    scenario.record({ type: 'RecordCompactionFailed', trigger: 'auto', code: 'summary_failed', detail: 'HTTP 500' });
    expect(scenario.state().lastInputTokens).toBeNull();
    expect(modelConversation(scenario.state()).summary).toBeNull();
    scenario.record(compact('a2'));
    scenario.record({ type: 'RecordTurnFinished', reason: 'completed', detail: '', rounds: 1, usage: { inputTokens: 0, outputTokens: 0 } });
    scenario.record({ type: 'ClearSession', reason: 'user' });
    expect(scenario.state().summary).toBeNull();

    const trail = buildAuditTrail(scenario.history().map((e, i) => ({ ...e, streamId: 'session-s', revision: i, position: i + 1 })));
    expect(trail.events.map((l) => l.summary)).toContain('compaction failed (auto) summary_failed: HTTP 500; conversation unchanged');
  });

  it("an 'overflow' compaction (the provider refused the request as too long) is recorded and replayed like the others; an unknown trigger is refused", () => {
    const scenario = sessionScenario(testCatalogue()).given(...start);
    const [event] = scenario.record({ ...compact('a2'), trigger: 'overflow' } as SessionCommand);
    expect(event?.data).toMatchObject({ trigger: 'overflow' });
    expect(
      evolve(
        sessionScenario(testCatalogue())
          .given(...start)
          .state(),
        event as NonNullable<typeof event>,
      ).summary?.text,
    ).toBe('The user loaded gmail.');
    const trail = buildAuditTrail(scenario.history().map((e, i) => ({ ...e, streamId: 'session-s', revision: i, position: i + 1 })));
    expect(trail.events.at(-1)?.summary).toMatch(/^compacted \(overflow\): 4 messages/);
    expect(() =>
      sessionScenario(testCatalogue())
        .given(...start)
        .record({ ...compact('a2'), trigger: 'sometimes' } as unknown as SessionCommand),
    ).toThrow(expect.objectContaining({ code: 'invalid_command' }));
  });

  it('a compaction whose boundary is not in the conversation (a bad stream) is skipped, not fatal', () => {
    const scenario = sessionScenario(testCatalogue()).given(...start);
    const [event] = sessionScenario(testCatalogue())
      .given(...start)
      .record(compact('a2'));
    const bad = { ...(event as NonNullable<typeof event>), data: { ...(event?.data as object), boundaryMessageId: 'gone' } };
    const state = evolve(scenario.state(), bad);
    expect(state.summary).toBeNull();
    expect(state.skippedEvents).toBe(1);
    expect(evolve(scenario.state(), { ...bad, data: { summary: 1 } }).skippedEvents).toBe(1);
  });
});
