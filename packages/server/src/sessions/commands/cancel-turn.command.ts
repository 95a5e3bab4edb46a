import { Command } from '@nestjs/cqrs';
import type { CancelAnswer } from '@oneclaw/api-contract';

export class CancelTurnCommand extends Command<CancelAnswer> {
  constructor(readonly sessionId: string) {
    super();
  }
}
