import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RecordedEvent, ToolResultMessageData } from '@oneclaw/core';
import { startFakeModelServer, fakeReply, type FakeModelServer } from '@oneclaw/model-providers/testing';
import { FakeGoogleApi } from '@oneclaw/tools-assets/testing';
import { startTestServer, type TestServer } from '../testing/test-server';

/**
 * A Google access token obtained with the refresh-token flow is a secret like the static one:
 * a booted server (worker sandbox, SQLite store), a FAKE Google OAuth token endpoint behind the
 * fake's TLS-intercepting proxy, and a loopback FAKE Anthropic model that calls a user tool
 * printing, returning and throwing the token it got from `google.getAccessToken()`.
 */
const MODEL_KEY = 'sk-ant-google-token-key-000111';
const REFRESHED_TOKEN = 'ya29.a0-refreshed-access-token-7f3c9e1d5b';

let google: FakeGoogleApi;
let model: FakeModelServer;
let server: TestServer;
let dir: string;

beforeAll(async () => {
  google = await FakeGoogleApi.start();
  google.accessToken = REFRESHED_TOKEN;
  google.route('POST', 'oauth2.googleapis.com', '/token', () => ({ json: { access_token: REFRESHED_TOKEN, expires_in: 3599, token_type: 'Bearer' } }), { auth: false });
  model = await startFakeModelServer('anthropic', { apiKey: MODEL_KEY });
  dir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-google-token-'));
  const caFile = path.join(dir, 'ca.pem');
  writeFileSync(caFile, google.caCertificate);
  const dataDir = path.join(dir, 'data');
  const tools = path.join(dataDir, 'tools');
  mkdirSync(tools, { recursive: true });
  writeFileSync(
    path.join(tools, 'google_token_echo.json'),
    JSON.stringify({ name: 'google_token_echo', description: 'Echoes the Google access token', parameters: { type: 'object', properties: { fail: { type: 'boolean' } } } }),
  );
  writeFileSync(
    path.join(tools, 'google_token_echo.js'),
    'async function execute(params) { var t = await google.getAccessToken(); console.log("token " + t); if (params.fail) throw new Error("bad " + t); return "token is " + t; }',
  );
  server = await startTestServer({
    dataDir,
    env: {
      ONECLAW_PROVIDER: 'anthropic',
      ANTHROPIC_API_KEY: MODEL_KEY,
      ANTHROPIC_BASE_URL: model.url,
      ONECLAW_HTTPS_PROXY: google.proxyUrl,
      ONECLAW_EXTRA_CA_CERTS: caFile,
      ONECLAW_GOOGLE_CLIENT_ID: 'client-1.apps.googleusercontent.com',
      ONECLAW_GOOGLE_CLIENT_SECRET: 'GOCSPX-client-secret-value',
      ONECLAW_GOOGLE_REFRESH_TOKEN: '1//refresh-token-secret-value',
    },
  });
}, 30_000);

afterAll(async () => {
  await server?.close();
  await model?.close();
  await google?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a refreshed Google access token (refresh-token configuration)', () => {
  it('is redacted from the tool result, the error, the events, the SSE stream, the model requests and the logs', async () => {
    await server.api('POST', '/api/sessions', { sessionId: 'gtok' });
    model.enqueue(fakeReply.toolCalls({ name: 'google_token_echo', arguments: {} }, { name: 'google_token_echo', arguments: { fail: true } }), fakeReply.text('Done.'));
    const turn = await server.stream('/api/sessions/gtok/messages', { text: 'show me the token' });
    expect(turn.events.find((e) => e.event === 'turn_finished')?.data.reason).toBe('completed');
    // The token really was issued by the token endpoint and handed to the tool.
    expect(google.requests.some((r) => r.url === 'https://oauth2.googleapis.com/token')).toBe(true);

    const events: RecordedEvent[] = (await server.api('GET', '/api/sessions/gtok/events')).body.events;
    const results = events
      .filter((e) => e.type === 'MessageSent' && (e.data as { role: string }).role === 'tool')
      .map((e) => e.data as ToolResultMessageData & { result?: string; message?: string });
    expect(results[0]).toMatchObject({ status: 'success', result: 'token is [Redacted]' });
    expect(results[1]?.message).toContain('bad [Redacted]');

    const seen = {
      events: JSON.stringify(events),
      sse: JSON.stringify(turn.events),
      modelRequests: JSON.stringify(model.requests.map((r) => r.body)),
      logs: server.logLines.text(),
    };
    for (const [where, text] of Object.entries(seen)) expect({ where, leaked: text.includes(REFRESHED_TOKEN) }).toEqual({ where, leaked: false });
    expect(model.requests.length).toBe(2);
  }, 30_000);
});
