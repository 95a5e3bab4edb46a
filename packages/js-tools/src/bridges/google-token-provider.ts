import type { SafeFetch } from '../net/safe-fetch';
import { BridgeError } from '../sandbox/bridge-host';

export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

/** How the server gets Google access tokens for `google.getAccessToken()`. */
export type GoogleAuthConfig =
  | { readonly kind: 'access_token'; readonly accessToken: string }
  | {
      readonly kind: 'refresh_token';
      readonly clientId: string;
      readonly clientSecret: string;
      readonly refreshToken: string;
      /** Token endpoint (default Google's). */
      readonly tokenUrl?: string;
    };

export interface GoogleTokenProvider {
  accessToken(signal: AbortSignal): Promise<string>;
}

export interface GoogleTokenProviderOptions {
  /** The clock expiry is measured on (epoch milliseconds); tests move it. */
  readonly now?: () => number;
  /**
   * Told of every access token before the provider hands it out, with the time it stops working
   * (epoch ms on `now`; undefined for a configured token, whose expiry is unknown). The server
   * gives each to its secret redactor here: a refreshed token is not in the configuration, and a
   * tool that echoes it must not carry it into events, logs or the next model request.
   */
  readonly onToken?: (token: string, expiresAt: number | undefined) => void;
}

/** Refresh this long before Google's stated expiry, so a token never dies mid-call. */
const EXPIRY_MARGIN_MS = 60_000;

/**
 * A configured token is returned as it is. A refresh token is exchanged at Google's OAuth token
 * endpoint (grant_type=refresh_token), the access token cached until shortly before it expires,
 * and concurrent callers share one refresh. No token or secret ever appears in an error message.
 */
export function createGoogleTokenProvider(config: GoogleAuthConfig, http: SafeFetch, options: GoogleTokenProviderOptions = {}): GoogleTokenProvider {
  const { now = Date.now, onToken } = options;
  if (config.kind === 'access_token') {
    onToken?.(config.accessToken, undefined);
    return { accessToken: async () => config.accessToken };
  }

  let cached: { token: string; expiresAt: number } | undefined;
  let inFlight: Promise<string> | undefined;

  const refresh = async (signal: AbortSignal): Promise<string> => {
    const form = new URLSearchParams({
      grant_type: 'refresh_token',
      client_id: config.clientId,
      client_secret: config.clientSecret,
      refresh_token: config.refreshToken,
    });
    const response = await http.request(
      {
        url: config.tokenUrl ?? GOOGLE_TOKEN_URL,
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: form.toString(),
      },
      { signal },
    );
    const text = Buffer.from(response.body).toString('utf8');
    let body: { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      // Reported below as a malformed answer.
    }
    if (response.status !== 200) {
      const reason = typeof body.error === 'string' ? body.error : `HTTP ${response.status}`;
      const hint = reason === 'invalid_grant' ? ' The refresh token was revoked or expired: authorize the app again and configure the new refresh token.' : '';
      throw new BridgeError('google_auth_failed', `Google refused to issue an access token (${reason}).${hint}`);
    }
    if (typeof body.access_token !== 'string' || body.access_token === '') {
      throw new BridgeError('google_auth_failed', 'Google answered the token request without an access token.');
    }
    const lifetimeS = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 3600;
    const expiresAt = now() + lifetimeS * 1000;
    // Before the token is cached or returned: no caller may hold it before the listener knows it.
    onToken?.(body.access_token, expiresAt);
    cached = { token: body.access_token, expiresAt: expiresAt - EXPIRY_MARGIN_MS };
    return body.access_token;
  };

  return {
    async accessToken(signal: AbortSignal): Promise<string> {
      if (cached && cached.expiresAt > now()) return cached.token;
      inFlight ??= refresh(signal).finally(() => {
        inFlight = undefined;
      });
      return inFlight;
    },
  };
}
