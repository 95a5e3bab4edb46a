import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { RecordedEvent } from '@oneclaw/core';
import { CONTENT_SECURITY_POLICY } from '../security/security-headers';
import { fakeReply, startFakeModelServer, type FakeModelServer, type RecordedRequest } from '@oneclaw/model-providers/testing';
import { startTestServer, type ApiResponse, type TestServer } from '../testing/test-server';

/**
 * The settings screens' HTTP routes (SPEC S6, issue 7): providers and models, agents, tool
 * enablement and the schema-token figures, and the static UI fallback. A booted server over real
 * HTTP (SQLite store, QuickJS worker sandbox); a loopback FAKE Anthropic server is the provider set
 * by environment variables, a loopback FAKE OpenAI-compatible server the one created here.
 */
const ENV_KEY = 'sk-ant-environment-model-key-61';
const LOCAL_KEY = 'sk-local-openai-compatible-key-62';
const WRONG_KEY = 'sk-wrong-key-for-the-local-server-63';

// Each test boots a real server (some twice, for a restart) and runs turns: more than Jest's 5 s when workers share the machine.
jest.setTimeout(30_000);

let envModel: FakeModelServer;
let localModel: FakeModelServer;
let dataDir: string;
let server: TestServer | undefined;
const scratch: string[] = [];

const serverEnv = (extra: Record<string, string> = {}) => ({
  ONECLAW_PROVIDER: 'anthropic',
  ANTHROPIC_API_KEY: ENV_KEY,
  ANTHROPIC_BASE_URL: envModel.url,
  ONECLAW_PROVIDER_MAX_RETRIES: '0',
  ...extra,
});

async function boot(extra: Record<string, string> = {}): Promise<TestServer> {
  server = await startTestServer({ dataDir, env: serverEnv(extra) });
  return server;
}

async function restart(): Promise<TestServer> {
  await server?.close({ keepData: true });
  return boot();
}

function api(method: string, route: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse> {
  if (!server) throw new Error('no server');
  return server.api(method, route, body, headers);
}

function expectProblem(res: ApiResponse, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expect(res.headers.get('content-type')).toContain('application/problem+json');
}

async function configEvents(fromRevision = 0): Promise<RecordedEvent[]> {
  return (await api('GET', `/api/config/events?fromRevision=${fromRevision}`)).body.events;
}

const typesOf = (events: readonly RecordedEvent[]) => events.map((e) => e.type);
const chatRequests = (fake: FakeModelServer): RecordedRequest[] => fake.requests.filter((r) => r.method === 'POST');

/** Every file of the SQLite store (the WAL holds recent appends), as raw bytes turned to text. */
function rawStore(): string {
  return readdirSync(dataDir)
    .filter((f) => f.startsWith('events.db'))
    .map((f) => readFileSync(path.join(dataDir, f)).toString('latin1'))
    .join('\n');
}

function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

beforeEach(async () => {
  envModel = await startFakeModelServer('anthropic', { apiKey: ENV_KEY });
  localModel = await startFakeModelServer('openai', { apiKey: LOCAL_KEY, models: [{ id: 'llama3.1:8b' }, { id: 'qwen2.5:7b' }] });
  dataDir = tempDir('oneclaw-settings-e2e-');
});

afterEach(async () => {
  await server?.close({ keepData: true });
  server = undefined;
  await envModel.close();
  await localModel.close();
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('S6 settings: providers and models', () => {
  it('S6 a provider created with its key, its fetched and added models and the default model: views, events without the key, the next turn, a restart', async () => {
    await boot();
    const initial = await api('GET', '/api/providers');
    expect(initial.status).toBe(200);
    expect(initial.body.defaultModel).toBeNull();
    expect(initial.body.providers).toEqual([
      expect.objectContaining({
        providerId: 'env',
        kind: 'anthropic',
        definedBy: 'environment',
        apiKey: 'from_environment',
        keyVariable: 'ANTHROPIC_API_KEY',
        hasApiKey: true,
        isActive: true,
        models: [expect.objectContaining({ source: 'environment', isDefault: false })],
      }),
    ]);

    const created = await api(
      'POST',
      '/api/providers',
      { name: 'Local server', kind: 'openai', apiBaseUrl: localModel.url, apiKey: LOCAL_KEY },
      { 'idempotency-key': 'create-local' },
    );
    expect(created.status).toBe(201);
    const providerId = created.body.providerId as string;
    expect(created.body).toEqual({
      providerId,
      name: 'Local server',
      kind: 'openai',
      apiBaseUrl: localModel.url,
      isActive: true,
      definedBy: 'configuration',
      apiKey: 'set',
      hasApiKey: true,
      models: [],
    });
    // A retried create (same Idempotency-Key) answers with the same provider and adds nothing.
    const retried = await api(
      'POST',
      '/api/providers',
      { name: 'Local server', kind: 'openai', apiBaseUrl: localModel.url, apiKey: LOCAL_KEY },
      { 'idempotency-key': 'create-local' },
    );
    expect(retried).toMatchObject({ status: 201, body: { providerId, apiKey: 'set' } });
    expect((await api('GET', '/api/providers')).body.providers).toHaveLength(2);

    const fetched = await api('POST', `/api/providers/${providerId}/models/fetch`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual({
      models: [
        { modelId: 'llama3.1:8b', source: 'fetched', isDefault: false },
        { modelId: 'qwen2.5:7b', source: 'fetched', isDefault: false },
      ],
    });
    // The provider's own model-list API was asked, with the stored key.
    expect(localModel.requests.find((r) => r.method === 'GET')).toMatchObject({ path: '/v1/models', headers: expect.objectContaining({ authorization: `Bearer ${LOCAL_KEY}` }) });

    const added = await api('POST', `/api/providers/${providerId}/models`, { modelId: 'custom-7b', displayName: 'Custom 7B' });
    expect(added.status).toBe(200);
    expect(added.body.models).toContainEqual({ modelId: 'custom-7b', displayName: 'Custom 7B', source: 'added', isDefault: false });

    expect((await api('PUT', '/api/default-model', { providerId, modelId: 'qwen2.5:7b' })).status).toBe(204);
    expect((await api('DELETE', `/api/providers/${providerId}/models/custom-7b`)).status).toBe(204);
    const renamed = await api('PATCH', `/api/providers/${providerId}`, { name: 'My local server' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ providerId, name: 'My local server', hasApiKey: true });
    expect(renamed.body.models.map((m: { modelId: string; isDefault: boolean }) => [m.modelId, m.isDefault])).toEqual([
      ['llama3.1:8b', false],
      ['qwen2.5:7b', true],
    ]);

    // The settings drive the next turn: the default model of the new provider answers it.
    await api('POST', '/api/sessions', { sessionId: 'after-settings' });
    localModel.enqueue(fakeReply.text('Hello from the local model.'));
    const turn = await api('POST', '/api/sessions/after-settings/messages', { text: 'hi' });
    expect(turn.body).toMatchObject({ reason: 'completed', reply: 'Hello from the local model.' });
    expect((chatRequests(localModel).at(-1)?.body as { model: string }).model).toBe('qwen2.5:7b');
    expect(chatRequests(envModel)).toHaveLength(0);

    // Every change is in the `config` stream, once; the key is in no event, no answer, no log line and not in the store.
    const events = await configEvents();
    expect(typesOf(events)).toEqual(['ProviderCreated', 'ProviderApiKeySet', 'ModelsFetched', 'ModelAdded', 'DefaultModelSet', 'ModelDeleted', 'ProviderUpdated']);
    const audit = await api('GET', '/api/config/events');
    for (const text of [audit.text, created.text, renamed.text, (await api('GET', '/api/providers')).text, rawStore(), server?.logLines.text() ?? ''])
      expect(text).not.toContain(LOCAL_KEY);
    expect(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')).toContain(LOCAL_KEY);

    // Everything survives a restart on the same data directory, the key included.
    await restart();
    const after = await api('GET', '/api/providers');
    expect(after.body.defaultModel).toEqual({ providerId, modelId: 'qwen2.5:7b' });
    expect(after.body.providers.find((p: { providerId: string }) => p.providerId === providerId)).toMatchObject({
      name: 'My local server',
      apiKey: 'set',
      hasApiKey: true,
      models: [
        { modelId: 'llama3.1:8b', source: 'fetched', isDefault: false },
        { modelId: 'qwen2.5:7b', source: 'fetched', isDefault: true },
      ],
    });

    // Deactivated, then deleted: the provider, its models and its key go; the stream says so.
    expect((await api('PATCH', `/api/providers/${providerId}`, { isActive: false })).body).toMatchObject({ isActive: false });
    expect((await api('DELETE', `/api/providers/${providerId}`, undefined, { 'idempotency-key': 'delete-local' })).status).toBe(204);
    expect((await api('DELETE', `/api/providers/${providerId}`, undefined, { 'idempotency-key': 'delete-local' })).status).toBe(204);
    expectProblem(await api('DELETE', `/api/providers/${providerId}`), 404, 'provider_not_found');
    expect((await api('GET', '/api/providers')).body.providers.map((p: { providerId: string }) => p.providerId)).toEqual(['env']);
    expect(typesOf(await configEvents(7))).toEqual(['ProviderUpdated', 'ProviderDeleted']);
    expect(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')).not.toContain(LOCAL_KEY);
  });

  it('S6 bad provider input gets a typed 4xx, never a 500, and records nothing', async () => {
    await boot();
    const valid = { name: 'Local', kind: 'openai', apiBaseUrl: localModel.url };
    expectProblem(await api('POST', '/api/providers', { ...valid, kind: 'mistral' }), 400, 'invalid_body');
    expectProblem(await api('POST', '/api/providers', { ...valid, type: 'OPENAI' }), 400, 'invalid_body');
    expectProblem(await api('POST', '/api/providers', { ...valid, apiKey: 'has spaces' }), 400, 'invalid_body');
    expectProblem(await api('POST', '/api/providers', { name: 'Local', kind: 'openai' }), 400, 'invalid_body');
    expectProblem(await api('POST', '/api/providers', { ...valid, apiBaseUrl: 'ftp://example.com' }), 400, 'validation_error');
    expectProblem(await api('POST', '/api/providers', { ...valid, apiBaseUrl: 'https://user:secret@example.com/v1' }), 400, 'validation_error');
    expect(await configEvents()).toEqual([]);

    // The environment provider is read-only here; unknown ids are 404s.
    expectProblem(await api('PATCH', '/api/providers/env', { name: 'x' }), 409, 'read_only');
    expectProblem(await api('DELETE', '/api/providers/env'), 409, 'read_only');
    expectProblem(await api('PATCH', '/api/providers/nope', { name: 'x' }), 404, 'provider_not_found');
    expectProblem(await api('DELETE', '/api/providers/nope'), 404, 'provider_not_found');
    expectProblem(await api('POST', '/api/providers/nope/models/fetch'), 404, 'provider_not_found');
    expectProblem(await api('POST', '/api/providers/nope/models', { modelId: 'm' }), 404, 'provider_not_found');
    expectProblem(await api('DELETE', '/api/providers/nope/models/m'), 404, 'provider_not_found');
    expectProblem(await api('PUT', '/api/default-model', { providerId: 'nope', modelId: 'm' }), 404, 'provider_not_found');

    const { providerId } = (await api('POST', '/api/providers', valid)).body as { providerId: string };
    expectProblem(await api('PATCH', `/api/providers/${providerId}`, {}), 400, 'invalid_body');
    expectProblem(await api('PATCH', `/api/providers/${providerId}`, { isActive: 'no' }), 400, 'invalid_body');
    expectProblem(await api('PATCH', `/api/providers/${providerId}`, { apiKey: LOCAL_KEY }), 400, 'invalid_body');
    expectProblem(await api('POST', `/api/providers/${providerId}/models`, {}), 400, 'invalid_body');
    expectProblem(await api('POST', `/api/providers/${providerId}/models/fetch`, { force: true }), 400, 'invalid_body');
    expectProblem(await api('PUT', '/api/default-model', { providerId, modelId: 'not-listed' }), 404, 'model_not_found');
    expectProblem(await api('DELETE', `/api/providers/${providerId}/models/not-listed`), 404, 'model_not_found');
    expectProblem(await api('PUT', '/api/default-model', { providerId }), 400, 'invalid_body');
    // Model ids with a slash (OpenRouter's vendor/model) work when the client encodes them in the path.
    expect((await api('POST', `/api/providers/${providerId}/models`, { modelId: 'vendor/model-x' })).body.models).toEqual([
      { modelId: 'vendor/model-x', source: 'added', isDefault: false },
    ]);
    expect((await api('DELETE', `/api/providers/${providerId}/models/${encodeURIComponent('vendor/model-x')}`)).status).toBe(204);
    // A lone surrogate (half an emoji, valid in JSON) is refused where ids and names are configured:
    // stored, it made every Gemini turn fail "URI malformed" when percent-encoded into the URL.
    const broken = await api('POST', `/api/providers/${providerId}/models`, { modelId: 'gem\ud800' });
    expectProblem(broken, 400, 'invalid_body');
    expect(broken.body.detail).toContain('modelId is not well-formed Unicode');
    expectProblem(await api('PATCH', `/api/providers/${providerId}`, { name: 'Local \udc00' }), 400, 'invalid_body');
    // A whole emoji (a surrogate pair) is fine.
    expect((await api('POST', `/api/providers/${providerId}/models`, { modelId: 'gem-\u{1F600}' })).status).toBe(200);
    expect((await api('DELETE', `/api/providers/${providerId}/models/${encodeURIComponent('gem-\u{1F600}')}`)).status).toBe(204);
    await api('POST', `/api/providers/${providerId}/models`, { modelId: 'm1' });
    await api('PATCH', `/api/providers/${providerId}`, { isActive: false });
    expectProblem(await api('PUT', '/api/default-model', { providerId, modelId: 'm1' }), 409, 'provider_inactive');
    expect(typesOf(await configEvents())).toEqual(['ProviderCreated', 'ModelAdded', 'ModelDeleted', 'ModelAdded', 'ModelDeleted', 'ModelAdded', 'ProviderUpdated']);
  });

  it("S6 a fetch the provider refuses answers 502 with the provider's reason and no key; Anthropic without a key is 409 api_key_missing", async () => {
    await boot();
    const wrong = await api('POST', '/api/providers', { name: 'Wrong key', kind: 'openai', apiBaseUrl: localModel.url, apiKey: WRONG_KEY });
    const refused = await api('POST', `/api/providers/${wrong.body.providerId}/models/fetch`);
    expectProblem(refused, 502, 'provider_auth_failed');
    expect(refused.body.detail).toContain(`PUT /api/providers/${wrong.body.providerId}/api-key`);
    expect(refused.text).not.toContain(WRONG_KEY);

    const keyless = await api('POST', '/api/providers', { name: 'Claude', kind: 'anthropic', apiBaseUrl: envModel.url });
    expect(keyless.body).toMatchObject({ apiKey: 'not_set', hasApiKey: false });
    expectProblem(await api('POST', `/api/providers/${keyless.body.providerId}/models/fetch`), 409, 'api_key_missing');

    const unreachable = await api('POST', '/api/providers', { name: 'Gone', kind: 'openai', apiBaseUrl: 'http://127.0.0.1:9/v1' });
    expectProblem(await api('POST', `/api/providers/${unreachable.body.providerId}/models/fetch`), 502, 'provider_unavailable');
    expect(typesOf(await configEvents())).toEqual(['ProviderCreated', 'ProviderApiKeySet', 'ProviderCreated', 'ProviderCreated']);
    expect(server?.logLines.text()).not.toContain(WRONG_KEY);
  });

  it('S6 a FAKE provider that echoes its key base64-encoded in a refused model fetch: the 502 problem has the key redacted, as a turn would', async () => {
    const key = 'sk-echoed-back-provider-key-64';
    // What some gateways do: quote the credential they were sent, encoded, in their error.
    const echo = http.createServer((req, res) => {
      const sent = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `Bad request for key (received ${Buffer.from(sent).toString('base64')})` } }));
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    try {
      await boot();
      const created = await api('POST', '/api/providers', { name: 'Echo', kind: 'openai', apiBaseUrl: `http://127.0.0.1:${(echo.address() as AddressInfo).port}/v1`, apiKey: key });
      const refused = await api('POST', `/api/providers/${created.body.providerId}/models/fetch`);
      expectProblem(refused, 502, 'provider_bad_request');
      expect(refused.body.detail).toContain('Bad request for key (received [Redacted])');
      expect(refused.text).not.toContain(Buffer.from(key).toString('base64').replace(/=+$/, ''));
      expect(refused.text).not.toContain(key);
    } finally {
      await new Promise((resolve) => echo.close(resolve));
    }
  });

  it('S6 reasoning per model: PATCH sets it, the next request to the FAKE Anthropic server carries the thinking budget, null clears it; typed errors; a restart keeps it', async () => {
    // The environment provider's model is the vendor default, claude-sonnet-4-5: it takes a thinking budget (not adaptive thinking).
    await boot();
    const envModelId = (await api('GET', '/api/providers')).body.providers[0].models[0].modelId as string;
    const route = `/api/providers/env/models/${encodeURIComponent(envModelId)}`;

    const set = await api('PATCH', route, { reasoning: 'high' });
    expect(set.status).toBe(200);
    expect(set.body.models).toEqual([{ modelId: envModelId, source: 'environment', isDefault: false, reasoning: 'high' }]);
    await api('POST', '/api/sessions', { sessionId: 'thinks' });
    envModel.enqueue(fakeReply.text('Thought about it.'));
    expect((await api('POST', '/api/sessions/thinks/messages', { text: 'hi' })).body).toMatchObject({ reason: 'completed', reply: 'Thought about it.' });
    const asked = chatRequests(envModel).at(-1)?.body as { thinking?: unknown; max_tokens: number };
    expect(asked.thinking).toEqual({ type: 'enabled', budget_tokens: 16_384 });
    expect(asked.max_tokens).toBeGreaterThan(16_384);

    // A model that cannot reason refuses the request: the turn ends saying which setting to undo.
    envModel.enqueue(fakeReply.error(400, { message: 'thinking is not supported by this model' }));
    const refused = await api('POST', '/api/sessions/thinks/messages', { text: 'again' });
    expect(refused.body).toMatchObject({ reason: 'provider_error' });
    expect(refused.body.detail).toContain('provider_bad_request');
    expect(refused.body.detail).toContain(`asked ${envModelId} to reason (high)`);

    // Typed errors, nothing recorded for them.
    expectProblem(await api('PATCH', route, { reasoning: 'max' }), 400, 'invalid_body');
    expectProblem(await api('PATCH', route, {}), 400, 'invalid_body');
    expectProblem(await api('PATCH', '/api/providers/env/models/not-offered', { reasoning: 'low' }), 404, 'model_not_found');
    expectProblem(await api('PATCH', `/api/providers/nope/models/${encodeURIComponent(envModelId)}`, { reasoning: 'low' }), 404, 'provider_not_found');
    expect(typesOf(await configEvents())).toEqual(['ModelReasoningSet']);

    await restart();
    expect((await api('GET', '/api/providers')).body.providers[0].models[0]).toMatchObject({ modelId: envModelId, reasoning: 'high' });
    // A retried request (same Idempotency-Key) is the change it was, recorded once: it does not undo a later change.
    expect((await api('PATCH', route, { reasoning: 'low' }, { 'idempotency-key': 'set-low' })).body.models[0]).toMatchObject({ reasoning: 'low' });
    const cleared = await api('PATCH', route, { reasoning: null });
    expect(cleared.body.models[0]).not.toHaveProperty('reasoning');
    expect((await api('PATCH', route, { reasoning: 'low' }, { 'idempotency-key': 'set-low' })).status).toBe(200);
    expect((await api('GET', '/api/providers')).body.providers[0].models[0]).not.toHaveProperty('reasoning');
    await api('POST', '/api/sessions', { sessionId: 'default-again' });
    envModel.enqueue(fakeReply.text('No thinking asked.'));
    await api('POST', '/api/sessions/default-again/messages', { text: 'hi' });
    expect(chatRequests(envModel).at(-1)?.body).not.toHaveProperty('thinking');
    expect((await configEvents()).map((e) => (e.data as { effort: unknown }).effort)).toEqual(['high', 'low', null]);
  });
});

describe('S6 settings: agents', () => {
  it('S6 agents are listed with their prompts, created, changed (null clears) and deleted; typed errors; a restart keeps them', async () => {
    await boot();
    const listed = await api('GET', '/api/agents');
    expect(listed.status).toBe(200);
    expect(listed.body.agents).toEqual([
      { id: 'default', name: 'OneClaw', source: 'default', deletable: false, systemPrompt: expect.stringContaining('You are OneClaw'), maxRounds: expect.any(Number) },
    ]);

    const body = { name: 'Captain Pete', description: 'Talks like a pirate', systemPrompt: 'You are Captain Pete. Answer in pirate speak.' };
    const created = await api('POST', '/api/agents', body, { 'idempotency-key': 'make-pete' });
    expect(created.status).toBe(201);
    const agentId = created.body.id as string;
    expect(created.body).toEqual({ id: agentId, ...body, source: 'config', deletable: true, maxRounds: expect.any(Number) });
    expect((await api('POST', '/api/agents', body, { 'idempotency-key': 'make-pete' })).body.id).toBe(agentId);
    expect((await api('GET', '/api/agents')).body.agents).toHaveLength(2);

    const changed = await api(
      'PATCH',
      `/api/agents/${agentId}`,
      { description: null, preferredProviderId: 'env', preferredModelId: 'claude-pirate' },
      { 'idempotency-key': 'patch-pete' },
    );
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({
      id: agentId,
      name: 'Captain Pete',
      systemPrompt: body.systemPrompt,
      source: 'config',
      deletable: true,
      preferredProviderId: 'env',
      preferredModelId: 'claude-pirate',
      maxRounds: expect.any(Number),
    });
    expect(
      (await api('PATCH', `/api/agents/${agentId}`, { description: null, preferredProviderId: 'env', preferredModelId: 'claude-pirate' }, { 'idempotency-key': 'patch-pete' }))
        .status,
    ).toBe(200);
    const limited = await api('PATCH', `/api/agents/${agentId}`, { allowedTools: ['get_current_time', 'create_agent'] });
    expect(limited.body.allowedTools).toEqual(['get_current_time', 'create_agent']);
    // The default agent can be changed (an overlay in the stream), not deleted.
    expect((await api('PATCH', '/api/agents/default', { systemPrompt: 'You are a terse assistant.' })).body).toMatchObject({
      id: 'default',
      systemPrompt: 'You are a terse assistant.',
      source: 'default',
    });
    expectProblem(await api('DELETE', '/api/agents/default'), 409, 'read_only');

    // The created agent starts a session, with its preferred model and its prompt.
    expect(await api('POST', '/api/sessions', { sessionId: 'pirate', agentId })).toMatchObject({ status: 201, body: { agentId } });
    envModel.enqueue(fakeReply.text('Arr!'));
    expect((await api('POST', '/api/sessions/pirate/messages', { text: 'hello' })).body.reason).toBe('completed');
    const request = chatRequests(envModel).at(-1)?.body as { model: string; system: unknown; tools?: { name: string }[] };
    expect(request.model).toBe('claude-pirate');
    expect(String(JSON.stringify(request.system))).toContain('You are Captain Pete.');
    // Its allowed tools are all the model is sent.
    expect((request.tools ?? []).map((t) => t.name).sort()).toEqual(['create_agent', 'get_current_time']);

    expectProblem(await api('PATCH', '/api/agents/ghost', { name: 'x' }), 404, 'agent_not_found');
    expectProblem(await api('DELETE', '/api/agents/ghost'), 404, 'agent_not_found');
    expectProblem(await api('PATCH', `/api/agents/${agentId}`, { preferredProviderId: 'nope' }), 404, 'provider_not_found');
    expectProblem(await api('PATCH', `/api/agents/${agentId}`, {}), 400, 'invalid_body');
    expectProblem(await api('PATCH', `/api/agents/${agentId}`, { name: null }), 400, 'invalid_body');
    expectProblem(await api('PATCH', `/api/agents/${agentId}`, { maxRounds: 3 }), 400, 'invalid_body');
    expectProblem(await api('PATCH', `/api/agents/${agentId}`, { allowedTools: ['Not A Tool Name'] }), 400, 'invalid_body');
    expectProblem(await api('PATCH', `/api/agents/${agentId}`, { allowedTools: 'get_current_time' }), 400, 'invalid_body');
    expectProblem(await api('PATCH', `/api/agents/${agentId}`, { systemPrompt: '   ' }), 400, 'validation_error');
    expectProblem(await api('POST', '/api/agents', { name: 'No prompt' }), 400, 'invalid_body');
    expectProblem(await api('POST', '/api/agents', { name: 'x', systemPrompt: 'y', id: 'chosen' }), 400, 'invalid_body');
    // In a session start body an unknown agent stays what it was: a bad request.
    expectProblem(await api('POST', '/api/sessions', { agentId: 'ghost' }), 400, 'agent_not_found');

    expect(typesOf(await configEvents())).toEqual(['AgentCreated', 'AgentUpdated', 'AgentUpdated', 'AgentUpdated']);

    await restart();
    const after = (await api('GET', '/api/agents')).body.agents as { id: string; systemPrompt: string; preferredModelId?: string }[];
    expect(after.find((a) => a.id === 'default')?.systemPrompt).toBe('You are a terse assistant.');
    expect(after.find((a) => a.id === agentId)).toMatchObject({ preferredModelId: 'claude-pirate', allowedTools: ['get_current_time', 'create_agent'] });
    // null: every tool again.
    expect((await api('PATCH', `/api/agents/${agentId}`, { allowedTools: null })).body).not.toHaveProperty('allowedTools');

    expect((await api('DELETE', `/api/agents/${agentId}`, undefined, { 'idempotency-key': 'sink-pete' })).status).toBe(204);
    expect((await api('DELETE', `/api/agents/${agentId}`, undefined, { 'idempotency-key': 'sink-pete' })).status).toBe(204);
    expectProblem(await api('DELETE', `/api/agents/${agentId}`), 404, 'agent_not_found');
    expect((await api('GET', '/api/agents')).body.agents.map((a: { id: string }) => a.id)).toEqual(['default']);
    expect(typesOf(await configEvents(4))).toEqual(['AgentUpdated', 'AgentDeleted']);
  });
});

describe('S6 settings: tools', () => {
  it('S6 tools grouped by source file carry enabled and description, group files their group description', async () => {
    await boot();
    const sources = (await api('GET', '/api/tools')).body.sources as {
      fileName: string;
      group?: string;
      description?: string;
      tools: { name: string; description: string; enabled: boolean }[];
      problems: unknown[];
    }[];
    for (const source of sources) {
      for (const tool of source.tools) expect(tool).toEqual(expect.objectContaining({ enabled: true, description: expect.any(String) }));
      expect(source.tools.every((t) => t.description.length > 0)).toBe(true);
    }
    const gmail = sources.find((s) => s.fileName === 'google_gmail.js');
    const groups = (await api('GET', '/api/tool-groups')).body.groups as { name: string; description: string }[];
    expect(gmail?.description).toBe(groups.find((g) => g.name === 'google_gmail')?.description);
    expect(gmail?.description).not.toBe('');
    // A single-tool file is no group: it has no group description.
    expect(sources.find((s) => s.fileName === 'get_current_time.js')).not.toHaveProperty('description');
    expect(sources.find((s) => s.fileName === 'built-in')).not.toHaveProperty('description');
  });

  it('S6 a tool and a group switched off here vanish from the next model request and stay off after a restart; typed errors', async () => {
    await boot();
    expect((await api('PUT', '/api/tools/get_current_time/enabled', { enabled: false }, { 'idempotency-key': 'clock-off' })).status).toBe(204);
    expect((await api('PUT', '/api/tools/get_current_time/enabled', { enabled: false }, { 'idempotency-key': 'clock-off' })).status).toBe(204);
    expect((await api('PUT', '/api/tool-groups/google_gmail/enabled', { enabled: false })).status).toBe(204);

    const tool = (name: string) =>
      api('GET', '/api/tools').then((r) => (r.body.sources as { tools: { name: string; enabled: boolean }[] }[]).flatMap((s) => s.tools).find((t) => t.name === name));
    expect(await tool('get_current_time')).toMatchObject({ enabled: false });
    expect(await tool('gmail_search')).toMatchObject({ enabled: false });
    expect((await api('GET', '/api/tool-groups')).body.groups.find((g: { name: string }) => g.name === 'google_gmail')).toMatchObject({ enabled: false });

    await api('POST', '/api/sessions', { sessionId: 'tools-off' });
    envModel.enqueue(fakeReply.text('ok'));
    await api('POST', '/api/sessions/tools-off/messages', { text: 'hi' });
    const sent = ((chatRequests(envModel).at(-1)?.body as { tools: { name: string }[] }).tools ?? []).map((t) => t.name);
    expect(sent).toContain('load_tool_group');
    expect(sent).not.toContain('get_current_time');

    expectProblem(await api('PUT', '/api/tools/no_such_tool/enabled', { enabled: false }), 404, 'tool_not_found');
    expectProblem(await api('PUT', '/api/tools/google_gmail/enabled', { enabled: false }), 404, 'tool_not_found');
    expectProblem(await api('PUT', '/api/tool-groups/no_such_group/enabled', { enabled: false }), 404, 'group_not_found');
    expectProblem(await api('PUT', '/api/tools/load_tool_group/enabled', { enabled: false }), 409, 'cannot_disable');
    expectProblem(await api('PUT', '/api/tool-groups/config/enabled', { enabled: false }), 409, 'cannot_disable');
    expectProblem(await api('PUT', '/api/tools/get_current_time/enabled', { enabled: 'no' }), 400, 'invalid_body');
    expectProblem(await api('PUT', '/api/tools/get_current_time/enabled', {}), 400, 'invalid_body');
    expectProblem(await api('PUT', '/api/tools/get_current_time/enabled', { enabled: true, type: 'group' }), 400, 'invalid_body');

    const events = await configEvents();
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['ToolEnablementChanged', { name: 'get_current_time', target: 'tool', enabled: false }],
      ['ToolEnablementChanged', { name: 'google_gmail', target: 'group', enabled: false }],
    ]);

    await restart();
    expect(await tool('get_current_time')).toMatchObject({ enabled: false });
    expect((await api('GET', '/api/tool-groups')).body.groups.find((g: { name: string }) => g.name === 'google_gmail')).toMatchObject({ enabled: false });
    expect((await api('PUT', '/api/tools/get_current_time/enabled', { enabled: true })).status).toBe(204);
    expect(await tool('get_current_time')).toMatchObject({ enabled: true });
  });

  it('S6 schema tokens: core is what a fresh session sends, all is what a session with every group sends, in the default provider format', async () => {
    await boot();
    const listed = await api('GET', '/api/tool-groups');
    expect(listed.status).toBe(200);
    const { groups, schemaTokens } = listed.body as {
      groups: { name: string; schemaTokens: number; toolNames: string[] }[];
      schemaTokens: { format: string; core: number; all: number };
    };
    expect(schemaTokens.format).toBe('anthropic');
    for (const g of groups) expect(g.schemaTokens).toBeGreaterThan(0);
    expect(schemaTokens.all).toBeGreaterThan(schemaTokens.core);
    expect(schemaTokens.core).toBeGreaterThan(0);

    const modelRequested = async (sessionId: string) =>
      (await api('GET', `/api/sessions/${sessionId}/events`)).body.events.filter((e: RecordedEvent) => e.type === 'ModelRequested').at(-1)?.data as { schemaTokens: number };

    await api('POST', '/api/sessions', { sessionId: 'fresh' });
    envModel.enqueue(fakeReply.text('ok'));
    await api('POST', '/api/sessions/fresh/messages', { text: 'hi' });
    expect((await modelRequested('fresh')).schemaTokens).toBe(schemaTokens.core);

    await api('POST', '/api/sessions', { sessionId: 'everything' });
    for (const g of groups) expect((await api('POST', '/api/sessions/everything/tool-groups', { groupName: g.name })).status).toBe(200);
    envModel.enqueue(fakeReply.text('ok'));
    await api('POST', '/api/sessions/everything/messages', { text: 'hi' });
    expect((await modelRequested('everything')).schemaTokens).toBe(schemaTokens.all);

    // A group's figure is its tools' schemas alone: a session with core and that group sends about core + group.
    const gmail = groups.find((g) => g.name === 'google_gmail') as { schemaTokens: number };
    await api('POST', '/api/sessions', { sessionId: 'gmail' });
    await api('POST', '/api/sessions/gmail/tool-groups', { groupName: 'google_gmail' });
    envModel.enqueue(fakeReply.text('ok'));
    await api('POST', '/api/sessions/gmail/messages', { text: 'hi' });
    expect(Math.abs((await modelRequested('gmail')).schemaTokens - (schemaTokens.core + gmail.schemaTokens))).toBeLessThanOrEqual(3);

    // A disabled group leaves `all`; the format follows the default model's provider.
    await api('PUT', '/api/tool-groups/google_gmail/enabled', { enabled: false });
    const fewer = (await api('GET', '/api/tool-groups')).body.schemaTokens as { all: number };
    expect(fewer.all).toBeLessThan(schemaTokens.all);
    const local = await api('POST', '/api/providers', { name: 'Local', kind: 'openai', apiBaseUrl: localModel.url, apiKey: LOCAL_KEY });
    await api('POST', `/api/providers/${local.body.providerId}/models`, { modelId: 'llama3.1:8b' });
    await api('PUT', '/api/default-model', { providerId: local.body.providerId, modelId: 'llama3.1:8b' });
    const openai = (await api('GET', '/api/tool-groups')).body.schemaTokens as { format: string; core: number };
    expect(openai.format).toBe('openai');
    expect(openai.core).not.toBe(schemaTokens.core);
  });
});

describe('S6 static web UI', () => {
  it('S6 without a built UI, GET / is 404 web_ui_not_built saying to run pnpm build; /api is unaffected; once built it is served with no-cache and the CSP', async () => {
    const webDir = tempDir('oneclaw-web-empty-');
    await boot({ ONECLAW_WEB_DIR: webDir });
    const url = server?.url as string;
    const missing = await fetch(`${url}/`);
    const problem = (await missing.json()) as { code: string; detail: string; status: number };
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('application/problem+json');
    expect(problem).toMatchObject({ status: 404, code: 'web_ui_not_built' });
    expect(problem.detail).toContain('pnpm build');
    expect(problem.detail).toContain('ONECLAW_WEB_DIR');
    expect(problem.detail).not.toContain(webDir);
    expect(missing.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);

    expect((await api('GET', '/api/sessions')).status).toBe(200);
    expectProblem(await api('GET', '/api/nothing-here'), 404, 'not_found');
    expect((await fetch(`${url}/api/sessions`)).status).toBe(401);

    // Built while the server runs: served at once, no restart.
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>OneClaw test UI</title><p id="late">built later</p>');
    const served = await fetch(`${url}/`);
    expect(served.status).toBe(200);
    expect(await served.text()).toContain('built later');
  });

  it('S6 a built UI is served at / with Cache-Control: no-cache and the CSP header', async () => {
    const webDir = tempDir('oneclaw-web-built-');
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>OneClaw test UI</title><main id="settings-test">marker-6c1f</main>');
    await boot({ ONECLAW_WEB_DIR: webDir });
    const page = await fetch(`${server?.url as string}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<main id="settings-test">marker-6c1f</main>');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect((await api('GET', '/api/tools')).status).toBe(200);
  });
});

describe('S6 OpenAPI', () => {
  it('S6 the OpenAPI description lists the settings routes', async () => {
    await boot();
    const doc = (await api('GET', '/api/docs/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/providers',
        '/api/providers/{id}',
        '/api/providers/{id}/models/fetch',
        '/api/providers/{id}/models',
        '/api/providers/{id}/models/{modelId}',
        '/api/default-model',
        '/api/agents',
        '/api/agents/{id}',
        '/api/tools/{name}/enabled',
        '/api/tool-groups/{name}/enabled',
      ]),
    );
    expect(Object.keys(doc.paths['/api/providers'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/api/agents/{id}'] ?? {}).sort()).toEqual(['delete', 'patch']);
    expect(Object.keys(doc.paths['/api/providers/{id}/models/{modelId}'] ?? {}).sort()).toEqual(['delete', 'patch']);
  });
});
