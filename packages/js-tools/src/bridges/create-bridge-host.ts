import { OneClawError } from '@oneclaw/core';
import { ConfinedFs } from '../fs/confined-fs';
import type { FetchPolicy } from '../net/fetch-policy';
import { buildMultipart } from '../net/multipart';
import { SafeFetch, type HttpRequest, type HttpResponse } from '../net/safe-fetch';
import { BridgeError, googleNotConfigured, type BridgeHost, type FsOp, type GuestFetchRequest, type HostFetchResponse } from '../sandbox/bridge-host';
import { formatTime, systemTimeZone } from './format-time';
import { checkSaveFrom, jsonFieldBytes, SAVE_FROM_MAX_RESPONSE_BYTES } from './json-field-save';
import { LibraryFolders } from './library-folders';

/** Deployment settings of the bridges: plain data, so each sandbox worker can build its own host. */
export interface BridgeHostConfig {
  /** The one folder `fs` may touch (the data directory's `files` folder). Unset: every fs call fails. */
  readonly filesRoot?: string;
  readonly maxFileReadBytes?: number;
  readonly maxFileWriteBytes?: number;
  /** SSRF policy, proxy, extra CAs and caps of the `fetch` bridge. */
  readonly fetch?: Omit<FetchPolicy, 'resolve'>;
  /** Searched in order by `lib(name)`: the shipped lib folder first, then the user's. */
  readonly libraryFolders?: readonly string[];
  /** Zone `_time()` uses when the tool names none (default: the server's). */
  readonly defaultTimeZone?: string;
}

export interface BridgeServices {
  readonly googleAccessToken?: (signal: AbortSignal) => Promise<string>;
  readonly now?: () => Date;
  /** DNS resolver for the fetch bridge (tests). */
  readonly resolve?: FetchPolicy['resolve'];
}

export interface ClosableBridgeHost extends BridgeHost {
  close(): Promise<void>;
}

/** The bridge host sandboxes use: confined fs, SSRF-safe fetch, library folders, time, Google tokens. */
export function createBridgeHost(config: BridgeHostConfig, services: BridgeServices = {}): ClosableBridgeHost {
  const files = new ConfinedFs({
    root: config.filesRoot,
    ...(config.maxFileReadBytes ? { maxReadBytes: config.maxFileReadBytes } : {}),
    ...(config.maxFileWriteBytes ? { maxWriteBytes: config.maxFileWriteBytes } : {}),
  });
  const http = new SafeFetch({ ...config.fetch, ...(services.resolve ? { resolve: services.resolve } : {}) });
  const libraries = new LibraryFolders(config.libraryFolders ?? []);
  const now = services.now ?? (() => new Date());
  const defaultTimeZone = config.defaultTimeZone ?? systemTimeZone();

  return {
    fs(op: FsOp, args: readonly unknown[]): unknown {
      return asBridgeError(() => fsCall(files, op, args));
    },

    async fetch(request: GuestFetchRequest, signal: AbortSignal): Promise<HostFetchResponse> {
      const outgoing = toHttpRequest(request, files);
      if (request.saveFrom !== undefined && request.saveTo === undefined) {
        throw new BridgeError('invalid_request', 'saveFrom needs saveTo: the file under the files folder to save the field into.');
      }
      if (request.saveTo === undefined) return hostResponse(await asBridgeErrorAsync(() => http.request(outgoing, { signal })));
      const from = request.saveFrom === undefined ? undefined : checkSaveFrom(request.saveFrom);
      // The file never passes through the sandbox, so the fs bridge's write limit is not its cap:
      // the fetch policy's download limit is.
      const maxBytes = http.policy.maxDownloadBytes;
      const target = asBridgeError(() => files.createWriteStream(requireString(request.saveTo, 'saveTo'), { maxBytes }));
      try {
        const response = await asBridgeErrorAsync(() =>
          from === undefined
            ? http.request(outgoing, { signal, destination: target.stream })
            : http.request(outgoing, { signal, maxBytes: Math.min(SAVE_FROM_MAX_RESPONSE_BYTES, maxBytes) }),
        );
        // Only a successful response becomes the file; an error page is not saved over it (with
        // saveFrom the guest can read it: it was held, not streamed).
        if (response.status < 200 || response.status >= 300) {
          await target.abort();
          return hostResponse(response);
        }
        if (from !== undefined) target.stream.write(jsonFieldBytes(response.body, from));
        const saved = await asBridgeErrorAsync(() => target.commit());
        return { ...hostResponse(response), body: new Uint8Array(0), saved };
      } catch (error) {
        await target.abort();
        throw error;
      }
    },

    async googleAccessToken(signal: AbortSignal): Promise<string> {
      if (!services.googleAccessToken) throw googleNotConfigured();
      return services.googleAccessToken(signal);
    },

    librarySource(name: string) {
      return libraries.source(name);
    },

    formatTime(timezone, format) {
      return formatTime(now(), timezone, format, defaultTimeZone);
    },

    close: () => http.close(),
  };
}

function hostResponse(response: HttpResponse): HostFetchResponse {
  return { status: response.status, statusText: response.statusText, url: response.url, headers: response.headers, body: response.body };
}

function fsCall(files: ConfinedFs, op: FsOp, args: readonly unknown[]): unknown {
  const [path, second, third] = args;
  const target = requireString(path ?? (op === 'list' ? '.' : undefined), `fs.${op} path`);
  switch (op) {
    case 'readFile':
      return files.readFile(target, encodingArg(second));
    case 'writeFile':
      return files.writeFile(target, requireString(second, 'fs.writeFile content'), encodingArg(third));
    case 'appendFile':
      return files.appendFile(target, requireString(second, 'fs.appendFile content'), encodingArg(third));
    case 'exists':
      return files.exists(target);
    case 'list':
      return files.list(target);
    case 'delete':
      return files.delete(target);
  }
}

/** `'base64'` or `{encoding: 'base64'}`, as Node's fs takes it. */
function encodingArg(value: unknown): 'utf8' | 'base64' | 'base64url' | undefined {
  const encoding = value && typeof value === 'object' ? (value as { encoding?: unknown }).encoding : value;
  if (encoding === undefined || encoding === null) return undefined;
  if (encoding === 'utf8' || encoding === 'utf-8') return 'utf8';
  if (encoding === 'base64' || encoding === 'base64url') return encoding;
  throw new BridgeError('invalid_request', `Unknown encoding '${String(encoding)}'; use 'utf8', 'base64' or 'base64url'.`);
}

function toHttpRequest(request: GuestFetchRequest, files: ConfinedFs): HttpRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    if (typeof value !== 'string') throw new BridgeError('invalid_request', `Header '${name}' must be a string.`);
    headers[name] = value;
  }
  const bodies = [request.body, request.bodyBase64, request.multipart].filter((b) => b !== undefined).length;
  if (bodies > 1) throw new BridgeError('invalid_request', 'Give at most one of body, bodyBase64 and multipart.');
  let body: string | Uint8Array | undefined = request.body;
  if (request.bodyBase64 !== undefined) body = Buffer.from(requireString(request.bodyBase64, 'bodyBase64'), 'base64');
  if (request.multipart !== undefined) {
    const parts = request.multipart.parts;
    if (!Array.isArray(parts) || parts.length === 0) throw new BridgeError('invalid_request', 'multipart.parts must be a non-empty array.');
    const built = buildMultipart(
      parts.map((part, index) => {
        const sources = [part.body, part.base64, part.file].filter((b) => b !== undefined).length;
        if (sources !== 1) throw new BridgeError('invalid_request', `multipart part ${index + 1} needs exactly one of body, base64 and file.`);
        const content =
          part.file !== undefined
            ? asBridgeError(() => files.readBytes(requireString(part.file, 'multipart file')))
            : part.base64 !== undefined
              ? Buffer.from(requireString(part.base64, 'multipart base64'), 'base64')
              : requireString(part.body, 'multipart body');
        return { ...(part.headers ? { headers: part.headers } : {}), ...(part.contentType ? { contentType: part.contentType } : {}), body: content };
      }),
      request.multipart.subtype ?? 'related',
    );
    for (const name of Object.keys(headers)) if (name.toLowerCase() === 'content-type') delete headers[name];
    headers['Content-Type'] = built.contentType;
    body = built.body;
  }
  return { url: request.url, method: request.method, headers, ...(body !== undefined ? { body } : {}) };
}

function requireString(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new BridgeError('invalid_request', `${what} must be a string.`);
  return value;
}

/** Host errors reach the guest as their stable code and message only. */
function asBridgeError<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw toBridgeError(error);
  }
}

async function asBridgeErrorAsync<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toBridgeError(error);
  }
}

function toBridgeError(error: unknown): BridgeError {
  if (error instanceof BridgeError) return error;
  if (error instanceof OneClawError) return new BridgeError(error.code, error.message);
  return new BridgeError('bridge_error', error instanceof Error ? error.message : String(error));
}
