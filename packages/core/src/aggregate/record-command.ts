import type { EventEnvelope } from '../events/event-envelope';
import type { EventStore } from '../event-store/event-store';
import { StreamRevisionConflictError } from '../event-store/event-store-errors';

/** Attempts of one command when another writer got there first (EST-21). */
export const MAX_COMMAND_ATTEMPTS = 5;

/** A model's state as of one revision of its stream. */
export interface StreamSnapshot<S> {
  readonly state: S;
  /** Revision of the last event folded in; 'no_stream' before the first. */
  readonly revision: number | 'no_stream';
}

/**
 * How one repository keeps its state; `recordCommand` is the loop they share. Each attempt
 * decides on `current(attempt)`, and after an append the state comes from `appended` (the
 * events this attempt wrote, folded into what it decided on) or `reload` (the store already
 * held them: an earlier attempt landed, so folding them again would count them twice).
 */
export interface CommandPath<Snap extends StreamSnapshot<unknown>, E extends EventEnvelope> {
  readonly store: EventStore;
  readonly streamId: string;
  /** The snapshot to decide on: a cache may serve the first attempt, a retry must read the store. */
  current(attempt: number): Promise<Snap>;
  /** The command's stamped events on this state (the same ids on every attempt), or a thrown refusal. */
  decide(current: Snap): readonly E[];
  appended(current: Snap, events: readonly E[], revision: number): Snap | Promise<Snap>;
  reload(): Promise<Snap>;
  readonly maxAttempts?: number;
}

export type RecordedCommand<Snap, E> = Snap & {
  /** What the command appended; empty when it changed nothing. */
  readonly events: readonly E[];
  /** Global position of the last event appended; null when nothing was appended. */
  readonly position: number | null;
};

/**
 * The one command path of every event-sourced model (sessions, configuration, scheduled tasks):
 * decide on the current state, append with the revision decided on, and on a revision conflict
 * decide again from fresh state, up to `maxAttempts` (default 5); then the conflict is thrown
 * (the API answers 409). A refusal from `decide` is thrown at once and nothing is written.
 */
export async function recordCommand<Snap extends StreamSnapshot<unknown>, E extends EventEnvelope>(path: CommandPath<Snap, E>): Promise<RecordedCommand<Snap, E>> {
  const maxAttempts = path.maxAttempts ?? MAX_COMMAND_ATTEMPTS;
  for (let attempt = 1; ; attempt++) {
    const current = await path.current(attempt);
    const events = path.decide(current);
    if (events.length === 0) return { ...current, events, position: null };
    try {
      const result = await path.store.append(path.streamId, events, { expectedRevision: current.revision });
      const landedNow = result.nextExpectedRevision === (current.revision === 'no_stream' ? -1 : current.revision) + events.length;
      const next = landedNow ? await path.appended(current, events, result.nextExpectedRevision) : await path.reload();
      return { ...next, events, position: result.position };
    } catch (error) {
      if (!(error instanceof StreamRevisionConflictError) || attempt >= maxAttempts) throw error;
    }
  }
}
