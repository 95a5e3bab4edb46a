import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { sessionErrors } from '@oneclaw/core';
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
    // Files alone are a message (their notes give the model a text part); nothing at all is not.
    const blank = command.text.trim() === '';
    if (blank && command.attachments.length === 0) throw sessionErrors.messageEmpty();
    // Every hash is checked before the turn records anything: an unknown one refuses the message.
    const attachments = resolveAttachments(this.attachments, command.attachments);
    return this.runner.run({
      sessionId: command.sessionId,
      // Blanks beside files are recorded as no text, so the chat shows no empty bubble.
      text: blank ? '' : command.text,
      ...(attachments.length > 0 ? { attachments } : {}),
      ...(command.requestId ? { requestId: command.requestId } : {}),
      ...(command.observer ? { observer: command.observer } : {}),
      ...(command.signal ? { signal: command.signal } : {}),
    });
  }
}
