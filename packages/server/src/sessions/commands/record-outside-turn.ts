import type { SessionCommand } from '@oneclaw/core';
import type { CutOffTurns } from '../../turns/cut-off-turns';
import { checkRevision, type Recorded, type SessionRepository, type SessionSnapshot } from '../session-repository';

/**
 * Records a user's change that waits for no turn (a clear, loading or unloading a group): `decide`
 * refuses it with turn_in_progress while a turn is open, so a turn running here or on another
 * replica refuses it, and one that was cut off is closed first, as before a message.
 * `expectedRevision` is the client's If-Match; `loaded`, the session as the caller has just read
 * it (nothing awaited since), saves a read when there is no If-Match.
 */
export async function recordOutsideTurn(
  deps: { readonly sessions: SessionRepository; readonly cutOffTurns: CutOffTurns },
  sessionId: string,
  command: SessionCommand,
  options: { readonly commandId: string; readonly expectedRevision?: number; readonly loaded?: SessionSnapshot },
): Promise<Recorded> {
  const { sessions, cutOffTurns } = deps;
  const { commandId, expectedRevision } = options;
  // If-Match is about what the client read: checked before closing a cut-off turn moves the
  // revision on (that close is the server's, and a refused request must change nothing).
  const read = expectedRevision !== undefined ? await sessions.load(sessionId) : options.loaded;
  if (read && expectedRevision !== undefined) checkRevision(read.revision, expectedRevision);
  const { session } = await cutOffTurns.closeIfCutOff(sessionId, undefined, read);
  return sessions.record(sessionId, command, {
    commandId,
    // The revision checked above, or the one after the cut-off turn's close (a session that is not there has none: record refuses it).
    ...(expectedRevision !== undefined ? { expectedRevision: typeof session.revision === 'number' ? session.revision : expectedRevision } : {}),
  });
}
