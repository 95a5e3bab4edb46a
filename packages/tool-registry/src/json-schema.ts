/**
 * A JSON Schema as plain JSON data. Tool schemas come from TypeScript built-ins and from JS
 * manifests read from disk, so the type stays structural: keywords are checked at run time
 * (registration), not by the compiler.
 */
export interface JsonSchemaObject {
  readonly [keyword: string]: unknown;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** A deep copy that is guaranteed to be JSON, or undefined when the value is not JSON. */
export function jsonCopy<T>(value: T): T | undefined {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : (JSON.parse(text) as T);
  } catch {
    return undefined;
  }
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
