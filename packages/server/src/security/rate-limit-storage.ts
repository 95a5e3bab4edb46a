import type { ThrottlerStorage } from '@nestjs/throttler';

/** What `ThrottlerStorage.increment` resolves to (the package does not export the type by name). */
type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** One client's hits under one throttler, and its block. */
interface Window {
  /** Expiry times of the hits, in order; those before `head` have expired. */
  expiries: number[];
  head: number;
  blockedUntil: number;
  /** The stock storage's fixed reset time (X-RateLimit-Reset): `ttl` after the first hit, then again. */
  resetAt: number;
}

/**
 * The throttler's in-memory storage with the stock one's rules (a sliding window of `ttl`: a
 * client over `limit` hits in it is refused for `blockDuration`, and its hits start again after;
 * with no block, a request over the limit is refused and not counted), at a constant cost per
 * request. The stock `ThrottlerStorageService` copies all of a client's live hits into a new
 * array on every request, which at a high `ONECLAW_RATE_LIMIT_PER_MINUTE` is tens of thousands
 * of numbers per request. Here the hits are kept in expiry order (a hit is inserted in place when
 * a shorter window puts it before the last), so the expired ones are dropped by moving a start
 * index; the list is emptied once all of it has expired, and compacted once half of it has. The
 * sweep of idle clients runs at most once per window, so an idle client is forgotten one to two
 * windows after its last hit.
 */
export class RateLimitStorage implements ThrottlerStorage {
  private readonly windows = new Map<string, Window>();
  private nextSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    const now = this.now();
    if (now >= this.nextSweep) this.sweep(now, ttl);
    const id = `${throttlerName}\0${key}`;
    let window = this.windows.get(id);
    if (!window) {
      window = { expiries: [], head: 0, blockedUntil: 0, resetAt: now + ttl };
      this.windows.set(id, window);
    }
    dropExpired(window, now);
    if (window.resetAt <= now) window.resetAt = now + ttl;
    const seconds = (until: number) => Math.ceil((until - now) / 1000);
    const timeToExpire = seconds(window.resetAt);
    if (blockDuration <= 0) {
      // No block: a request over the limit is refused and not counted, until the oldest hit expires.
      const refused = live(window) >= limit;
      if (!refused) addHit(window, now + ttl);
      const oldest = window.expiries[window.head] ?? now + ttl;
      return Promise.resolve({ totalHits: live(window) + (refused ? 1 : 0), timeToExpire, isBlocked: refused, timeToBlockExpire: refused ? seconds(oldest) : 0 });
    }
    if (window.blockedUntil !== 0 && window.blockedUntil <= now) {
      // The block is over: the client starts again from nothing, as with the stock storage.
      window.blockedUntil = 0;
      window.expiries = [];
      window.head = 0;
    }
    if (window.blockedUntil === 0) {
      addHit(window, now + ttl);
      if (live(window) > limit) window.blockedUntil = now + blockDuration;
    }
    const blocked = window.blockedUntil !== 0;
    return Promise.resolve({ totalHits: live(window), timeToExpire, isBlocked: blocked, timeToBlockExpire: blocked ? seconds(window.blockedUntil) : 0 });
  }

  /** How many clients (and throttlers) are remembered: for tests. */
  get size(): number {
    return this.windows.size;
  }

  private sweep(now: number, ttl: number): void {
    for (const [id, window] of this.windows) {
      dropExpired(window, now);
      if (live(window) === 0 && window.blockedUntil <= now) this.windows.delete(id);
    }
    this.nextSweep = now + ttl;
  }
}

const live = (window: Window): number => window.expiries.length - window.head;

/** Appends the hit's expiry, or inserts it in order when a shorter window puts it before the last. */
function addHit(window: Window, expiry: number): void {
  const { expiries } = window;
  let at = expiries.length;
  while (at > window.head && (expiries[at - 1] as number) > expiry) at -= 1;
  if (at === expiries.length) expiries.push(expiry);
  else expiries.splice(at, 0, expiry);
}

function dropExpired(window: Window, now: number): void {
  const { expiries } = window;
  while (window.head < expiries.length && (expiries[window.head] as number) <= now) window.head += 1;
  if (window.head === expiries.length) {
    window.expiries = [];
    window.head = 0;
  } else if (window.head >= 32 && window.head * 2 >= expiries.length) {
    window.expiries = expiries.slice(window.head);
    window.head = 0;
  }
}
