import { expect } from '@jest/globals';
import type { Decider, DecisionContext } from '../aggregate/decider';
import { stampEvents, type EventDraft } from '../aggregate/stamp-events';
import type { EventEnvelope } from '../events/event-envelope';
import { deterministicIds } from '../ids';
import { steppingClock } from './test-events';

export interface DeciderScenarioOptions<X extends DecisionContext> {
  /** What the decider needs besides the clock (the session's tool catalogue). */
  readonly context: Omit<X, 'now'>;
  /** Stamped on every event; 1 unless given. */
  readonly schemaVersion?: number;
  /** The clock; one second later per recorded decision unless given (`at` fixes it). */
  readonly clock?: () => Date;
  /** The events of the n-th decision get the ids `<prefix><n>:0`, `<prefix><n>:1`, ... (`cmd` unless given). */
  readonly idPrefix?: string;
}

/**
 * The outcome of `when`, decided when one of its `then*` is called (so a refusal can be
 * expected): each asserts, and records the events as a successful append would.
 */
export interface Then<S, E extends EventEnvelope> {
  /** Expects exactly these events (type and data; metadata is the stamping's); returns them stamped. */
  then(expected: readonly EventDraft<E>[]): E[];
  /** Expects no events: the command is already so. Returns the state, unchanged. */
  thenNothingHappened(): S;
  /** Expects a refusal with this stable code (and, if given, a message like `message`); nothing is recorded. Returns the error. */
  thenThrows(code: string, message?: string | RegExp): Error & { code: string };
}

/**
 * Given/when/then for any decider (the session, the configuration, the scheduled tasks), after
 * emmett's DeciderSpecification, but stateful so a test can go on from where it is: the history
 * is built from commands (`given`, each decided against the state so far) or events
 * (`givenEvents`), `when` decides one more. The clock and the ids are fixed, so results are
 * exact values to compare.
 */
export interface DeciderScenario<S, C, E extends EventEnvelope> {
  /** Decides and records each command in turn. */
  given(...commands: C[]): DeciderScenario<S, C, E>;
  /** Records these events as they are (stamped here): a history no command sequence reaches, or an old stream. */
  givenEvents(...events: EventDraft<E>[]): DeciderScenario<S, C, E>;
  /** Fixes the clock from now on (rules that depend on time). */
  at(time: string | Date): DeciderScenario<S, C, E>;
  when(command: C): Then<S, E>;
  /** Decides the command and records its events, returning them stamped; throws what the decider throws. */
  record(command: C): E[];
  state(): S;
  history(): readonly E[];
}

export function deciderScenario<S, C, E extends EventEnvelope, X extends DecisionContext>(
  decider: Decider<S, C, E, X>,
  options: DeciderScenarioOptions<X>,
): DeciderScenario<S, C, E> {
  const schemaVersion = options.schemaVersion ?? 1;
  const prefix = options.idPrefix ?? 'cmd';
  let clock = options.clock ?? steppingClock();
  let n = 0;
  let state = decider.initialState;
  const history: E[] = [];

  const append = (events: E[]): E[] => {
    for (const event of events) state = decider.evolve(state, event);
    history.push(...events);
    return events;
  };
  const record = (command: C): E[] => {
    const ids = deterministicIds(`${prefix}${n++}`);
    let at: Date | undefined;
    // The decision and its events share one instant, read only if the decider or the stamping
    // asks (so a stepping clock moves once per decision that records something).
    const now = (): Date => (at ??= clock());
    const context = {
      ...options.context,
      get now() {
        return now();
      },
    } as X;
    const drafts = decider.decide(command, state, context);
    return append(stampEvents<E>(drafts, { now, newId: ids }, schemaVersion));
  };

  const scenario: DeciderScenario<S, C, E> = {
    given(...commands) {
      for (const command of commands) record(command);
      return scenario;
    },
    givenEvents(...events) {
      append(stampEvents<E>(events, { now: clock, newId: deterministicIds(`${prefix}${n++}`) }, schemaVersion));
      return scenario;
    },
    at(time) {
      const fixed = new Date(time);
      clock = () => fixed;
      return scenario;
    },
    when(command) {
      return {
        then(expected) {
          const events = record(command);
          expect(events.map(({ type, data }) => ({ type, data }))).toEqual(expected);
          return events;
        },
        thenNothingHappened() {
          expect(record(command)).toEqual([]);
          return state;
        },
        thenThrows(code, message) {
          const before = { state, length: history.length };
          let thrown: unknown;
          try {
            record(command);
          } catch (error) {
            thrown = error;
          }
          expect(thrown).toBeInstanceOf(Error);
          expect(thrown).toMatchObject({ code });
          if (message !== undefined) expect((thrown as Error).message).toMatch(message);
          // A refusal records nothing.
          expect(state).toBe(before.state);
          expect(history).toHaveLength(before.length);
          return thrown as Error & { code: string };
        },
      };
    },
    record,
    state: () => state,
    history: () => history,
  };
  return scenario;
}
