import type { EventEnvelope } from '../events/event-envelope';
import type { EventDraft } from './stamp-events';

/** What every decision is given from outside, so deciders stay pure: the command's clock. */
export interface DecisionContext {
  /** For rules such as "a one-time task must be in the future"; deciders that need no clock ignore it. */
  readonly now: Date;
}

/**
 * The one shape of the domain models (the session, the configuration, the scheduled tasks),
 * after emmett's Decider: `decide` turns a command and the current state into event drafts, or
 * throws a `OneClawError` with a stable code to refuse it, and returns no drafts when the
 * command changes nothing; `evolve` folds one event into the state and is total (an event it
 * cannot read is ignored, so a projection never fails on history, EST-17). Stamping (ids, time,
 * correlation, schema version) and appending belong to the command path, not to the decider.
 * `X` is the decision context: `DecisionContext`, plus what a decider needs besides (the
 * session's tool catalogue).
 */
export interface Decider<S, C, E extends EventEnvelope, X extends DecisionContext = DecisionContext> {
  readonly initialState: S;
  decide(command: C, state: S, context: X): readonly EventDraft<E>[];
  evolve(state: S, event: EventEnvelope): S;
}
