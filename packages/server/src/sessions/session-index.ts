import { Inject, Injectable } from '@nestjs/common';
import type { EventStore, RecordedEvent } from '@oneclaw/core';
import { GlobalFollower } from '../persistence/global-follower';
import { EVENT_STORE } from '../tokens';

export interface SessionSummary {
  readonly sessionId: string;
  readonly agentId: string;
  readonly startedAt: string;
  readonly lastActivityAt: string;
  /** Revision of the session's last event. */
  readonly revision: number;
  /** The first user message since the last clear, shortened: a title for the session list. */
  readonly title: string;
}

const STREAM_PREFIX = 'session-';
const TITLE_CHARS = 80;

/**
 * The session list: a projection of the global event order, kept up to date incrementally
 * (each query reads only events after the last position it saw). Rebuilt from the store on
 * start, so it is the same on every replica.
 */
@Injectable()
export class SessionIndex {
  private readonly sessions = new Map<string, { -readonly [K in keyof SessionSummary]: SessionSummary[K] }>();
  /** Sessions whose last turn has a user message and no `TurnFinished` yet (a `/clear` does not end a turn). */
  private readonly openTurns = new Set<string>();
  private readonly follower: GlobalFollower;

  constructor(@Inject(EVENT_STORE) store: EventStore) {
    this.follower = new GlobalFollower(store, (event) => this.apply(event));
  }

  async list(): Promise<readonly SessionSummary[]> {
    await this.follower.catchUp();
    return [...this.sessions.values()].sort((a, b) => b.lastActivityAt.localeCompare(a.lastActivityAt));
  }

  /** The sessions with a turn still open in the store: running somewhere, or cut off (CutOffTurns). */
  async sessionsWithOpenTurn(): Promise<readonly string[]> {
    await this.follower.catchUp();
    return [...this.openTurns];
  }

  private apply(event: RecordedEvent): void {
    if (!event.streamId.startsWith(STREAM_PREFIX)) return;
    const sessionId = event.streamId.slice(STREAM_PREFIX.length);
    const data = event.data as Record<string, unknown>;
    // A retry opens its turn without a user message.
    if ((event.type === 'MessageSent' && data.role === 'user') || event.type === 'TurnRetried') this.openTurns.add(sessionId);
    else if (event.type === 'TurnFinished') this.openTurns.delete(sessionId);
    if (event.type === 'SessionStarted') {
      this.sessions.set(sessionId, {
        sessionId,
        agentId: String(data.agentId ?? ''),
        startedAt: event.metadata.occurredAt,
        lastActivityAt: event.metadata.occurredAt,
        revision: event.revision,
        title: '',
      });
      return;
    }
    const summary = this.sessions.get(sessionId);
    if (!summary) return;
    summary.lastActivityAt = event.metadata.occurredAt;
    summary.revision = event.revision;
    if (event.type === 'SessionCleared') summary.title = '';
    if (event.type === 'MessageSent' && data.role === 'user' && summary.title === '' && typeof data.text === 'string') {
      summary.title = data.text.replace(/\s+/g, ' ').trim().slice(0, TITLE_CHARS);
    }
  }
}
