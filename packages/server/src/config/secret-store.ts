import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { OneClawError } from '@oneclaw/core';
import { restrictToOwner, safeUnlink, syncDirectory, writePrivateTemp } from '../persistence/durable-file';

/** Name of the secret file inside the data directory. */
export const SECRETS_FILE = 'secrets.json';

/**
 * A secret with the id of the configuration event that recorded it. The event says a value was
 * set; the id says which setting this value is, so a value left over from an older setting
 * (replaced on another replica since) is recognised as stale and not used.
 */
export interface StoredSecret {
  readonly value: string;
  readonly eventId: string;
}

interface SecretFile {
  readonly version: 1;
  readonly providerApiKeys: Record<string, StoredSecret>;
  readonly envVars: Record<string, StoredSecret>;
}

/**
 * The values configuration events must never hold: API keys of configured providers and values of
 * tool environment variables. One JSON file per data directory, mode 0600, replaced atomically
 * (temp file, fsync, rename) so a crash leaves the old file or the new one, never half of one.
 * It is not replicated: replicas sharing a KurrentDB store each have their own (docs/configuration.md).
 */
export class SecretStore {
  private data: SecretFile;

  private constructor(
    readonly file: string,
    data: SecretFile,
    /** True when the file was readable by others and has been narrowed to 0600 (log a warning). */
    readonly permissionsFixed: boolean,
  ) {
    this.data = data;
  }

  static open(dataDir: string): SecretStore {
    const file = path.join(dataDir, SECRETS_FILE);
    let mode: number;
    try {
      mode = statSync(file).mode;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new SecretStore(file, { version: 1, providerApiKeys: {}, envVars: {} }, false);
      throw ioError(file, (error as Error).message);
    }
    const permissionsFixed = restrictToOwner(file, mode, (error) => ioError(file, `is readable by other users and cannot be restricted (${error.message}); run chmod 600 on it`));
    return new SecretStore(file, parse(file), permissionsFixed);
  }

  providerApiKey(providerId: string): StoredSecret | undefined {
    return ownEntry(this.data.providerApiKeys, providerId);
  }

  /** Stores the key, or removes it when `secret` is undefined. */
  setProviderApiKey(providerId: string, secret: StoredSecret | undefined): void {
    this.save({ ...this.data, providerApiKeys: withEntry(this.data.providerApiKeys, providerId, secret) });
  }

  envVar(name: string): StoredSecret | undefined {
    return ownEntry(this.data.envVars, name);
  }

  /** Stores the value, or removes it when `secret` is undefined. */
  setEnvVar(name: string, secret: StoredSecret | undefined): void {
    this.save({ ...this.data, envVars: withEntry(this.data.envVars, name, secret) });
  }

  /** Every value held (for the redactor). */
  values(): string[] {
    return [...Object.values(this.data.providerApiKeys), ...Object.values(this.data.envVars)].map((s) => s.value);
  }

  private save(next: SecretFile): void {
    const dir = path.dirname(this.file);
    const temp = path.join(dir, `.${SECRETS_FILE}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writePrivateTemp(temp, `${JSON.stringify(next, null, 2)}\n`);
      renameSync(temp, this.file);
    } catch (error) {
      safeUnlink(temp);
      throw new OneClawError('secret_store_unavailable', `The secret store ${this.file} cannot be written: ${(error as Error).message}. Make the data directory writable.`);
    }
    syncDirectory(dir);
    this.data = next;
  }
}

function parse(file: string): SecretFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw ioError(file, `is not valid JSON (${(error as Error).message}); fix it or remove it (the keys and variables in it must then be set again)`);
  }
  const record = raw as Partial<SecretFile> | null;
  if (record === null || typeof record !== 'object' || record.version !== 1 || !isSecretMap(record.providerApiKeys) || !isSecretMap(record.envVars)) {
    throw ioError(file, 'is not a OneClaw secret file (version 1 with providerApiKeys and envVars); fix it or remove it');
  }
  return { version: 1, providerApiKeys: record.providerApiKeys, envVars: record.envVars };
}

function isSecretMap(value: unknown): value is Record<string, StoredSecret> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  return Object.values(value).every((s: unknown) => {
    const secret = s as Partial<StoredSecret> | null;
    return secret !== null && typeof secret === 'object' && typeof secret.value === 'string' && typeof secret.eventId === 'string';
  });
}

/** Own entries only: `toString` or `__proto__` must not read what every object inherits. */
function ownEntry(map: Record<string, StoredSecret>, key: string): StoredSecret | undefined {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}

function withEntry(map: Record<string, StoredSecret>, key: string, value: StoredSecret | undefined): Record<string, StoredSecret> {
  const { [key]: _old, ...rest } = map;
  return value === undefined ? rest : { ...rest, [key]: value };
}

function ioError(file: string, problem: string): OneClawError {
  return new OneClawError('invalid_config', `The secret store ${file} ${problem}.`, { file });
}
