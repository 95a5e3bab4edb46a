import { useState } from 'preact/hooks';
import { ApiError } from '../api/api-error';
import { ApiClient } from '../api/client';
import { normalizeApiBase, savedApiBase, type Connection } from '../api/connection';

/**
 * Asks for the API token (and, when the page does not come from the server, e.g. inside the
 * Android shell's bundled build, the server's address), and checks them with one request
 * before saving them.
 */
export function SignIn({ note, onSignedIn }: { note?: string; onSignedIn: (connection: Connection) => void }) {
  const [token, setToken] = useState('');
  const [apiBase, setApiBase] = useState(() => savedApiBase(window.localStorage));
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const needsAddress = !servedByServer();

  async function submit(event: Event) {
    event.preventDefault();
    setError(undefined);
    let base: string;
    try {
      base = normalizeApiBase(apiBase);
    } catch (e) {
      setError(`The server address is not valid: ${(e as Error).message} Use a full address such as http://192.168.1.20:3000.`);
      return;
    }
    if (needsAddress && !base) {
      setError('Enter the server address, such as http://192.168.1.20:3000.');
      return;
    }
    const connection: Connection = { apiBase: base, token: token.trim() };
    setBusy(true);
    try {
      await new ApiClient(connection).get('/api/sessions');
      onSignedIn(connection);
    } catch (e) {
      const apiError = e instanceof ApiError ? e : ApiError.network(e);
      setError(apiError.status === 401 ? "The server refused this token. Copy it from the api-token file in the server's data directory." : apiError.detail);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main class="sign-in">
      <form class="card sign-in__form" onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Connect to OneClaw</h1>
        <p class="muted">
          The server printed its API token on its first start; it is also in the <code>api-token</code> file of its data directory.
        </p>
        {note && (
          <p class="notice" role="status">
            {note}
          </p>
        )}
        <label class="field">
          <span>Server address{needsAddress ? '' : ' (leave empty for this server)'}</span>
          <input
            type="url"
            name="apiBase"
            inputMode="url"
            autoComplete="url"
            placeholder="http://192.168.1.20:3000"
            value={apiBase}
            onInput={(e) => setApiBase(e.currentTarget.value)}
            required={needsAddress}
          />
        </label>
        <label class="field">
          <span>API token</span>
          <input type="password" name="token" autoComplete="current-password" value={token} onInput={(e) => setToken(e.currentTarget.value)} required minLength={16} />
        </label>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="button button--primary" disabled={busy}>
          {busy ? 'Connecting…' : 'Connect'}
        </button>
      </form>
    </main>
  );
}

/** A page served over http(s) by the server talks to that server; a bundled one (file:, capacitor:) needs an address. */
function servedByServer(): boolean {
  const { protocol, hostname } = window.location;
  if (protocol !== 'http:' && protocol !== 'https:') return false;
  // Capacitor serves its bundled files from https://localhost; the API is elsewhere.
  return !(hostname === 'localhost' && (window as { Capacitor?: unknown }).Capacitor !== undefined);
}
