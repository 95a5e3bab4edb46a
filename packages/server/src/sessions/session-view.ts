import type { MessageData } from '@oneclaw/core';

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
