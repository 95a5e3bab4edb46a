import { explodingRefSchema } from '../testing/exploding-ref-schema';
import { adaptForProviders, adaptSchema } from './adapt-schema';
import { MAX_INLINED_SCHEMA_DEPTH, MAX_INLINED_SCHEMA_NODES, SchemaTooLargeError } from './schema-too-large-error';

const issues = (provider: 'openai' | 'anthropic' | 'gemini', schema: Record<string, unknown>) =>
  adaptSchema(provider, schema).issues.map((i) => `${i.action} ${i.path || '(root)'} ${i.keyword}`);

describe('schema lint and adaptation per provider (T1)', () => {
  const clean = {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Path' },
      mode: { type: 'string', enum: ['overwrite', 'append'] },
      count: { type: 'integer', minimum: 1, maximum: 10 },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
      when: { type: 'string', format: 'date-time' },
    },
    required: ['path'],
  };

  it('a schema every provider accepts passes unchanged, with no issues', () => {
    for (const provider of ['openai', 'anthropic', 'gemini'] as const) {
      expect(adaptSchema(provider, clean)).toEqual({ schema: clean, issues: [] });
    }
  });

  it('OpenAI: an array without items gets items: {} (OpenAI fails the request with "array schema missing items")', () => {
    const schema = { type: 'object', properties: { ids: { type: 'array' }, nested: { type: 'object', properties: { m: { type: ['array', 'null'] } } } } };
    const adapted = adaptSchema('openai', schema);
    expect(adapted.schema).toEqual({
      type: 'object',
      properties: { ids: { type: 'array', items: {} }, nested: { type: 'object', properties: { m: { type: ['array', 'null'], items: {} } } } },
    });
    expect(issues('openai', schema)).toEqual(['rewritten properties.ids items', 'rewritten properties.nested.properties.m items']);
    expect(issues('anthropic', schema)).toEqual([]);
  });

  it('combinators at the root are removed and reported for every provider; inside properties they stay', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string' }, b: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
      anyOf: [{ required: ['a'] }, { required: ['b'] }],
    };
    expect(adaptSchema('anthropic', schema).schema).toEqual({ type: 'object', properties: schema.properties });
    expect(issues('anthropic', schema)).toEqual(['removed (root) anyOf']);
    expect(issues('openai', schema)).toEqual(['removed (root) anyOf']);
    expect(adaptSchema('gemini', schema).schema).toEqual({ type: 'object', properties: schema.properties });
    expect(issues('gemini', schema)).toEqual(['removed (root) anyOf']);
  });

  it('local $ref is inlined for every provider and the definitions dropped', () => {
    const schema = {
      type: 'object',
      $defs: { email: { type: 'string', description: 'An address' } },
      properties: { to: { $ref: '#/$defs/email' }, cc: { type: 'array', items: { $ref: '#/$defs/email' } } },
    };
    const expected = {
      type: 'object',
      properties: { to: { type: 'string', description: 'An address' }, cc: { type: 'array', items: { type: 'string', description: 'An address' } } },
    };
    for (const provider of ['openai', 'anthropic', 'gemini'] as const) expect(adaptSchema(provider, schema).schema).toEqual(expected);
    expect(issues('gemini', schema)).toEqual(['rewritten (root) $ref']);
    expect(adaptSchema('gemini', schema).issues[0]?.message).toBe('2 local $ref uses were inlined');
  });

  it('a recursive $ref cannot be inlined: it becomes "any value" (OpenAI, Anthropic) or the parameter is dropped (Gemini)', () => {
    const schema = {
      type: 'object',
      definitions: { node: { type: 'object', properties: { child: { $ref: '#/definitions/node' } } } },
      properties: { name: { type: 'string' }, tree: { $ref: '#/definitions/node' } },
    };
    expect(adaptSchema('anthropic', schema).schema).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, tree: { type: 'object', properties: { child: {} } } },
    });
    expect(issues('anthropic', schema)).toEqual(['removed properties.tree.properties.child $ref', 'rewritten (root) $ref']);
    expect(adaptSchema('gemini', schema).schema).toEqual({ type: 'object', properties: { name: { type: 'string' } } });
  });

  it('Gemini: unsupported keywords are removed or rewritten, each reported; data values are never touched', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      additionalProperties: false,
      properties: {
        url: { type: 'string', format: 'uri', description: 'Where' },
        email: { type: 'string', format: 'email' },
        note: { type: ['string', 'null'], default: '$ref', examples: ['x'] },
        kind: { const: 'fixed' },
        level: { type: 'integer', enum: [1, 2, 3] },
        either: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        both: { type: ['string', 'integer'], description: 'Text or number' },
        ratio: { type: 'number', exclusiveMinimum: 0, format: 'double' },
      },
      required: ['url'],
    };
    expect(adaptSchema('gemini', schema).schema).toEqual({
      type: 'object',
      properties: {
        url: { type: 'string', description: 'Where Format: uri.' },
        email: { type: 'string', description: 'Format: email.' },
        note: { type: 'string', default: '$ref', nullable: true },
        kind: { type: 'string', enum: ['fixed'] },
        level: { type: 'integer', description: 'Allowed values: 1, 2, 3.' },
        either: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        both: { description: 'Text or number', anyOf: [{ type: 'string' }, { type: 'integer' }] },
        ratio: { type: 'number', format: 'double' },
      },
      required: ['url'],
    });
    expect(issues('gemini', schema)).toEqual([
      'removed properties.url format',
      'removed properties.email format',
      'rewritten properties.note type',
      'removed properties.note examples',
      'rewritten properties.kind const',
      'rewritten properties.level enum',
      'rewritten properties.either oneOf',
      'rewritten properties.both type',
      'removed properties.ratio exclusiveMinimum',
      'removed (root) $schema',
      'removed (root) additionalProperties',
    ]);
  });

  it('Gemini: an array without items gets string items; an object without properties is dropped and unrequired', () => {
    const schema = {
      type: 'object',
      properties: {
        ids: { type: 'array' },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
        requests: { type: 'array', items: { type: 'object' } },
        url: { type: 'string' },
      },
      required: ['url', 'headers', 'requests'],
    };
    expect(adaptSchema('gemini', schema).schema).toEqual({
      type: 'object',
      properties: { ids: { type: 'array', items: { type: 'string' } }, url: { type: 'string' } },
      required: ['url'],
    });
    expect(issues('gemini', schema)).toEqual([
      'rewritten properties.ids items',
      'removed properties.headers type',
      'removed properties.requests.items type',
      'removed properties.requests type',
    ]);
  });

  it('Gemini: a null-only parameter, or one whose alternatives all fail, is dropped and reported', () => {
    const schema = {
      type: 'object',
      properties: { gone: { type: 'null' }, odd: { anyOf: [{ type: 'object' }, { type: 'null' }] }, keep: { type: 'boolean' } },
    };
    expect(adaptSchema('gemini', schema).schema).toEqual({ type: 'object', properties: { keep: { type: 'boolean' } } });
    expect(issues('gemini', schema)).toEqual([
      'removed properties.gone type',
      'removed properties.odd.anyOf[0] type',
      'removed properties.odd.anyOf[1] type',
      'removed properties.odd type',
    ]);
  });

  it('Gemini: a tool with no parameters sends no parameters object', () => {
    expect(adaptSchema('gemini', { type: 'object', properties: {} })).toEqual({ schema: undefined, issues: [] });
    expect(adaptSchema('gemini', { type: 'object' }).schema).toBeUndefined();
  });

  it('a definition used in many places is one issue, not one per use', () => {
    const properties = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`p${i}`, { $ref: '#/$defs/text' }]));
    const adapted = adaptForProviders({ type: 'object', $defs: { text: { type: 'string' } }, properties });
    expect(adapted.issues.map((i) => `${i.provider} ${i.action} ${i.path || '(root)'} ${i.keyword}: ${i.message}`)).toEqual([
      'openai rewritten (root) $ref: 500 local $ref uses were inlined',
      'anthropic rewritten (root) $ref: 500 local $ref uses were inlined',
      'gemini rewritten (root) $ref: 500 local $ref uses were inlined',
    ]);
    expect(adapted.schemas.anthropic?.properties).toMatchObject({ p0: { type: 'string' }, p499: { type: 'string' } });
  });

  it(`refuses a schema whose $refs inline to more than ${MAX_INLINED_SCHEMA_NODES} subschemas, stopping the walk at the cap`, () => {
    // 18 definitions that each use the next twice: 2^18 subschemas once inlined.
    for (const provider of ['openai', 'anthropic', 'gemini'] as const) {
      expect(() => adaptSchema(provider, explodingRefSchema(18))).toThrow(SchemaTooLargeError);
    }
    expect(() => adaptForProviders(explodingRefSchema(18))).toThrow(`has more than ${MAX_INLINED_SCHEMA_NODES} subschemas`);
    // Under the cap the same shape is inlined: 2^8 string leaves.
    expect(JSON.stringify(adaptSchema('anthropic', explodingRefSchema(8)).schema).match(/"string"/g)).toHaveLength(256);
  });

  it(`refuses a chain of $refs more than ${MAX_INLINED_SCHEMA_DEPTH} levels deep before the walk can reach the stack's limit`, () => {
    const $defs = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`d${i}`, { $ref: `#/$defs/d${i + 1}` }]));
    const schema = { type: 'object', $defs: { ...$defs, d5000: { type: 'string' } }, properties: { x: { $ref: '#/$defs/d0' } } };
    expect(() => adaptSchema('openai', schema)).toThrow(`nests more than ${MAX_INLINED_SCHEMA_DEPTH} levels deep, at 'properties.x'`);
  });

  it('never changes the schema it was given', () => {
    const schema = { type: 'object', properties: { ids: { type: 'array' }, h: { type: 'object' } }, anyOf: [{ required: ['ids'] }] };
    const copy = JSON.parse(JSON.stringify(schema));
    for (const provider of ['openai', 'anthropic', 'gemini'] as const) adaptSchema(provider, schema);
    expect(schema).toEqual(copy);
  });
});
