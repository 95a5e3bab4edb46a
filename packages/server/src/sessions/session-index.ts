import { Inject, Injectable } from '@nestjs/common';
import type { SessionSummary } from '@oneclaw/api-contract';
import type { EventStore, RecordedEvent } from '@oneclaw/core';
import { GlobalFollower } from '../persistence/global-follower';
import { EVENT_STORE } from '../tokens';
import { normalizeForSearch, searchTerms, SessionSearchTexts, type SearchTexts } from './session-search-text';

type Entry = { -readonly [K in keyof SessionSummary]: SessionSummary[K] } & {
  /** The first user message since the last clear, shortened (the title until a rename). */
  firstMessage: string;
  /** Its id: an edit of it (UserMessageEdited) moves the title to the message that replaces it. A blank one (older streams) names nothing: the next message does. */
  firstMessageId: string | null;
  renamed: string | null;
};

const STREAM_PREFIX = 'session-';
const TITLE_CHARS = 80;

/**
 * The session list: a projection of the global event order, kept up to date incrementally
 * (each query reads only events after the last position it saw). Rebuilt from the store on
 * start, so it is the same on every replica. Archived (deleted) sessions leave it; their
 * streams stay. Search matches the title and a capped text of the messages, which are kept
 * outside the heap, with a follower of their own (SessionSearchTexts): the list without a search
 * never waits for them or fails with them.
 */
@Injectable()
export class SessionIndex {
  private readonly sessions = new Map<string, Entry>();
  /** Sessions whose last turn has a user message and no `TurnFinished` yet (a `/clear` does not end a turn). */
  private readonly openTurns = new Set<string>();
  private readonly follower: GlobalFollower;
  private readonly texts: SearchTexts;

  constructor(@Inject(EVENT_STORE) store: EventStore, texts?: SearchTexts) {
    this.follower = new GlobalFollower(store, (events) => {
      for (const event of events) this.apply(event);
    });
    this.texts = texts ?? new SessionSearchTexts({ store });
  }

  /**
   * Newest activity first; with `query`, only sessions whose title or messages hold each of its
   * words (any case). An aborted `signal` stops the search of the messages (SearchTexts).
   */
  async list(query = '', signal?: AbortSignal): Promise<readonly SessionSummary[]> {
    await this.follower.catchUp();
    const terms = [...new Set(searchTerms(query))];
    const titles = new Map([...this.sessions.values()].map((e) => [e.sessionId, normalizeForSearch(e.title)]));
    const titled = terms.map((term) => [...titles.values()].some((title) => title.includes(term)));
    const inText = terms.length === 0 ? [] : await this.texts.sessionsWith(terms, titled, signal);
    const matches = (e: Entry) => terms.every((term, i) => titles.get(e.sessionId)?.includes(term) || inText[i]?.has(e.sessionId));
    return [...this.sessions.values()]
      .filter((e) => terms.length === 0 || matches(e))
      .sort((a, b) => b.lastActivityAt.localeCompare(a.lastActivityAt))
      .map(({ sessionId, agentId, startedAt, lastActivityAt, revision, title }) => ({ sessionId, agentId, startedAt, lastActivityAt, revision, title }));
  }

  /** The sessions with a turn still open in the store: running somewhere, or cut off (CutOffTurns). */
  async sessionsWithOpenTurn(): Promise<readonly string[]> {
    await this.follower.catchUp();
    return [...this.openTurns];
  }

  /** Closes the search texts (the server is stopping). */
  close(): void {
    this.texts.close();
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
        firstMessage: '',
        firstMessageId: null,
        renamed: null,
      });
      return;
    }
    const summary = this.sessions.get(sessionId);
    if (!summary) return;
    if (event.type === 'SessionArchived') {
      this.sessions.delete(sessionId);
      return;
    }
    // A rename is not activity: the renamed session keeps its place in the list.
    if (event.type !== 'SessionRenamed') summary.lastActivityAt = event.metadata.occurredAt;
    summary.revision = event.revision;
    if (event.type === 'SessionCleared') {
      // The list matches what the session shows: the conversation since the last clear.
      summary.firstMessage = '';
      summary.firstMessageId = null;
    }
    // The edited first message is superseded: its replacement (the next MessageSent) names the session.
    if (event.type === 'UserMessageEdited' && summary.firstMessageId !== null && data.messageId === summary.firstMessageId && typeof data.newMessageId === 'string') {
      summary.firstMessageId = data.newMessageId;
    }
    if (event.type === 'SessionRenamed' && typeof data.title === 'string' && data.title !== '') summary.renamed = data.title;
    if (event.type === 'MessageSent' && (data.role === 'user' || data.role === 'assistant') && typeof data.text === 'string') {
      if (data.role === 'user' && (summary.firstMessage === '' || summary.firstMessageId === data.messageId)) {
        summary.firstMessageId = typeof data.messageId === 'string' ? data.messageId : '';
        summary.firstMessage = firstMessageTitle(data.text, data.attachments);
      }
    }
    summary.title = summary.renamed ?? summary.firstMessage;
  }
}

/** The words of the first message, on one line; a message of files only is named by its files. */
function firstMessageTitle(text: string, attachments: unknown): string {
  const words = text.replace(/\s+/g, ' ').trim();
  const names = Array.isArray(attachments) ? attachments.map((a: { name?: unknown }) => (typeof a?.name === 'string' ? a.name : '')).filter((n) => n !== '') : [];
  return (words || names.join(', ')).slice(0, TITLE_CHARS);
}
