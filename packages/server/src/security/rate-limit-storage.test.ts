import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { ThrottlerStorageService } from '@nestjs/throttler';
import { RateLimitStorage } from './rate-limit-storage';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('RateLimitStorage (API-08)', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('refuses the hit over the limit, blocks for blockDuration, then counts from nothing again', async () => {
    const time = clock();
    const storage = new RateLimitStorage(time.now);
    const hit = () => storage.increment('client', 60_000, 3, 30_000, 'api');
    for (let n = 1; n <= 3; n++) expect(await hit()).toMatchObject({ totalHits: n, isBlocked: false, timeToBlockExpire: 0 });
    expect(await hit()).toMatchObject({ totalHits: 4, isBlocked: true, timeToBlockExpire: 30 });
    time.advance(10_000);
    // Still blocked, and a refused request is not counted.
    expect(await hit()).toMatchObject({ totalHits: 4, isBlocked: true, timeToBlockExpire: 20 });
    time.advance(20_000);
    expect(await hit()).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('is a sliding window: a hit frees its place exactly ttl after it was made', async () => {
    const time = clock();
    const storage = new RateLimitStorage(time.now);
    const hit = () => storage.increment('client', 1000, 2, 0, 'api');
    expect(await hit()).toMatchObject({ totalHits: 1, isBlocked: false });
    time.advance(600);
    expect(await hit()).toMatchObject({ totalHits: 2, isBlocked: false, timeToExpire: 1 });
    time.advance(300);
    // Without a block, the refused request is not counted and says when the oldest hit expires.
    expect(await hit()).toMatchObject({ totalHits: 3, isBlocked: true, timeToBlockExpire: 1 });
    time.advance(99);
    expect((await hit()).isBlocked).toBe(true);
    time.advance(1);
    expect(await hit()).toMatchObject({ totalHits: 2, isBlocked: false });
  });

  it('keeps clients and throttlers apart', async () => {
    const storage = new RateLimitStorage(clock().now);
    await storage.increment('a', 60_000, 1, 60_000, 'api');
    expect((await storage.increment('a', 60_000, 1, 60_000, 'api')).isBlocked).toBe(true);
    expect((await storage.increment('b', 60_000, 1, 60_000, 'api')).isBlocked).toBe(false);
    expect((await storage.increment('a', 60_000, 1, 60_000, 'other')).isBlocked).toBe(false);
  });

  it('counts exactly over many windows of hits (the dropped start of its list is compacted)', async () => {
    const time = clock();
    const storage = new RateLimitStorage(time.now);
    let last = { totalHits: 0, isBlocked: false };
    for (let i = 0; i < 20_000; i++) {
      last = await storage.increment('client', 500, 1_000_000, 60_000, 'api');
      time.advance(1);
    }
    // One hit per ms with a 500 ms window: the hits of the last 500 ms are live.
    expect(last).toMatchObject({ totalHits: 500, isBlocked: false });
  });

  it('forgets clients idle for a whole window, at most once per window', async () => {
    const time = clock();
    const storage = new RateLimitStorage(time.now);
    for (const client of ['a', 'b', 'c']) await storage.increment(client, 1000, 10, 1000, 'api');
    expect(storage.size).toBe(3);
    time.advance(1000);
    await storage.increment('d', 1000, 10, 1000, 'api');
    expect(storage.size).toBe(1);
    // A blocked client is kept until its block ends, even with no live hit.
    await storage.increment('e', 100, 0, 5000, 'api');
    time.advance(1000);
    await storage.increment('f', 1000, 10, 1000, 'api');
    expect(storage.size).toBe(2);
  });

  // Every answer the guard reads, compared with the stock storage's over a random schedule: a
  // busy client and a quiet one, gaps of 0 to 300 ms, a window of seconds (so X-RateLimit-Reset,
  // `timeToExpire`, counts down through several values).
  it.each([
    ['with a block', () => ({ ttl: 5000, blockDuration: 3000 })],
    ['without a block', () => ({ ttl: 5000, blockDuration: 0 })],
    // Not a setting the server uses (one window and block for the whole API), but the storage's
    // contract allows it: hits of a shorter window expire before earlier ones of a longer window.
    ['with windows and blocks that vary from call to call', (r: () => number) => ({ ttl: r() < 0.5 ? 2000 : 5000, blockDuration: r() < 0.5 ? 0 : 3000 })],
  ])('answers as the stock ThrottlerStorageService does over a random schedule (%s)', async (_label, settings) => {
    jest.useFakeTimers({ now: 5_000_000 });
    const stock = new ThrottlerStorageService();
    const ours = new RateLimitStorage();
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let blockedAnswers = 0;
    for (let i = 0; i < 3000; i++) {
      jest.setSystemTime(Date.now() + Math.floor(random() * 300));
      const key = random() < 0.8 ? 'busy' : 'quiet';
      const { ttl, blockDuration } = settings(random);
      const expected = await stock.increment(key, ttl, 20, blockDuration, 'api');
      const actual = await ours.increment(key, ttl, 20, blockDuration, 'api');
      const seen = (r: typeof expected) => ({
        i,
        totalHits: r.totalHits,
        isBlocked: r.isBlocked,
        timeToExpire: r.timeToExpire,
        timeToBlockExpire: r.isBlocked ? r.timeToBlockExpire : 0,
      });
      expect(seen(actual)).toEqual(seen(expected));
      if (expected.isBlocked) blockedAnswers += 1;
    }
    // The schedule does reach the limit, so the comparison covers refusals too.
    expect(blockedAnswers).toBeGreaterThan(50);
    stock.onApplicationShutdown();
  });

  it('keeps a finished block from clearing the count of a call without a block', async () => {
    const time = clock();
    const storage = new RateLimitStorage(time.now);
    for (let n = 0; n < 3; n++) await storage.increment('client', 60_000, 2, 1000, 'api');
    time.advance(1000);
    // The block is over, but this call has none: the window's three hits still count, and the
    // refused request is reported on top of them, as the stock storage does.
    expect(await storage.increment('client', 60_000, 2, 0, 'api')).toMatchObject({ totalHits: 4, isBlocked: true });
  });
});
