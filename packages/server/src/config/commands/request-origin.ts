import type { ConfigState, RecordedEvent } from '@oneclaw/core';
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

/**
 * True when an earlier attempt of this change landed and a later change has replaced what it set
 * (`current` reads, from the state now, the id of the event behind the setting). A late retry of
 * storing a secret then answers as its first attempt did and leaves the secret store alone:
 * storing its old value again would break the newer setting. A retry whose setting is still the
 * current one goes on: storing the same value again mends a first attempt whose append landed but
 * answered an error (the value was taken back then).
 */
export async function replacedSince(repository: ConfigRepository, origin: ChangeOrigin, current: (state: ConfigState) => string | undefined): Promise<boolean> {
  const earlier = await recordedEarlier(repository, origin);
  return earlier !== undefined && current(await repository.load()) !== earlier.metadata.eventId;
}
