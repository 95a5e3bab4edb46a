import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AgentDirectory } from '../../agents/agent-directory';
import { randomCommandId } from '../../server-config';
import { SessionRepository } from '../session-repository';
import { SessionViews } from '../session-views';
import { StartSessionCommand } from './start-session.command';

@CommandHandler(StartSessionCommand)
export class StartSessionHandler implements ICommandHandler<StartSessionCommand> {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly agents: AgentDirectory,
    private readonly views: SessionViews,
  ) {}

  async execute(command: StartSessionCommand) {
    this.agents.get(command.agentId); // an unknown agent is refused before anything is recorded
    const recorded = await this.sessions.record(
      command.sessionId,
      { type: 'StartSession', sessionId: command.sessionId, agentId: command.agentId },
      { commandId: `${command.sessionId}:start:${command.requestId ?? randomCommandId()}` },
    );
    return this.views.of(recorded);
  }
}
