import { REDACTED } from '../security/secret-redactor';

type Schema = Readonly<Record<string, unknown>>;

/**
 * A copy of a tool call's arguments with the value of every property its schema marks
 * `writeOnly: true` replaced by `[Redacted]` (nested objects and array items included). The
 * value still reaches the tool; only what is recorded and shown loses it (manage_env_var's
 * `value`: recorded before the tool runs, so the redactor cannot know it yet).
 */
export function redactWriteOnly(value: unknown, schema: unknown): unknown {
  if (!isSchema(schema)) return value;
  if (schema.writeOnly === true && value !== undefined) return REDACTED;
  if (Array.isArray(value)) {
    const items = schema.items;
    return isSchema(items) ? value.map((item) => redactWriteOnly(item, items)) : value;
  }
  if (value === null || typeof value !== 'object') return value;
  const properties = isSchema(schema.properties) ? schema.properties : undefined;
  if (!properties) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    if (!Object.prototype.hasOwnProperty.call(properties, key)) continue;
    const redacted = redactWriteOnly(item, properties[key]);
    if (redacted !== item) {
      copy ??= { ...(value as Record<string, unknown>) };
      copy[key] = redacted;
    }
  }
  return copy ?? value;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
