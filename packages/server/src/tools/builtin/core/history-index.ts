import type { EventStore, RecordedEvent } from '@oneclaw/core';
import MiniSearch, { type SearchResult } from 'minisearch';
import type { MemoryFile } from './memory-file';
import { GlobalFollower } from '../../../persistence/global-follower';

export type HistoryScope = 'all' | 'memory' | 'sessions';

export interface HistoryQuery {
  readonly query: string;
  readonly scope: HistoryScope;
  /** Inclusive bounds, YYYY-MM-DD in the index's time zone. */
  readonly dateFrom?: string;
  readonly dateTo?: string;
  readonly maxResults: number;
  /**
   * The session asking: its messages since its last clear are left out, since the model already
   * has them in front of it (otherwise the question itself would be the best match).
   */
  readonly currentSessionId?: string;
}

export type HistoryHit =
  | { readonly kind: 'session'; readonly sessionId: string; readonly role: 'user' | 'assistant'; readonly date: string; readonly snippet: string; readonly score: number }
  | { readonly kind: 'memory'; readonly category: string; readonly date: string; readonly snippet: string; readonly score: number };

export interface HistoryIndexOptions {
  readonly store: EventStore;
  readonly memory: MemoryFile;
  /** Zone of the dates of events (default: the server's), the same as memory entry dates. */
  readonly timeZone?: string;
}

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

const STREAM_PREFIX = 'session-';
const SNIPPET_BEFORE = 80;
const SNIPPET_AFTER = 160;

/**
 * Full-text search (minisearch, BM25) over what was said in every session (user and assistant
 * message texts) and over the memory file. Sessions are read from the event store's global
 * order incrementally, like the session list: each search first reads only the events appended
 * since the last one. Memory entries are re-indexed when the memory file changes.
 */
export class HistoryIndex {
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
    this.follower = new GlobalFollower(options.store, (event) => this.apply(event));
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
    if (!event.streamId.startsWith(STREAM_PREFIX)) return;
    const sessionId = event.streamId.slice(STREAM_PREFIX.length);
    if (event.type === 'SessionCleared') {
      this.clearedAt.set(sessionId, event.position);
      return;
    }
    if (event.type !== 'MessageSent') return;
    const data = event.data as { role?: unknown; text?: unknown };
    if ((data.role !== 'user' && data.role !== 'assistant') || typeof data.text !== 'string' || data.text.trim() === '') return;
    this.index.add({
      id: `e${event.position}`,
      kind: 'session',
      text: data.text,
      date: this.dates.format(new Date(event.metadata.occurredAt)),
      sessionId,
      role: data.role,
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

/** The text around the first place a matched term occurs, on one line, with "…" where it was cut. */
export function snippetOf(text: string, terms: readonly string[]): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const lower = flat.toLowerCase();
  const hits = terms.map((t) => lower.indexOf(t.toLowerCase())).filter((i) => i >= 0);
  const at = hits.length > 0 ? Math.min(...hits) : 0;
  let start = Math.max(0, at - SNIPPET_BEFORE);
  let end = Math.min(flat.length, at + SNIPPET_AFTER);
  // Cut at spaces, so no word is shown in halves.
  if (start > 0) {
    const space = flat.indexOf(' ', start);
    if (space >= 0 && space < at) start = space + 1;
  }
  if (end < flat.length) {
    const space = flat.lastIndexOf(' ', end);
    if (space > at) end = space;
  }
  return `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
}
