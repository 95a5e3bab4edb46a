import { Command } from '@nestjs/cqrs';
import type { AgentView } from '@oneclaw/api-contract';

/** Creates an agent in the configuration; a session can start with it at once. */
export class CreateAgentCommand extends Command<AgentView> {
  constructor(
    readonly agent: { readonly name: string; readonly description?: string; readonly systemPrompt: string },
    readonly requestId?: string,
  ) {
    super();
  }
}
