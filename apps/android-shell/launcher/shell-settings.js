// @ts-check
/**
 * The launcher's logic without the DOM: what the user typed, what is stored, and where the app
 * goes on start. Plain ES module (no bundler): the WebView loads it as is from the app's assets,
 * and the unit tests import it.
 */

/**
 * Keys in @capacitor/preferences. On Android they live in the SharedPreferences file
 * "CapacitorStorage" under exactly these names, where ServerNavigationPlugin.java reads them
 * before letting the WebView load the server's pages. Keep the two files in step (a test checks).
 */
export const PREF_MODE = 'oneclaw.shell.mode';
export const PREF_SERVER_URL = 'oneclaw.shell.serverUrl';

/**
 * The bundled web UI (apps/web, src/api/connection.ts) keeps its connection in localStorage under
 * these keys. The launcher shares its origin (https://localhost), so it can sign the bundled UI in
 * by writing them; the e2e test checks this against the real bundled build.
 */
export const WEB_UI_TOKEN_KEY = 'oneclaw.token';
export const WEB_UI_API_BASE_KEY = 'oneclaw.apiBase';

/** Where the bundled UI sits inside the app's web assets. The file name is explicit on purpose:
 * Capacitor's local server answers any extension-less path (such as `ui/`) with the ROOT index.html,
 * which is this launcher. */
export const BUNDLED_UI_PATH = 'ui/index.html';

/** The server's rule for API tokens (packages/server/src/security/api-token.ts). */
const MIN_TOKEN_LENGTH = 16;
const TOKEN_CHARS = /^[\x21-\x7e]+$/;

/** @typedef {'server' | 'bundled'} ShellMode */
/** @typedef {{ mode: ShellMode, serverUrl: string }} ShellSettings */

/** An input the user has to fix; the message is shown next to the form. */
export class ShellInputError extends Error {
  /** @param {'address' | 'token'} field @param {string} message */
  constructor(field, message) {
    super(message);
    this.name = 'ShellInputError';
    this.field = field;
  }
}

/**
 * Reads the server address field. Accepts what people actually type or paste:
 * `192.168.1.20:3000` (http is assumed, since the server speaks plain http on a LAN),
 * `http://host:3000/`, or the whole sign-in link `http://host:3000/#token=...`, whose token is
 * returned so the token field can be filled.
 * @param {string} raw
 * @returns {{ base: string, token?: string }} base: scheme://host[:port][/path], no trailing slash
 */
export function parseServerAddress(raw) {
  const trimmed = raw.trim();
  if (!trimmed) throw new ShellInputError('address', 'Enter the server address, such as http://192.168.1.20:3000.');
  // Without "://" the text has no scheme we can trust: "localhost:3000" would otherwise parse as the
  // scheme "localhost:", and "javascript:..." must never become a navigation target.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  let url;
  try {
    url = new URL(withScheme);
  } catch {
    throw new ShellInputError('address', `"${trimmed}" is not a valid address. Use one such as http://192.168.1.20:3000.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ShellInputError('address', `The address must start with http:// or https:// (got ${url.protocol}//).`);
  }
  if (!url.hostname) throw new ShellInputError('address', 'The address has no host name.');
  if (url.username || url.password) {
    // The WebView would send them to every page of the server; the API uses the token instead.
    throw new ShellInputError('address', 'Leave user name and password out of the address; the API token is entered below.');
  }
  if (url.search) throw new ShellInputError('address', 'Leave the "?..." part out of the address.');
  const base = url.origin + url.pathname.replace(/\/+$/, '');
  const token = /^#token=([^&]*)/.exec(url.hash)?.[1];
  const decoded = token ? safeDecode(token).trim() : '';
  return decoded ? { base, token: decoded } : { base };
}

/** @param {string} text */
function safeDecode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The token field. The bundled UI needs it (the launcher checks it before opening that UI); the
 * server's own UI may do without, since it asks for the token itself when it has none.
 * @param {string} raw @param {ShellMode} mode
 * @returns {string | undefined}
 */
export function validateToken(raw, mode) {
  const token = raw.trim();
  if (!token) {
    if (mode === 'bundled') throw new ShellInputError('token', 'Enter the API token: the bundled UI needs it to call the server.');
    return undefined;
  }
  if (token.length < MIN_TOKEN_LENGTH || !TOKEN_CHARS.test(token)) {
    throw new ShellInputError('token', `An API token has at least ${MIN_TOKEN_LENGTH} characters and no spaces. It is in the api-token file of the server's data directory.`);
  }
  return token;
}

/**
 * The address that opens the server's own UI; with a token, the fragment form the server's UI
 * reads and then removes from the address bar (a fragment never reaches the server or its logs).
 * @param {string} base @param {string | undefined} token
 */
export function serverEntryUrl(base, token) {
  return `${base}/${token ? `#token=${encodeURIComponent(token)}` : ''}`;
}

/**
 * What the launcher does when it loads.
 * - No settings yet, an explicit `?change`, or the user came back to it with Back: show the form.
 *   (Auto-opening after Back would bounce the user straight forward again, so Back could never
 *   reach the place where the server is changed.)
 * - Otherwise open the chosen UI. No token in the address: the target already stored it.
 * @param {{ settings: ShellSettings | undefined, search: string, cameBack: boolean }} input
 * @returns {{ kind: 'form' } | { kind: 'open', url: string }}
 */
export function startAction({ settings, search, cameBack }) {
  if (!settings || cameBack || new URLSearchParams(search).has('change')) return { kind: 'form' };
  return { kind: 'open', url: settings.mode === 'server' ? serverEntryUrl(settings.serverUrl, undefined) : BUNDLED_UI_PATH };
}

/**
 * @typedef {{ getItem(key: string): string | null, setItem(key: string, value: string): void }} WebStorage
 * @typedef {{ get(o: { key: string }): Promise<{ value: string | null }>, set(o: { key: string, value: string }): Promise<void>, remove(o: { key: string }): Promise<void> }} PreferencesApi
 */

/**
 * The launcher's own settings in @capacitor/preferences (SharedPreferences on Android, where the
 * native navigation rule can read them; localStorage in a plain browser). The token is NOT kept
 * here: it goes to the UI that uses it, so there is one copy of the secret per origin.
 * @param {PreferencesApi} preferences
 */
export function settingsStore(preferences) {
  return {
    /** @returns {Promise<ShellSettings | undefined>} */
    async load() {
      const [mode, serverUrl] = await Promise.all([preferences.get({ key: PREF_MODE }), preferences.get({ key: PREF_SERVER_URL })]);
      if ((mode.value !== 'server' && mode.value !== 'bundled') || !serverUrl.value) return undefined;
      return { mode: mode.value, serverUrl: serverUrl.value };
    },
    /** @param {ShellSettings} settings */
    async save(settings) {
      // The address first: the native rule only acts when the mode says "server", so it never
      // sees the new mode with the old address.
      await preferences.set({ key: PREF_SERVER_URL, value: settings.serverUrl });
      await preferences.set({ key: PREF_MODE, value: settings.mode });
    },
  };
}

/**
 * Checks the address and token the way the bundled UI will use them: a cross-origin call from the
 * app's origin. A network failure here means unreachable OR not allowed by CORS; the browser does
 * not tell the two apart, so the message names both.
 * @param {typeof fetch} fetchFn @param {string} base @param {string} token @param {string} appOrigin
 * @returns {Promise<{ ok: true } | { ok: false, message: string }>}
 */
export async function checkBundledConnection(fetchFn, base, token, appOrigin) {
  let response;
  try {
    response = await fetchFn(`${base}/api/sessions`, { headers: { Authorization: `Bearer ${token}` }, cache: 'no-store' });
  } catch {
    return {
      ok: false,
      message:
        `Could not reach ${base} from the bundled UI. Either the server is not reachable from this phone ` +
        `(same network? started with ONECLAW_HOST=0.0.0.0?), or it does not allow this app: start it with ` +
        `ONECLAW_CORS_ORIGINS=${appOrigin}. Or choose "The server's own UI", which needs no CORS setting.`,
    };
  }
  if (response.ok) return { ok: true };
  if (response.status === 401) return { ok: false, message: "The server refused this token. Copy it from the api-token file in the server's data directory." };
  return { ok: false, message: `The server answered ${response.status} ${response.statusText}. Is ${base} a OneClaw server?` };
}

/**
 * Signs the bundled UI in: it reads these keys on start (same origin as the launcher).
 * @param {WebStorage} storage @param {string} base @param {string} token
 */
export function signInBundledUi(storage, base, token) {
  storage.setItem(WEB_UI_API_BASE_KEY, base);
  storage.setItem(WEB_UI_TOKEN_KEY, token);
}
