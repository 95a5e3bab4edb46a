import { judgeOpenTurn, OneClawError } from '@oneclaw/core';
import type { SessionIndex } from '../sessions/session-index';
import type { SessionRepository, SessionSnapshot } from '../sessions/session-repository';
import type { ServerIdentity } from './server-identity';
import type { TurnRegistry } from './turn-registry';

export interface CutOffTurnsDeps {
  /** Which sessions have an open turn (the session list's projection already follows every stream). */
  readonly index: Pick<SessionIndex, 'sessionsWithOpenTurn'>;
  readonly sessions: SessionRepository;
  readonly turns: TurnRegistry;
  readonly identity: ServerIdentity;
  readonly log?: (level: 'info' | 'warn', message: string) => void;
}

/** Pauses between attempts to close a failed turn while the store is down: from 0.5 s, doubling, up to 15 s. */
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 15_000;

/** What `closeIfCutOff` found: the session as it is after it. */
export interface CutOffCheck {
  readonly session: SessionSnapshot;
  /** The turn it closed as interrupted, if any. */
  readonly closedTurnId?: string;
}

/**
 * Closes turns that were cut off (the server was killed mid-turn, or a turn stopped without
 * recording its end) with `TurnFinished{interrupted}`, after an `interrupted` result for each
 * call left open: at start-up for every session, and before a session's next turn. A turn
 * running in this process is never touched; one recorded by another replica only once
 * `judgeOpenTurn` says it was cut off (docs/events.md, "Cut-off turns").
 */
export class CutOffTurns {
  /** Sessions whose failed turn this process could not close yet (the store was down), see `closeLater`. */
  private readonly pending = new Set<string>();
  private retryTimer: NodeJS.Timeout | undefined;
  private retryDelayMs = FIRST_RETRY_MS;
  private stopped = false;

  constructor(private readonly deps: CutOffTurnsDeps) {}

  /**
   * A turn of this process failed and its end could not be recorded (the store is unreachable):
   * keep trying to close it, with a growing pause, until the store takes it. Waiting for the
   * session's next turn is not enough with replicas: that turn may land on another replica,
   * which must leave this replica's open turn alone until the silence limit (30 minutes by
   * default) and answers 409 turn_in_progress meanwhile. Found by the replica e2e test (PG-35:
   * kill -9 of PostgreSQL mid-turn). Only this process can tell the turn is not running.
   */
  closeLater(sessionId: string): void {
    if (this.stopped) return;
    this.pending.add(sessionId);
    this.armRetry();
  }

  /** Stops retrying (shutdown); whatever is left is closed by the next start or the session's next turn. */
  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.pending.clear();
  }

  private armRetry(): void {
    if (this.retryTimer || this.stopped || this.pending.size === 0) return;
    this.retryTimer = setTimeout(() => void this.retryPending(), this.retryDelayMs);
    this.retryTimer.unref();
  }

  private async retryPending(): Promise<void> {
    let storeDown = false;
    for (const sessionId of [...this.pending]) {
      try {
        await this.closeIfCutOff(sessionId);
        this.pending.delete(sessionId);
      } catch (error) {
        const code = (error as { code?: string }).code;
        // Still unreachable: try again later. Anything else (a turn of this session running now,
        // which closes it itself; an archived session) ends the retries for it.
        if (code === 'storage_unavailable') storeDown = true;
        else this.pending.delete(sessionId);
      }
    }
    this.retryTimer = undefined;
    this.retryDelayMs = storeDown ? Math.min(this.retryDelayMs * 2, MAX_RETRY_MS) : FIRST_RETRY_MS;
    this.armRetry();
  }

  /**
   * Closes the session's open turn when it was cut off. Throws `turn_in_progress` when it is
   * running here (other than `ownTurnId`, the caller's own) or may still run on another replica.
   * `loaded`: the session as the caller has just read it (nothing awaited since), saving a read.
   */
  async closeIfCutOff(sessionId: string, ownTurnId?: string, loaded?: SessionSnapshot): Promise<CutOffCheck> {
    const session = loaded ?? (await this.deps.sessions.load(sessionId));
    const turn = session.state.openTurn;
    const pendingWithoutTurn = turn === null && session.state.pendingToolCalls.size > 0;
    if (turn === null && !pendingWithoutTurn) return { session };
    const runningHere = this.deps.turns.runningTurnId(sessionId);
    if (turn !== null && runningHere === turn.turnId && turn.turnId !== ownTurnId) {
      throw this.inProgress(sessionId, turn.turnId, 'It is still running on this server.');
    }
    const verdict = turn ? judgeOpenTurn(turn, this.deps.identity.asker()) : { orphaned: true as const, detail: '' };
    if (!verdict.orphaned) throw this.inProgress(sessionId, turn?.turnId ?? '', verdict.detail);
    const turnId = turn?.turnId ?? ownTurnId ?? 'unknown';
    // Replicas that close the same turn decide the same events under their own command ids: the
    // loser's append is a revision conflict, re-decided on fresh state, where nothing is left to do.
    const recorded = await this.deps.sessions.record(
      sessionId,
      { type: 'InterruptTurn', turnId, detail: verdict.detail },
      { commandId: `${sessionId}:${turnId}:interrupt:${this.deps.identity.host.replicaId}`, correlationId: turnId },
    );
    const closed = recorded.events.some((e) => e.type === 'TurnFinished');
    return { session: recorded, ...(closed ? { closedTurnId: turnId } : {}) };
  }

  /**
   * At start-up: every session whose stream ends with an open turn, found by the session index
   * (one pass over the store's global order, which the session list then reuses), is checked and
   * closed when cut off. Failures are logged per session: the session's next turn tries again.
   */
  async closeAllCutOff(): Promise<{ readonly closed: readonly string[]; readonly left: readonly string[] }> {
    const open = await this.deps.index.sessionsWithOpenTurn();
    const closed: string[] = [];
    const left: string[] = [];
    for (const sessionId of open) {
      try {
        const check = await this.closeIfCutOff(sessionId);
        if (check.closedTurnId) closed.push(sessionId);
      } catch (error) {
        left.push(sessionId);
        const e = error as { code?: string; message?: string };
        if (e.code !== 'turn_in_progress') this.deps.log?.('warn', `could not close the cut-off turn of session ${sessionId}: ${e.code ?? ''} ${e.message ?? String(error)}`);
      }
    }
    if (closed.length > 0) this.deps.log?.('info', `closed ${closed.length} cut-off turn(s) as interrupted`);
    return { closed, left };
  }

  private inProgress(sessionId: string, turnId: string, why: string): OneClawError {
    return new OneClawError('turn_in_progress', `Session '${sessionId}' is still answering a message (turn ${turnId}). ${why} Wait for it to finish, or cancel it.`, { turnId });
  }
}
