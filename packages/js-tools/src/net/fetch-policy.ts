import { lookup } from 'node:dns/promises';
import { OneClawError } from '@oneclaw/core';

/** One DNS answer. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** What the host-side HTTP client of the `fetch` bridge may reach, and how much it may read. */
export interface FetchPolicy {
  /** Allow loopback, private, link-local, CGNAT, metadata and other non-public addresses (default false). */
  readonly allowPrivateNetwork?: boolean;
  /** Egress allow-list of host names (exact, or "*.example.com" for subdomains). Undefined = any public host. */
  readonly allowedHosts?: readonly string[];
  /** HTTP(S) proxy URL every request goes through (http://host:port). */
  readonly proxyUrl?: string;
  /** Extra PEM CA certificates trusted for TLS, on top of Node's defaults (corporate TLS-inspecting proxies, test fakes). */
  readonly caCertificates?: readonly string[];
  /** Largest body buffered in memory (default 10 MiB). */
  readonly maxResponseBytes?: number;
  /** Largest body streamed to a destination (default 100 MiB). */
  readonly maxDownloadBytes?: number;
  /** Whole request, including redirects and the body (default 30 000 ms). */
  readonly timeoutMs?: number;
  /** Redirects followed before `too_many_redirects` (default 10). */
  readonly maxRedirects?: number;
  /** DNS resolver, injectable for tests; default node:dns/promises lookup with {all:true}. */
  readonly resolve?: (hostname: string) => Promise<readonly ResolvedAddress[]>;
}

export type ResolvedFetchPolicy = Required<Omit<FetchPolicy, 'allowedHosts' | 'proxyUrl'>> & Pick<FetchPolicy, 'allowedHosts' | 'proxyUrl'>;

export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_MAX_DOWNLOAD_BYTES = 100 * 1024 * 1024;
export const DEFAULT_FETCH_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_REDIRECTS = 10;

export async function systemResolve(hostname: string): Promise<readonly ResolvedAddress[]> {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

export function resolveFetchPolicy(policy: FetchPolicy = {}): ResolvedFetchPolicy {
  return Object.freeze({
    allowPrivateNetwork: policy.allowPrivateNetwork ?? false,
    allowedHosts: policy.allowedHosts ? Object.freeze([...policy.allowedHosts]) : undefined,
    proxyUrl: policy.proxyUrl === undefined ? undefined : checkProxyUrl(policy.proxyUrl),
    caCertificates: Object.freeze([...(policy.caCertificates ?? [])]),
    maxResponseBytes: limit('maxResponseBytes', policy.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES, 0),
    maxDownloadBytes: limit('maxDownloadBytes', policy.maxDownloadBytes, DEFAULT_MAX_DOWNLOAD_BYTES, 0),
    timeoutMs: limit('timeoutMs', policy.timeoutMs, DEFAULT_FETCH_TIMEOUT_MS, 1),
    maxRedirects: limit('maxRedirects', policy.maxRedirects, DEFAULT_MAX_REDIRECTS, 0),
    resolve: policy.resolve ?? systemResolve,
  });
}

function limit(name: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < min) {
    throw new OneClawError('invalid_fetch_policy', `FetchPolicy.${name} must be an integer >= ${min}, got ${String(value)}. Fix the fetch configuration.`, { field: name });
  }
  return value;
}

function checkProxyUrl(proxyUrl: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(proxyUrl);
  } catch {
    parsed = undefined;
  }
  if (parsed?.protocol !== 'http:' && parsed?.protocol !== 'https:') {
    // The value may carry proxy credentials, so it is not echoed.
    throw new OneClawError('invalid_fetch_policy', 'FetchPolicy.proxyUrl must be an absolute http:// or https:// URL such as http://proxy.internal:3128.', { field: 'proxyUrl' });
  }
  return proxyUrl;
}
