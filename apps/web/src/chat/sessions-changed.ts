/**
 * "The session list is out of date": a tiny in-page signal between the chat (which creates
 * sessions, sends messages and clears them) and the session list in the drawer (which shows
 * titles and the order by last activity). The list re-reads GET /api/sessions on each signal.
 *
 * A module-level emitter rather than a context or a shared store: the two components sit in
 * different branches of the shell, the signal carries no data (the server's list is the truth),
 * and one page holds one list, so nothing needs scoping. Other tabs are not told; the list also
 * reloads when the current session changes.
 */
type Listener = () => void;

const listeners = new Set<Listener>();

export function notifySessionsChanged(): void {
  // A copy: a listener may unsubscribe while we call them.
  for (const listener of [...listeners]) listener();
}

/** Calls `listener` on every change until the returned function is called. */
export function onSessionsChanged(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
