import { OneClawError } from '@oneclaw/core';

interface RunningTurn {
  readonly turnId: string;
  readonly controller: AbortController;
}

/**
 * The turns running on this server, one per session at most. A second SendMessage while one
 * runs is refused with 409 `turn_in_progress` (not queued: the user sees at once that the
 * assistant is still busy and can cancel). Across replicas the expected revision of every
 * append keeps two writers from interleaving (docs/scale-out.md).
 */
export class TurnRegistry {
  private readonly running = new Map<string, RunningTurn>();

  begin(sessionId: string, turnId: string): AbortController {
    const current = this.running.get(sessionId);
    if (current) {
      throw new OneClawError(
        'turn_in_progress',
        `Session '${sessionId}' is still answering a message (turn ${current.turnId}). Wait for it to finish, or cancel it with POST /api/sessions/${sessionId}/cancel.`,
        { turnId: current.turnId },
      );
    }
    const controller = new AbortController();
    this.running.set(sessionId, { turnId, controller });
    return controller;
  }

  end(sessionId: string, turnId: string): void {
    if (this.running.get(sessionId)?.turnId === turnId) this.running.delete(sessionId);
  }

  /** Cancels the session's running turn; false when none runs here. */
  cancel(sessionId: string, reason = 'cancelled by the user'): boolean {
    const turn = this.running.get(sessionId);
    if (!turn) return false;
    turn.controller.abort(new DOMException(reason, 'AbortError'));
    return true;
  }

  /** The id of the turn running on this server for the session, if any. */
  runningTurnId(sessionId: string): string | undefined {
    return this.running.get(sessionId)?.turnId;
  }

  isRunning(sessionId: string): boolean {
    return this.running.has(sessionId);
  }

  /** On shutdown: stop every turn so its stream ends with a recorded stop. */
  cancelAll(reason: string): void {
    for (const sessionId of this.running.keys()) this.cancel(sessionId, reason);
  }
}
