import { EventNotSerializableError } from './event-store-errors';

/**
 * JSON.stringify, but refuses what JSON would silently change or drop: functions, symbols,
 * bigints, NaN/Infinity, `undefined` in arrays, class instances (a Date would come back as a
 * string), and cycles. An event must read back exactly as it was written.
 * `undefined` object properties are dropped, as for optional fields in TypeScript.
 */
export function strictJsonStringify(value: unknown, eventId: string, rootPath: string): string {
  assertPlainJson(value, eventId, rootPath, new Set());
  return JSON.stringify(value);
}

function assertPlainJson(value: unknown, eventId: string, path: string, ancestors: Set<object>): void {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new EventNotSerializableError(eventId, path, `is ${String(value)}`);
      return;
    case 'object':
      break;
    default:
      throw new EventNotSerializableError(eventId, path, `is a ${typeof value}`);
  }
  if (value === null) return;
  if (ancestors.has(value)) throw new EventNotSerializableError(eventId, path, 'refers back to itself (a cycle)');
  ancestors.add(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (value[i] === undefined) throw new EventNotSerializableError(eventId, `${path}[${i}]`, 'is undefined');
      assertPlainJson(value[i], eventId, `${path}[${i}]`, ancestors);
    }
  } else {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      const kind = (proto as { constructor?: { name?: string } }).constructor?.name ?? 'unknown';
      throw new EventNotSerializableError(eventId, path, `is a ${kind} instance, not a plain object`);
    }
    for (const [key, child] of Object.entries(value)) {
      if (child !== undefined) assertPlainJson(child, eventId, `${path}.${key}`, ancestors);
    }
  }
  ancestors.delete(value);
}

/** JSON with object keys sorted, so two equal values always compare equal as strings. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
