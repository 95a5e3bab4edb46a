import { deterministicIds, foldAggregate, recordCommand, stampEvents, type Aggregate, type EventEnvelope, type EventStore, type RecordedEvent } from '@oneclaw/core';

/** The aggregate as of one revision of its stream. */
export interface AggregateSnapshot<S> {
  readonly state: S;
  /** Revision of the last event applied; 'no_stream' before the first. */
  readonly revision: number | 'no_stream';
}

export interface AggregateRecorded<S, E> extends AggregateSnapshot<S> {
  /** What the command appended; empty when it changed nothing. */
  readonly events: readonly E[];
}

export interface AggregateRecordOptions {
  /** Unique per command; event ids derive from it, so a retried append is idempotent. */
  readonly commandId: string;
  readonly correlationId?: string;
}

export interface AggregateRepositoryOptions {
  readonly now?: () => Date;
  /** Called with every event folded in, in stream order: this server's appends and other replicas' alike. */
  readonly onEvents?: (events: readonly EventEnvelope[]) => void;
}

/**
 * One aggregate in one stream (the configuration, the scheduled tasks), cached by revision. A
 * read fetches only the events after the cached revision, from any writer on any replica. Writes
 * from this server queue up so they never conflict with each other; a conflict can only come
 * from another replica, and is retried from fresh state a bounded number of times, then thrown.
 */
export class AggregateRepository<S, C, E extends EventEnvelope> {
  private snapshot: AggregateSnapshot<S>;
  private writing: Promise<unknown> = Promise.resolve();
  private reading: Promise<AggregateSnapshot<S>> | undefined;
  private readonly now: () => Date;

  constructor(
    private readonly store: EventStore,
    private readonly aggregate: Aggregate<S, C, E>,
    private readonly options: AggregateRepositoryOptions = {},
  ) {
    this.snapshot = { state: aggregate.initialState, revision: 'no_stream' };
    this.now = options.now ?? (() => new Date());
  }

  /** The state as last read or written by this server, without I/O (may lag other replicas). */
  get cached(): AggregateSnapshot<S> {
    return this.snapshot;
  }

  /** The state now: the cached one brought up to date with the store. */
  load(): Promise<AggregateSnapshot<S>> {
    // One reader at a time: concurrent callers share the catch-up.
    this.reading ??= this.readNew().finally(() => (this.reading = undefined));
    return this.reading;
  }

  /** Decides and appends one command; resolves with the state after it. */
  record(command: C, options: AggregateRecordOptions): Promise<AggregateRecorded<S, E>> {
    const next = this.writing.catch(() => undefined).then(() => this.recordNow(command, options));
    this.writing = next;
    return next;
  }

  private async recordNow(command: C, options: AggregateRecordOptions): Promise<AggregateRecorded<S, E>> {
    const { state, revision, events } = await recordCommand<AggregateSnapshot<S>, E>({
      store: this.store,
      streamId: this.aggregate.streamId,
      // Caught up before every decision: the stream may have moved on another replica.
      current: () => this.load(),
      decide: (current) =>
        // Same ids on every attempt: if an earlier attempt did land, the store acknowledges it.
        stampEvents<E>(
          this.aggregate.decide(command, current.state, { now: this.now() }),
          { now: this.now, newId: deterministicIds(options.commandId), ...(options.correlationId ? { correlationId: options.correlationId } : {}) },
          this.aggregate.schemaVersion,
        ),
      appended: async (current, appended, next) => {
        // A concurrent read may have folded them in already: then read, never fold twice.
        if (this.snapshot.revision !== current.revision) return this.load();
        this.apply(appended, next);
        return this.snapshot;
      },
      reload: () => this.load(),
    });
    return { state, revision, events };
  }

  private async readNew(): Promise<AggregateSnapshot<S>> {
    const from = this.snapshot.revision === 'no_stream' ? 0 : this.snapshot.revision + 1;
    const fresh = await this.store.readStream(this.aggregate.streamId, { fromRevision: from });
    // A write of this server may have landed while the read was in flight: skip what is folded.
    const known = this.snapshot.revision === 'no_stream' ? -1 : this.snapshot.revision;
    const unseen = fresh.filter((e) => e.revision > known);
    if (unseen.length > 0) this.apply(unseen, (unseen.at(-1) as RecordedEvent).revision);
    return this.snapshot;
  }

  private apply(events: readonly EventEnvelope[], revision: number): void {
    this.snapshot = { state: foldAggregate(this.aggregate, events, this.snapshot.state), revision };
    this.options.onEvents?.(events);
  }
}
