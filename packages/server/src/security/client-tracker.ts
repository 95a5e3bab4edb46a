import { Inject, Injectable, Optional, type ExecutionContext } from '@nestjs/common';
import { DEFAULT_IPV6_SUBNET_PREFIX, ThrottlerGuard, normalizeIp, type ThrottlerLimitDetail } from '@nestjs/throttler';
import { createHash } from 'node:crypto';
import { tokensEqual } from './api-token';
import { API_TOKEN, presentedToken } from './bearer-auth.guard';

/**
 * Injection token for a boolean, ONECLAW_TRUST_PROXY: when true the tracker uses Express's `req.ip`
 * (which reads X-Forwarded-For per the app's `trust proxy` setting). Optional; default false.
 */
export const TRUST_PROXY = Symbol('TrustProxy');

/** The parts of an Express request the tracker reads. */
export interface TrackedRequest {
  readonly ip?: string;
  readonly socket?: { readonly remoteAddress?: string };
  readonly method?: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly query?: unknown;
}

export interface ClientKeyOptions {
  readonly trustProxy?: boolean;
  /** When given, requests carrying this token get their own bucket per address. */
  readonly apiToken?: string | undefined;
  readonly ipv6SubnetPrefix?: number;
}

/**
 * The rate-limit key of a request (API-08/API-09).
 *
 * The address is the TCP peer, not X-Forwarded-For: anyone can send that header, and a limiter
 * that believes it is bypassed by rotating it. Only with `trustProxy` (a proxy we run sets it) is
 * Express's `req.ip` used; the lead must then also `app.set('trust proxy', …)`, or `req.ip` is the
 * socket address anyway. IPv6 addresses are grouped by /64 like the stock tracker, since one host
 * usually owns a whole /64.
 *
 * A valid bearer token adds a hash of it to the key, so clients with different tokens behind one
 * NAT are limited separately. Only a token that matches counts: otherwise sending a fresh random
 * token per request would get a fresh bucket each time.
 */
export function clientKey(request: TrackedRequest, options: ClientKeyOptions = {}): string {
  const address = (options.trustProxy === true ? request.ip : undefined) ?? request.socket?.remoteAddress ?? 'unknown';
  const ip = normalizeIp(address, options.ipv6SubnetPrefix ?? DEFAULT_IPV6_SUBNET_PREFIX);
  const token = options.apiToken === undefined ? undefined : presentedToken(request);
  if (token === undefined || options.apiToken === undefined || !tokensEqual(token, options.apiToken)) return ip;
  const tokenId = createHash('sha256').update(token, 'utf8').digest('base64url').slice(0, 16);
  return `${ip}|${tokenId}`;
}

/**
 * ThrottlerGuard with `clientKey` as its tracker, and two corrections to the stock guard:
 *  - one budget per client for the whole API (ONECLAW_RATE_LIMIT_PER_MINUTE is "per client"): the
 *    stock key also holds the controller and handler names, which gives a client a fresh budget on
 *    every route, so spreading requests (or token guesses) over routes multiplies the limit;
 *  - a plain `Retry-After` on 429: the stock guard names it `Retry-After-<throttler>` for any
 *    throttler not called `default` (ours is `api`), which no client reads.
 * Wiring (AppModule):
 *   imports: [ThrottlerModule.forRoot([{ ttl: 60_000, limit: config.rateLimitPerMinute }])],
 *   providers: [
 *     { provide: TRUST_PROXY, useValue: config.trustProxy },
 *     { provide: APP_GUARD, useClass: ClientThrottlerGuard },   // before BearerAuthGuard
 *     …
 *   ]
 * Do not set `getTracker` in ThrottlerModule options: it would replace this one.
 */
@Injectable()
export class ClientThrottlerGuard extends ThrottlerGuard {
  // Property injection keeps ThrottlerGuard's own constructor (and its injection tokens) intact.
  @Optional() @Inject(TRUST_PROXY) private readonly trustProxy?: boolean;
  @Optional() @Inject(API_TOKEN) private readonly apiToken?: string;

  protected override async getTracker(request: Record<string, unknown>): Promise<string> {
    return clientKey(request as unknown as TrackedRequest, {
      trustProxy: this.trustProxy === true,
      apiToken: this.apiToken,
      ipv6SubnetPrefix: this.ipv6SubnetPrefix,
    });
  }

  protected override generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    return createHash('sha256').update(`${throttlerName}\0${tracker}`, 'utf8').digest('base64url');
  }

  protected override async throwThrottlingException(context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    const { res } = this.getRequestResponse(context);
    // Whole seconds, at least 1 (RFC 9110 delay-seconds).
    this.setResponseHeader(res, 'Retry-After', Math.max(1, Math.ceil(detail.timeToBlockExpire)));
    await super.throwThrottlingException(context, detail);
  }
}
