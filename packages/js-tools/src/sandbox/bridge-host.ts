/**
 * What the guest's bridges call on the host side. The sandbox core only knows this interface;
 * `createBridgeHost` builds the real one from the confined filesystem, the SSRF-safe HTTP client,
 * the library folders and the Google token provider.
 *
 * Every method may throw (or reject with) an error carrying a string `code`; the guest then sees
 * an Error with that `code` and the message, after secrets are redacted, and nothing else of the
 * host error (no stack, no host paths: SBX-09).
 */
export interface BridgeHost {
  /** `fs.<op>(...args)` from the guest, run synchronously. */
  fs(op: FsOp, args: readonly unknown[]): unknown;
  fetch(request: GuestFetchRequest, signal: AbortSignal): Promise<HostFetchResponse>;
  googleAccessToken(signal: AbortSignal): Promise<string>;
  /** The source of a CommonJS library for `lib(name)`. */
  librarySource(name: string): { readonly fileName: string; readonly source: string };
  /** `_time(timezone, format)`. */
  formatTime(timezone: string | undefined, format: string | undefined): string;
}

export const FS_OPS = ['readFile', 'writeFile', 'appendFile', 'exists', 'list', 'delete'] as const;
export type FsOp = (typeof FS_OPS)[number];

export const FETCH_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;
export type FetchMethod = (typeof FETCH_METHODS)[number];

/** A multipart body part: text (`body`), bytes (`base64`) or a file under the files root (`file`). */
export interface GuestMultipartPart {
  readonly headers?: Readonly<Record<string, string>>;
  readonly contentType?: string;
  readonly body?: string;
  readonly base64?: string;
  readonly file?: string;
}

/** The guest's `fetch(url, init)`, as plain data. */
export interface GuestFetchRequest {
  readonly url: string;
  readonly method: FetchMethod;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly bodyBase64?: string;
  readonly multipart?: { readonly subtype?: 'related' | 'form-data' | 'mixed'; readonly parts: readonly GuestMultipartPart[] };
  /** Stream the response body into this file under the files root instead of returning it. */
  readonly saveTo?: string;
  /** With saveTo: save one field of a JSON answer, decoded, instead of the body itself. */
  readonly saveFrom?: GuestSaveFrom;
}

/**
 * One top-level string field of a JSON object answer, and how it is encoded (Gmail attachments
 * come as `{"size": …, "data": "<base64url>"}`). The bytes go to the file; the guest never holds them.
 */
export interface GuestSaveFrom {
  readonly field: string;
  readonly encoding: 'base64' | 'base64url';
}

export interface HostFetchResponse {
  readonly status: number;
  readonly statusText: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  readonly saved?: { readonly path: string; readonly bytes: number };
}

/** An error to hand to the guest as `{name, code, message}`. */
export class BridgeError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'BridgeError';
  }
}

/** What `google.getAccessToken()` answers when the deployment configured no Google access. */
export function googleNotConfigured(): BridgeError {
  return new BridgeError(
    'google_not_configured',
    'Google access is not configured. Set ONECLAW_GOOGLE_ACCESS_TOKEN, or ONECLAW_GOOGLE_CLIENT_ID, ONECLAW_GOOGLE_CLIENT_SECRET and ONECLAW_GOOGLE_REFRESH_TOKEN.',
  );
}
