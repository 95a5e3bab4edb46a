import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { OneClawError } from '@oneclaw/core';
import { BearerAuthGuard, UnauthorizedError } from './bearer-auth.guard';
import { Public } from './public.decorator';

const TOKEN = 'the-right-token-0123456789';

class PrivateController {
  list(): void {}
  @Public()
  health(): void {}
}

@Public()
class PublicController {
  page(): void {}
}

interface FakeRequest {
  method: string;
  headers: Record<string, string | undefined>;
  query: Record<string, unknown>;
}

function contextFor(request: Partial<FakeRequest>, target: { controller: new () => object; handler: string } = { controller: PrivateController, handler: 'list' }) {
  const headersSet: Record<string, string> = {};
  const req: FakeRequest = { method: 'GET', headers: {}, query: {}, ...request };
  const res = { setHeader: (name: string, value: string) => void (headersSet[name.toLowerCase()] = value) };
  const handler = (target.controller.prototype as Record<string, unknown>)[target.handler] as () => void;
  const context = {
    getType: () => 'http',
    getHandler: () => handler,
    getClass: () => target.controller,
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => res, getNext: () => undefined }),
  } as unknown as ExecutionContext;
  return { context, headersSet };
}

const guard = new BearerAuthGuard(new Reflector(), TOKEN);

function rejection(context: ExecutionContext): UnauthorizedError {
  try {
    guard.canActivate(context);
  } catch (error) {
    if (error instanceof UnauthorizedError) return error;
    throw error;
  }
  throw new Error('expected the guard to reject');
}

describe('BearerAuthGuard (API-06)', () => {
  it('API-06 rejects a request without credentials: 401 code unauthorized, WWW-Authenticate: Bearer', () => {
    const { context, headersSet } = contextFor({});
    const error = rejection(context);
    expect(error).toBeInstanceOf(OneClawError);
    expect(error.code).toBe('unauthorized');
    expect(error.message).toContain('Authorization: Bearer <token>');
    expect(error.message).toContain('api-token');
    expect(headersSet['www-authenticate']).toMatch(/^Bearer\b/);
  });

  it('API-06 rejects a wrong or malformed token, saying the token is invalid', () => {
    for (const authorization of [`Bearer ${TOKEN}x`, 'Bearer ', `Basic ${TOKEN}`, TOKEN, `Bearer ${TOKEN} extra`]) {
      const { context, headersSet } = contextFor({ headers: { authorization } });
      expect(rejection(context).code).toBe('unauthorized');
      expect(headersSet['www-authenticate']).toMatch(/^Bearer .*error="invalid_token"/);
    }
  });

  it('API-06 accepts the right token, with any case of the scheme', () => {
    expect(guard.canActivate(contextFor({ headers: { authorization: `Bearer ${TOKEN}` } }).context)).toBe(true);
    expect(guard.canActivate(contextFor({ headers: { authorization: `bearer ${TOKEN}` } }).context)).toBe(true);
  });

  it('API-06 lets @Public routes and controllers through without a token', () => {
    expect(guard.canActivate(contextFor({}, { controller: PrivateController, handler: 'health' }).context)).toBe(true);
    expect(guard.canActivate(contextFor({}, { controller: PublicController, handler: 'page' }).context)).toBe(true);
  });

  it('API-06 takes ?access_token only on GET requests that accept text/event-stream', () => {
    const sse = { method: 'GET', headers: { accept: 'text/event-stream' }, query: { access_token: TOKEN } };
    expect(guard.canActivate(contextFor(sse).context)).toBe(true);

    expect(rejection(contextFor({ ...sse, method: 'POST' }).context).code).toBe('unauthorized');
    expect(rejection(contextFor({ ...sse, headers: { accept: 'application/json' } }).context).code).toBe('unauthorized');
    expect(rejection(contextFor({ ...sse, query: { access_token: 'wrong-token-value-000' } }).context).code).toBe('unauthorized');
    expect(rejection(contextFor({ ...sse, query: { access_token: [TOKEN, TOKEN] } }).context).code).toBe('unauthorized');
    // A header, when sent, is the only credential considered.
    expect(rejection(contextFor({ ...sse, headers: { ...sse.headers, authorization: 'Bearer wrong' } }).context).code).toBe('unauthorized');
  });

  it('refuses to be built without an expected token', () => {
    expect(() => new BearerAuthGuard(new Reflector(), '')).toThrow(OneClawError);
  });
});
