import { Body, Controller, Get, HttpCode, Param, Put } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { ToolsAnswer } from '@oneclaw/api-contract';
import { SetToolEnabledCommand } from '../config/commands/set-tool-enabled.command';
import { ListToolGroupsQuery } from '../sessions/queries/list-tool-groups.query';
import { ListToolsQuery } from '../sessions/queries/list-tools.query';
import { toolEnabledBody, type ToolEnabledBody } from './body-schemas';
import { ValidateBody } from './validate-body.pipe';
import { IdempotencyKey } from './idempotency-key';

const idempotencyHeader = { name: 'Idempotency-Key', required: false, description: 'Retrying with the same key records the change once.' };

@ApiTags('tools')
@ApiBearerAuth()
@Controller('api')
export class ToolsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('tool-groups')
  @ApiOperation({ summary: 'ListToolGroups: every group with its tools and schema tokens, and the tokens of the core and of every enabled tool' })
  groups() {
    return this.queries.execute(new ListToolGroupsQuery());
  }

  @Get('tools')
  @ApiOperation({ summary: 'ListTools: every tool, grouped by source file (settings screen)' })
  async tools(): Promise<ToolsAnswer> {
    return { sources: await this.queries.execute(new ListToolsQuery()) };
  }

  @Put('tools/:name/enabled')
  @HttpCode(204)
  @ApiOperation({ summary: 'SetToolEnabled: enables or disables one tool (load_tool_group and set_tool_enabled cannot be disabled)' })
  @ApiBody({ schema: toolEnabledBody })
  @ApiHeader(idempotencyHeader)
  async setToolEnabled(@Param('name') name: string, @Body(new ValidateBody<ToolEnabledBody>(toolEnabledBody)) body: ToolEnabledBody, @IdempotencyKey() key?: string) {
    await this.commands.execute(new SetToolEnabledCommand(name, 'tool', body.enabled, key));
  }

  @Put('tool-groups/:name/enabled')
  @HttpCode(204)
  @ApiOperation({ summary: 'SetToolEnabled (group): enables or disables a whole group (the config group cannot be disabled)' })
  @ApiBody({ schema: toolEnabledBody })
  @ApiHeader(idempotencyHeader)
  async setGroupEnabled(@Param('name') name: string, @Body(new ValidateBody<ToolEnabledBody>(toolEnabledBody)) body: ToolEnabledBody, @IdempotencyKey() key?: string) {
    await this.commands.execute(new SetToolEnabledCommand(name, 'group', body.enabled, key));
  }
}
