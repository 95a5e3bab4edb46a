import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { COMPACT_COMMAND, TurnRunner } from '../../turns/turn-runner';
import { SessionRepository } from '../session-repository';
import { SessionViews } from '../session-views';
import { CompactSessionCommand, type CompactSessionResult } from './compact-session.command';

/**
 * Runs `/compact` through the agent loop, so it takes the session's turn slot (409 while a turn
 * runs), uses the agent's provider and model, and closes a cut-off turn first, like a message.
 */
@CommandHandler(CompactSessionCommand)
export class CompactSessionHandler implements ICommandHandler<CompactSessionCommand> {
  constructor(
    private readonly runner: TurnRunner,
    private readonly sessions: SessionRepository,
    private readonly views: SessionViews,
  ) {}

  async execute(command: CompactSessionCommand): Promise<CompactSessionResult> {
    const result = await this.runner.run({ sessionId: command.sessionId, text: COMPACT_COMMAND });
    const compacted = result.reason === 'compacted';
    const code = compacted ? undefined : result.code;
    return {
      compacted,
      ...(code ? { code } : {}),
      detail: result.detail,
      session: this.views.of(await this.sessions.get(command.sessionId)),
    };
  }
}
