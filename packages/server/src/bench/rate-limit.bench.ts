/**
 * The rate limiter's storage (issue 17): the cost of one request's `increment` for a client with
 * a steady stream of hits in its one-minute window, RateLimitStorage against @nestjs/throttler's
 * stock ThrottlerStorageService (the baseline), side by side. In-process, no HTTP: the guard's
 * other work is the same for both.
 *   pnpm --filter @oneclaw/server bench   (… && node dist/bench/rate-limit.bench.js)
 * Environment: BENCH_SAMPLES (3 runs of 2,000 requests per figure; the median is printed).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { ThrottlerStorageService, type ThrottlerStorage } from '@nestjs/throttler';
import { RateLimitStorage } from '../security/rate-limit-storage';
import { summarize } from './part-clock';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 3);
const REQUESTS = 2000;
const WINDOW_MS = 60_000;
// Raised limits, as a deployment behind one proxy address or a load test sets them; none refuses.
const LIMIT = 1_000_000;

/**
 * µs per `increment` once the window holds `perMinute` live hits. The stock storage reads
 * `Date.now()`, so the clock is replaced for the run: each request comes 60,000 / perMinute ms
 * after the last, as a client sending at that steady rate.
 */
async function microsPerRequest(make: (now: () => number) => ThrottlerStorage & { onApplicationShutdown?: () => void }, perMinute: number): Promise<number> {
  const realNow = Date.now;
  let now = 1_700_000_000_000;
  Date.now = () => now;
  const storage = make(() => now);
  try {
    const step = WINDOW_MS / perMinute;
    for (let i = 0; i < perMinute; i++) {
      now += step;
      await storage.increment('client', WINDOW_MS, LIMIT, WINDOW_MS, 'api');
    }
    const started = performance.now();
    for (let i = 0; i < REQUESTS; i++) {
      now += step;
      await storage.increment('client', WINDOW_MS, LIMIT, WINDOW_MS, 'api');
    }
    return ((performance.now() - started) * 1000) / REQUESTS;
  } finally {
    Date.now = realNow;
    storage.onApplicationShutdown?.();
  }
}

async function main(): Promise<void> {
  const cpus = os.cpus();
  console.log(`## Rate limiter storage: µs per request (median of ${SAMPLES} runs of ${REQUESTS} requests)\n`);
  console.log(`${new Date().toISOString()} · ${cpus[0]?.model ?? 'unknown CPU'} · ${cpus.length} cores · Node ${process.version}\n`);
  console.log('| live hits in the client’s window | stock ThrottlerStorageService | RateLimitStorage | ours / stock |');
  console.log('|---:|---:|---:|---:|');
  for (const perMinute of [600, 6_000, 30_000]) {
    const stock: number[] = [];
    const ours: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      stock.push(await microsPerRequest(() => new ThrottlerStorageService(), perMinute));
      ours.push(await microsPerRequest((now) => new RateLimitStorage(now), perMinute));
    }
    const a = summarize(stock).p50;
    const b = summarize(ours).p50;
    console.log(`| ${perMinute.toLocaleString('en')} | ${a.toFixed(2)} µs | ${b.toFixed(2)} µs | ${(b / a).toPrecision(2)}× |`);
  }
  console.log("\n600 hits is the default limit used in full; 30,000 is F5's rate (500 turns/s) held for a minute.");
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
