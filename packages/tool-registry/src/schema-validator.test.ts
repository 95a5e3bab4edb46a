import { SchemaValidator } from './schema-validator';

function problems(schema: Record<string, unknown>, params: unknown): readonly string[] {
  const check = new SchemaValidator().compile(schema).check(params);
  return check.ok ? [] : check.problems;
}

describe('argument validation messages (T3)', () => {
  it('names the parameter and the problem for formats, constants, arrays and alternatives', () => {
    const schema = {
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email' },
        kind: { const: 'event' },
        ids: { type: 'array', items: { type: 'integer' } },
        either: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        note: { type: ['string', 'null'] },
      },
    };
    expect(problems(schema, { email: 'not-an-address' })).toEqual(["parameter 'email' must be a valid email"]);
    expect(problems(schema, { kind: 'task' })).toEqual(['parameter \'kind\' must be "event"']);
    expect(problems(schema, { ids: [1, 'two'] })).toEqual(['parameter \'ids[1]\' must be an integer, got the string "two"']);
    expect(problems(schema, { either: true })).toEqual(["parameter 'either' does not match any of the allowed forms"]);
    expect(problems(schema, { note: 3 })).toEqual(["parameter 'note' must be a string or a null, got the number 3"]);
    expect(problems(schema, { email: 'a@b.co', kind: 'event', ids: [1], either: 2, note: null })).toEqual([]);
  });

  it('lists at most eight problems', () => {
    const properties = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`p${i}`, { type: 'string' }]));
    const schema = { type: 'object', properties, required: Object.keys(properties) };
    expect(problems(schema, {})).toHaveLength(8);
  });

  it('compiles schemas that name a 2020-12 $schema or share an $id, and still validates them', () => {
    const validator = new SchemaValidator();
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'https://example.com/tool',
      type: 'object',
      properties: { n: { type: 'integer' } },
    };
    const first = validator.compile(schema);
    const second = validator.compile({ ...schema });
    expect(first.check({ n: 1 })).toEqual({ ok: true });
    expect(second.check({ n: 'x' })).toEqual({ ok: false, problems: ['parameter \'n\' must be an integer, got the string "x"'] });
  });

  it('throws when the schema itself is not valid JSON Schema', () => {
    expect(() => new SchemaValidator().compile({ type: 'object', properties: { n: { type: 'strng' } } })).toThrow();
  });
});
