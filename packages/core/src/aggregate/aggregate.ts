import type { EventEnvelope } from '../events/event-envelope';
import type { EventDraft } from './stamp-events';

/**
 * A state kept in one event stream of its own (the configuration, the scheduled tasks), decided
 * and folded purely. `decide` throws a `OneClawError` with a stable code to refuse a command, and
 * returns no drafts when the command changes nothing. `evolve` is total: an event it cannot read
 * is ignored, so a projection never fails on history (EST-17).
 */
export interface Aggregate<S, C, E extends EventEnvelope> {
  readonly streamId: string;
  readonly initialState: S;
  readonly schemaVersion: number;
  /** `now` is the decision's clock (for rules such as "a one-time task must be in the future"). */
  decide(command: C, state: S, now: Date): readonly EventDraft<E>[];
  evolve(state: S, event: EventEnvelope): S;
}

/** Folds events into a state. */
export function foldAggregate<S>(aggregate: Pick<Aggregate<S, unknown, EventEnvelope>, 'evolve'>, events: Iterable<EventEnvelope>, from: S): S {
  let state = from;
  for (const event of events) state = aggregate.evolve(state, event);
  return state;
}
