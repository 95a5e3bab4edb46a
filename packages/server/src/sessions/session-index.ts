import { Inject, Injectable } from '@nestjs/common';
import type { SessionSummary } from '@oneclaw/api-contract';
import type { EventStore, RecordedEvent } from '@oneclaw/core';
import { isSqliteError } from '@oneclaw/event-store-sqlite';
import { GlobalFollower } from '../persistence/global-follower';
import { EVENT_STORE } from '../tokens';
import { searchTerms, SessionSearchTexts, type SearchTexts } from './session-search-text';

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
 * streams stay. Search matches the title and a capped text of the messages, which are kept in
 * SQLite rather than the heap (SessionSearchTexts); when that breaks (a full disk), the whole
 * index is built again from the store, as the history search's is.
 */
@Injectable()
export class SessionIndex {
  private readonly sessions = new Map<string, Entry>();
  /** Sessions whose last turn has a user message and no `TurnFinished` yet (a `/clear` does not end a turn). */
  private readonly openTurns = new Set<string>();
  private follower!: GlobalFollower;
  /** Opened on first use, and again after a restart: one that cannot open fails that call only. */
  private texts: SearchTexts | undefined;
  /** The texts failed with a SQLite error since the last (re)start: the next catch-up builds everything again. */
  private textsFailed = false;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    /** Makes the search texts (default: in an anonymous SQLite database); tests break them through this. */
    private readonly newTexts: () => SearchTexts = () => new SessionSearchTexts(),
  ) {
    this.start();
  }

  /** Newest activity first; with `query`, only sessions whose title or messages hold each of its words (any case). */
  async list(query = ''): Promise<readonly SessionSummary[]> {
    const terms = searchTerms(query);
    const matching = await this.caughtUp(() => (terms.length === 0 ? undefined : this.withTexts((texts) => texts.sessionsWithAll(terms))));
    return [...this.sessions.values()]
      .filter((e) => matching === undefined || matching.has(e.sessionId))
      .sort((a, b) => b.lastActivityAt.localeCompare(a.lastActivityAt))
      .map(({ sessionId, agentId, startedAt, lastActivityAt, revision, title }) => ({ sessionId, agentId, startedAt, lastActivityAt, revision, title }));
  }

  /** The sessions with a turn still open in the store: running somewhere, or cut off (CutOffTurns). */
  async sessionsWithOpenTurn(): Promise<readonly string[]> {
    return this.caughtUp(() => [...this.openTurns]);
  }

  /** Closes the search texts' database (the server is stopping). */
  close(): void {
    this.follower.stop();
    this.texts?.close();
  }

  /**
   * `read` after catching up with the store. When the search texts failed (their database broke),
   * a new index is made from the store and `read` tries once more; concurrent callers that failed
   * with the same index share the new one rather than each starting another. Any other error (the
   * store's) goes to the caller, and the next call reads on from where this one stopped.
   */
  private async caughtUp<T>(read: () => T): Promise<T> {
    const follower = this.follower;
    try {
      await follower.catchUp();
      return read();
    } catch (error) {
      if (this.follower === follower) {
        if (!this.textsFailed) throw error;
        this.restart();
      }
      await this.follower.catchUp();
      return read();
    }
  }

  private start(): void {
    this.follower = new GlobalFollower(this.store, (events) =>
      this.withTexts((texts) =>
        texts.batch(() => {
          for (const event of events) this.apply(event);
        }),
      ),
    );
  }

  /** Uses the texts, noting a SQLite error: the database is broken, and only a new one mends it. */
  private withTexts<T>(use: (texts: SearchTexts) => T): T {
    try {
      return use(this.openTexts());
    } catch (error) {
      if (isSqliteError(error)) this.textsFailed = true;
      throw error;
    }
  }

  private openTexts(): SearchTexts {
    return (this.texts ??= this.newTexts());
  }

  private restart(): void {
    this.follower.stop();
    this.sessions.clear();
    this.openTurns.clear();
    this.textsFailed = false;
    const broken = this.texts;
    this.texts = undefined;
    this.start();
    broken?.close();
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
      this.openTexts().forget(sessionId);
      return;
    }
    // A rename is not activity: the renamed session keeps its place in the list.
    if (event.type !== 'SessionRenamed') summary.lastActivityAt = event.metadata.occurredAt;
    summary.revision = event.revision;
    if (event.type === 'SessionCleared') {
      // The list matches what the session shows: the conversation since the last clear.
      summary.firstMessage = '';
      summary.firstMessageId = null;
      this.openTexts().clearText(sessionId);
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
      this.openTexts().addText(sessionId, data.text);
    }
    const title = summary.renamed ?? summary.firstMessage;
    if (title !== summary.title) this.openTexts().setTitle(sessionId, title);
    summary.title = title;
  }
}

/** The words of the first message, on one line; a message of files only is named by its files. */
function firstMessageTitle(text: string, attachments: unknown): string {
  const words = text.replace(/\s+/g, ' ').trim();
  const names = Array.isArray(attachments) ? attachments.map((a: { name?: unknown }) => (typeof a?.name === 'string' ? a.name : '')).filter((n) => n !== '') : [];
  return (words || names.join(', ')).slice(0, TITLE_CHARS);
}
