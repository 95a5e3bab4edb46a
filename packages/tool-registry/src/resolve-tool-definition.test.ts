import { resolveToolDefinition } from './resolve-tool-definition';

const valid = { name: 'read_file', description: 'Read a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } } };

function problemsOf(definition: unknown): string[] {
  try {
    resolveToolDefinition(definition);
  } catch (error) {
    expect(error).toMatchObject({ code: 'invalid_tool_definition' });
    return (error as { details: { problems: string[] } }).details.problems;
  }
  return [];
}

describe('tool definitions (T1, T2)', () => {
  it('applies defaults: timeoutMs 30000, no required permissions', () => {
    expect(resolveToolDefinition(valid)).toEqual({ ...valid, timeoutMs: 30_000, requiredPermissions: [] });
    expect(resolveToolDefinition({ ...valid, timeoutMs: 5_000, requiredPermissions: ['network'] })).toMatchObject({
      timeoutMs: 5_000,
      requiredPermissions: ['network'],
    });
  });

  it('T1 parameters must be a JSON Schema with type object at the root', () => {
    expect(problemsOf({ ...valid, parameters: { type: 'string' } })).toEqual(['parameters must have type "object" at the root (got "string")']);
    expect(problemsOf({ ...valid, parameters: { properties: {} } })).toEqual(['parameters must have type "object" at the root (got none)']);
    expect(problemsOf({ ...valid, parameters: [] })).toEqual(['parameters must be a JSON Schema object']);
    expect(problemsOf({ ...valid, parameters: { type: 'object', properties: [] } })).toEqual(['parameters.properties must be an object']);
    expect(problemsOf({ ...valid, parameters: { type: 'object', required: 'path' } })).toEqual(['parameters.required must be an array of parameter names']);
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.self = cyclic;
    expect(problemsOf({ ...valid, parameters: cyclic })).toEqual(['parameters must be plain JSON (no cycles, no BigInt)']);
  });

  it('lists every problem at once, naming the tool', () => {
    let message = '';
    try {
      resolveToolDefinition({ name: 'Bad-Name', description: '', parameters: { type: 'object' }, timeoutMs: -1, requiredPermissions: [''] });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^Tool 'Bad-Name' has an invalid definition: /);
    expect(message).toContain('snake_case');
    expect(message).toContain('description must be a non-empty string');
    expect(message).toContain('timeoutMs must be a positive number');
    expect(message).toContain('requiredPermissions must be an array of non-empty strings');
  });

  it('refuses a definition that is not an object', () => {
    expect(() => resolveToolDefinition(undefined)).toThrow(expect.objectContaining({ code: 'invalid_tool_definition' }));
  });
});
