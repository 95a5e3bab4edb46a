import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { OneClawError } from '@oneclaw/core';
import { ToolRuntime } from '../../tools/tool-runtime';
import { ConfigServices } from '../config-services';
import { requestOrigin } from './request-origin';
import { SetToolEnabledCommand } from './set-tool-enabled.command';

@CommandHandler(SetToolEnabledCommand)
export class SetToolEnabledHandler implements ICommandHandler<SetToolEnabledCommand> {
  constructor(
    private readonly config: ConfigServices,
    private readonly tools: ToolRuntime,
  ) {}

  async execute(command: SetToolEnabledCommand): Promise<void> {
    const { name, target, enabled } = command;
    const origin = requestOrigin(`${target}-enabled:${name}`, command.requestId);
    await this.config
      .toolEnablement(this.tools.registry)
      .set(name, enabled, target, origin)
      .catch((error: unknown) => {
        // The enablement's `not_found` speaks to the model (list_tool_states); a client gets a code per kind and the route to list them.
        if (error instanceof OneClawError && error.code === 'not_found') {
          throw target === 'group'
            ? new OneClawError('group_not_found', `No tool group '${name}'. GET /api/tool-groups lists them.`, { name })
            : new OneClawError(
                'tool_not_found',
                `No tool '${name}'. GET /api/tools lists them${this.tools.registry.hasGroup(name) ? `; '${name}' is a group: PUT /api/tool-groups/${name}/enabled` : ''}.`,
                { name },
              );
        }
        throw error;
      });
  }
}
