import { Command } from '@nestjs/cqrs';

/** Deletes an agent of the configuration; the default agent and agents of agents.json cannot be deleted. */
export class DeleteAgentCommand extends Command<void> {
  constructor(
    readonly agentId: string,
    readonly requestId?: string,
  ) {
    super();
  }
}
