import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InMemoryEventStore, type EventStore } from '@oneclaw/core';
import { SecretRedactor } from '../security/secret-redactor';
import { loadServerConfig, secretsOf, type ServerConfig } from '../server-config';
import { ConfigServices, type ConfigServicesOptions } from './config-services';

export interface ConfigFixture {
  readonly dataDir: string;
  readonly config: ServerConfig;
  readonly store: EventStore;
  readonly redactor: SecretRedactor;
  readonly services: ConfigServices;
  /** Another server (replica) on the same store, with its own data directory and secret store. */
  replica(): ConfigFixture;
  cleanup(): void;
}

/** Real configuration services over a store (in-memory unless given) and a temp data directory. */
export function configFixture(
  options: { readonly env?: Readonly<Record<string, string>>; readonly store?: EventStore; readonly dataDir?: string } & Partial<
    Pick<ConfigServicesOptions, 'fetchModels' | 'createClient' | 'now' | 'onLog'>
  > = {},
): ConfigFixture {
  const owned = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'oneclaw-config-'));
  const config = loadServerConfig({ ONECLAW_DATA_DIR: dataDir, ...options.env });
  const store = options.store ?? new InMemoryEventStore();
  const redactor = new SecretRedactor(secretsOf(config));
  const { env: _env, store: _store, dataDir: _dir, ...rest } = options;
  const services = ConfigServices.create({ config, store, redactor, ...rest });
  return {
    dataDir,
    config,
    store,
    redactor,
    services,
    replica: () => configFixture({ ...options, store, dataDir: undefined }),
    cleanup: () => {
      services.close();
      if (owned) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
