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
