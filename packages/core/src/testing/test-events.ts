import type { EventEnvelope } from '../events/event-envelope';

/** A plain event for store tests: the contract suite does not care about domain types. */
export function testEvent(eventId: string, data: unknown = { n: eventId }, type = 'TestEvent'): EventEnvelope {
  return {
    type,
    data,
    metadata: {
      eventId,
      occurredAt: '2026-01-01T00:00:00.000Z',
      correlationId: eventId,
      causationId: eventId,
      schemaVersion: 1,
    },
  };
}

/** A clock that advances one second per call, from a fixed start. */
export function steppingClock(start = Date.UTC(2026, 0, 1)): () => Date {
  let t = start;
  return () => new Date((t += 1000));
}
