import { describe, expect, it } from '@jest/globals';
import type { Decider, DecisionContext } from '../aggregate/decider';
import type { EventEnvelope } from '../events/event-envelope';
import { OneClawError } from '../oneclaw-error';
import { deciderScenario } from './decider-scenario';

/** A counter: `Add` records `Added` (refused for 0 or less), adding to a full counter records nothing. */
type Command = { type: 'Add'; by: number };
type Added = EventEnvelope<'Added', { by: number; at: string }>;
interface LimitContext extends DecisionContext {
  readonly limit: number;
}
const counter: Decider<number, Command, Added, LimitContext> = {
  initialState: 0,
  decide: (command, state, { now, limit }) => {
    if (command.by <= 0) throw new OneClawError('invalid_command', `Add a positive number, not ${command.by}.`);
    return state >= limit ? [] : [{ type: 'Added', data: { by: command.by, at: now.toISOString() } }];
  },
  evolve: (state, event) => (event.type === 'Added' ? state + (event.data as { by: number }).by : state),
};
const scenario = () => deciderScenario(counter, { context: { limit: 5 } });

describe('deciderScenario', () => {
  it('given commands build the state; when/then compares type and data; the clock steps per recorded decision and ids count decisions', () => {
    const s = scenario().given({ type: 'Add', by: 2 });
    const [event] = s.when({ type: 'Add', by: 1 }).then([{ type: 'Added', data: { by: 1, at: '2026-01-01T00:00:02.000Z' } }]);
    expect(event?.metadata).toEqual({ eventId: 'cmd1:0', occurredAt: '2026-01-01T00:00:02.000Z', correlationId: 'cmd1:0', causationId: 'cmd1:0', schemaVersion: 1 });
    expect(s.state()).toBe(3);
    expect(s.history()).toHaveLength(2);
  });

  it('then fails on other events, thenNothingHappened on any event', () => {
    expect(() =>
      scenario()
        .when({ type: 'Add', by: 1 })
        .then([{ type: 'Added', data: { by: 2, at: '2026-01-01T00:00:01.000Z' } }]),
    ).toThrow();
    expect(() => scenario().when({ type: 'Add', by: 1 }).thenNothingHappened()).toThrow();
    expect(scenario().given({ type: 'Add', by: 5 }).when({ type: 'Add', by: 1 }).thenNothingHappened()).toBe(5);
  });

  it('thenThrows checks the code and the message, fails when the command is accepted, and records nothing', () => {
    const s = scenario().given({ type: 'Add', by: 1 });
    expect(s.when({ type: 'Add', by: 0 }).thenThrows('invalid_command', 'not 0').message).toBe('Add a positive number, not 0.');
    expect(() => s.when({ type: 'Add', by: 0 }).thenThrows('other_code')).toThrow();
    expect(() => s.when({ type: 'Add', by: 0 }).thenThrows('invalid_command', 'nothing like it')).toThrow();
    expect(s.history()).toHaveLength(1);
    expect(() => s.when({ type: 'Add', by: 1 }).thenThrows('invalid_command')).toThrow();
  });

  it('givenEvents records events as they are; at fixes the clock the decider and the stamping see', () => {
    const s = scenario()
      .givenEvents({ type: 'Added', data: { by: 4, at: 'old' } })
      .at('2026-06-01T12:00:00Z');
    expect(s.state()).toBe(4);
    s.when({ type: 'Add', by: 1 }).then([{ type: 'Added', data: { by: 1, at: '2026-06-01T12:00:00.000Z' } }]);
    expect(s.history().at(-1)?.metadata.occurredAt).toBe('2026-06-01T12:00:00.000Z');
  });
});
