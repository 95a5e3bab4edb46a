import { randomUUID } from 'node:crypto';
import { configErrors, type ConfigState } from '@oneclaw/core';
import type { SecretRedactor } from '../security/secret-redactor';
import { ConfigRepository, type ChangeOrigin } from './config-repository';
import { PerKeyQueue } from '../persistence/per-key-queue';
import type { SecretStore } from './secret-store';

/** A value longer than this is refused (it is a variable, not a file). */
export const MAX_ENV_VALUE_CHARS = 16_384;

/** A tool environment variable as listed: never its value, only where it comes from. */
export interface EnvVarView {
  readonly name: string;
  /** `configuration`: set with manage_env_var; `environment`: ONECLAW_ENV_<name> of the server process. */
  readonly source: 'configuration' | 'environment';
  /** False when it was set through another replica and this server does not hold the value. */
  readonly valueAvailable: boolean;
  /** A configuration value that hides an ONECLAW_ENV_ variable of the same name. */
  readonly overridesEnvironment?: boolean;
}

/**
 * The variables tools read as `_env.NAME`: ONECLAW_ENV_* from the server's environment, and those
 * set with manage_env_var, whose values live in the secret store (the event holds only the
 * name). A variable set here wins over an environment one of the same name. Values are
 * write-only: they are handed to tools and to the redactor, never back to the model.
 */
export class EnvVarService {
  /** Changes of one variable, one at a time: each writes the secret file and the stream (persistence/per-key-queue.ts). */
  private readonly changes = new PerKeyQueue();

  constructor(
    private readonly repository: ConfigRepository,
    private readonly secrets: SecretStore,
    private readonly redactor: SecretRedactor,
    /** ONECLAW_ENV_* of the server process, without the prefix. */
    private readonly environment: Readonly<Record<string, string>>,
  ) {}

  /** What tools get as `_env` now (from the cached configuration; the agent loop catches up at each turn). */
  toolEnv(): Readonly<Record<string, string>> {
    // Spreading defines own properties, so a variable named `__proto__` arrives as one.
    return { ...this.environment, ...this.configured(this.repository.cached) };
  }

  async list(): Promise<readonly EnvVarView[]> {
    const state = await this.repository.load();
    const views: EnvVarView[] = [];
    for (const name of [...state.envVars.keys()].sort()) {
      views.push({
        name,
        source: 'configuration',
        valueAvailable: this.valueOf(state, name) !== undefined,
        ...(this.inEnvironment(name) ? { overridesEnvironment: true } : {}),
      });
    }
    for (const name of Object.keys(this.environment).sort()) {
      if (!state.envVars.has(name)) views.push({ name, source: 'environment', valueAvailable: true });
    }
    return views;
  }

  /**
   * Sets a variable. The redactor learns the value before anything else happens, so no later
   * output, event or log line can show it.
   */
  async set(name: string, value: string, origin: ChangeOrigin = {}): Promise<{ readonly overridesEnvironment: boolean }> {
    if (typeof value !== 'string' || value.length === 0) throw configErrors.invalid('value is required to set a variable: give the value to store.');
    if (value.length > MAX_ENV_VALUE_CHARS) throw configErrors.invalid(`value is too long: at most ${MAX_ENV_VALUE_CHARS} characters.`);
    this.redactor.add(value);
    const commandId = origin.commandId ?? randomUUID();
    const eventId = ConfigRepository.firstEventId(commandId);
    await this.changes.run(name, async () => {
      const previous = this.secrets.envVar(name);
      this.secrets.setEnvVar(name, { value, eventId });
      let recorded: ConfigState;
      try {
        recorded = (await this.repository.record({ type: 'SetEnvVar', name }, { ...origin, commandId })).state;
      } catch (error) {
        this.secrets.setEnvVar(name, previous);
        throw error;
      }
      // A retry of a setting replaced since appends nothing (the store acknowledges the first attempt's event): the newer value stays.
      if (recorded.envVars.get(name) !== eventId) this.secrets.setEnvVar(name, previous);
    });
    return { overridesEnvironment: this.inEnvironment(name) };
  }

  /** Removes a variable set here; one from the server's environment can only be removed there. */
  async delete(name: string, origin?: ChangeOrigin): Promise<{ readonly environmentValueRemains: boolean }> {
    await this.changes.run(name, async () => {
      const state = await this.repository.load();
      if (!state.envVars.has(name) && this.inEnvironment(name)) {
        throw configErrors.readOnly(`'${name}' comes from the server's environment (ONECLAW_ENV_${name}),`, 'so it can only be removed there (then restart the server).', { name });
      }
      const recorded = await this.repository.record({ type: 'DeleteEnvVar', name }, origin);
      // Only a value the stream no longer names: a retried delete that a later set overtook appends nothing, and that set's value stays.
      if (this.secrets.envVar(name) && !this.isCurrent(recorded.state, name)) this.secrets.setEnvVar(name, undefined);
    });
    return { environmentValueRemains: this.inEnvironment(name) };
  }

  /**
   * Own names only: a name such as `constructor` or `valueOf` is a variable like any other, not
   * something every object inherits.
   */
  private inEnvironment(name: string): boolean {
    return Object.hasOwn(this.environment, name);
  }

  private configured(state: ConfigState): Record<string, string> {
    // No prototype: `__proto__` is then a key like any other instead of a setter that drops the value.
    const out: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const name of state.envVars.keys()) {
      const value = this.valueOf(state, name);
      if (value !== undefined) out[name] = value;
    }
    return out;
  }

  /** The stored value when it is the one the latest EnvVarSet recorded (else it is stale or absent). */
  private valueOf(state: ConfigState, name: string): string | undefined {
    return this.isCurrent(state, name) ? this.secrets.envVar(name)?.value : undefined;
  }

  private isCurrent(state: ConfigState, name: string): boolean {
    const stored = this.secrets.envVar(name);
    return stored !== undefined && stored.eventId === state.envVars.get(name);
  }
}
