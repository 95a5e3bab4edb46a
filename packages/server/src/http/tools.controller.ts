import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AgentDirectory } from '../agents/agent-directory';
import { ListToolGroupsQuery } from '../sessions/queries/list-tool-groups.query';
import { ListToolsQuery } from '../sessions/queries/list-tools.query';

@ApiTags('tools')
@ApiBearerAuth()
@Controller('api')
export class ToolsController {
  constructor(
    private readonly queries: QueryBus,
    private readonly agents: AgentDirectory,
  ) {}

  @Get('tool-groups')
  @ApiOperation({ summary: 'ListToolGroups: every group with its tools' })
  async groups() {
    return { groups: await this.queries.execute(new ListToolGroupsQuery()) };
  }

  @Get('tools')
  @ApiOperation({ summary: 'ListTools: every tool, grouped by source file (settings screen)' })
  async tools() {
    return { sources: await this.queries.execute(new ListToolsQuery()) };
  }

  @Get('agents')
  @ApiOperation({ summary: 'The configured agents: the default one, agents.json and those created with create_agent' })
  async listAgents() {
    await this.agents.refresh();
    return {
      agents: this.agents.list().map((a) => ({
        id: a.id,
        name: a.name,
        ...(a.description ? { description: a.description } : {}),
        // default, file (agents.json) or config (create_agent): docs/configuration.md
        source: a.source,
        ...(a.preferredProviderId ? { preferredProviderId: a.preferredProviderId } : {}),
        ...(a.preferredModelId ? { preferredModelId: a.preferredModelId } : {}),
        maxRounds: a.maxRounds,
        ...(a.model ? { model: a.model } : {}),
        ...(a.allowedTools ? { allowedTools: [...a.allowedTools] } : {}),
      })),
    };
  }
}
