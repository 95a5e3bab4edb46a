import type { MessageData, RecordedEvent } from '@oneclaw/core';

/** GET /api/sessions/:id, and the answer of start, rename, clear, load and unload. */
export interface SessionView {
  readonly sessionId: string;
  readonly agentId: string | null;
  /** Revision of the stream's last event: send it back as If-Match to change the session only if nothing moved. */
  readonly revision: number | 'no_stream';
  /** Every message since the last clear, in order, including those a retry or an edit superseded. */
  readonly messages: readonly MessageData[];
  /** Messages of `messages` a retry or an edit superseded: the model is no longer sent them; a chat hides them. */
  readonly supersededMessageIds: readonly string[];
  readonly loadedGroups: readonly string[];
  /** What the model would be sent now: core tools, then loaded groups' tools (T5 allow-list applied). */
  readonly activeTools: readonly string[];
  readonly turnInProgress: boolean;
  /** The name the user gave the session (SessionRenamed), or null: then the first message stands for it. */
  readonly title: string | null;
  /**
   * The latest compaction, or null: the model is sent `text` and the messages after
   * `boundaryMessageId` (`messages` still holds all of them).
   */
  readonly summary: { readonly text: string; readonly boundaryMessageId: string } | null;
}

/** One entry of GET /api/sessions: newest activity first, deleted sessions left out. */
export interface SessionSummary {
  readonly sessionId: string;
  readonly agentId: string;
  readonly startedAt: string;
  readonly lastActivityAt: string;
  /** Revision of the session's last event. */
  readonly revision: number;
  /** The name the user gave (SessionRenamed), else the first user message since the last clear, shortened. */
  readonly title: string;
}

/** GET /api/sessions (`?q=` keeps the sessions whose title or messages hold every word). */
export interface SessionsAnswer {
  readonly sessions: readonly SessionSummary[];
}

/** One event of GET /api/sessions/:id/events, as stored; `data` depends on `type` (docs/events.md). */
export type StoredEvent = RecordedEvent;

/**
 * GET /api/sessions/:id/events?fromRevision=&limit=: one page of the session's raw stream, in
 * order, from `fromRevision` (default 0), at most `limit` events (default
 * `SESSION_EVENTS_PAGE.defaultLimit`, at most `SESSION_EVENTS_PAGE.maxLimit`).
 */
export interface SessionEvents {
  readonly sessionId: string;
  readonly events: readonly StoredEvent[];
  /** The `fromRevision` of the next page, or null when this page reaches the end of the stream. */
  readonly nextRevision: number | null;
}

/** Page sizes of GET /api/sessions/:id/events. */
export const SESSION_EVENTS_PAGE = { defaultLimit: 500, maxLimit: 1000 } as const;

/** One tool of GET /api/sessions/:id/tools. */
export interface ActiveToolView {
  readonly name: string;
  readonly description: string;
  /** Absent for a core tool. */
  readonly group?: string;
}

/** GET /api/sessions/:id/tools: what the model is sent now, with descriptions. */
export interface ActiveTools {
  readonly sessionId: string;
  readonly revision: number | 'no_stream';
  readonly loadedGroups: readonly string[];
  readonly tools: readonly ActiveToolView[];
}

/** POST /api/sessions/:id/compact: `compacted` false (with `code`) leaves the conversation as it was. */
export interface CompactAnswer {
  readonly compacted: boolean;
  /** `nothing_to_compact`, `summary_failed`, `summary_empty` or `not_smaller` when not compacted. */
  readonly code?: string;
  readonly detail: string;
  readonly session: SessionView;
}

/** POST /api/sessions/:id/cancel. */
export interface CancelAnswer {
  /** False when no turn was running. */
  readonly cancelled: boolean;
}
