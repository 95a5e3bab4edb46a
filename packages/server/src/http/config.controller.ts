import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { OneClawError } from '@oneclaw/core';
import { DeleteEnvVarCommand } from '../config/commands/delete-env-var.command';
import { RemoveProviderApiKeyCommand } from '../config/commands/remove-provider-api-key.command';
import { SetEnvVarCommand } from '../config/commands/set-env-var.command';
import { SetProviderApiKeyCommand } from '../config/commands/set-provider-api-key.command';
import { GetConfigEventsQuery } from '../config/queries/get-config-events.query';
import { ListEnvVarsQuery } from '../config/queries/list-env-vars.query';
import { emptyBody, envVarValueBody, providerApiKeyBody, type EnvVarValueBody, type ProviderApiKeyBody } from './body-schemas';
import { ValidateBody } from './validate-body.pipe';
import { IdempotencyKey } from './idempotency-key';

const idempotencyHeader = { name: 'Idempotency-Key', required: false, description: 'Retrying with the same key records the change once.' };

/**
 * The configuration's HTTP side: its audit stream, provider API keys (set here and never through
 * the chat: the model never handles keys) and tool environment variables (write-only, so a
 * secret need not be typed into a conversation). Everything else is changed with the config
 * tools (docs/configuration.md).
 */
@ApiTags('config')
@ApiBearerAuth()
@Controller('api')
export class ConfigController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('config/events')
  @ApiOperation({ summary: 'GetConfigEvents: every configuration change (the `config` stream), oldest first; never holds secrets' })
  @ApiQuery({ name: 'fromRevision', required: false, description: 'First revision to return (default 0).' })
  events(@Query('fromRevision') fromRevision?: string) {
    return this.queries.execute(new GetConfigEventsQuery(revisionFrom(fromRevision)));
  }

  @Put('providers/:id/api-key')
  @HttpCode(204)
  @ApiOperation({ summary: 'SetProviderApiKey: stores the key of a configured provider (write-only; the event records only that a key was set)' })
  @ApiBody({ schema: providerApiKeyBody })
  @ApiHeader(idempotencyHeader)
  async setApiKey(@Param('id') id: string, @Body(new ValidateBody<ProviderApiKeyBody>(providerApiKeyBody)) body: ProviderApiKeyBody, @IdempotencyKey() key?: string) {
    await this.commands.execute(new SetProviderApiKeyCommand(id, body.apiKey, key));
  }

  @Delete('providers/:id/api-key')
  @HttpCode(204)
  @ApiOperation({ summary: 'RemoveProviderApiKey: forgets the key of a configured provider' })
  @ApiHeader(idempotencyHeader)
  async removeApiKey(@Param('id') id: string, @Body(new ValidateBody(emptyBody)) _body: unknown, @IdempotencyKey() key?: string) {
    await this.commands.execute(new RemoveProviderApiKeyCommand(id, key));
  }

  @Get('env-vars')
  @ApiOperation({ summary: 'ListEnvVars: tool environment variables (names and where they come from, never values)' })
  envVars() {
    return this.queries.execute(new ListEnvVarsQuery());
  }

  @Put('env-vars/:name')
  @HttpCode(204)
  @ApiOperation({ summary: 'SetEnvVar: sets a variable tools read as _env.NAME (write-only; the event records only its name)' })
  @ApiBody({ schema: envVarValueBody })
  @ApiHeader(idempotencyHeader)
  async setEnvVar(@Param('name') name: string, @Body(new ValidateBody<EnvVarValueBody>(envVarValueBody)) body: EnvVarValueBody, @IdempotencyKey() key?: string) {
    await this.commands.execute(new SetEnvVarCommand(name, body.value, key));
  }

  @Delete('env-vars/:name')
  @HttpCode(204)
  @ApiOperation({ summary: 'DeleteEnvVar: deletes a variable set through the configuration' })
  @ApiHeader(idempotencyHeader)
  async deleteEnvVar(@Param('name') name: string, @Body(new ValidateBody(emptyBody)) _body: unknown, @IdempotencyKey() key?: string) {
    await this.commands.execute(new DeleteEnvVarCommand(name, key));
  }
}

function revisionFrom(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 0;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new OneClawError('validation_error', `fromRevision must be a whole number, 0 or more (got '${raw}').`);
  return value;
}
