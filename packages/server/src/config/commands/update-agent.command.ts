import { Command } from '@nestjs/cqrs';
import type { AgentChanges } from '@oneclaw/core';
import type { AgentView } from '@oneclaw/api-contract';

/**
 * Changes an agent; `null` clears an optional field. The default agent and agents of agents.json
 * can be changed too (an overlay kept in the configuration; the file is never written).
 */
export class UpdateAgentCommand extends Command<AgentView> {
  constructor(
    readonly agentId: string,
    readonly changes: AgentChanges,
    readonly requestId?: string,
  ) {
    super();
  }
}
