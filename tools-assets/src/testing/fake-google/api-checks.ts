import { GoogleApiError, type GoogleRequest } from '../fake-google-api';

/**
 * Checks the Google API fakes share: partial responses (`?fields=`), unknown query parameters and
 * body fields, enum query values, and the shape of batchUpdate requests.
 * A mask is `a,b.c,d(e,f/g)`: `.` and `/` step into a sub-message, parentheses select several
 * sub-fields, `*` selects everything at its level.
 */
export type FieldMask = Map<string, FieldMask | true>;

/** Which fields a resource has: `true` is a leaf (anything below it passes), an object a sub-message. */
export type FieldSchema = { readonly [field: string]: FieldSchema | true };

export function parseFieldMask(text: string): FieldMask {
  const invalid = (): never => {
    throw new GoogleApiError(400, `Invalid field selection ${text}`, 'INVALID_ARGUMENT');
  };
  let at = 0;
  const readList = (): FieldMask => {
    const mask: FieldMask = new Map();
    do {
      while (text[at] === ' ') at++;
      const name = /^[A-Za-z0-9_*]+(?:[./][A-Za-z0-9_*]+)*/.exec(text.slice(at))?.[0] ?? invalid();
      at += name.length;
      let leaf: FieldMask | true = true;
      if (text[at] === '(') {
        at++;
        leaf = readList();
        if (text[at++] !== ')') invalid();
      }
      const steps = name.split(/[./]/);
      const last = steps.pop() as string;
      let node = mask;
      for (const step of steps) {
        const next = node.get(step);
        node = next instanceof Map ? next : (node.set(step, new Map()).get(step) as FieldMask);
      }
      node.set(last, merge(node.get(last), leaf));
      while (text[at] === ' ') at++;
    } while (text[at] === ',' && ++at);
    return mask;
  };
  if (text.trim() === '') return new Map();
  const mask = readList();
  if (at !== text.length) invalid();
  return mask;
}

function merge(old: FieldMask | true | undefined, added: FieldMask | true): FieldMask | true {
  if (old === true || added === true) return true;
  if (old === undefined) return added;
  const out: FieldMask = new Map(old);
  for (const [key, value] of added) out.set(key, merge(out.get(key), value));
  return out;
}

/** Throws the 400 Google answers when the mask names a field the resource does not have. */
export function checkFieldMask(mask: FieldMask, schema: FieldSchema, prefix = ''): void {
  for (const [name, sub] of mask) {
    if (name === '*') continue;
    const known = schema[name];
    if (known === undefined) throw new GoogleApiError(400, `Invalid field selection ${prefix}${name}`, 'INVALID_ARGUMENT');
    if (sub instanceof Map && known !== true) checkFieldMask(sub, known, `${prefix}${name}.`);
  }
}

/** Keeps the masked fields of a JSON value (arrays are masked element by element). */
export function applyFieldMask(value: unknown, mask: FieldMask): unknown {
  if (Array.isArray(value)) return value.map((item) => applyFieldMask(item, mask));
  if (typeof value !== 'object' || value === null || mask.has('*')) return value;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, sub] of mask) {
    if (source[name] === undefined) continue;
    out[name] = sub === true ? source[name] : applyFieldMask(source[name], sub);
  }
  return out;
}

/** The request's `fields` applied to a response, after checking it against the resource's schema. */
export function partialResponse(req: GoogleRequest, value: unknown, schema?: FieldSchema): unknown {
  const fields = req.query.get('fields');
  if (fields === null) return value;
  const mask = parseFieldMask(fields);
  if (schema) checkFieldMask(mask, schema);
  return applyFieldMask(value, mask);
}

/** Query parameters every Google API method accepts. */
const SYSTEM_PARAMETERS = ['fields', 'key', 'alt', 'prettyPrint', 'quotaUser', 'access_token', 'oauth_token', 'callback', '$.xgafv', 'upload_protocol', 'uploadType', 'userIp'];

/** Google refuses a query parameter the method does not define. */
export function rejectUnknownQuery(req: GoogleRequest, allowed: readonly string[]): void {
  for (const name of req.query.keys()) {
    if (!allowed.includes(name) && !SYSTEM_PARAMETERS.includes(name)) {
      throw new GoogleApiError(
        400,
        `Invalid JSON payload received. Unknown name "${name}": Cannot bind query parameter. Field '${name}' could not be found in request message.`,
        'INVALID_ARGUMENT',
      );
    }
  }
}

/** Google refuses a JSON body field the message does not define. */
export function rejectUnknownFields(body: Record<string, unknown>, allowed: readonly string[], where: string): void {
  for (const name of Object.keys(body)) {
    if (!allowed.includes(name)) throw new GoogleApiError(400, `Invalid JSON payload received. Unknown name "${name}" at '${where}': Cannot find field.`, 'INVALID_ARGUMENT');
  }
}

/** Checks a query parameter against its enum when present; returns it (or the default). */
export function enumQuery<T extends string>(req: GoogleRequest, name: string, values: readonly T[], fallback: T): T {
  const value = req.query.get(name);
  if (value === null) return fallback;
  if (!(values as readonly string[]).includes(value)) throw new GoogleApiError(400, `Invalid value at '${name}', "${value}"`, 'INVALID_ARGUMENT');
  return value as T;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * One request of a batchUpdate: exactly one kind the API defines, whose value is an object.
 * `at` names it in errors the way Google does: `requests[2].addSheet`.
 */
export function requestKind(request: unknown, where: string, kinds: readonly string[]): { kind: string; body: Record<string, unknown>; at: string } {
  if (!isRecord(request)) throw new GoogleApiError(400, `Invalid ${where}: a request must be an object.`);
  const names = Object.keys(request);
  for (const name of names) {
    if (!kinds.includes(name)) throw new GoogleApiError(400, `Invalid JSON payload received. Unknown name "${name}" at '${where}': Cannot find field.`);
  }
  if (names.length !== 1)
    throw new GoogleApiError(
      400,
      names.length === 0 ? `Invalid ${where}: Must specify at least one request.` : `Invalid ${where}: oneof field 'kind' is already set. Cannot set '${names[1]}'`,
    );
  const kind = names[0] as string;
  const body = request[kind];
  if (!isRecord(body)) throw new GoogleApiError(400, `Invalid value at '${where}.${kind}': must be an object.`);
  return { kind, body, at: `${where}.${kind}` };
}

/** The `requests` of a batchUpdate body: a non-empty list. */
export function batchRequests(body: Record<string, unknown>): unknown[] {
  if (!Array.isArray(body.requests) || body.requests.length === 0) throw new GoogleApiError(400, 'Invalid requests: at least one request is required.');
  return body.requests;
}
