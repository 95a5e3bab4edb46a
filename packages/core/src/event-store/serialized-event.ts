import type { RecordedEvent } from '../events/event-envelope';

/** An event as adapters keep it: data and metadata as JSON text. */
export interface SerializedEvent {
  readonly streamId: string;
  readonly revision: number;
  readonly position: number;
  readonly type: string;
  readonly data: string;
  readonly metadata: string;
}

/** Parses a stored event; every read gets fresh objects, so callers cannot change what is stored. */
export function deserializeEvent(row: SerializedEvent): RecordedEvent {
  return {
    type: row.type,
    data: JSON.parse(row.data) as unknown,
    metadata: JSON.parse(row.metadata) as RecordedEvent['metadata'],
    streamId: row.streamId,
    revision: row.revision,
    position: row.position,
  };
}
