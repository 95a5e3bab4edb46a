import { settingDefinition, type SettingDefinition } from '@oneclaw/core';
import type { ChangeOrigin, ConfigRepository } from './config-repository';

export interface SettingView {
  readonly key: string;
  readonly value: string;
  /** True when nothing was set and this is the default. */
  readonly isDefault: boolean;
  readonly description: string;
}

/** The known settings (theme_mode, timezone), validated by the configuration decider. */
export class SettingsService {
  constructor(
    private readonly repository: ConfigRepository,
    /** ONECLAW_TIMEZONE, else the system zone (ServerConfig.timeZone). */
    private readonly defaultTimeZone: string,
  ) {}

  async get(key: string): Promise<SettingView> {
    const definition = settingDefinition(key);
    return this.viewOf(definition, (await this.repository.load()).settings.get(key));
  }

  async set(key: string, value: string, origin?: ChangeOrigin): Promise<SettingView & { readonly changed: boolean }> {
    const recorded = await this.repository.record({ type: 'SetSetting', key, value }, origin);
    return { ...this.viewOf(settingDefinition(key), recorded.state.settings.get(key)), changed: recorded.events.length > 0 };
  }

  /**
   * The IANA time zone for dates and schedules (scheduled tasks): the `timezone` setting, else the
   * server's. From the cached configuration (no I/O); call `refresh` first to see other replicas' changes.
   */
  timeZone(): string {
    return this.repository.cached.settings.get('timezone') ?? this.defaultTimeZone;
  }

  async refresh(): Promise<void> {
    await this.repository.load();
  }

  private viewOf(definition: SettingDefinition, value: string | undefined): SettingView {
    const fallback = definition.defaultValue ?? (definition.key === 'timezone' ? this.defaultTimeZone : '');
    return { key: definition.key, value: value ?? fallback, isDefault: value === undefined, description: definition.description };
  }
}
