import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadServerConfig, secretsOf, storeName } from './server-config';

describe('loadServerConfig: the JavaScript sandbox pool', () => {
  it('ONECLAW_JS_WORKERS sets how many sandbox workers run JS tools at once (default 4); a bad value stops the start naming the variable', () => {
    expect(loadServerConfig({}).jsWorkers).toBe(4);
    expect(loadServerConfig({ ONECLAW_JS_WORKERS: '8' }).jsWorkers).toBe(8);
    expect(() => loadServerConfig({ ONECLAW_JS_WORKERS: '0' })).toThrow('ONECLAW_JS_WORKERS=0 is not valid: use a whole number from 1 to 64.');
    expect(() => loadServerConfig({ ONECLAW_JS_WORKERS: 'many' })).toThrow('ONECLAW_JS_WORKERS=many is not valid');
  });
});

describe('loadServerConfig: the PostgreSQL store', () => {
  const url = 'postgres://oneclaw:s3cret%2Fpass@db.internal:5432/oneclaw';

  it('ONECLAW_POSTGRES_URL selects PostgreSQL, with a pool size and a schema (defaults 10 and oneclaw); unset, SQLite stays the store', () => {
    expect(loadServerConfig({}).postgres).toBeUndefined();
    expect(storeName(loadServerConfig({}))).toBe('SQLite');
    const config = loadServerConfig({ ONECLAW_POSTGRES_URL: url });
    expect(config.postgres).toEqual({ url, poolSize: 10, schema: 'oneclaw' });
    expect(storeName(config)).toBe('PostgreSQL');
    expect(loadServerConfig({ ONECLAW_POSTGRES_URL: url, ONECLAW_POSTGRES_POOL_SIZE: '25', ONECLAW_POSTGRES_SCHEMA: 'staging' }).postgres).toEqual({
      url,
      poolSize: 25,
      schema: 'staging',
    });
    expect(() => loadServerConfig({ ONECLAW_POSTGRES_URL: url, ONECLAW_POSTGRES_POOL_SIZE: '0' })).toThrow('ONECLAW_POSTGRES_POOL_SIZE=0 is not valid');
    expect(() => loadServerConfig({ ONECLAW_POSTGRES_URL: url, ONECLAW_POSTGRES_SCHEMA: 'Bad-Name' })).toThrow('ONECLAW_POSTGRES_SCHEMA=Bad-Name is not valid');
  });

  it('setting both PostgreSQL and KurrentDB is refused with invalid_config, naming both variables and not the password', () => {
    let error: unknown;
    try {
      loadServerConfig({ ONECLAW_POSTGRES_URL: url, ONECLAW_KURRENTDB_CONNECTION_STRING: 'kurrentdb://u:k-pass@127.0.0.1:2113?tls=false' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ code: 'invalid_config', message: expect.stringContaining('Both ONECLAW_POSTGRES_URL and ONECLAW_KURRENTDB_CONNECTION_STRING are set') });
    expect((error as Error).message).not.toMatch(/s3cret|k-pass/);
  });

  it('the URL and its password, raw and decoded, are secrets the log redactor blanks out', () => {
    const secrets = secretsOf(loadServerConfig({ ONECLAW_POSTGRES_URL: url }));
    expect(secrets).toEqual(expect.arrayContaining([url, 's3cret%2Fpass', 's3cret/pass']));
  });
});

describe('loadServerConfig: the session cache bound (docs/memory.md)', () => {
  it('ONECLAW_SESSION_CACHE_BYTES bounds the cached session states (default 32 MiB, 0 keeps none); a bad value stops the start naming the variable', () => {
    expect(loadServerConfig({}).sessionCacheBytes).toBe(32 * 1024 * 1024);
    expect(loadServerConfig({ ONECLAW_SESSION_CACHE_BYTES: '0' }).sessionCacheBytes).toBe(0);
    expect(loadServerConfig({ ONECLAW_SESSION_CACHE_BYTES: '1048576' }).sessionCacheBytes).toBe(1048576);
    expect(() => loadServerConfig({ ONECLAW_SESSION_CACHE_BYTES: '-1' })).toThrow(
      expect.objectContaining({ code: 'invalid_config', message: 'ONECLAW_SESSION_CACHE_BYTES=-1 is not valid: use a whole number from 0 to 4294967296.' }),
    );
    expect(() => loadServerConfig({ ONECLAW_SESSION_CACHE_BYTES: '32MB' })).toThrow('ONECLAW_SESSION_CACHE_BYTES=32MB is not valid');
  });
});

describe('loadServerConfig: tool environment variables (ONECLAW_ENV_*)', () => {
  it('a name that objects inherit (__proto__, constructor) is a variable like any other, and its value a secret', () => {
    const config = loadServerConfig({ ONECLAW_ENV___proto__: 'proto-value-0001', ONECLAW_ENV_constructor: 'constructor-value-0002', ONECLAW_ENV_: 'ignored' });
    expect(Object.entries(config.toolEnv)).toEqual([
      ['__proto__', 'proto-value-0001'],
      ['constructor', 'constructor-value-0002'],
    ]);
    expect(secretsOf(config)).toEqual(expect.arrayContaining(['proto-value-0001', 'constructor-value-0002']));
  });
});
