import { Inject, Injectable } from '@nestjs/common';
import type { EventStore, RecordedEvent } from '@oneclaw/core';
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
const PAGE = 1000;
const TITLE_CHARS = 80;

/**
 * The session list: a projection of the global event order, kept up to date incrementally
 * (each query reads only events after the last position it saw). Rebuilt from the store on
 * start, so it is the same on every replica.
 */
@Injectable()
export class SessionIndex {
  private readonly sessions = new Map<string, { -readonly [K in keyof SessionSummary]: SessionSummary[K] }>();
  /** Global position of the last event applied; reads restart there (inclusive) and skip it,
   * because KurrentDB positions are log offsets: `last + 1` would land inside a record. */
  private lastPosition = -1;
  private catchingUp: Promise<void> | undefined;

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async list(): Promise<readonly SessionSummary[]> {
    await this.catchUp();
    return [...this.sessions.values()].sort((a, b) => b.lastActivityAt.localeCompare(a.lastActivityAt));
  }

  private catchUp(): Promise<void> {
    // One reader at a time: two concurrent queries share the same catch-up.
    this.catchingUp ??= this.read().finally(() => (this.catchingUp = undefined));
    return this.catchingUp;
  }

  private async read(): Promise<void> {
    for (;;) {
      const from = Math.max(0, this.lastPosition);
      const batch = await this.store.readAll({ fromPosition: from, maxCount: PAGE });
      const fresh = batch.filter((e) => e.position > this.lastPosition);
      for (const event of fresh) this.apply(event);
      if (fresh.length > 0) this.lastPosition = (fresh.at(-1) as RecordedEvent).position;
      if (fresh.length < PAGE - 1) return;
    }
  }

  private apply(event: RecordedEvent): void {
    if (!event.streamId.startsWith(STREAM_PREFIX)) return;
    const sessionId = event.streamId.slice(STREAM_PREFIX.length);
    const data = event.data as Record<string, unknown>;
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
