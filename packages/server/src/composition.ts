import type { EventStore, SnapshotStore } from '@oneclaw/core';
import type { JsRunner } from '@oneclaw/js-tools';
import type { AgentDirectory } from './agents/agent-directory';
import { AttachmentStore } from './attachments/attachment-store';
import { ConfigServices } from './config/config-services';
import type { Logger } from './logging/logger';
import { ScheduledTaskService } from './scheduled-tasks/scheduled-task-service';
import type { TaskRunLauncher } from './scheduled-tasks/task-run-launcher';
import { TaskScheduler } from './scheduled-tasks/task-scheduler';
import { TurnRunLauncher } from './scheduled-tasks/turn-run-launcher';
import { SecretRedactor } from './security/secret-redactor';
import { secretsOf, type ServerConfig } from './server-config';
import { SessionIndex } from './sessions/session-index';
import { SessionCheckpoints } from './sessions/session-checkpoints';
import { SessionRepository } from './sessions/session-repository';
import { snapshotStoreFor } from './persistence/snapshot-store-for';
import { ToolRuntime } from './tools/tool-runtime';
import { ConversationCompactor } from './turns/conversation-compactor';
import { CutOffTurns } from './turns/cut-off-turns';
import { ServerIdentity } from './turns/server-identity';
import { TurnRegistry } from './turns/turn-registry';
import { TurnRunner } from './turns/turn-runner';

export interface RuntimeOptions {
  readonly config: ServerConfig;
  /** Opened by the caller first: a store that fails to open must not leave sandbox workers running. */
  readonly store: EventStore;
  /** The bearer token every API call must carry (see security/api-token.ts); the redactor learns it like the provider keys. */
  readonly apiToken: string;
  readonly logger: Logger;
  /** Overrides the worker-thread sandbox (tests and benchmarks run tools in process). */
  readonly toolRunner?: JsRunner;
  /**
   * The logger's redactor, so secrets learnt at run time (a provider key, a tool env value) are
   * scrubbed from log lines too; a new one otherwise.
   */
  readonly redactor?: SecretRedactor;
  /**
   * Where session snapshots go (F4); by default the store's own (SQLite has one), null for none:
   * then a cold load replays the whole stream.
   */
  readonly snapshots?: SnapshotStore | null;
}

/** Every long-lived object of a running server, built once by `composeRuntime`. */
export interface Runtime {
  readonly redactor: SecretRedactor;
  readonly config: ConfigServices;
  readonly scheduledTasks: ScheduledTaskService;
  readonly scheduler: TaskScheduler;
  readonly attachments: AttachmentStore;
  readonly tools: ToolRuntime;
  readonly agents: AgentDirectory;
  readonly turns: TurnRegistry;
  readonly sessions: SessionRepository;
  /** Session snapshots, when the store has a snapshot store and they are not turned off. */
  readonly checkpoints?: SessionCheckpoints;
  readonly identity: ServerIdentity;
  readonly sessionIndex: SessionIndex;
  readonly cutOffTurns: CutOffTurns;
  readonly compactor: ConversationCompactor;
  readonly runner: TurnRunner;
}

/**
 * The composition root: builds the server's objects in dependency order, in plain code, so the
 * order and the one cycle are visible in one place (docs/composition.md). It only constructs;
 * nothing here reads the store or starts timers. The lifecycles do that once Nest has the
 * objects: CutOffTurnsLifecycle closes cut-off turns, ConfigLifecycle applies the recorded tool
 * enablement to the complete registry, ScheduledTasksLifecycle finishes cut-off runs and starts
 * the scheduler.
 *
 * The cycle: the tools need the scheduled tasks (the scheduled_tasks tools), the scheduled tasks
 * need to run turns, and the turn runner needs the tools. It is broken by a port: the task
 * service gets a `TaskRunLauncher` whose `run` calls `taskTurns`, the launcher made at the end
 * from the finished runner. That `const` is assigned before this function returns, and the
 * service calls the port only for a run, which it refuses (`scheduler_not_ready`) until
 * ScheduledTasksLifecycle starts it at bootstrap; so no call can find it unassigned.
 */
export function composeRuntime(options: RuntimeOptions): Runtime {
  const { config, store, logger } = options;
  const log =
    (component: string) =>
    (level: 'info' | 'warn', message: string): void =>
      logger[level]({ component }, message);

  const redactor = options.redactor ?? new SecretRedactor();
  for (const secret of [...secretsOf(config), options.apiToken]) redactor.add(secret);

  // Before the tools: the config tools and create_agent use it.
  const configServices = ConfigServices.create({ config, store, redactor, onLog: log('config') });

  // The port that breaks the cycle (see above): `taskTurns` is assigned at the end of this function.
  const launcher: TaskRunLauncher = { run: (request) => taskTurns.run(request) };
  // Before the tools: the scheduled_tasks tools use it.
  const scheduledTasks = new ScheduledTaskService({
    store,
    launcher,
    // The `timezone` setting (set_config), else ONECLAW_TIMEZONE / the system zone.
    timeZone: () => configServices.settings.timeZone(),
    refreshTimeZone: () => configServices.settings.refresh(),
    redact: (text) => redactor.redactText(text),
    log: log('scheduled-tasks'),
  });
  const scheduler = new TaskScheduler({ service: scheduledTasks, log: log('scheduled-tasks') });
  const attachments = new AttachmentStore(config.attachmentsDir, { maxBytes: config.attachmentMaxBytes });

  const tools = ToolRuntime.start(config, {
    store,
    scheduledTasks,
    config: configServices,
    attachments,
    redactor,
    ...(options.toolRunner ? { runner: options.toolRunner } : {}),
    onLog: log('tools'),
  });

  const agents = configServices.agents;
  const turns = new TurnRegistry();
  const snapshots = options.snapshots === undefined ? snapshotStoreFor(store) : options.snapshots;
  const checkpoints =
    snapshots && config.snapshotEveryEvents !== 0
      ? new SessionCheckpoints({ store, snapshots, ...(config.snapshotEveryEvents ? { every: config.snapshotEveryEvents } : {}), log: log('snapshots') })
      : undefined;
  const sessions = new SessionRepository(store, tools.registry, undefined, checkpoints, {
    maxCachedBytes: config.sessionCacheBytes,
    onEvict: (sessionId, bytes, cache) =>
      logger.debug({ component: 'sessions', sessionId, evictedBytes: bytes, cache }, 'session cache full: dropped the least recently used session'),
  });
  const identity = new ServerIdentity(config.replicaId, config.turnSilenceLimitMs);
  const sessionIndex = new SessionIndex(store);
  const cutOffTurns = new CutOffTurns({ index: sessionIndex, sessions, turns, identity, log: log('turns') });
  const compactor = new ConversationCompactor({
    sessions,
    redactor,
    ...(config.contextWindowTokens !== undefined ? { contextWindowTokens: config.contextWindowTokens } : {}),
  });
  const runner = new TurnRunner({
    sessions,
    tools,
    agents,
    turns,
    redactor,
    models: configServices.models,
    toolEnv: () => configServices.envVars.toolEnv(),
    cutOffTurns,
    identity,
    maxAppendBytes: config.maxAppendBytes,
    compactor,
    attachments,
  });
  // Closes the cycle: from here on the task service's launcher runs real turns.
  const taskTurns = new TurnRunLauncher(sessions, runner, agents);

  return {
    redactor,
    config: configServices,
    scheduledTasks,
    scheduler,
    attachments,
    tools,
    agents,
    turns,
    sessions,
    ...(checkpoints ? { checkpoints } : {}),
    identity,
    sessionIndex,
    cutOffTurns,
    compactor,
    runner,
  };
}
