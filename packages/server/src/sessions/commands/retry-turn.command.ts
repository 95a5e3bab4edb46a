import { Command } from '@nestjs/cqrs';
import type { TurnResult } from '@oneclaw/api-contract';
import type { TurnObserver } from '../../turns/turn-observer';

/** Runs the last turn again for the last user message (TurnRetried); streams like SendMessage. */
export class RetryTurnCommand extends Command<TurnResult> {
  constructor(
    readonly sessionId: string,
    /** The user message the client means to retry; a stale one is refused. */
    readonly messageId: string | undefined,
    readonly requestId: string | undefined,
    readonly observer: TurnObserver | undefined,
    /** Aborted when the HTTP client goes away. */
    readonly signal: AbortSignal | undefined,
  ) {
    super();
  }
}
