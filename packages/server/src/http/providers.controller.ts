import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { ModelsAnswer } from '@oneclaw/api-contract';
import { AddProviderModelCommand } from '../config/commands/add-provider-model.command';
import { CreateProviderCommand } from '../config/commands/create-provider.command';
import { DeleteProviderModelCommand } from '../config/commands/delete-provider-model.command';
import { DeleteProviderCommand } from '../config/commands/delete-provider.command';
import { FetchProviderModelsCommand } from '../config/commands/fetch-provider-models.command';
import { SetDefaultModelCommand } from '../config/commands/set-default-model.command';
import { SetModelReasoningCommand } from '../config/commands/set-model-reasoning.command';
import { UpdateProviderCommand } from '../config/commands/update-provider.command';
import { ListProvidersQuery } from '../config/queries/list-providers.query';
import {
  addModelBody,
  createProviderBody,
  defaultModelBody,
  emptyBody,
  modelChangesBody,
  updateProviderBody,
  type AddModelBody,
  type CreateProviderBody,
  type DefaultModelBody,
  type ModelChangesBody,
  type UpdateProviderBody,
} from './body-schemas';
import { ValidateBody } from './validate-body.pipe';
import { IdempotencyKey } from './idempotency-key';

const idempotencyHeader = { name: 'Idempotency-Key', required: false, description: 'Retrying with the same key records the change once.' };

/**
 * Providers and their models for the settings screens: the same services as the config tools
 * (docs/configuration.md), so a change made here or in the chat is one and the same event. Keys
 * are write-only (here and PUT /api/providers/:id/api-key); views say only whether one is stored.
 */
@ApiTags('providers')
@ApiBearerAuth()
@Controller('api')
export class ProvidersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('providers')
  @ApiOperation({ summary: 'ListProviders: every provider (env first) with its models and whether a key is stored, and the default model' })
  providers() {
    return this.queries.execute(new ListProvidersQuery());
  }

  @Post('providers')
  @ApiOperation({ summary: 'CreateProvider: adds a provider; apiKey, when given, goes to the secret store (never into events)' })
  @ApiBody({ schema: createProviderBody })
  @ApiHeader(idempotencyHeader)
  create(@Body(new ValidateBody<CreateProviderBody>(createProviderBody)) body: CreateProviderBody, @IdempotencyKey() key?: string) {
    return this.commands.execute(new CreateProviderCommand({ name: body.name, kind: body.kind, apiBaseUrl: body.apiBaseUrl }, body.apiKey, key));
  }

  @Patch('providers/:id')
  @ApiOperation({ summary: 'UpdateProvider: changes the name, base URL or whether the provider is active (env is read-only)' })
  @ApiBody({ schema: updateProviderBody })
  @ApiHeader(idempotencyHeader)
  update(@Param('id') id: string, @Body(new ValidateBody<UpdateProviderBody>(updateProviderBody)) body: UpdateProviderBody, @IdempotencyKey() key?: string) {
    return this.commands.execute(new UpdateProviderCommand(id, body, key));
  }

  @Delete('providers/:id')
  @HttpCode(204)
  @ApiOperation({ summary: 'DeleteProvider: deletes a provider with its model list and stored key (env cannot be deleted)' })
  @ApiHeader(idempotencyHeader)
  async delete(@Param('id') id: string, @Body(new ValidateBody(emptyBody)) _body: unknown, @IdempotencyKey() key?: string) {
    await this.commands.execute(new DeleteProviderCommand(id, key));
  }

  @Post('providers/:id/models/fetch')
  @HttpCode(200)
  @ApiOperation({ summary: "FetchProviderModels: asks the provider's model-list API and records the list (models added by hand stay)" })
  @ApiHeader(idempotencyHeader)
  async fetchModels(@Param('id') id: string, @Body(new ValidateBody(emptyBody)) _body: unknown, @IdempotencyKey() key?: string): Promise<ModelsAnswer> {
    return { models: await this.commands.execute(new FetchProviderModelsCommand(id, key)) };
  }

  @Post('providers/:id/models')
  @HttpCode(200)
  @ApiOperation({ summary: "AddProviderModel: adds a model to the provider's list by hand" })
  @ApiBody({ schema: addModelBody })
  @ApiHeader(idempotencyHeader)
  async addModel(@Param('id') id: string, @Body(new ValidateBody<AddModelBody>(addModelBody)) body: AddModelBody, @IdempotencyKey() key?: string): Promise<ModelsAnswer> {
    return { models: await this.commands.execute(new AddProviderModelCommand(id, body.modelId, body.displayName, key)) };
  }

  @Patch('providers/:id/models/:modelId')
  @ApiOperation({ summary: 'SetModelReasoning: how hard the model is asked to think (low, medium, high; null: the provider\u2019s default); answers the provider\u2019s models' })
  @ApiBody({ schema: modelChangesBody })
  @ApiHeader(idempotencyHeader)
  async changeModel(
    @Param('id') id: string,
    @Param('modelId') modelId: string,
    @Body(new ValidateBody<ModelChangesBody>(modelChangesBody)) body: ModelChangesBody,
    @IdempotencyKey() key?: string,
  ): Promise<ModelsAnswer> {
    return { models: await this.commands.execute(new SetModelReasoningCommand(id, modelId, body.reasoning, key)) };
  }

  @Delete('providers/:id/models/:modelId')
  @HttpCode(204)
  @ApiOperation({ summary: "DeleteProviderModel: removes a model from the provider's list" })
  @ApiHeader(idempotencyHeader)
  async deleteModel(@Param('id') id: string, @Param('modelId') modelId: string, @Body(new ValidateBody(emptyBody)) _body: unknown, @IdempotencyKey() key?: string) {
    await this.commands.execute(new DeleteProviderModelCommand(id, modelId, key));
  }

  @Put('default-model')
  @HttpCode(204)
  @ApiOperation({ summary: 'SetDefaultModel: the model new turns use for every agent without a preferred provider' })
  @ApiBody({ schema: defaultModelBody })
  @ApiHeader(idempotencyHeader)
  async setDefaultModel(@Body(new ValidateBody<DefaultModelBody>(defaultModelBody)) body: DefaultModelBody, @IdempotencyKey() key?: string) {
    await this.commands.execute(new SetDefaultModelCommand(body.providerId, body.modelId, key));
  }
}
