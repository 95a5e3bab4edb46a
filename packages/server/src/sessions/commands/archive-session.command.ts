import { Command } from '@nestjs/cqrs';

export class ArchiveSessionCommand extends Command<void> {
  constructor(
    readonly sessionId: string,
    readonly requestId?: string,
  ) {
    super();
  }
}
