import type { RecordedEvent } from '@oneclaw/core';
import { ConfigRepository, type ChangeOrigin } from '../config-repository';

/**
 * The origin of a change asked for over HTTP. With an Idempotency-Key the command id derives from
 * the change and its target (`provider-updated:<id>:<key>`), so a retried request appends events
 * with the ids of the first attempt and the store acknowledges them instead of recording twice.
 * Without one the repository picks a random id. A request over HTTP is the user's own (the
 * settings screen), never the model's.
 */
export function requestOrigin(change: string, requestId: string | undefined): ChangeOrigin {
  return { requestedBy: 'user', ...(requestId ? { commandId: `${change}:${requestId}` } : {}) };
}

/**
 * The first event an earlier attempt of this change recorded, if it did land. Creations and
 * deletions cannot simply be decided again on retry (the id is taken, the thing is gone), so
 * their handlers answer as the first attempt did instead.
 */
export async function recordedEarlier(repository: ConfigRepository, origin: ChangeOrigin): Promise<RecordedEvent | undefined> {
  if (!origin.commandId) return undefined;
  const eventId = ConfigRepository.firstEventId(origin.commandId);
  return (await repository.history()).find((event) => event.metadata.eventId === eventId);
}
