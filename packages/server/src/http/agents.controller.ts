import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreateAgentCommand } from '../config/commands/create-agent.command';
import { DeleteAgentCommand } from '../config/commands/delete-agent.command';
import { UpdateAgentCommand } from '../config/commands/update-agent.command';
import { ListAgentsQuery } from '../config/queries/list-agents.query';
import { createAgentBody, emptyBody, updateAgentBody, type CreateAgentBody, type UpdateAgentBody } from './body-schemas';
import { notFoundInPath } from './resource-not-found';
import { ValidateBody } from './validate-body.pipe';
import { IdempotencyKey } from './idempotency-key';

const idempotencyHeader = { name: 'Idempotency-Key', required: false, description: 'Retrying with the same key records the change once.' };

/**
 * Agents for the settings screens, through the same service as create_agent and the agent tools.
 * An unknown id in the URL is `404 agent_not_found` (in a session start body it stays a 400).
 */
@ApiTags('agents')
@ApiBearerAuth()
@Controller('api/agents')
export class AgentsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ summary: 'ListAgents: the default agent, agents.json and those of the configuration, with their system prompts' })
  list() {
    return this.queries.execute(new ListAgentsQuery());
  }

  @Post()
  @ApiOperation({ summary: 'CreateAgent: a named assistant with its own system prompt; a session can start with it at once' })
  @ApiBody({ schema: createAgentBody })
  @ApiHeader(idempotencyHeader)
  create(@Body(new ValidateBody<CreateAgentBody>(createAgentBody)) body: CreateAgentBody, @IdempotencyKey() key?: string) {
    return this.commands.execute(new CreateAgentCommand(body, key));
  }

  @Patch(':id')
  @ApiOperation({ summary: 'UpdateAgent: changes the fields given (null clears an optional one); default and agents.json agents too' })
  @ApiBody({ schema: updateAgentBody })
  @ApiHeader(idempotencyHeader)
  update(@Param('id') id: string, @Body(new ValidateBody<UpdateAgentBody>(updateAgentBody)) body: UpdateAgentBody, @IdempotencyKey() key?: string) {
    return this.commands.execute(new UpdateAgentCommand(id, body, key)).catch(notFoundInPath('agent_not_found'));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'DeleteAgent: deletes an agent of the configuration (the default agent and agents.json ones are read-only)' })
  @ApiHeader(idempotencyHeader)
  async delete(@Param('id') id: string, @Body(new ValidateBody(emptyBody)) _body: unknown, @IdempotencyKey() key?: string) {
    await this.commands.execute(new DeleteAgentCommand(id, key)).catch(notFoundInPath('agent_not_found'));
  }
}
