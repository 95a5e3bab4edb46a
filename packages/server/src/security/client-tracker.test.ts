import 'reflect-metadata';
import { afterEach, describe, expect, it } from '@jest/globals';
import { Controller, Get, Module, type INestApplication } from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ThrottlerModule } from '@nestjs/throttler';
import { API_TOKEN } from './bearer-auth.guard';
import { ClientThrottlerGuard, TRUST_PROXY, clientKey, type TrackedRequest } from './client-tracker';

const TOKEN = 'tracker-test-token-0123456789';

function request(overrides: Partial<TrackedRequest> = {}): TrackedRequest {
  return { ip: '203.0.113.9', socket: { remoteAddress: '10.0.0.5' }, method: 'GET', headers: {}, ...overrides };
}

describe('clientKey (API-09)', () => {
  it('API-09 keys by the socket address, not X-Forwarded-For / req.ip, unless trustProxy', () => {
    const spoofed = request({ headers: { 'x-forwarded-for': '198.51.100.1' } });
    expect(clientKey(spoofed)).toBe('10.0.0.5');
    expect(clientKey(spoofed, { trustProxy: true })).toBe('203.0.113.9');
  });

  it('separates clients with a valid token behind one address, but not random tokens', () => {
    const plain = clientKey(request(), { apiToken: TOKEN });
    const withToken = clientKey(request({ headers: { authorization: `Bearer ${TOKEN}` } }), { apiToken: TOKEN });
    const withJunk = clientKey(request({ headers: { authorization: 'Bearer made-up-token-0000000' } }), { apiToken: TOKEN });
    expect(withToken).not.toBe(plain);
    expect(withToken.startsWith('10.0.0.5|')).toBe(true);
    expect(withToken).not.toContain(TOKEN);
    expect(withJunk).toBe(plain);
  });

  it('groups IPv6 clients by /64', () => {
    const a = clientKey(request({ socket: { remoteAddress: '2001:db8:1:2::a' } }));
    const b = clientKey(request({ socket: { remoteAddress: '2001:db8:1:2::b' } }));
    expect(a).toBe(b);
  });
});

@Controller('limited')
class LimitedController {
  @Get()
  get(): { ok: true } {
    return { ok: true };
  }
}

let app: INestApplication | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function boot(trustProxy: boolean): Promise<string> {
  @Module({
    imports: [ThrottlerModule.forRoot([{ ttl: 60_000, limit: 2 }])],
    controllers: [LimitedController],
    providers: [
      { provide: TRUST_PROXY, useValue: trustProxy },
      { provide: API_TOKEN, useValue: TOKEN },
      { provide: APP_GUARD, useClass: ClientThrottlerGuard },
    ],
  })
  class TrackerTestModule {}
  const created = await NestFactory.create<NestExpressApplication>(TrackerTestModule, { logger: false });
  if (trustProxy) created.set('trust proxy', true);
  await created.listen(0, '127.0.0.1');
  app = created;
  return `${await created.getUrl()}/limited`;
}

async function statuses(url: string, count: number, headers: (i: number) => Record<string, string>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push((await fetch(url, { headers: headers(i) })).status);
  return out;
}

describe('ClientThrottlerGuard in a Nest app (API-08/API-09)', () => {
  it('API-09 still limits a client that rotates X-Forwarded-For without a trusted proxy', async () => {
    const url = await boot(false);
    expect(await statuses(url, 3, (i) => ({ 'x-forwarded-for': `198.51.100.${i + 1}` }))).toEqual([200, 200, 429]);
    // A made-up token does not open a new bucket; the valid token does.
    expect(await statuses(url, 1, () => ({ authorization: 'Bearer made-up-token-0000000' }))).toEqual([429]);
    expect(await statuses(url, 1, () => ({ authorization: `Bearer ${TOKEN}` }))).toEqual([200]);
  });

  it('API-09 honours X-Forwarded-For when trustProxy is set', async () => {
    const url = await boot(true);
    expect(await statuses(url, 3, (i) => ({ 'x-forwarded-for': `198.51.100.${i + 1}` }))).toEqual([200, 200, 200]);
    expect(await statuses(url, 3, () => ({ 'x-forwarded-for': '198.51.100.77' }))).toEqual([200, 200, 429]);
  });
});
