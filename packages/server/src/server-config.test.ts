import { describe, expect, it } from '@jest/globals';
import { loadServerConfig } from './server-config';

describe('loadServerConfig: the JavaScript sandbox pool', () => {
  it('ONECLAW_JS_WORKERS sets how many sandbox workers run JS tools at once (default 4); a bad value stops the start naming the variable', () => {
    expect(loadServerConfig({}).jsWorkers).toBe(4);
    expect(loadServerConfig({ ONECLAW_JS_WORKERS: '8' }).jsWorkers).toBe(8);
    expect(() => loadServerConfig({ ONECLAW_JS_WORKERS: '0' })).toThrow('ONECLAW_JS_WORKERS=0 is not valid: use a whole number from 1 to 64.');
    expect(() => loadServerConfig({ ONECLAW_JS_WORKERS: 'many' })).toThrow('ONECLAW_JS_WORKERS=many is not valid');
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
