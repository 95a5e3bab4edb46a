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
  @ApiOperation({ summary: 'The configured agents' })
  listAgents() {
    return {
      agents: this.agents.list().map((a) => ({
        id: a.id,
        name: a.name,
        maxRounds: a.maxRounds,
        ...(a.model ? { model: a.model } : {}),
        ...(a.allowedTools ? { allowedTools: [...a.allowedTools] } : {}),
      })),
    };
  }
}
