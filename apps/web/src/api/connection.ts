/**
 * Where the API is and the token that opens it. Kept in localStorage so a reload (or the Android
 * shell's next start) stays signed in. The server's first start prints a link with
 * `#token=...`: the fragment never reaches the server or its logs, and we strip it from the
 * address bar as soon as it is read.
 */
export interface Connection {
  /** '' for the server that served this page; otherwise an absolute origin (Android shell, dev). */
  readonly apiBase: string;
  readonly token: string;
}

const TOKEN_KEY = 'oneclaw.token';
const API_BASE_KEY = 'oneclaw.apiBase';

export interface ConnectionStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The token carried in a `#token=...` fragment, if any, and the fragment without it. */
export function tokenFromHash(hash: string): { token?: string; rest: string } {
  const match = /^#?token=([^&]*)(?:&(.*))?$/.exec(hash);
  if (!match) return { rest: hash };
  const token = decodeURIComponent(match[1] ?? '').trim();
  const rest = match[2] ? `#${match[2]}` : '';
  return token ? { token, rest } : { rest };
}

/** Reads the saved connection; a token in the fragment wins and is saved. */
export function loadConnection(storage: ConnectionStorage, location: { hash: string }, replaceHash: (hash: string) => void): Connection | undefined {
  const fromHash = tokenFromHash(location.hash);
  if (fromHash.token) {
    storage.setItem(TOKEN_KEY, fromHash.token);
    replaceHash(fromHash.rest);
  }
  const token = storage.getItem(TOKEN_KEY);
  if (!token) return undefined;
  return { token, apiBase: storage.getItem(API_BASE_KEY) ?? '' };
}

export function saveConnection(storage: ConnectionStorage, connection: Connection): void {
  storage.setItem(TOKEN_KEY, connection.token);
  if (connection.apiBase) storage.setItem(API_BASE_KEY, normalizeApiBase(connection.apiBase));
  else storage.removeItem(API_BASE_KEY);
}

export function forgetConnection(storage: ConnectionStorage): void {
  storage.removeItem(TOKEN_KEY);
}

/** The saved server address (kept when signing out, so the form is prefilled). */
export function savedApiBase(storage: ConnectionStorage): string {
  return storage.getItem(API_BASE_KEY) ?? '';
}

/** `http://host:3000/` -> `http://host:3000`; '' stays ''. Throws on something that is not an http(s) URL. */
export function normalizeApiBase(raw: string): string {
  const trimmed = raw.trim();
  if (!trimmed) return '';
  const url = new URL(trimmed);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${trimmed} is not an http(s) address.`);
  return url.origin + url.pathname.replace(/\/+$/, '');
}
