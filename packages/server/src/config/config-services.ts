import type { EventStore } from '@oneclaw/core';
import type { ToolRegistry } from '@oneclaw/tool-registry';
import { AgentDirectory } from '../agents/agent-directory';
import type { SecretRedactor } from '../security/secret-redactor';
import type { ServerConfig } from '../server-config';
import { AgentService } from './agent-service';
import { ConfigRepository } from './config-repository';
import { EnvVarService } from './env-var-service';
import { ConfiguredModelResolver, type ConfiguredModelResolverOptions } from './model-resolver';
import { environmentProvider } from './provider-connection';
import type { ModelListFetcher } from './provider-model-list';
import { ProviderService } from './provider-service';
import { SecretStore } from './secret-store';
import { SettingsService } from './settings-service';
import { ToolEnablement } from './tool-enablement';

export interface ConfigServicesOptions {
  readonly config: ServerConfig;
  readonly store: EventStore;
  /** Learns every secret of the secret store at once, and each new one before it is stored. */
  readonly redactor: SecretRedactor;
  readonly now?: () => Date;
  readonly fetchModels?: ModelListFetcher;
  readonly createClient?: ConfiguredModelResolverOptions['createClient'];
  readonly onLog?: (level: 'info' | 'warn', message: string) => void;
}

/**
 * The configuration of a running server: the `config` stream and the secret store, and the
 * services the config tools, the HTTP API and the agent loop use. Made before the tool runtime
 * (its tools need it); `start` runs once the tool registry is complete.
 */
export class ConfigServices {
  readonly repository: ConfigRepository;
  readonly secrets: SecretStore;
  readonly providers: ProviderService;
  readonly agents: AgentDirectory;
  readonly agentService: AgentService;
  readonly settings: SettingsService;
  readonly envVars: EnvVarService;
  readonly models: ConfiguredModelResolver;
  private stopToolSync: (() => void) | undefined;
  private readonly onLog: ConfigServicesOptions['onLog'];

  private constructor(options: ConfigServicesOptions) {
    const { config, redactor } = options;
    this.onLog = options.onLog;
    this.repository = new ConfigRepository(options.store, {
      ...(options.now ? { now: options.now } : {}),
      onListenerError: (error) => options.onLog?.('warn', `configuration listener failed: ${(error as Error).message}`),
    });
    this.secrets = SecretStore.open(config.dataDir);
    if (this.secrets.permissionsFixed) options.onLog?.('warn', `${this.secrets.file} was readable by other users; its mode is now 0600. Consider rotating the keys in it.`);
    redactor.addAll(this.secrets.values());
    this.providers = new ProviderService({
      repository: this.repository,
      secrets: this.secrets,
      redactor,
      environment: environmentProvider(config.provider),
      fetchModels: options.fetchModels,
    });
    this.agents = AgentDirectory.load(config, this.repository);
    this.agentService = new AgentService(this.repository, this.agents, this.providers);
    // ONECLAW_TIMEZONE (else the system zone) is the `timezone` setting's default.
    this.settings = new SettingsService(this.repository, config.timeZone);
    this.envVars = new EnvVarService(this.repository, this.secrets, redactor, config.toolEnv);
    this.models = new ConfiguredModelResolver(this.repository, this.providers, {
      maxRetries: config.providerMaxRetries,
      ...(options.createClient ? { createClient: options.createClient } : {}),
    });
  }

  static create(options: ConfigServicesOptions): ConfigServices {
    return new ConfigServices(options);
  }

  /** Enablement for this registry (the config tools get it when they are registered). */
  toolEnablement(registry: ToolRegistry): ToolEnablement {
    return new ToolEnablement(registry, this.repository);
  }

  /**
   * Applies the recorded tool enablement to the complete registry (after the JS catalogue has
   * loaded) and keeps it applied as events come in. A store that cannot be read yet (a KurrentDB
   * cluster that is down) does not stop the start: the first read that works applies everything.
   */
  async start(registry: ToolRegistry): Promise<void> {
    this.stopToolSync?.();
    this.stopToolSync = this.toolEnablement(registry).attach();
    try {
      await this.repository.load();
    } catch (error) {
      this.onLog?.('warn', `the configuration stream cannot be read yet (${(error as Error).message}); it is applied at its first successful read`);
    }
  }

  close(): void {
    this.stopToolSync?.();
    this.stopToolSync = undefined;
  }
}
