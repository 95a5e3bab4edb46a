import { decodeWellFormed } from '../fs/fs-encoding';
import { BridgeError, type GuestSaveFrom } from '../sandbox/bridge-host';

/**
 * The largest JSON answer `saveFrom` takes. Unlike a plain saveTo download it cannot be streamed:
 * it is held and parsed in the sandbox worker (a 128 MiB heap), which briefly holds the text and
 * the field side by side. 40 MiB holds Gmail's largest attachment, 25 MB, which arrives as about
 * 33.4 MiB of base64url, with room for the JSON around it.
 */
export const SAVE_FROM_MAX_RESPONSE_BYTES = 40 * 1024 * 1024;

const ENCODINGS: readonly GuestSaveFrom['encoding'][] = ['base64', 'base64url'];
const EXAMPLE = "{field: 'data', encoding: 'base64url'}";

/** The guest's `saveFrom`, checked before any request is made. */
export function checkSaveFrom(value: unknown): GuestSaveFrom {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new BridgeError('invalid_request', `saveFrom must be an object such as ${EXAMPLE}.`);
  }
  const { field, encoding } = value as Record<string, unknown>;
  if (typeof field !== 'string' || field === '') {
    throw new BridgeError('invalid_request', `saveFrom.field must name a top-level field of the JSON answer, such as ${EXAMPLE}.`);
  }
  if (!(ENCODINGS as readonly unknown[]).includes(encoding)) {
    throw new BridgeError('invalid_request', `saveFrom.encoding must be 'base64' or 'base64url', not ${JSON.stringify(encoding) ?? 'undefined'}.`);
  }
  return { field, encoding: encoding as GuestSaveFrom['encoding'] };
}

/**
 * The decoded bytes of `from.field` in a JSON object answer. Anything else (not JSON, not an
 * object, no such field, not a string, not valid base64) is an `invalid_response` error, so the
 * tool says what the server answered instead of saving a wrong file.
 */
export function jsonFieldBytes(body: Uint8Array, from: GuestSaveFrom): Buffer {
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    throw invalid(`The answer is not JSON (it starts with ${JSON.stringify(text.slice(0, 100))}), so its field '${from.field}' cannot be saved.`);
  }
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
    throw invalid(`The JSON answer is ${answer === null ? 'null' : Array.isArray(answer) ? 'an array' : `a ${typeof answer}`}, not an object with a field '${from.field}'.`);
  }
  if (!Object.prototype.hasOwnProperty.call(answer, from.field)) {
    const fields = Object.keys(answer);
    const listed = fields.length === 0 ? 'none' : fields.slice(0, 10).join(', ') + (fields.length > 10 ? ', …' : '');
    throw invalid(`The JSON answer has no field '${from.field}' (its fields: ${listed}).`);
  }
  const content = (answer as Record<string, unknown>)[from.field];
  if (typeof content !== 'string') {
    throw invalid(
      `Field '${from.field}' of the JSON answer is ${content === null ? 'null' : `a ${Array.isArray(content) ? 'array' : typeof content}`}, not a ${from.encoding} string.`,
    );
  }
  const bytes = decodeWellFormed(content, from.encoding);
  if (bytes === undefined) throw invalid(`Field '${from.field}' of the JSON answer is not valid ${from.encoding}.`);
  return bytes;
}

function invalid(message: string): BridgeError {
  return new BridgeError('invalid_response', `${message} Nothing was saved.`);
}
