import type { TurnHost } from '../events/session-events';
import type { OpenTurn } from './session-state';

/** Who is asking, and when: the server process that would close the turn. */
export interface AskingServer {
  readonly host: TurnHost;
  readonly now: Date;
  /**
   * How long another replica's open turn may stay silent (no event) before it is taken as cut
   * off. Longer than any one model request or tool call may take, so a live turn always writes
   * within it.
   */
  readonly silenceLimitMs: number;
}

/**
 * What the user can do about a cut-off turn: the chat offers Retry on the last turn's stop notice
 * (RetryTurn, POST /api/sessions/:id/retry), which asks the same message again without copying it.
 */
export const CUT_OFF_RETRY_HINT = 'Press Retry to run it again.';

export type OpenTurnVerdict = { readonly orphaned: true; readonly detail: string } | { readonly orphaned: false; readonly detail: string };

/**
 * Whether an open turn that is NOT running in the asking process was cut off and may be closed.
 * A replica runs one process at a time, so its own turns not running now died with an earlier
 * process (or stopped without recording their end). Another replica's turn is left alone while
 * that replica may still be running it: until it has been silent for `silenceLimitMs`. Turns
 * recorded before hosts were have no owner to ask: they are cut off (only one server wrote then).
 */
export function judgeOpenTurn(turn: OpenTurn, asker: AskingServer): OpenTurnVerdict {
  const host = turn.host;
  if (!host) {
    return { orphaned: true, detail: `The server stopped before this turn finished (the turn was cut off mid-answer). ${CUT_OFF_RETRY_HINT}` };
  }
  if (host.replicaId === asker.host.replicaId) {
    const why = host.processId === asker.host.processId ? 'the turn stopped without recording its end' : 'the server restarted mid-turn';
    return { orphaned: true, detail: `The turn was interrupted (${why}). ${CUT_OFF_RETRY_HINT}` };
  }
  const silentMs = asker.now.getTime() - Date.parse(turn.lastEventAt);
  if (Number.isFinite(silentMs) && silentMs >= asker.silenceLimitMs) {
    const minutes = Math.floor(silentMs / 60_000);
    return {
      orphaned: true,
      detail: `The turn was interrupted: replica '${host.replicaId}' running it wrote nothing for ${minutes} minute(s). ${CUT_OFF_RETRY_HINT}`,
    };
  }
  return { orphaned: false, detail: `The turn is still running on replica '${host.replicaId}'.` };
}
