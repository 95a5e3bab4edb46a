import { Command } from '@nestjs/cqrs';
import type { TurnResult } from '@oneclaw/api-contract';
import type { TurnObserver } from '../../turns/turn-observer';

/** Replaces the last user message with new text (UserMessageEdited) and runs its turn; streams like SendMessage. */
export class EditMessageCommand extends Command<TurnResult> {
  constructor(
    readonly sessionId: string,
    /** The message to replace: the last user message of the conversation. */
    readonly messageId: string,
    readonly text: string,
    readonly requestId: string | undefined,
    readonly observer: TurnObserver | undefined,
    /** Aborted when the HTTP client goes away. */
    readonly signal: AbortSignal | undefined,
  ) {
    super();
  }
}
