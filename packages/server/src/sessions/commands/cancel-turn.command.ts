import { Command } from '@nestjs/cqrs';

export class CancelTurnCommand extends Command<{ readonly cancelled: boolean }> {
  constructor(readonly sessionId: string) {
    super();
  }
}
