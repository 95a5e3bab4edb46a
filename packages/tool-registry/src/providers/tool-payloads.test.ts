import { fakeTool } from '../testing/fake-tool';
import { ToolRegistry } from '../tool-registry';
import { formatTools } from './provider-formats';
import { countToolPayloadTokens } from './token-count';
import { ToolPayloads } from './tool-payloads';

function registry(): ToolRegistry {
  const r = new ToolRegistry();
  r.register(fakeTool('read_file', { parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }), {
    kind: 'built-in',
  });
  r.register(
    fakeTool('http_request', {
      parameters: { type: 'object', properties: { url: { type: 'string', format: 'uri' }, headers: { type: 'object' }, ids: { type: 'array' } } },
    }),
    { kind: 'built-in' },
  );
  return r;
}

describe('tool payloads for a request (T1, ModelRequested)', () => {
  it('T1 the registry sends each provider the schema adapted at registration, in the order asked', () => {
    const r = registry();
    const gemini = r.toolPayload('gemini', ['http_request', 'read_file']);
    expect(gemini).toEqual(formatTools('gemini', r.definitions(['http_request', 'read_file'])));
    expect(r.providerSchema('http_request', 'gemini')).toEqual({
      type: 'object',
      properties: { url: { type: 'string', description: 'Format: uri.' }, ids: { type: 'array', items: { type: 'string' } } },
    });
    expect(r.providerSchema('http_request', 'openai')).toEqual({
      type: 'object',
      properties: { url: { type: 'string', format: 'uri' }, headers: { type: 'object' }, ids: { type: 'array', items: {} } },
    });
  });

  it('T1 reports the lint findings of every tool at registration, per provider', () => {
    const r = registry();
    expect(r.get('read_file')?.schemaIssues).toEqual([]);
    expect(r.schemaIssues().map((i) => `${i.toolName} ${i.provider} ${i.action} ${i.path}`)).toEqual([
      'http_request openai rewritten properties.ids',
      'http_request gemini removed properties.url',
      'http_request gemini removed properties.headers',
      'http_request gemini rewritten properties.ids',
    ]);
  });

  it('gives the exact tool names sent (unknown names dropped) and their schema tokens', () => {
    const payloads = new ToolPayloads(registry());
    const built = payloads.build('anthropic', ['read_file', 'ghost', 'http_request']);
    expect(built.toolNames).toEqual(['read_file', 'http_request']);
    expect(built.schemaTokens).toBe(countToolPayloadTokens(built.payload));
    expect(built.schemaTokens).toBeGreaterThan(0);
  });

  it('reuses a built payload until the registry changes', () => {
    const r = registry();
    const payloads = new ToolPayloads(r);
    const first = payloads.build('openai', ['read_file']);
    expect(payloads.build('openai', ['read_file'])).toBe(first);
    expect(payloads.build('gemini', ['read_file'])).not.toBe(first);
    r.replace(fakeTool('read_file', { description: 'A much longer description of reading a file from storage.' }), { kind: 'built-in' });
    const after = payloads.build('openai', ['read_file']);
    expect(after).not.toBe(first);
    expect(after.schemaTokens).not.toBe(first.schemaTokens);
  });
});
