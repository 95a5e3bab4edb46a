/** Metadata carried by every event. Never holds secrets. */
export interface EventMetadata {
  readonly eventId: string;
  /** ISO-8601 timestamp from the injected clock. */
  readonly occurredAt: string;
  /** Id shared by every event caused by one user action (a turn, a clear). */
  readonly correlationId: string;
  /** Id of the command or event that directly caused this one. */
  readonly causationId: string;
  readonly schemaVersion: number;
}

/** The shape every event has, domain or not; the event store stores exactly this. */
export interface EventEnvelope<TType extends string = string, TData = unknown> {
  readonly type: TType;
  readonly data: TData;
  readonly metadata: EventMetadata;
}

/** An event as read back from a store: the envelope plus where it sits. */
export type RecordedEvent<E extends EventEnvelope = EventEnvelope> = E & {
  readonly streamId: string;
  /** 0-based, contiguous within the stream. */
  readonly revision: number;
  /** Strictly increasing across all streams (global order). */
  readonly position: number;
};
