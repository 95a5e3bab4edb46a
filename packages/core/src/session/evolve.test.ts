import type { RecordedEvent } from '../events/event-envelope';
import { testCatalogue } from '../testing/fixed-tool-catalogue';
import { sessionScenario } from '../testing/session-scenario';
import { testEvent } from '../testing/test-events';
import { catchUp, evolve, replay } from './evolve';
import { initialSessionState } from './session-state';

const recorded = (events: ReturnType<ReturnType<typeof sessionScenario>['history']>): RecordedEvent[] =>
  events.map((e, i) => ({ ...e, streamId: 'session-s', revision: i, position: i + 1 }));

describe('evolve', () => {
  const history = sessionScenario(testCatalogue())
    .given(
      { type: 'StartSession', sessionId: 's', agentId: 'a' },
      { type: 'LoadToolGroup', groupName: 'google_gmail', source: { kind: 'user' } },
      { type: 'RecordUserMessage', messageId: 'm1', text: 'hi' },
      { type: 'RecordUserMessage', messageId: 'm2', text: 'again' },
    )
    .history();

  it('does not change the state it is given (prefix states stay valid)', () => {
    const before = replay(history.slice(0, 2));
    const snapshot = JSON.stringify({ ...before, pendingToolCalls: [...before.pendingToolCalls] });
    replay(history.slice(2), before);
    expect(JSON.stringify({ ...before, pendingToolCalls: [...before.pendingToolCalls] })).toBe(snapshot);
  });

  it('EST-17 skips unknown and malformed events and counts them', () => {
    const state = [testEvent('x', {}, 'Unknown'), testEvent('y', null, 'MessageSent'), testEvent('z', { role: 'robot', messageId: 'q' }, 'MessageSent')].reduce(
      evolve,
      replay(history),
    );
    expect(state.skippedEvents).toBe(3);
    expect(state.messages).toHaveLength(2);
    expect(state.eventCount).toBe(history.length + 3);
  });

  it('catchUp ignores events it already applied and refuses a gap', () => {
    const events = recorded(history);
    const full = catchUp(initialSessionState, events);
    expect(catchUp(full, events)).toEqual(full);
    expect(() => catchUp(replay(events.slice(0, 1)), events.slice(2))).toThrow(/Missed events/);
  });
});
