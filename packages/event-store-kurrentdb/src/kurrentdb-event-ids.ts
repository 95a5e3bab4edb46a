import { createHash } from 'node:crypto';

/**
 * KurrentDB event ids must be UUIDs, and its idempotency works on them. Ours are whatever the
 * decider made (e.g. `s1-c0:0`, derived from the command id). A canonical lower-case UUID is used
 * as it is; anything else becomes a name-based UUID (version 5, SHA-1) of the id, so the same id
 * always gives the same KurrentDB id and a retried append stays idempotent across processes and
 * replicas. The original id is never lost: it is `eventId` in the metadata we store with the event.
 *
 * Upper-case UUIDs are hashed too: KurrentDB returns ids in lower case, so using them as they are
 * would make `ABC…` and `abc…` one id there while they are two ids here.
 */
export function kurrentEventId(eventId: string): string {
  return CANONICAL_UUID.test(eventId) && eventId !== NIL_UUID ? eventId : uuidV5(eventId, ONECLAW_EVENT_ID_NAMESPACE);
}

/** Never change it: every derived id in every deployed store depends on it. */
export const ONECLAW_EVENT_ID_NAMESPACE = '6a0b84d8-b9b0-463b-bf4f-e26e8d467086';

const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** RFC 9562 section 5.5. */
export function uuidV5(name: string, namespace: string): string {
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
