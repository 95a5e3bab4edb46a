import type { EventEnvelope, EventMetadata } from '../events/event-envelope';

/** An event as a decider writes it: type and data; metadata is stamped on afterwards. */
export type EventDraft<E extends EventEnvelope = EventEnvelope> = Pick<E, 'type' | 'data'>;

/** The clock and ids a decision is stamped with, passed in so deciders stay pure. */
export interface StampContext {
  readonly now: () => Date;
  /** Event ids; give a deterministic generator per command so a retried append is idempotent. */
  readonly newId: () => string;
  /** Defaults to the first event id of the decision. */
  readonly correlationId?: string;
  /** Defaults to the correlation id. */
  readonly causationId?: string;
}

/** Gives every draft of one decision its metadata: one timestamp, one correlation. */
export function stampEvents<E extends EventEnvelope>(drafts: readonly EventDraft<E>[], ctx: StampContext, schemaVersion: number): E[] {
  if (drafts.length === 0) return [];
  const occurredAt = ctx.now().toISOString();
  const ids = drafts.map(() => ctx.newId());
  const correlationId = ctx.correlationId ?? (ids[0] as string);
  const causationId = ctx.causationId ?? correlationId;
  return drafts.map((draft, i) => {
    const metadata: EventMetadata = { eventId: ids[i] as string, occurredAt, correlationId, causationId, schemaVersion };
    return { ...draft, metadata } as E;
  });
}
