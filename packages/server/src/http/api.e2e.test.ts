import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { StorageUnavailableError, type RecordedEvent } from '@oneclaw/core';
import type { JsRunner } from '@oneclaw/js-tools';
import { createApp } from '../create-app';
import { createLogger } from '../logging/logger';
import { SecretRedactor } from '../security/secret-redactor';
import { CONTENT_SECURITY_POLICY } from '../security/security-headers';
import { loadServerConfig } from '../server-config';
import { SessionRepository } from '../sessions/session-repository';
import { startTestServer, TEST_API_TOKEN, type ApiResponse, type TestServer } from '../testing/test-server';
import { EVENT_STORE } from '../tokens';
import { CORE_TOOL_NAMES } from '../testing/real-catalogue';

/**
 * The HTTP API end to end (RELIABILITY.md B4, SPEC S5): a real server on loopback, built exactly
 * as main.ts builds it (startTestServer → createApp → configureApp), SQLite store, worker-thread
 * tool sandbox. No model provider is configured, so POST …/messages answers 503
 * provider_not_configured; idempotency, concurrency and restarts are exercised with the commands
 * that need no model (start, clear, load / unload tool group).
 */

const CORE_TOOLS = CORE_TOOL_NAMES;
const GOOGLE_GROUPS: Readonly<Record<string, string>> = {
  google_calendar: 'Google Calendar',
  google_contacts: 'Google Contacts',
  google_docs: 'Google Docs',
  google_drive: 'Google Drive',
  google_forms: 'Google Forms',
  google_gmail: 'Google Gmail',
  google_gmail_settings: 'Google Gmail Settings',
  google_sheets: 'Google Sheets',
  google_slides: 'Google Slides',
  google_tasks: 'Google Tasks',
};
/** Signs of server internals that must never reach a client. */
const INTERNALS = /\bat \S+ \(|\.(?:ts|js):\d+|node_modules|\/work\/|\/tmp\/|"stack"|SyntaxError|TypeError/;

/** A request with exactly the headers given: no Authorization unless passed (the helper's `api` always sends one). */
async function bare(server: TestServer, method: string, route: string, options: { headers?: Record<string, string>; body?: string | Uint8Array } = {}): Promise<ApiResponse> {
  const response = await fetch(server.url + route, { method, headers: options.headers ?? {}, ...(options.body !== undefined ? { body: options.body } : {}) });
  const text = await response.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON (HTML docs)
  }
  return { status: response.status, headers: response.headers, text, body };
}

const eventsOf = async (server: TestServer, id: string): Promise<RecordedEvent[]> => {
  const res = await server.api('GET', `/api/sessions/${id}/events`);
  expect(res.status).toBe(200);
  return res.body.events as RecordedEvent[];
};
const typesOf = async (server: TestServer, id: string): Promise<string[]> => (await eventsOf(server, id)).map((e) => e.type);

async function startSession(server: TestServer, sessionId: string): Promise<void> {
  const res = await server.api('POST', '/api/sessions', { sessionId });
  expect(res.status).toBe(201);
}

function expectProblem(res: ApiResponse, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(res.body).toMatchObject({ type: 'about:blank', status, code, title: expect.any(String), detail: expect.any(String) });
  expect(res.text).not.toMatch(INTERNALS);
}

function expectSecurityHeaders(res: ApiResponse): void {
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp).toBe(CONTENT_SECURITY_POLICY);
  expect(csp).toContain("img-src 'self' data:");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
  expect(res.headers.get('x-powered-by')).toBeNull();
}

/** The OpenAPI document's operations as `METHOD /path` with `{param}` templates. */
async function documentedRoutes(server: TestServer): Promise<Array<{ method: string; route: string }>> {
  const doc = (await bare(server, 'GET', '/api/docs/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
  const methods = new Set(['get', 'post', 'put', 'patch', 'delete']);
  return Object.entries(doc.paths).flatMap(([route, ops]) =>
    Object.keys(ops)
      .filter((m) => methods.has(m))
      .map((m) => ({ method: m.toUpperCase(), route })),
  );
}

const fill = (route: string): string => route.replace('{id}', 'some-session').replace('{groupName}', 'google_gmail');

describe('HTTP API on one shared server', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ env: { ONECLAW_BODY_LIMIT_BYTES: '16384', ONECLAW_RATE_LIMIT_PER_MINUTE: '100000' } });
  });
  afterAll(async () => {
    await server.close();
  });

  describe('input validation', () => {
    it('API-01 an unknown field is refused with 400 invalid_body naming it, and nothing is recorded', async () => {
      await startSession(server, 'api01');

      const message = await server.api('POST', '/api/sessions/api01/messages', { text: 'hi', isAdmin: true });
      expectProblem(message, 400, 'invalid_body');
      expect(message.body.detail).toContain('isAdmin');
      expect(message.body.problems).toEqual(["unknown field 'isAdmin'"]);

      const load = await server.api('POST', '/api/sessions/api01/tool-groups', { groupName: 'google_gmail', isAdmin: true });
      expectProblem(load, 400, 'invalid_body');
      expect(load.body.detail).toContain('isAdmin');

      const clear = await server.api('POST', '/api/sessions/api01/clear', { everything: true });
      expectProblem(clear, 400, 'invalid_body');
      expect(clear.body.detail).toContain('everything');

      const start = await server.api('POST', '/api/sessions', { sessionId: 'api01-b', isAdmin: true });
      expectProblem(start, 400, 'invalid_body');
      expect(start.body.detail).toContain('isAdmin');

      expect(await typesOf(server, 'api01')).toEqual(['SessionStarted']);
      expectProblem(await server.api('GET', '/api/sessions/api01-b'), 404, 'session_not_found');
      // The same bodies without the extra field do reach the handlers, so the 400s above came from validation.
      expectProblem(await server.api('POST', '/api/sessions/api01/messages', { text: 'hi' }), 503, 'provider_not_configured');
      expect((await server.api('POST', '/api/sessions/api01/tool-groups', { groupName: 'google_gmail' })).status).toBe(200);
    });

    it('API-02 wrong types and missing fields answer 400 invalid_body, never 500', async () => {
      await startSession(server, 'api02');
      const cases: Array<[string, string, unknown, string?]> = [
        ['POST', '/api/sessions/api02/messages', { text: 42 }, 'text'],
        // No text at all ({} or '') is 400 message_empty: text may be left out when a file is attached (sessions/files-only-message.e2e.test.ts).
        ['POST', '/api/sessions/api02/messages', { attachments: 'cat.png' }, 'attachments'],
        ['POST', '/api/sessions/api02/messages', { text: null }, 'text'],
        ['POST', '/api/sessions/api02/messages', [{ text: 'hi' }]],
        ['POST', '/api/sessions/api02/tool-groups', { groupName: 7 }, 'groupName'],
        ['POST', '/api/sessions/api02/tool-groups', {}, "missing field 'groupName'"],
        ['POST', '/api/sessions', { sessionId: 12 }, 'sessionId'],
        ['POST', '/api/sessions', { sessionId: 'has spaces' }, 'sessionId'],
        ['POST', '/api/sessions', { agentId: ['default'] }, 'agentId'],
      ];
      for (const [method, route, body, named] of cases) {
        const res = await server.api(method, route, body);
        expectProblem(res, 400, 'invalid_body');
        if (named) expect(res.body.detail).toContain(named);
      }
      // A body that is not declared JSON is refused, not run as if it were {} (API-24).
      expectProblem(await server.api('POST', '/api/sessions/api02/tool-groups', 'groupName=pdf', { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
      expectProblem(await server.api('POST', '/api/sessions/api02/messages', 'text=hi', { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
      expect(await typesOf(server, 'api02')).toEqual(['SessionStarted']);
    });

    it('API-03 malformed JSON answers 400 invalid_json with no stack trace or file paths', async () => {
      await startSession(server, 'api03');
      for (const body of ['{"text":', '{text: "hi"}', '{"text": "hi"}}', '"just a string"']) {
        const res = await server.api('POST', '/api/sessions/api03/messages', body);
        expectProblem(res, 400, 'invalid_json');
        expect(Object.keys(res.body).sort()).toEqual(['code', 'detail', 'status', 'title', 'type']);
      }
      expect(await typesOf(server, 'api03')).toEqual(['SessionStarted']);
    });

    it('API-04 a body over ONECLAW_BODY_LIMIT_BYTES answers 413 payload_too_large and records nothing', async () => {
      await startSession(server, 'api04');
      const justOver = await server.api('POST', '/api/sessions/api04/messages', { text: 'x'.repeat(16_384) });
      expectProblem(justOver, 413, 'payload_too_large');
      const huge = await server.api('POST', '/api/sessions/api04/tool-groups', { groupName: 'g'.repeat(2 * 1024 * 1024) });
      expectProblem(huge, 413, 'payload_too_large');
      expect(await typesOf(server, 'api04')).toEqual(['SessionStarted']);
      expect((await server.api('GET', '/health')).status).toBe(200);
    });

    it('API-05 a malformed session id answers 400 invalid_session_id on every session route, not 404 or 500', async () => {
      for (const badId of ['not%20an%20id', 'dots.are.out', '%24bad', 'x'.repeat(65)]) {
        const routes: Array<[string, string, unknown?]> = [
          ['GET', `/api/sessions/${badId}`],
          ['GET', `/api/sessions/${badId}/events`],
          ['GET', `/api/sessions/${badId}/tools`],
          ['GET', `/api/sessions/${badId}/audit`],
          ['POST', `/api/sessions/${badId}/messages`, { text: 'hi' }],
          ['POST', `/api/sessions/${badId}/clear`],
          ['POST', `/api/sessions/${badId}/cancel`],
          ['POST', `/api/sessions/${badId}/tool-groups`, { groupName: 'google_gmail' }],
          ['DELETE', `/api/sessions/${badId}/tool-groups/google_gmail`],
        ];
        for (const [method, route, body] of routes) {
          const res = await server.api(method, route, body);
          expect(`${method} ${route} ${res.status} ${res.body?.code}`).toBe(`${method} ${route} 400 invalid_session_id`);
          expectProblem(res, 400, 'invalid_session_id');
        }
      }
      const started = await server.api('POST', '/api/sessions', { sessionId: 'x'.repeat(65) });
      expectProblem(started, 400, 'invalid_body');
    });
  });

  describe('request body charset and Content-Encoding (fuzzer findings; docs/api.md, Request bodies)', () => {
    const loadGmail = JSON.stringify({ groupName: 'google_gmail' });
    const send = (route: string, headers: Record<string, string>, body: string | Uint8Array): Promise<ApiResponse> =>
      bare(server, 'POST', route, { headers: { authorization: `Bearer ${TEST_API_TOKEN}`, ...headers }, body });

    /** The server still answers, and a plain request after the bad ones is handled as usual. */
    async function expectStillServing(sessionId: string): Promise<void> {
      expect((await server.api('GET', '/health')).status).toBe(200);
      expect((await server.api('POST', `/api/sessions/${sessionId}/clear`)).status).toBe(200);
    }

    it('API-21 a JSON body in any charset but UTF-8 answers 415 unsupported_charset naming it, records nothing, and the server keeps serving', async () => {
      await startSession(server, 'api18');
      for (const charset of ['latin1', 'ISO-8859-1', 'utf8', 'utf-7', 'utf-16', 'utf-9', 'bogus', '"windows-1252"', '']) {
        const res = await send('/api/sessions/api18/tool-groups', { 'content-type': `application/json; charset=${charset}` }, loadGmail);
        expect(`${charset} ${res.status} ${res.body?.code}`).toBe(`${charset} 415 unsupported_charset`);
        expectProblem(res, 415, 'unsupported_charset');
        expect(res.body.charset).toBe(charset.replace(/"/g, ''));
        expect(res.body.detail).toContain('UTF-8');
      }
      // Every charset parameter counts, not only the one a parser happens to pick.
      expectProblem(await send('/api/sessions/api18/tool-groups', { 'content-type': 'application/json; charset=utf-8; charset=latin1' }, loadGmail), 415, 'unsupported_charset');
      const fresh = await send('/api/sessions', { 'content-type': 'application/json; charset=latin1' }, JSON.stringify({ sessionId: 'api18-b' }));
      expectProblem(fresh, 415, 'unsupported_charset');
      expectProblem(await server.api('GET', '/api/sessions/api18-b'), 404, 'session_not_found');
      expect(await typesOf(server, 'api18')).toEqual(['SessionStarted']);

      // UTF-8, in any spelling of the parameter, is read.
      for (const [i, contentType] of ['application/json; charset=utf-8', 'application/json; charset=UTF-8', 'application/json;charset="utf-8"'].entries()) {
        const res = await send('/api/sessions', { 'content-type': contentType }, JSON.stringify({ sessionId: `api18-utf8-${i}` }));
        expect(`${contentType} ${res.status}`).toBe(`${contentType} 201`);
      }
      await expectStillServing('api18');
    });

    it('API-22 a JSON body compressed with gzip, deflate or br is read (the size limit applies after inflating); any other Content-Encoding answers 415 unsupported_content_encoding', async () => {
      await startSession(server, 'api19');
      const compressed: Array<[string, Buffer]> = [
        ['gzip', zlib.gzipSync(loadGmail)],
        ['deflate', zlib.deflateSync(loadGmail)],
        ['br', zlib.brotliCompressSync(loadGmail)],
        ['GZIP', zlib.gzipSync(loadGmail)],
      ];
      for (const [encoding, body] of compressed) {
        const res = await send('/api/sessions/api19/tool-groups', { 'content-type': 'application/json', 'content-encoding': encoding }, body);
        expect(`${encoding} ${res.status}`).toBe(`${encoding} 200`);
        expect(res.body.loadedGroups).toEqual(['google_gmail']);
      }
      const identity = await send('/api/sessions/api19/tool-groups', { 'content-type': 'application/json', 'content-encoding': 'identity' }, loadGmail);
      expect(identity.status).toBe(200);
      // Loaded once; the repeats recorded nothing, so all of the above reached the handler as the same body.
      expect(await typesOf(server, 'api19')).toEqual(['SessionStarted', 'ToolGroupLoaded']);

      // A small gzip body that inflates past the 16 KiB limit: refused, not inflated without bound.
      const bomb = zlib.gzipSync(JSON.stringify({ groupName: 'g'.repeat(4 * 1024 * 1024) }));
      expect(bomb.length).toBeLessThan(16_384);
      expectProblem(await send('/api/sessions/api19/tool-groups', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, bomb), 413, 'payload_too_large');

      // zstd is refused on every Node version (body-parser inflates it only where zlib has it).
      for (const encoding of ['compress', 'zstd', 'x-gzip', 'gzip, gzip', 'deflate, br', 'bogus']) {
        const body = encoding === 'gzip, gzip' ? zlib.gzipSync(zlib.gzipSync(loadGmail)) : Buffer.from(loadGmail);
        const res = await send('/api/sessions/api19/tool-groups', { 'content-type': 'application/json', 'content-encoding': encoding }, body);
        expect(`${encoding} ${res.status} ${res.body?.code}`).toBe(`${encoding} 415 unsupported_content_encoding`);
        expectProblem(res, 415, 'unsupported_content_encoding');
        expect(res.body).toMatchObject({ encoding, supported: ['identity', 'gzip', 'deflate', 'br'] });
      }
      expect(await typesOf(server, 'api19')).toEqual(['SessionStarted', 'ToolGroupLoaded']);
      await expectStillServing('api19');
    });

    it('API-23 a body that is not what its Content-Encoding says (plain, truncated, another format, trailing junk) answers 400 invalid_body and records nothing', async () => {
      await startSession(server, 'api20');
      const gzipped = zlib.gzipSync(loadGmail);
      const cases: Array<[string, Buffer]> = [
        ['gzip', Buffer.from(loadGmail)],
        ['deflate', Buffer.from(loadGmail)],
        ['br', Buffer.from(loadGmail)],
        ['gzip', gzipped.subarray(0, gzipped.length - 6)],
        ['br', gzipped],
        ['deflate', gzipped],
        ['gzip', Buffer.concat([gzipped, Buffer.from('junk')])],
      ];
      for (const [encoding, body] of cases) {
        const res = await send('/api/sessions/api20/tool-groups', { 'content-type': 'application/json', 'content-encoding': encoding }, body);
        expect(`${encoding} ${res.status} ${res.body?.code}`).toBe(`${encoding} 400 invalid_body`);
        expectProblem(res, 400, 'invalid_body');
        expect(res.body.encoding).toBe(encoding);
        expect(res.body.detail).toContain(`not valid ${encoding} data`);
      }
      // Inflating fine but holding broken JSON is the JSON's fault, as without compression.
      expectProblem(
        await send('/api/sessions/api20/tool-groups', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, zlib.gzipSync('{"groupName":')),
        400,
        'invalid_json',
      );
      expect(await typesOf(server, 'api20')).toEqual(['SessionStarted']);
      await expectStillServing('api20');
    });

    it('API-24 a body that is not JSON (text/plain, a form, no Content-Type) answers 415 unsupported_media_type and records nothing; bodiless requests and +json work', async () => {
      await startSession(server, 'api24');
      const sessionCount = async () => ((await server.api('GET', '/api/sessions')).body.sessions as unknown[]).length;
      const before = await sessionCount();
      // Ignoring such a body ran the command with {}: POST /api/sessions started a session with a random id.
      for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
        const res = await send('/api/sessions', { 'content-type': contentType }, JSON.stringify({ sessionId: 'api24-b' }));
        expect(`${contentType} ${res.status} ${res.body?.code}`).toBe(`${contentType} 415 unsupported_media_type`);
        expectProblem(res, 415, 'unsupported_media_type');
        expect(res.body.detail).toContain('Content-Type: application/json');
      }
      // A Uint8Array body goes out with no Content-Type at all.
      expectProblem(await send('/api/sessions/api24/tool-groups', {}, new TextEncoder().encode(loadGmail)), 415, 'unsupported_media_type');
      expectProblem(await server.api('GET', '/api/sessions/api24-b'), 404, 'session_not_found');
      expect(await sessionCount()).toBe(before);
      expect(await typesOf(server, 'api24')).toEqual(['SessionStarted']);

      // Without a body, any Content-Type (or none) is fine.
      expect((await send('/api/sessions/api24/clear', { 'content-type': 'text/plain' }, '')).status).toBe(200);
      expect((await bare(server, 'POST', '/api/sessions/api24/clear', { headers: { authorization: `Bearer ${TEST_API_TOKEN}` } })).status).toBe(200);
      // A +json type is JSON (RFC 6839).
      expect((await send('/api/sessions', { 'content-type': 'application/merge-patch+json' }, JSON.stringify({ sessionId: 'api24-c' }))).status).toBe(201);
      await expectStillServing('api24');
    });
  });

  describe('authentication', () => {
    it('API-06 every documented route answers 401 unauthorized with WWW-Authenticate: Bearer without a token or with a wrong one; only /health and the docs are public', async () => {
      const docs = await bare(server, 'GET', '/api/docs/openapi.json');
      expect(docs.status).toBe(200);
      const routes = await documentedRoutes(server);
      expect(routes.length).toBeGreaterThanOrEqual(15);

      const publicRoutes: string[] = [];
      for (const { method, route } of routes) {
        const body = method === 'GET' || method === 'DELETE' ? undefined : '{}';
        const headers: Record<string, string> = body ? { 'content-type': 'application/json' } : {};
        const none = await bare(server, method, fill(route), { headers, ...(body ? { body } : {}) });
        if (none.status !== 401) {
          publicRoutes.push(`${method} ${route}`);
          continue;
        }
        expectProblem(none, 401, 'unauthorized');
        expect(none.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
        expect(none.body.detail).toContain('Authorization: Bearer');

        const wrong = await bare(server, method, fill(route), { headers: { ...headers, authorization: 'Bearer wrong-token-0123456789abcdef' }, ...(body ? { body } : {}) });
        expectProblem(wrong, 401, 'unauthorized');
        expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);

        const malformed = await bare(server, method, fill(route), { headers: { ...headers, authorization: `Basic ${TEST_API_TOKEN}` }, ...(body ? { body } : {}) });
        expectProblem(malformed, 401, 'unauthorized');
      }
      // The public list, snapshotted: anything else must be marked @Public() on purpose and added here.
      expect(publicRoutes).toEqual(['GET /health']);
      expect((await bare(server, 'GET', '/health')).status).toBe(200);
      expect((await bare(server, 'GET', '/api/docs')).status).toBe(200);
    });

    it('API-06 ?access_token= is accepted only on a GET asking for text/event-stream', async () => {
      const query = `?access_token=${encodeURIComponent(TEST_API_TOKEN)}`;
      const sse = { accept: 'text/event-stream' };
      expect((await bare(server, 'GET', `/api/sessions${query}`, { headers: sse })).status).toBe(200);

      const plainGet = await bare(server, 'GET', `/api/sessions${query}`);
      expectProblem(plainGet, 401, 'unauthorized');
      const jsonGet = await bare(server, 'GET', `/api/sessions${query}`, { headers: { accept: 'application/json' } });
      expectProblem(jsonGet, 401, 'unauthorized');
      const post = await bare(server, 'POST', `/api/sessions${query}`, {
        headers: { ...sse, 'content-type': 'application/json' },
        body: JSON.stringify({ sessionId: 'via-query' }),
      });
      expectProblem(post, 401, 'unauthorized');
      expectProblem(await server.api('GET', '/api/sessions/via-query'), 404, 'session_not_found');

      const wrong = await bare(server, 'GET', '/api/sessions?access_token=wrong-token-0123456789abcdef', { headers: sse });
      expectProblem(wrong, 401, 'unauthorized');
      // A header, when sent, is the only credential considered: a bad one is not rescued by the query.
      const badHeader = await bare(server, 'GET', `/api/sessions${query}`, { headers: { ...sse, authorization: 'Bearer wrong-token-0123456789abcdef' } });
      expectProblem(badHeader, 401, 'unauthorized');
    });
  });

  describe('security headers and CORS', () => {
    it("API-10 nosniff, CSP (img-src 'self' data:, frame-ancestors 'none'), X-Frame-Options and no X-Powered-By on /health, a 404 and error answers", async () => {
      await startSession(server, 'api10');
      const health = await bare(server, 'GET', '/health');
      expect(health.status).toBe(200);
      expectSecurityHeaders(health);

      const notFound = await server.api('GET', '/api/nothing-here');
      expectProblem(notFound, 404, 'not_found');
      expectSecurityHeaders(notFound);

      const badJson = await server.api('POST', '/api/sessions/api10/messages', '{"text":');
      expectProblem(badJson, 400, 'invalid_json');
      expectSecurityHeaders(badJson);

      const unauthorized = await bare(server, 'GET', '/api/sessions');
      expectProblem(unauthorized, 401, 'unauthorized');
      expectSecurityHeaders(unauthorized);

      const noProvider = await server.api('POST', '/api/sessions/api10/messages', { text: 'hi' });
      expectProblem(noProvider, 503, 'provider_not_configured');
      expectSecurityHeaders(noProvider);

      expectSecurityHeaders(await bare(server, 'GET', '/api/docs'));
    });

    it('API-11 CORS is off by default: a preflight or request from https://evil.example gets no Access-Control-Allow-Origin', async () => {
      const preflight = await bare(server, 'OPTIONS', '/api/sessions', {
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      expect(preflight.headers.get('access-control-allow-headers')).toBeNull();

      const simple = await server.api('GET', '/api/sessions', undefined, { origin: 'https://evil.example' });
      expect(simple.headers.get('access-control-allow-origin')).toBeNull();
      expect(simple.headers.get('access-control-allow-credentials')).toBeNull();
    });
  });

  describe('optimistic concurrency (If-Match)', () => {
    it('API-12 a stale If-Match answers 412 precondition_failed with the current revision and appends nothing; a current one works; a malformed one is 400 invalid_if_match', async () => {
      await startSession(server, 'api12');

      const stale = await server.api('POST', '/api/sessions/api12/tool-groups', { groupName: 'google_gmail' }, { 'if-match': 'W/"3"' });
      expectProblem(stale, 412, 'precondition_failed');
      expect(stale.body.revision).toBe(0);
      expect(await typesOf(server, 'api12')).toEqual(['SessionStarted']);

      const current = await server.api('POST', '/api/sessions/api12/tool-groups', { groupName: 'google_gmail' }, { 'if-match': '"0"' });
      expect(current.status).toBe(200);
      expect(current.body).toMatchObject({ revision: 1, loadedGroups: ['google_gmail'] });

      // The revision read before that load is now stale for unload and clear too.
      expectProblem(await server.api('DELETE', '/api/sessions/api12/tool-groups/google_gmail', undefined, { 'if-match': '"0"' }), 412, 'precondition_failed');
      expectProblem(await server.api('POST', '/api/sessions/api12/clear', undefined, { 'if-match': 'W/"0"' }), 412, 'precondition_failed');

      for (const malformed of ['abc', '"-1"', 'W/"x"', '*', '"1", "2"']) {
        const res = await server.api('POST', '/api/sessions/api12/tool-groups', { groupName: 'google_drive' }, { 'if-match': malformed });
        expectProblem(res, 400, 'invalid_if_match');
      }
      expect(await typesOf(server, 'api12')).toEqual(['SessionStarted', 'ToolGroupLoaded']);

      const unloaded = await server.api('DELETE', '/api/sessions/api12/tool-groups/google_gmail', undefined, { 'if-match': '1' });
      expect(unloaded.status).toBe(200);
      expect(unloaded.body).toMatchObject({ revision: 2, loadedGroups: [] });
    });

    it('API-13 policy: If-Match is optional by design (docs/api.md, no 428), so a mutating call without it is accepted', async () => {
      await startSession(server, 'api13');
      const load = await server.api('POST', '/api/sessions/api13/tool-groups', { groupName: 'google_tasks' });
      expect(load.status).toBe(200);
      expect(load.body.loadedGroups).toEqual(['google_tasks']);
      expect((await server.api('DELETE', '/api/sessions/api13/tool-groups/google_tasks')).status).toBe(200);
      expect((await server.api('POST', '/api/sessions/api13/clear')).status).toBe(200);
      expect(await typesOf(server, 'api13')).toEqual(['SessionStarted', 'ToolGroupLoaded', 'ToolGroupUnloaded', 'SessionCleared']);
    });
  });

  describe('slow clients', () => {
    it('API-16 headersTimeout and requestTimeout are set to the documented finite values (settings check only: Node enforces them on a 30 s check interval, too slow for a raw-socket test)', () => {
      const http = server.app.getHttpServer() as import('node:http').Server;
      expect(Number.isFinite(http.headersTimeout) && http.headersTimeout > 0).toBe(true);
      expect(Number.isFinite(http.requestTimeout) && http.requestTimeout > 0).toBe(true);
      // docs/api.md: 20 s for headers, 60 s for a whole request (Node's own defaults are 60 s and 300 s).
      expect(http.headersTimeout).toBe(20_000);
      expect(http.requestTimeout).toBe(60_000);
      expect(http.headersTimeout).toBeLessThanOrEqual(http.requestTimeout);
    });
  });

  describe('sessions', () => {
    it('starts a session, loads a group, clears it, and keeps the history as events', async () => {
      const started = await server.api('POST', '/api/sessions', { sessionId: 'alpha', agentId: 'default' });
      expect(started.status).toBe(201);
      expect(started.body).toMatchObject({ sessionId: 'alpha', agentId: 'default', revision: 0, messages: [], loadedGroups: [], turnInProgress: false });
      expect(started.body.activeTools).toEqual(CORE_TOOLS);

      expect((await server.api('POST', '/api/sessions/alpha/tool-groups', { groupName: 'google_gmail' })).body.revision).toBe(1);
      const cleared = await server.api('POST', '/api/sessions/alpha/clear');
      expect(cleared.status).toBe(200);
      expect(cleared.body).toMatchObject({ revision: 2, messages: [], loadedGroups: [], activeTools: CORE_TOOLS });

      const events = await eventsOf(server, 'alpha');
      expect(events.map((e) => [e.type, e.revision])).toEqual([
        ['SessionStarted', 0],
        ['ToolGroupLoaded', 1],
        ['SessionCleared', 2],
      ]);
    });

    it('POST messages without a configured provider answers 503 provider_not_configured (JSON and SSE) and records nothing', async () => {
      await startSession(server, 'no-model');
      const res = await server.api('POST', '/api/sessions/no-model/messages', { text: 'what time is it?' });
      expectProblem(res, 503, 'provider_not_configured');
      expect(res.body.detail).toContain('OPENAI_API_KEY');

      const streamed = await server.stream('/api/sessions/no-model/messages', { text: 'what time is it?' });
      expect(streamed.status).toBe(503);
      expect(streamed.events).toEqual([]);
      expect(streamed.body).toMatchObject({ code: 'provider_not_configured' });

      expect(await typesOf(server, 'no-model')).toEqual(['SessionStarted']);
      expect((await server.api('GET', '/api/sessions/no-model')).body).toMatchObject({ revision: 0, messages: [], turnInProgress: false });
    });

    it('bad input gets problem+json with a stable code and loses nothing already recorded', async () => {
      await startSession(server, 'keep');
      await server.api('POST', '/api/sessions/keep/tool-groups', { groupName: 'google_drive' });

      expectProblem(await server.api('POST', '/api/sessions/nobody/messages', { text: 'hi' }), 404, 'session_not_found');
      expectProblem(await server.api('POST', '/api/sessions/nobody/tool-groups', { groupName: 'google_drive' }), 404, 'session_not_found');
      expectProblem(await server.api('GET', '/api/sessions/nobody/events'), 404, 'session_not_found');
      expectProblem(await server.api('POST', '/api/sessions', { sessionId: 'keep' }), 409, 'session_already_started');
      expectProblem(await server.api('POST', '/api/sessions', { sessionId: 'new-one', agentId: 'nobody' }), 400, 'agent_not_found');
      expectProblem(await server.api('GET', '/api/nothing-here'), 404, 'not_found');

      expect(await typesOf(server, 'keep')).toEqual(['SessionStarted', 'ToolGroupLoaded']);
      expect((await bare(server, 'GET', '/health')).status).toBe(200);
    });

    it('a retried request with the same Idempotency-Key is recorded once; the same key with other content is refused', async () => {
      const startKey = { 'idempotency-key': 'start-key-1' };
      const first = await server.api('POST', '/api/sessions', {}, startKey);
      expect(first.status).toBe(201);
      const id = first.body.sessionId as string;
      // The session id derives from the key, so a retried start can never make a second session.
      const retry = await server.api('POST', '/api/sessions', {}, startKey);
      expect(retry.body.sessionId).toBe(id);
      expect(retry.status).toBe(201);
      expect(((await server.api('GET', '/api/sessions')).body.sessions as Array<{ sessionId: string }>).filter((s) => s.sessionId === id)).toHaveLength(1);

      const loadKey = { 'idempotency-key': 'load-key-1' };
      expect((await server.api('POST', `/api/sessions/${id}/tool-groups`, { groupName: 'google_docs' }, loadKey)).status).toBe(200);
      expect((await server.api('POST', `/api/sessions/${id}/tool-groups`, { groupName: 'google_docs' }, loadKey)).status).toBe(200);

      const clearKey = { 'idempotency-key': 'clear-key-1' };
      expect((await server.api('POST', `/api/sessions/${id}/clear`, undefined, clearKey)).status).toBe(200);
      const clearAgain = await server.api('POST', `/api/sessions/${id}/clear`, undefined, clearKey);
      expect(clearAgain.status).toBe(200);
      expect(clearAgain.body.revision).toBe(2);
      expect(await typesOf(server, id)).toEqual(['SessionStarted', 'ToolGroupLoaded', 'SessionCleared']);

      // The same key for a different load is not silently merged into the first one.
      const reused = await server.api('POST', `/api/sessions/${id}/tool-groups`, { groupName: 'google_drive' }, { 'idempotency-key': 'load-key-2' });
      expect(reused.status).toBe(200);
      const conflict = await server.api('POST', `/api/sessions/${id}/tool-groups`, { groupName: 'google_sheets' }, { 'idempotency-key': 'load-key-2' });
      expectProblem(conflict, 409, 'idempotency_conflict');
      expect(await typesOf(server, id)).toEqual(['SessionStarted', 'ToolGroupLoaded', 'SessionCleared', 'ToolGroupLoaded']);
    });

    it('a blank Idempotency-Key is no key: each such request is its own command; an over-long one is 400 invalid_idempotency_key', async () => {
      const blank = { 'idempotency-key': '' };
      const spaces = { 'idempotency-key': '   ' };
      const started = await server.api('POST', '/api/sessions', {}, blank);
      expect(started.status).toBe(201);
      const other = await server.api('POST', '/api/sessions', {}, spaces);
      expect(other.status).toBe(201);
      expect(other.body.sessionId).not.toBe(started.body.sessionId);
      const id = started.body.sessionId as string;

      // Taken as a key, the blank would give both loads (and both clears) one event id: the
      // second would be answered as a retry of the first and record nothing.
      expect((await server.api('POST', `/api/sessions/${id}/tool-groups`, { groupName: 'google_docs' }, blank)).status).toBe(200);
      expect((await server.api('POST', `/api/sessions/${id}/clear`, undefined, blank)).status).toBe(200);
      expect((await server.api('POST', `/api/sessions/${id}/tool-groups`, { groupName: 'google_drive' }, spaces)).status).toBe(200);
      const cleared = await server.api('POST', `/api/sessions/${id}/clear`, undefined, blank);
      expect(cleared.status).toBe(200);
      expect(cleared.body.loadedGroups).toEqual([]);
      expect(await typesOf(server, id)).toEqual(['SessionStarted', 'ToolGroupLoaded', 'SessionCleared', 'ToolGroupLoaded', 'SessionCleared']);

      // Event ids embed the key and have a bounded length: a longer key is refused up front, saying so.
      const tooLong = await server.api('POST', `/api/sessions/${id}/tool-groups`, { groupName: 'google_docs' }, { 'idempotency-key': 'k'.repeat(101) });
      expectProblem(tooLong, 400, 'invalid_idempotency_key');
      expect(tooLong.body.detail).toContain('Idempotency-Key');
      expect(tooLong.body.detail).toContain('100');
      expect(tooLong.body.detail).not.toContain('eventId');
      expect(await typesOf(server, id)).toHaveLength(5);
      const longest = await server.api('POST', `/api/sessions/${id}/tool-groups`, { groupName: 'google_docs' }, { 'idempotency-key': 'k'.repeat(100) });
      expect(longest.status).toBe(200);
    });

    it('S5 concurrent commands to one session: every accepted command is recorded once, none interleaved or lost', async () => {
      await startSession(server, 'busy');
      const groups = Object.keys(GOOGLE_GROUPS);
      const results = await Promise.all(groups.map((groupName) => server.api('POST', '/api/sessions/busy/tool-groups', { groupName })));
      expect(results.map((r) => r.status)).toEqual(groups.map(() => 200));

      const events = await eventsOf(server, 'busy');
      expect(events.map((e) => e.revision)).toEqual(events.map((_, i) => i));
      const loaded = events.filter((e) => e.type === 'ToolGroupLoaded').map((e) => (e.data as { groupName: string }).groupName);
      expect([...loaded].sort()).toEqual([...groups].sort());
      const view = await server.api('GET', '/api/sessions/busy');
      expect([...view.body.loadedGroups].sort()).toEqual([...groups].sort());
      expect(view.body.revision).toBe(groups.length);

      // Concurrent unloads and clears: each group is unloaded at most once, revisions stay contiguous.
      const mixed = await Promise.all([
        ...groups.map((g) => server.api('DELETE', `/api/sessions/busy/tool-groups/${g}`)),
        server.api('POST', '/api/sessions/busy/clear'),
        server.api('POST', '/api/sessions/busy/clear'),
      ]);
      for (const r of mixed) {
        if (r.status !== 200) expectProblem(r, 409, 'group_not_loaded');
      }
      const after = await eventsOf(server, 'busy');
      expect(after.map((e) => e.revision)).toEqual(after.map((_, i) => i));
      const unloaded = after.filter((e) => e.type === 'ToolGroupUnloaded').map((e) => (e.data as { groupName: string }).groupName);
      expect(new Set(unloaded).size).toBe(unloaded.length);
      expect(after.length).toBe(1 + groups.length + mixed.filter((r) => r.status === 200).length);
      expect((await server.api('GET', '/api/sessions/busy')).body.loadedGroups).toEqual([]);
    });
  });

  describe('tool groups loaded by the user', () => {
    it('G5 loading google_gmail adds its tools and records ToolGroupLoaded{source: user}; loading it again records nothing', async () => {
      await startSession(server, 'groups');
      const gmail = ((await server.api('GET', '/api/tool-groups')).body.groups as Array<{ name: string; toolNames: string[] }>).find((g) => g.name === 'google_gmail');
      expect(gmail?.toolNames).toContain('gmail_search');

      const loaded = await server.api('POST', '/api/sessions/groups/tool-groups', { groupName: 'google_gmail' });
      expect(loaded.status).toBe(200);
      expect(loaded.body).toMatchObject({ sessionId: 'groups', revision: 1, loadedGroups: ['google_gmail'] });
      expect(loaded.body.activeTools).toEqual([...CORE_TOOLS, ...(gmail?.toolNames ?? [])]);

      const events = await eventsOf(server, 'groups');
      expect(events.map((e) => e.type)).toEqual(['SessionStarted', 'ToolGroupLoaded']);
      expect(events[1]?.data).toMatchObject({ groupName: 'google_gmail', source: { kind: 'user' } });

      const again = await server.api('POST', '/api/sessions/groups/tool-groups', { groupName: 'google_gmail' });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ revision: 1, loadedGroups: ['google_gmail'] });
      expect(await typesOf(server, 'groups')).toEqual(['SessionStarted', 'ToolGroupLoaded']);
    });

    it('G4 an unknown group answers 404 group_not_found listing the groups there are, and records nothing', async () => {
      await startSession(server, 'groups-unknown');
      const res = await server.api('POST', '/api/sessions/groups-unknown/tool-groups', { groupName: 'google_nope' });
      expectProblem(res, 404, 'group_not_found');
      for (const name of Object.keys(GOOGLE_GROUPS)) expect(res.body.detail).toContain(name);
      expect(res.body.available).toEqual(expect.arrayContaining(Object.keys(GOOGLE_GROUPS)));
      expect(await typesOf(server, 'groups-unknown')).toEqual(['SessionStarted']);
    });

    it('DELETE unloads a loaded group; unloading a group that is not loaded answers 409 group_not_loaded', async () => {
      await startSession(server, 'groups-unload');
      await server.api('POST', '/api/sessions/groups-unload/tool-groups', { groupName: 'google_gmail' });
      const unloaded = await server.api('DELETE', '/api/sessions/groups-unload/tool-groups/google_gmail');
      expect(unloaded.status).toBe(200);
      expect(unloaded.body).toMatchObject({ revision: 2, loadedGroups: [], activeTools: CORE_TOOLS });

      expectProblem(await server.api('DELETE', '/api/sessions/groups-unload/tool-groups/google_gmail'), 409, 'group_not_loaded');
      expectProblem(await server.api('DELETE', '/api/sessions/groups-unload/tool-groups/google_drive'), 409, 'group_not_loaded');
      expect(await typesOf(server, 'groups-unload')).toEqual(['SessionStarted', 'ToolGroupLoaded', 'ToolGroupUnloaded']);
    });
  });

  describe('queries', () => {
    it('GET /api/sessions lists sessions newest activity first with agentId, revision and an empty title', async () => {
      await startSession(server, 'list-older');
      await tick();
      await startSession(server, 'list-newer');
      await tick();
      // Activity on the older session moves it to the top.
      await server.api('POST', '/api/sessions/list-older/tool-groups', { groupName: 'google_forms' });

      const res = await server.api('GET', '/api/sessions');
      expect(res.status).toBe(200);
      const sessions = res.body.sessions as Array<{ sessionId: string; agentId: string; revision: number; title: string; startedAt: string; lastActivityAt: string }>;
      const activity = sessions.map((s) => s.lastActivityAt);
      expect(activity).toEqual([...activity].sort().reverse());
      const ours = sessions.filter((s) => s.sessionId.startsWith('list-'));
      expect(ours).toEqual([
        { sessionId: 'list-older', agentId: 'default', revision: 1, title: '', startedAt: expect.any(String), lastActivityAt: expect.any(String) },
        { sessionId: 'list-newer', agentId: 'default', revision: 0, title: '', startedAt: expect.any(String), lastActivityAt: expect.any(String) },
      ]);
    });

    it('GET /api/tool-groups lists the 10 Google groups with their display names', async () => {
      const res = await server.api('GET', '/api/tool-groups');
      expect(res.status).toBe(200);
      const groups = res.body.groups as Array<{ name: string; displayName: string; description: string; toolNames: string[]; enabled: boolean }>;
      const google = groups.filter((g) => g.name.startsWith('google_'));
      expect(Object.fromEntries(google.map((g) => [g.name, g.displayName]))).toEqual(GOOGLE_GROUPS);
      for (const g of google) {
        expect(g.toolNames.length).toBeGreaterThan(0);
        expect(g.description).not.toBe('');
        expect(g.enabled).toBe(true);
      }
    });

    it('GET /api/tools groups tools by source file: built-in (load_tool_group) and google_gmail.js with its group', async () => {
      const res = await server.api('GET', '/api/tools');
      expect(res.status).toBe(200);
      const sources = res.body.sources as Array<{ fileName: string; kind: string; group?: string; tools: Array<{ name: string; group?: string }>; problems: unknown[] }>;
      expect(sources[0]).toMatchObject({ fileName: 'built-in', kind: 'built-in', problems: [] });
      expect(sources[0]?.tools.map((t) => t.name)).toContain('load_tool_group');

      const gmail = sources.find((s) => s.fileName === 'google_gmail.js');
      expect(gmail).toMatchObject({ group: 'google_gmail', problems: [] });
      expect(gmail?.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['gmail_search', 'gmail_send']));
      for (const tool of gmail?.tools ?? []) expect(tool.group).toBe('google_gmail');
      const fileNames = sources.map((s) => s.fileName);
      expect(new Set(fileNames).size).toBe(fileNames.length);
    });

    it('GET /api/agents includes the default agent', async () => {
      const res = await server.api('GET', '/api/agents');
      expect(res.status).toBe(200);
      expect(res.body.agents).toEqual(expect.arrayContaining([expect.objectContaining({ id: 'default', name: expect.any(String), maxRounds: expect.any(Number) })]));
    });

    it('GET /api/sessions/:id/tools returns the core tools first, then the loaded groups', async () => {
      await startSession(server, 'active');
      const fresh = await server.api('GET', '/api/sessions/active/tools');
      expect(fresh.status).toBe(200);
      expect(fresh.body).toMatchObject({ sessionId: 'active', revision: 0, loadedGroups: [] });
      expect(fresh.body.tools.map((t: { name: string }) => t.name)).toEqual(CORE_TOOLS);

      await server.api('POST', '/api/sessions/active/tool-groups', { groupName: 'google_gmail' });
      const tools = (await server.api('GET', '/api/sessions/active/tools')).body.tools as Array<{ name: string; description: string; group?: string }>;
      expect(tools.slice(0, CORE_TOOLS.length).map((t) => t.name)).toEqual(CORE_TOOLS);
      for (const t of tools.slice(0, CORE_TOOLS.length)) expect(t.group).toBeUndefined();
      const rest = tools.slice(CORE_TOOLS.length);
      expect(rest.length).toBeGreaterThan(0);
      for (const t of rest) expect(t).toMatchObject({ group: 'google_gmail', description: expect.any(String) });
    });
  });

  describe('OpenAPI', () => {
    it('GET /api/docs/openapi.json is an OpenAPI 3 document with the session routes and the bearer scheme; GET /api/docs is HTML', async () => {
      const res = await bare(server, 'GET', '/api/docs/openapi.json');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/json');
      const doc = res.body as { openapi: string; paths: Record<string, Record<string, { security?: unknown }>>; components: { securitySchemes: Record<string, unknown> } };
      expect(doc.openapi).toMatch(/^3\./);
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining([
          '/api/sessions',
          '/api/sessions/{id}',
          '/api/sessions/{id}/events',
          '/api/sessions/{id}/tools',
          '/api/sessions/{id}/audit',
          '/api/sessions/{id}/messages',
          '/api/sessions/{id}/clear',
          '/api/sessions/{id}/cancel',
          '/api/sessions/{id}/tool-groups',
          '/api/sessions/{id}/tool-groups/{groupName}',
          '/api/tool-groups',
          '/api/tools',
          '/api/agents',
        ]),
      );
      expect(Object.keys(doc.paths['/api/sessions/{id}/tool-groups'] ?? {})).toContain('post');
      expect(Object.values(doc.components.securitySchemes)).toContainEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
      expect(doc.paths['/api/sessions']?.post?.security).toBeDefined();

      const html = await bare(server, 'GET', '/api/docs');
      expect(html.status).toBe(200);
      expect(html.headers.get('content-type')).toContain('text/html');
      expect(html.text).toMatch(/<html/i);
    });
  });
});

describe('rate limiting', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer({ env: { ONECLAW_RATE_LIMIT_PER_MINUTE: '5' } });
  });
  afterEach(async () => {
    await server.close();
  });

  it('API-08 with ONECLAW_RATE_LIMIT_PER_MINUTE=5 the 6th request answers 429 rate_limited with Retry-After; the budget is per client, not per route', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await server.api('GET', '/api/sessions')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);

    const sixth = await server.api('GET', '/api/sessions');
    expectProblem(sixth, 429, 'rate_limited');
    expect(sixth.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expectSecurityHeaders(sixth);

    // Another route does not start a fresh budget.
    expectProblem(await server.api('GET', '/api/tool-groups'), 429, 'rate_limited');
    // A different client key (no valid token: the bare address) is counted separately: it is refused for its token, not limited.
    expectProblem(await bare(server, 'GET', '/api/sessions'), 401, 'unauthorized');
  });

  it('API-09 rotating X-Forwarded-For does not escape the limit (no trusted proxy)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await server.api('GET', '/api/sessions', undefined, { 'x-forwarded-for': `198.51.100.${i + 1}`, 'x-real-ip': `203.0.113.${i + 1}` })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);

    // Unauthenticated token guessing is limited the same way.
    const guesses: number[] = [];
    for (let i = 0; i < 6; i++) {
      guesses.push(
        (await bare(server, 'GET', '/api/sessions', { headers: { authorization: `Bearer guess-${i}-0123456789abcdef`, 'x-forwarded-for': `192.0.2.${i + 1}` } })).status,
      );
    }
    expect(guesses).toEqual([401, 401, 401, 401, 401, 429]);
  });
});

describe('CORS with an allowlist', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { ONECLAW_CORS_ORIGINS: 'https://app.example' } });
  });
  afterAll(async () => {
    await server.close();
  });

  it('API-11 with ONECLAW_CORS_ORIGINS=https://app.example that origin is allowed and https://evil.example still is not', async () => {
    const preflight = (origin: string) =>
      bare(server, 'OPTIONS', '/api/sessions', {
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
      });
    const allowed = await preflight('https://app.example');
    expect(allowed.status).toBeLessThan(300);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(allowed.headers.get('access-control-allow-methods')).toContain('POST');
    expect((allowed.headers.get('access-control-allow-headers') ?? '').toLowerCase()).toContain('authorization');

    const evil = await preflight('https://evil.example');
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();

    const get = await server.api('GET', '/api/sessions', undefined, { origin: 'https://app.example' });
    expect(get.status).toBe(200);
    expect(get.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect((await server.api('GET', '/api/sessions', undefined, { origin: 'https://evil.example' })).headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('secrets and failures (API-17 / SEC-07)', () => {
  const SECRET = 'sk-live-secret-123456';
  let server: TestServer;
  beforeEach(async () => {
    // A provider key is configured (pointing at a closed local port: no message is sent in these tests).
    server = await startTestServer({ env: { OPENAI_API_KEY: SECRET, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', ONECLAW_LOG: 'debug' } });
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await server.close();
  });

  function expectNoSecrets(text: string): void {
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(TEST_API_TOKEN);
    expect(text).not.toContain(server.dataDir);
  }

  it('API-17 /health answers exactly {status: ok, store: ok}, and no answer carries configuration, the provider key or the API token', async () => {
    const health = await bare(server, 'GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok', store: 'ok' });

    await startSession(server, 'secrets');
    await server.api('POST', '/api/sessions/secrets/tool-groups', { groupName: 'google_gmail' });
    const answers = [
      health,
      await server.api('GET', '/api/sessions'),
      await server.api('GET', '/api/sessions/secrets'),
      await server.api('GET', '/api/sessions/secrets/events'),
      await server.api('GET', '/api/sessions/secrets/tools'),
      await server.api('GET', '/api/sessions/secrets/audit'),
      await server.api('GET', '/api/sessions/secrets/audit?format=text'),
      await server.api('GET', '/api/agents'),
      await server.api('GET', '/api/tool-groups'),
      await server.api('GET', '/api/tools'),
      await bare(server, 'GET', '/api/docs/openapi.json'),
      await bare(server, 'GET', '/api/docs'),
      await bare(server, 'GET', '/api/sessions'),
      await server.api('GET', '/api/sessions', undefined, { authorization: `Bearer ${SECRET}` }),
      await server.api('POST', '/api/sessions/secrets/messages', `{"text": "${SECRET}`),
      await server.api('POST', '/api/sessions/secrets/messages', { text: 'hi', apiKey: SECRET }),
      await server.api('GET', '/api/nothing-here'),
    ];
    for (const res of answers) {
      expect(res.status).toBeLessThan(500);
      expectNoSecrets(res.text);
      expectNoSecrets(JSON.stringify([...res.headers]));
    }
    expectNoSecrets(server.logLines.text());
  });

  it('API-17 an unexpected error answers a generic 500 problem with no stack; the log has the error with the secret redacted', async () => {
    const repository = server.app.get(SessionRepository);
    jest.spyOn(repository, 'load').mockRejectedValue(new TypeError(`boom: the key ${SECRET} leaked at ${server.dataDir}/x.ts:12`));

    const res = await server.api('GET', '/api/sessions/anything');
    expectProblem(res, 500, 'internal_error');
    expect(Object.keys(res.body).sort()).toEqual(['code', 'detail', 'status', 'title', 'type']);
    expect(res.text).not.toContain('boom');
    expectNoSecrets(res.text);
    expectSecurityHeaders(res);

    const logged = server.logLines.records().filter((r) => r.msg === 'request failed');
    expect(logged).toHaveLength(1);
    expect(JSON.stringify(logged[0])).toContain('boom: the key [Redacted]');
    expect(server.logLines.text()).not.toContain(SECRET);
  });

  it('API-17 a failed event store answers 503 storage_unavailable with a generic detail (no file path), is logged, and /health reports it', async () => {
    await startSession(server, 'before-close');
    await server.app.get<{ close(): Promise<void> }>(EVENT_STORE).close();

    const res = await server.api('GET', '/api/sessions/before-close');
    expectProblem(res, 503, 'storage_unavailable');
    expect(Object.keys(res.body).sort()).toEqual(['code', 'detail', 'status', 'title', 'type']);
    expect(res.text).not.toContain('events.db');
    expectNoSecrets(res.text);

    const health = await bare(server, 'GET', '/health');
    expectProblem(health, 503, 'storage_unavailable');
    expectNoSecrets(health.text);

    // The operator still learns why: the log has the store's own message.
    const logged = server.logLines.records().filter((r) => r.msg === 'request failed');
    expect(logged.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(logged[0])).toContain('is closed');
    expect(server.logLines.text()).not.toContain(SECRET);
    expect(server.logLines.text()).not.toContain(TEST_API_TOKEN);
  });

  it('API-17 a store failure after a streamed turn has begun ends the stream with a generic error event, and is logged', async () => {
    await startSession(server, 'mid-stream');
    const repository = server.app.get(SessionRepository);
    // Every append of a session goes through recordAll (record too; a turn records its steps with it).
    jest
      .spyOn(repository, 'recordAll')
      .mockRejectedValue(
        new StorageUnavailableError(`Cannot append to the event store '${server.dataDir}/events.db': disk I/O error (key ${SECRET}).`, { file: `${server.dataDir}/events.db` }),
      );

    const streamed = await server.stream('/api/sessions/mid-stream/messages', { text: 'hello' });
    expect(streamed.status).toBe(200);
    expect(streamed.events.map((e) => e.event)).toEqual(['turn_started', 'error']);
    const problem = streamed.events[1]?.data;
    expect(problem).toMatchObject({ status: 503, code: 'storage_unavailable' });
    expect(Object.keys(problem).sort()).toEqual(['code', 'detail', 'status', 'title', 'type']);
    expectNoSecrets(JSON.stringify(streamed.events));

    const logged = server.logLines.records().filter((r) => r.msg === 'request failed');
    expect(logged).toHaveLength(1);
    expect(JSON.stringify(logged[0])).toContain('disk I/O error (key [Redacted])');
    expect(server.logLines.text()).not.toContain(SECRET);
  });
});

describe('restart', () => {
  it('P1 a session (and its loaded groups) survives a server restart on the same data directory', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-api-restart-'));
    try {
      let server = await startTestServer({ dataDir });
      await startSession(server, 'durable');
      await server.api('POST', '/api/sessions/durable/tool-groups', { groupName: 'google_sheets' });
      await server.close({ keepData: true });

      server = await startTestServer({ dataDir });
      try {
        const view = await server.api('GET', '/api/sessions/durable');
        expect(view.status).toBe(200);
        expect(view.body).toMatchObject({ sessionId: 'durable', revision: 1, loadedGroups: ['google_sheets'] });
        expect((await server.api('GET', '/api/sessions')).body.sessions).toEqual([expect.objectContaining({ sessionId: 'durable', revision: 1 })]);
        // A stale revision from before the restart is still caught.
        expectProblem(await server.api('POST', '/api/sessions/durable/clear', undefined, { 'if-match': '"0"' }), 412, 'precondition_failed');
      } finally {
        await server.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('server start-up', () => {
  it('SQL-09 refuses to start on a corrupt store with storage_corrupt, leaving the file as it was', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-corrupt-'));
    const file = path.join(dir, 'events.db');
    const junk = Buffer.from('SQLite format 3\u0000'.padEnd(8192, '#'));
    writeFileSync(file, junk);
    try {
      const logger = createLogger({ level: 'silent', redactor: new SecretRedactor() });
      const config = loadServerConfig({ ONECLAW_DATA_DIR: dir });
      // A runner that is never called: a failed createApp does not close the providers it already
      // made, and the default worker-thread runner would outlive the test (reported separately).
      const toolRunner: JsRunner = { run: () => Promise.reject(new Error('no tool runs at start-up')), close: () => Promise.resolve() };
      await expect(createApp({ config, apiToken: TEST_API_TOKEN, logger, toolRunner })).rejects.toMatchObject({ code: 'storage_corrupt' });
      expect(readFileSync(file).equals(junk)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('server config', () => {
  it('binds to 127.0.0.1 by default and refuses a bad PORT with a message naming it', () => {
    expect(loadServerConfig({}).host).toBe('127.0.0.1');
    expect(() => loadServerConfig({ PORT: 'eighty' })).toThrow('PORT=eighty is not valid');
  });
});

/** Lets the clock move on, so two events get different timestamps (an ordering aid, not a timing check). */
async function tick(): Promise<void> {
  const start = Date.now();
  while (Date.now() === start) await new Promise((resolve) => setTimeout(resolve, 1));
}
