import { toWellFormed } from '@oneclaw/core';

/** What every scrubbed secret becomes; pino's default censor uses the same text, so logs read alike. */
export const REDACTED = '[Redacted]';

/**
 * Shorter values are not scrubbed by value: a 3-letter "secret" such as `abc` would turn ordinary
 * words into `[Redacted]` everywhere. Such values are still hidden when they sit under a sensitive key.
 */
export const MIN_SECRET_LENGTH = 6;

/**
 * Keys whose values are secret whatever they contain, compared after lower-casing and dropping
 * `-` and `_` (so `apiKey`, `api_key`, `x-api-key` and `X-Api-Key` all match). Exact names only:
 * a suffix rule would hit `maxTokens`/`inputTokens`, which are token counts, not credentials.
 */
const SENSITIVE_KEYS: ReadonlySet<string> = new Set([
  'authorization',
  'proxyauthorization',
  'cookie',
  'setcookie',
  'apikey',
  'xapikey',
  'xgoogapikey',
  'token',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'sessiontoken',
  'password',
  'passwd',
  'secret',
  'clientsecret',
  'privatekey',
]);

/** Tool secrets travel as `_env`; everything below this key is a secret value. */
const ENV_KEY = '_env';

export function isSensitiveKey(key: string): boolean {
  return SENSITIVE_KEYS.has(key.toLowerCase().replace(/[-_]/g, ''));
}

/**
 * By-value scrubbing of known secrets (API keys, the API token, `_env` values). Key-path redaction
 * (pino `redact`) misses a secret inside a URL, an error message or a stack trace; this catches it
 * wherever it appears. Pure: no I/O, never mutates its input.
 *
 * Every secret is matched in the forms it is likely to take once it leaves our hands: as is,
 * URL-encoded (upper- and lower-case hex, `+` for spaces), JSON-escaped (so redacting a serialized
 * log line works) and base64/base64url (unpadded, so it also matches inside padded text).
 */
export class SecretRedactor {
  private readonly secrets = new Set<string>();
  private readonly forms = new Set<string>();
  /** Built lazily after adds, so adding many secrets costs one compile, not one per add. */
  private pattern: RegExp | null | undefined = null;

  constructor(values: Iterable<string | null | undefined> = []) {
    this.addAll(values);
  }

  /** Number of distinct secrets known (not counting their encoded forms). */
  get size(): number {
    return this.secrets.size;
  }

  /** Remembers a secret; values shorter than MIN_SECRET_LENGTH, empty or non-strings are ignored. */
  add(value: string | null | undefined): this {
    if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH || this.secrets.has(value)) return this;
    this.secrets.add(value);
    for (const form of encodedForms(value)) {
      if (form.length >= MIN_SECRET_LENGTH) this.forms.add(form);
    }
    this.pattern = undefined;
    return this;
  }

  addAll(values: Iterable<string | null | undefined>): this {
    for (const value of values) this.add(value);
    return this;
  }

  /** True when `value` itself is a known secret. */
  has(value: string): boolean {
    return this.secrets.has(value);
  }

  /**
   * Forgets a secret that can no longer do harm (an expired access token), so secrets that are
   * replaced for the life of the server do not make every redaction slower. Encoded forms another
   * known secret shares are kept.
   */
  remove(value: string): this {
    if (!this.secrets.delete(value)) return this;
    this.forms.clear();
    for (const secret of this.secrets) {
      for (const form of encodedForms(secret)) {
        if (form.length >= MIN_SECRET_LENGTH) this.forms.add(form);
      }
    }
    this.pattern = undefined;
    return this;
  }

  /** True when `text` contains a known secret in any of its forms. */
  containsSecret(text: string): boolean {
    const pattern = this.compiled();
    if (pattern === null) return false;
    pattern.lastIndex = 0;
    return pattern.test(text);
  }

  /** `text` with every known secret replaced by `[Redacted]`. */
  redactText(text: string): string {
    const pattern = this.compiled();
    return pattern === null ? text : text.replace(pattern, REDACTED);
  }

  /**
   * A copy of a JSON-like value with secrets scrubbed from every string (keys included), and the
   * values of sensitive keys and of everything under `_env` replaced by `[Redacted]` (the keys of an
   * `_env` object are kept: they say which secrets were present without saying what they are).
   * Arrays and plain objects are copied (cycles preserved); Errors are copied with the same
   * prototype so serializers still recognise them; other objects (Date, Buffer, class instances) are
   * returned as they are. The static type is kept for convenience although sensitive values become
   * strings.
   */
  redactValue<T>(value: T): T {
    return this.walk(value, new WeakMap()) as T;
  }

  private walk(value: unknown, seen: WeakMap<object, unknown>): unknown {
    if (typeof value === 'string') return this.redactText(value);
    if (typeof value !== 'object' || value === null) return value;
    const done = seen.get(value);
    if (done !== undefined) return done;
    if (Array.isArray(value)) {
      const copy: unknown[] = [];
      seen.set(value, copy);
      for (const item of value) copy.push(this.walk(item, seen));
      return copy;
    }
    if (value instanceof Error) return this.walkError(value, seen);
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return value;
    const copy: Record<string, unknown> = Object.create(proto as object | null) as Record<string, unknown>;
    seen.set(value, copy);
    for (const [key, item] of Object.entries(value)) {
      // defineProperty, not assignment: an own `__proto__` key (JSON.parse makes those) stays data.
      Object.defineProperty(copy, this.redactText(key), {
        value: this.walkEntry(key, item, seen),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  }

  private walkEntry(key: string, item: unknown, seen: WeakMap<object, unknown>): unknown {
    if (key === ENV_KEY) return redactEnv(item);
    if (isSensitiveKey(key) && item !== null && item !== undefined) return REDACTED;
    return this.walk(item, seen);
  }

  /** message, stack, cause and extra fields are own properties (some non-enumerable): copy them all. */
  private walkError(error: Error, seen: WeakMap<object, unknown>): Error {
    const copy = Object.create(Object.getPrototypeOf(error) as object) as Error;
    seen.set(error, copy);
    for (const key of Object.getOwnPropertyNames(error)) {
      const descriptor = Object.getOwnPropertyDescriptor(error, key);
      if (descriptor === undefined) continue;
      let item: unknown;
      try {
        item = 'value' in descriptor ? descriptor.value : descriptor.get?.call(error);
      } catch {
        continue; // a throwing getter must not break logging
      }
      Object.defineProperty(copy, key, {
        value: this.walkEntry(key, item, seen),
        enumerable: descriptor.enumerable ?? false,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  }

  private compiled(): RegExp | null {
    if (this.pattern === undefined) {
      // Longest first: when one secret is a prefix of another, the whole longer one must go.
      const alternatives = [...this.forms].sort((a, b) => b.length - a.length).map(escapeRegExp);
      this.pattern = alternatives.length === 0 ? null : new RegExp(alternatives.join('|'), 'g');
    }
    return this.pattern;
  }
}

function redactEnv(env: unknown): unknown {
  if (env === null || env === undefined) return env;
  if (typeof env !== 'object' || Array.isArray(env)) return REDACTED;
  return Object.fromEntries(Object.keys(env).map((name) => [name, REDACTED]));
}

function encodedForms(value: string): string[] {
  // encodeURIComponent throws on a lone surrogate ("abc\ud800", a valid JSON string), which made
  // setting such an env var a 500. What leaves in a URL is its well-formed form anyway: URL,
  // URLSearchParams and fetch replace a lone surrogate with U+FFFD before percent-encoding.
  const uri = encodeURIComponent(toWellFormed(value));
  const bytes = Buffer.from(value, 'utf8');
  return [
    value,
    uri,
    uri.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
    uri.replace(/%20/g, '+'),
    JSON.stringify(value).slice(1, -1),
    bytes.toString('base64').replace(/=+$/, ''),
    bytes.toString('base64url'),
  ];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
