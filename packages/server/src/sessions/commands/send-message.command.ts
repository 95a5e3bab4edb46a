import { Command } from '@nestjs/cqrs';
import type { TurnResult } from '@oneclaw/api-contract';
import type { TurnObserver } from '../../turns/turn-observer';

/** A user message: runs one agent turn (or clears the session when the text is exactly `/clear`). */
export class SendMessageCommand extends Command<TurnResult> {
  constructor(
    readonly sessionId: string,
    /** May be empty (or blank) when `attachments` has a file; otherwise `message_empty`. */
    readonly text: string,
    readonly requestId: string | undefined,
    readonly observer: TurnObserver | undefined,
    /** Aborted when the HTTP client goes away. */
    readonly signal: AbortSignal | undefined,
    /** Files uploaded with POST /api/attachments, by hash (a `name` overrides the uploaded one). */
    readonly attachments: readonly { readonly hash: string; readonly name?: string }[] = [],
  ) {
    super();
  }
}
