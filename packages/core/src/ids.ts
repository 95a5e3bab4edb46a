/**
 * Event ids derived from one command id: the same command retried yields the same ids, so the
 * store acknowledges the retry instead of writing the events twice.
 */
export function deterministicIds(commandId: string): () => string {
  let n = 0;
  return () => `${commandId}:${n++}`;
}
