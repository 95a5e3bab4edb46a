import type { ThrottlerStorage } from '@nestjs/throttler';

/** What `ThrottlerStorage.increment` resolves to (the package does not export the type by name). */
type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** One client's hits under one throttler: when each expires, oldest first, and its block. */
interface Window {
  /** Expiry times of the hits; those before `head` have expired. Pushed in time order. */
  expiries: number[];
  head: number;
  blockedUntil: number;
}

/**
 * The throttler's in-memory storage with the stock one's rules (a sliding window of `ttl`: a
 * client over `limit` hits in it is refused for `blockDuration`, and its hits start again after),
 * at a constant cost per request. The stock `ThrottlerStorageService` copies all of a client's live
 * hits into a new array on every request, which at a high `ONECLAW_RATE_LIMIT_PER_MINUTE` is tens
 * of thousands of numbers per request. Here the hits are kept in expiry order, so the expired
 * ones are dropped by moving a start index, and the array is compacted once half of it is dead.
 * Clients idle for a whole window are forgotten at most once per window.
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
      window = { expiries: [], head: 0, blockedUntil: 0 };
      this.windows.set(id, window);
    }
    dropExpired(window, now);
    if (window.blockedUntil !== 0 && window.blockedUntil <= now) {
      // The block is over: the client starts again from nothing, as with the stock storage.
      window.blockedUntil = 0;
      window.expiries = [];
      window.head = 0;
    }
    const seconds = (until: number) => Math.ceil((until - now) / 1000);
    if (blockDuration <= 0) {
      // No block: a request over the limit is refused and not counted, until the oldest hit expires.
      const refused = live(window) >= limit;
      if (!refused) window.expiries.push(now + ttl);
      const oldest = window.expiries[window.head] ?? now + ttl;
      return Promise.resolve({ totalHits: live(window) + (refused ? 1 : 0), timeToExpire: seconds(oldest), isBlocked: refused, timeToBlockExpire: refused ? seconds(oldest) : 0 });
    }
    if (window.blockedUntil === 0) {
      window.expiries.push(now + ttl);
      if (live(window) > limit) window.blockedUntil = now + blockDuration;
    }
    const oldest = window.expiries[window.head] ?? now + ttl;
    const blocked = window.blockedUntil !== 0;
    return Promise.resolve({ totalHits: live(window), timeToExpire: seconds(oldest), isBlocked: blocked, timeToBlockExpire: blocked ? seconds(window.blockedUntil) : 0 });
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

function dropExpired(window: Window, now: number): void {
  const { expiries } = window;
  while (window.head < expiries.length && (expiries[window.head] as number) <= now) window.head += 1;
  if (window.head > 1024 && window.head * 2 > expiries.length) {
    window.expiries = expiries.slice(window.head);
    window.head = 0;
  }
}
