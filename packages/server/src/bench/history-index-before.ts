import type { RecordedEvent } from '@oneclaw/core';
import MiniSearch, { type SearchResult } from 'minisearch';
import { GlobalFollower } from '../persistence/global-follower';
import { historyEventOf } from '../sessions/history-event';
import { snippetOf, type HistoryHit, type HistoryIndexOptions, type HistoryQuery } from '../tools/builtin/core/history-index';

interface HistoryDoc {
  readonly id: string;
  readonly kind: 'session' | 'memory';
  readonly text: string;
  readonly date: string;
  readonly sessionId?: string;
  readonly role?: 'user' | 'assistant';
  readonly category?: string;
  readonly position?: number;
}

/**
 * search_history's index before 2026-11-26, kept as the history-index bench's baseline: the same
 * search (minisearch, BM25, prefix from 3 letters, typos from 5) with every document in the heap.
 */
export class MiniSearchHistoryIndex {
  private readonly index = new MiniSearch<HistoryDoc>({
    fields: ['text'],
    storeFields: ['kind', 'text', 'date', 'sessionId', 'role', 'category', 'position'],
  });
  private readonly dates: Intl.DateTimeFormat;
  private readonly follower: GlobalFollower;
  /** Per session, the position of its last SessionCleared: what comes after is the live conversation. */
  private readonly clearedAt = new Map<string, number>();
  private memoryVersion: string | undefined;
  private memoryIds: string[] = [];

  constructor(private readonly options: HistoryIndexOptions) {
    this.follower = new GlobalFollower(options.store, (events) => {
      for (const event of events) this.apply(event);
    });
    this.dates = new Intl.DateTimeFormat('en-CA', { timeZone: options.timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  }

  async search(query: HistoryQuery): Promise<HistoryHit[]> {
    if (query.scope !== 'memory') await this.follower.catchUp();
    if (query.scope !== 'sessions') this.refreshMemory();
    const live = query.currentSessionId;
    const liveAfter = live === undefined ? undefined : (this.clearedAt.get(live) ?? -1);
    const results = this.index.search(query.query, {
      prefix: (term) => term.length >= 3,
      fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
      filter: (result) => {
        const doc = result as unknown as HistoryDoc;
        if (query.scope === 'memory' && doc.kind !== 'memory') return false;
        if (query.scope === 'sessions' && doc.kind !== 'session') return false;
        if ((query.dateFrom || query.dateTo) && doc.date === '') return false;
        if (query.dateFrom && doc.date < query.dateFrom) return false;
        if (query.dateTo && doc.date > query.dateTo) return false;
        if (liveAfter !== undefined && doc.sessionId === live && (doc.position ?? -1) > liveAfter) return false;
        return true;
      },
    });
    return results.slice(0, query.maxResults).map((r) => toHit(r));
  }

  private apply(event: RecordedEvent): void {
    const read = historyEventOf(event);
    // The baseline as it was: it never dropped a deleted session.
    if (read === null || read.type === 'archived') return;
    if (read.type === 'cleared') {
      this.clearedAt.set(read.sessionId, event.position);
      return;
    }
    this.index.add({
      id: `e${event.position}`,
      kind: 'session',
      text: read.text,
      date: this.dates.format(new Date(event.metadata.occurredAt)),
      sessionId: read.sessionId,
      role: read.role,
      position: event.position,
    });
  }

  private refreshMemory(): void {
    const snapshot = this.options.memory.snapshot();
    if (snapshot.version === this.memoryVersion) return;
    if (this.memoryIds.length > 0) this.index.discardAll(this.memoryIds);
    this.memoryVersion = snapshot.version;
    this.memoryIds = snapshot.entries.map((_, i) => `m${snapshot.version}#${i}`);
    this.index.addAll(snapshot.entries.map((entry, i) => ({ id: this.memoryIds[i] as string, kind: 'memory', text: entry.text, date: entry.date, category: entry.category })));
  }
}

function toHit(result: SearchResult): HistoryHit {
  const doc = result as unknown as HistoryDoc;
  const snippet = snippetOf(doc.text, result.terms);
  if (doc.kind === 'memory') return { kind: 'memory', category: doc.category ?? '', date: doc.date, snippet, score: result.score };
  return { kind: 'session', sessionId: doc.sessionId ?? '', role: doc.role ?? 'user', date: doc.date, snippet, score: result.score };
}
