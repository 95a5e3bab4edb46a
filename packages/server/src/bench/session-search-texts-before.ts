import type { EventStore, RecordedEvent } from '@oneclaw/core';
import { GlobalFollower } from '../persistence/global-follower';
import { appendSearchText, type KeptText, type SearchTexts } from '../sessions/session-search-text';

/**
 * The session list's search texts before 2026-11-27, kept as the session-list bench's baseline:
 * the same kept text per session, in the heap (a Map), searched with `includes`, all sessions in
 * one synchronous pass. The head and tail are `slice`s of the joined text, which V8 may keep as
 * views of the whole joined string.
 */
export class HeapSearchTexts implements SearchTexts {
  private readonly rows = new Map<string, KeptText>();
  private readonly follower: GlobalFollower;

  constructor(store: EventStore) {
    this.follower = new GlobalFollower(store, (events) => {
      for (const event of events) this.apply(event);
    });
  }

  /** One synchronous pass over every session, stopping at the first term no title holds that a session lacks. */
  async sessionsWith(terms: readonly string[], titled: readonly boolean[]): Promise<Set<string>[]> {
    await this.follower.catchUp();
    const found = terms.map(() => new Set<string>());
    const holds = (kept: KeptText, term: string) => kept.head.includes(term) || kept.tail.includes(term);
    for (const [sessionId, kept] of this.rows) {
      if (!terms.every((term, i) => titled[i] || holds(kept, term))) continue;
      terms.forEach((term, i) => (!titled[i] || holds(kept, term)) && found[i]?.add(sessionId));
    }
    return found;
  }

  close(): void {
    this.follower.stop();
  }

  private apply(event: RecordedEvent): void {
    const sessionId = event.streamId.replace(/^session-/, '');
    const data = event.data as { role?: unknown; text?: unknown };
    if (event.type === 'SessionCleared' || event.type === 'SessionArchived') this.rows.delete(sessionId);
    if (event.type === 'MessageSent' && (data.role === 'user' || data.role === 'assistant') && typeof data.text === 'string') {
      this.rows.set(sessionId, appendSearchText(this.rows.get(sessionId) ?? { head: '', tail: '' }, data.text));
    }
  }
}
