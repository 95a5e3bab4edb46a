import { Inject, Module, type BeforeApplicationShutdown, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_GUARD } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { ThrottlerModule } from '@nestjs/throttler';
import type { EventStore } from '@oneclaw/core';
import type { JsRunner } from '@oneclaw/js-tools';
import { AgentDirectory } from './agents/agent-directory';
import { HealthController } from './http/health.controller';
import { SessionsController } from './http/sessions.controller';
import { ToolsController } from './http/tools.controller';
import type { Logger } from './logging/logger';
import { openEventStore } from './persistence/open-event-store';
import { createModelProvider } from './providers/create-model-provider';
import { API_TOKEN, BearerAuthGuard } from './security/bearer-auth.guard';
import { ClientThrottlerGuard, TRUST_PROXY } from './security/client-tracker';
import { SecretRedactor } from './security/secret-redactor';
import { secretsOf, type ServerConfig } from './server-config';
import { CancelTurnHandler } from './sessions/commands/cancel-turn.handler';
import { ClearSessionHandler } from './sessions/commands/clear-session.handler';
import { LoadToolGroupHandler } from './sessions/commands/load-tool-group.handler';
import { SendMessageHandler } from './sessions/commands/send-message.handler';
import { StartSessionHandler } from './sessions/commands/start-session.handler';
import { UnloadToolGroupHandler } from './sessions/commands/unload-tool-group.handler';
import { GetActiveToolsHandler } from './sessions/queries/get-active-tools.handler';
import { GetAuditTrailHandler } from './sessions/queries/get-audit-trail.handler';
import { GetSessionEventsHandler } from './sessions/queries/get-session-events.handler';
import { GetSessionHandler } from './sessions/queries/get-session.handler';
import { ListSessionsHandler } from './sessions/queries/list-sessions.handler';
import { ListToolGroupsHandler } from './sessions/queries/list-tool-groups.handler';
import { ListToolsHandler } from './sessions/queries/list-tools.handler';
import { SessionIndex } from './sessions/session-index';
import { SessionRepository } from './sessions/session-repository';
import { SessionViews } from './sessions/session-views';
import { EVENT_STORE, LOGGER, SERVER_CONFIG } from './tokens';
import { ToolRuntime } from './tools/tool-runtime';
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
}

const commandHandlers = [StartSessionHandler, SendMessageHandler, LoadToolGroupHandler, UnloadToolGroupHandler, ClearSessionHandler, CancelTurnHandler];
const queryHandlers = [
  GetSessionHandler,
  ListSessionsHandler,
  GetActiveToolsHandler,
  GetSessionEventsHandler,
  ListToolGroupsHandler,
  ListToolsHandler,
  GetAuditTrailHandler,
];

/**
 * Closes what the app opened, in reverse order. Running turns are cancelled before the HTTP
 * server closes (it waits for open streams), so each records its stop and its stream ends.
 */
class Lifecycle implements BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly tools: ToolRuntime,
    private readonly turns: TurnRegistry,
  ) {}

  beforeApplicationShutdown(): void {
    this.turns.cancelAll('the server is shutting down');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.tools.close();
    await this.store.close();
  }
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
        ThrottlerModule.forRoot({ throttlers: [{ name: 'api', ttl: 60_000, limit: config.rateLimitPerMinute }] }),
      ],
      controllers: [HealthController, SessionsController, ToolsController],
      providers: [
        { provide: SERVER_CONFIG, useValue: config },
        { provide: LOGGER, useValue: options.logger },
        { provide: API_TOKEN, useValue: options.apiToken },
        { provide: TRUST_PROXY, useValue: config.trustProxy },
        // Throttle first, so floods of unauthenticated requests are limited too.
        { provide: APP_GUARD, useClass: ClientThrottlerGuard },
        { provide: APP_GUARD, useClass: BearerAuthGuard },
        { provide: EVENT_STORE, useFactory: () => options.eventStore ?? openEventStore(config) },
        {
          provide: SecretRedactor,
          useFactory: () => {
            const redactor = new SecretRedactor();
            for (const secret of [...secretsOf(config), options.apiToken]) redactor.add(secret);
            return redactor;
          },
        },
        {
          provide: ToolRuntime,
          // After the store: a store that fails to open (corrupt, unreachable) must not leave sandbox workers running.
          inject: [EVENT_STORE],
          useFactory: (store: EventStore) =>
            ToolRuntime.start(config, {
              store,
              ...(options.toolRunner ? { runner: options.toolRunner } : {}),
              onLog: (level, message) => options.logger[level]({ component: 'tools' }, message),
            }),
        },
        { provide: AgentDirectory, useFactory: () => AgentDirectory.load(config) },
        TurnRegistry,
        {
          provide: SessionRepository,
          inject: [EVENT_STORE, ToolRuntime],
          useFactory: (store: EventStore, tools: ToolRuntime) => new SessionRepository(store, tools.registry),
        },
        {
          provide: TurnRunner,
          inject: [SessionRepository, ToolRuntime, AgentDirectory, TurnRegistry, SecretRedactor],
          useFactory: (sessions: SessionRepository, tools: ToolRuntime, agents: AgentDirectory, turns: TurnRegistry, redactor: SecretRedactor) =>
            new TurnRunner({
              sessions,
              tools,
              agents,
              turns,
              redactor,
              toolEnv: config.toolEnv,
              provider: config.provider
                ? {
                    config: config.provider,
                    client: createModelProvider({
                      kind: config.provider.kind,
                      maxRetries: config.providerMaxRetries,
                      ...(config.provider.apiKey ? { apiKey: config.provider.apiKey } : {}),
                      ...(config.provider.baseUrl ? { baseUrl: config.provider.baseUrl } : {}),
                    }),
                  }
                : undefined,
            }),
        },
        SessionViews,
        SessionIndex,
        Lifecycle,
        ...commandHandlers,
        ...queryHandlers,
      ],
    };
  }
}
