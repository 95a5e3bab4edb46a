import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AttachmentStore } from '../../attachments/attachment-store';
import { resolveAttachments } from '../../attachments/resolve-attachments';
import { TurnRunner } from '../../turns/turn-runner';
import { SendMessageCommand } from './send-message.command';

@CommandHandler(SendMessageCommand)
export class SendMessageHandler implements ICommandHandler<SendMessageCommand> {
  constructor(
    private readonly runner: TurnRunner,
    private readonly attachments: AttachmentStore,
  ) {}

  async execute(command: SendMessageCommand) {
    // Every hash is checked before the turn records anything: an unknown one refuses the message.
    const attachments = resolveAttachments(this.attachments, command.attachments);
    return this.runner.run({
      sessionId: command.sessionId,
      text: command.text,
      ...(attachments.length > 0 ? { attachments } : {}),
      ...(command.requestId ? { requestId: command.requestId } : {}),
      ...(command.observer ? { observer: command.observer } : {}),
      ...(command.signal ? { signal: command.signal } : {}),
    });
  }
}
