import { canonicalJson, strictJsonStringify } from './strict-json';

describe('strictJsonStringify', () => {
  it.each([
    ['a function', { f: () => 1 }, 'data.f is a function'],
    ['NaN', { n: NaN }, 'data.n is NaN'],
    ['Infinity', [Infinity], 'data[0] is Infinity'],
    ['undefined in an array', [1, undefined], 'data[1] is undefined'],
    ['a Map', { m: new Map() }, 'data.m is a Map instance'],
    ['a symbol', { s: Symbol('x') }, 'data.s is a symbol'],
  ])('refuses %s and names where it is', (_what, value, message) => {
    expect(() => strictJsonStringify(value, 'e1', 'data')).toThrow(message);
  });

  it('drops undefined object properties like optional fields, and keeps shared (non-cyclic) references', () => {
    const shared = { a: 1 };
    expect(strictJsonStringify({ x: undefined, y: shared, z: shared }, 'e', 'data')).toBe('{"y":{"a":1},"z":{"a":1}}');
  });

  it('canonicalJson sorts keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: 2 } })).toBe('{"a":{"c":2,"d":[{"y":2,"z":1}]},"b":1}');
  });
});
