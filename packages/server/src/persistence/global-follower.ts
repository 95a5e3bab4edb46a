import type { EventStore, RecordedEvent } from '@oneclaw/core';

const PAGE = 1000;

/**
 * Follows the store's global order for a projection over every stream (the session list, the
 * history search): each `catchUp()` reads only the events after the last one applied, one
 * reader at a time. What was appended before `catchUp()` was called is applied when it
 * resolves: a caller that comes while a read is under way (which may have passed what the
 * caller just wrote) waits for one more read after it, shared with everyone else who came
 * meanwhile. Reads restart at the last position
 * (inclusive) and skip it, because KurrentDB positions are log offsets: `last + 1` would land
 * inside a record.
 *
 * Remembering only the last position is correct because every store makes positions visible in
 * order: an event never appears below a position a reader has already seen. SQLite has one
 * writer, KurrentDB a log; PostgreSQL serializes appends on a lock row (ADR 0014), because
 * sequence values alone can commit out of order.
 */
export class GlobalFollower {
  private lastPosition = -1;
  private reading: Promise<void> | undefined;
  /** The read after the one under way, for callers that came during it. */
  private nextReading: Promise<void> | undefined;
  private stopped = false;

  /** `apply` gets the new events of each page read, in order (a page may go in one transaction). */
  constructor(
    private readonly store: EventStore,
    private readonly apply: (events: readonly RecordedEvent[]) => void,
  ) {}

  /** Reads nothing more: a read in progress ends after its current page, without applying it. */
  stop(): void {
    this.stopped = true;
  }

  catchUp(): Promise<void> {
    if (this.reading === undefined) {
      this.reading = this.read().finally(() => (this.reading = undefined));
      return this.reading;
    }
    this.nextReading ??= this.reading
      .catch(() => undefined)
      .then(() => {
        this.nextReading = undefined;
        return this.catchUp();
      });
    return this.nextReading;
  }

  private async read(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const batch = await this.store.readAll({ fromPosition: Math.max(0, this.lastPosition), maxCount: PAGE });
      if (this.stopped) return;
      const fresh = batch.filter((e) => e.position > this.lastPosition);
      if (fresh.length > 0) this.apply(fresh);
      if (fresh.length > 0) this.lastPosition = (fresh.at(-1) as RecordedEvent).position;
      if (fresh.length < PAGE - 1) return;
    }
  }
}
