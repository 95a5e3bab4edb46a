import { Module, type DynamicModule, type Provider, type Type } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_GUARD } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { ThrottlerModule } from '@nestjs/throttler';
import type { EventStore } from '@oneclaw/core';
import type { JsRunner } from '@oneclaw/js-tools';
import { AgentDirectory } from './agents/agent-directory';
import { AddProviderModelHandler } from './config/commands/add-provider-model.handler';
import { CreateAgentHandler } from './config/commands/create-agent.handler';
import { CreateProviderHandler } from './config/commands/create-provider.handler';
import { DeleteAgentHandler } from './config/commands/delete-agent.handler';
import { DeleteEnvVarHandler } from './config/commands/delete-env-var.handler';
import { DeleteProviderModelHandler } from './config/commands/delete-provider-model.handler';
import { DeleteProviderHandler } from './config/commands/delete-provider.handler';
import { FetchProviderModelsHandler } from './config/commands/fetch-provider-models.handler';
import { RemoveProviderApiKeyHandler } from './config/commands/remove-provider-api-key.handler';
import { SetDefaultModelHandler } from './config/commands/set-default-model.handler';
import { SetModelReasoningHandler } from './config/commands/set-model-reasoning.handler';
import { SetEnvVarHandler } from './config/commands/set-env-var.handler';
import { SetProviderApiKeyHandler } from './config/commands/set-provider-api-key.handler';
import { SetToolEnabledHandler } from './config/commands/set-tool-enabled.handler';
import { UpdateAgentHandler } from './config/commands/update-agent.handler';
import { UpdateProviderHandler } from './config/commands/update-provider.handler';
import { ConfigLifecycle } from './config/config-lifecycle';
import { ConfigServices } from './config/config-services';
import { GetConfigEventsHandler } from './config/queries/get-config-events.handler';
import { ListAgentsHandler } from './config/queries/list-agents.handler';
import { ListEnvVarsHandler } from './config/queries/list-env-vars.handler';
import { ListProvidersHandler } from './config/queries/list-providers.handler';
import { AttachmentStore } from './attachments/attachment-store';
import { AppLifecycle } from './app-lifecycle';
import { composeRuntime, type Runtime } from './composition';
import { AgentsController } from './http/agents.controller';
import { AttachmentsController } from './http/attachments.controller';
import { ConfigController } from './http/config.controller';
import { HealthController } from './http/health.controller';
import { ProvidersController } from './http/providers.controller';
import { SessionsController } from './http/sessions.controller';
import { ToolsController } from './http/tools.controller';
import type { Logger } from './logging/logger';
import { openEventStore } from './persistence/open-event-store';
import { ScheduledTaskService } from './scheduled-tasks/scheduled-task-service';
import { ScheduledTasksLifecycle } from './scheduled-tasks/scheduled-tasks-lifecycle';
import { TaskScheduler } from './scheduled-tasks/task-scheduler';
import { API_TOKEN, BearerAuthGuard } from './security/bearer-auth.guard';
import { ClientThrottlerGuard, TRUST_PROXY } from './security/client-tracker';
import { RateLimitStorage } from './security/rate-limit-storage';
import { SecretRedactor } from './security/secret-redactor';
import type { ServerConfig } from './server-config';
import { CancelTurnHandler } from './sessions/commands/cancel-turn.handler';
import { ClearSessionHandler } from './sessions/commands/clear-session.handler';
import { CompactSessionHandler } from './sessions/commands/compact-session.handler';
import { ConversationCompactor } from './turns/conversation-compactor';
import { LoadToolGroupHandler } from './sessions/commands/load-tool-group.handler';
import { SendMessageHandler } from './sessions/commands/send-message.handler';
import { RetryTurnHandler } from './sessions/commands/retry-turn.handler';
import { EditMessageHandler } from './sessions/commands/edit-message.handler';
import { StartSessionHandler } from './sessions/commands/start-session.handler';
import { UnloadToolGroupHandler } from './sessions/commands/unload-tool-group.handler';
import { GetActiveToolsHandler } from './sessions/queries/get-active-tools.handler';
import { GetAuditTrailHandler } from './sessions/queries/get-audit-trail.handler';
import { GetSessionEventsHandler } from './sessions/queries/get-session-events.handler';
import { GetSessionHandler } from './sessions/queries/get-session.handler';
import { ListSessionsHandler } from './sessions/queries/list-sessions.handler';
import { RenameSessionHandler } from './sessions/commands/rename-session.handler';
import { ArchiveSessionHandler } from './sessions/commands/archive-session.handler';
import { ListToolGroupsHandler } from './sessions/queries/list-tool-groups.handler';
import { ListToolsHandler } from './sessions/queries/list-tools.handler';
import { SessionIndex } from './sessions/session-index';
import { SessionRepository } from './sessions/session-repository';
import { SessionViews } from './sessions/session-views';
import { EVENT_STORE, LOGGER, RUNTIME, SERVER_CONFIG } from './tokens';
import { ToolRuntime } from './tools/tool-runtime';
import { CutOffTurns } from './turns/cut-off-turns';
import { CutOffTurnsLifecycle } from './turns/cut-off-turns-lifecycle';
import { ServerIdentity } from './turns/server-identity';
import { TurnRegistry } from './turns/turn-registry';
import { TurnRunner } from './turns/turn-runner';

export interface AppOptions {
  readonly config: ServerConfig;
  /** The bearer token every API call must carry (see security/api-token.ts). */
  readonly apiToken: string;
  readonly logger: Logger;
  /** Overrides the store chosen from config (tests pass an in-memory or prepared store). */
  readonly eventStore?: EventStore;
  /** Overrides the worker-thread sandbox (tests and benchmarks run tools in process). */
  readonly toolRunner?: JsRunner;
  /**
   * The logger's redactor, so secrets learnt at run time (a provider key, a tool env value) are
   * scrubbed from log lines too; a new one otherwise.
   */
  readonly redactor?: SecretRedactor;
}

const commandHandlers = [
  SetProviderApiKeyHandler,
  RemoveProviderApiKeyHandler,
  SetEnvVarHandler,
  DeleteEnvVarHandler,
  CreateProviderHandler,
  UpdateProviderHandler,
  DeleteProviderHandler,
  FetchProviderModelsHandler,
  AddProviderModelHandler,
  DeleteProviderModelHandler,
  SetDefaultModelHandler,
  SetModelReasoningHandler,
  CreateAgentHandler,
  UpdateAgentHandler,
  DeleteAgentHandler,
  SetToolEnabledHandler,
  StartSessionHandler,
  SendMessageHandler,
  LoadToolGroupHandler,
  UnloadToolGroupHandler,
  ClearSessionHandler,
  CompactSessionHandler,
  CancelTurnHandler,
  RetryTurnHandler,
  EditMessageHandler,
  RenameSessionHandler,
  ArchiveSessionHandler,
];
const queryHandlers = [
  GetSessionHandler,
  ListSessionsHandler,
  GetActiveToolsHandler,
  GetSessionEventsHandler,
  ListToolGroupsHandler,
  ListToolsHandler,
  GetAuditTrailHandler,
  GetConfigEventsHandler,
  ListEnvVarsHandler,
  ListProvidersHandler,
  ListAgentsHandler,
];

/** Serves one object of the composed runtime under its class, for Nest to inject. */
function fromRuntime<T>(provide: { prototype: T }, pick: (runtime: Runtime) => T): Provider {
  return { provide: provide as Type<T>, inject: [RUNTIME], useFactory: pick };
}

@Module({})
export class AppModule {
  static forRoot(options: AppOptions): DynamicModule {
    const { config } = options;
    return {
      module: AppModule,
      imports: [
        // The config is read and checked once (loadServerConfig); ConfigService serves it to anything that asks.
        ConfigModule.forRoot({ ignoreEnvFile: true, isGlobal: true, load: [() => ({ server: config })] }),
        CqrsModule.forRoot(),
        // RateLimitStorage: the stock storage's rules at a constant cost per request (its file says why).
        ThrottlerModule.forRoot({ throttlers: [{ name: 'api', ttl: 60_000, limit: config.rateLimitPerMinute }], storage: new RateLimitStorage() }),
      ],
      controllers: [HealthController, SessionsController, ToolsController, ConfigController, ProvidersController, AgentsController, AttachmentsController],
      providers: [
        { provide: SERVER_CONFIG, useValue: config },
        { provide: LOGGER, useValue: options.logger },
        { provide: API_TOKEN, useValue: options.apiToken },
        { provide: TRUST_PROXY, useValue: config.trustProxy },
        // Throttle first, so floods of unauthenticated requests are limited too.
        { provide: APP_GUARD, useClass: ClientThrottlerGuard },
        { provide: APP_GUARD, useClass: BearerAuthGuard },
        { provide: EVENT_STORE, useFactory: () => options.eventStore ?? openEventStore(config) },
        // Every long-lived object, built in order by one function (composition.ts: the order and the one cycle).
        { provide: RUNTIME, inject: [EVENT_STORE], useFactory: (store: EventStore) => composeRuntime({ ...options, store }) },
        fromRuntime(SecretRedactor, (r) => r.redactor),
        fromRuntime(ConfigServices, (r) => r.config),
        fromRuntime(ScheduledTaskService, (r) => r.scheduledTasks),
        fromRuntime(TaskScheduler, (r) => r.scheduler),
        fromRuntime(AttachmentStore, (r) => r.attachments),
        fromRuntime(ToolRuntime, (r) => r.tools),
        fromRuntime(AgentDirectory, (r) => r.agents),
        fromRuntime(TurnRegistry, (r) => r.turns),
        fromRuntime(SessionRepository, (r) => r.sessions),
        fromRuntime(ServerIdentity, (r) => r.identity),
        fromRuntime(SessionIndex, (r) => r.sessionIndex),
        fromRuntime(CutOffTurns, (r) => r.cutOffTurns),
        fromRuntime(ConversationCompactor, (r) => r.compactor),
        fromRuntime(TurnRunner, (r) => r.runner),
        SessionViews,
        AppLifecycle,
        CutOffTurnsLifecycle,
        ConfigLifecycle,
        ScheduledTasksLifecycle,
        ...commandHandlers,
        ...queryHandlers,
      ],
    };
  }
}
