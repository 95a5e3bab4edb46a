import type { EventEnvelope } from '../events/event-envelope';
import type { Decider } from './decider';

/**
 * A decider whose state is kept in one event stream of its own (the configuration, the
 * scheduled tasks): the stream and the schema version its events are stamped with.
 */
export interface Aggregate<S, C, E extends EventEnvelope> extends Decider<S, C, E> {
  readonly streamId: string;
  readonly schemaVersion: number;
}

/** Folds events into a state. */
export function foldAggregate<S>(aggregate: Pick<Aggregate<S, unknown, EventEnvelope>, 'evolve'>, events: Iterable<EventEnvelope>, from: S): S {
  let state = from;
  for (const event of events) state = aggregate.evolve(state, event);
  return state;
}
