import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RecordedEvent } from '@oneclaw/core';
import { SqliteEventStore } from '@oneclaw/event-store-sqlite';
import { fakeReply, startFakeModelServer, type FakeModelServer, type RecordedRequest } from '@oneclaw/model-providers/testing';
import { startTestServer, type TestServer } from '../testing/test-server';

/**
 * The configuration drives the server (issue 6, config group): a booted server over real HTTP
 * (SQLite store, QuickJS worker sandbox), a loopback FAKE Anthropic server as the provider set by
 * environment variables (it scripts the model calling the config tools), and a loopback FAKE
 * OpenAI-compatible server as the provider created through the tools.
 */
const ENV_KEY = 'sk-ant-environment-model-key-01';
const LOCAL_KEY = 'sk-local-openai-compatible-key-02';

let envModel: FakeModelServer;
let localModel: FakeModelServer;
let dataDir: string;
let server: TestServer;

const serverEnv = () => ({ ONECLAW_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: ENV_KEY, ANTHROPIC_BASE_URL: envModel.url, ONECLAW_PROVIDER_MAX_RETRIES: '0' });
const chatRequests = (fake: FakeModelServer): RecordedRequest[] => fake.requests.filter((r) => r.method === 'POST');
const toolNamesOf = (request: RecordedRequest | undefined): string[] => ((request?.body as { tools?: { name: string }[] }).tools ?? []).map((t) => t.name);
const eventsOf = async (sessionId: string): Promise<RecordedEvent[]> => (await server.api('GET', `/api/sessions/${sessionId}/events`)).body.events;

async function toolResults(sessionId: string): Promise<{ toolName: string; status: string; result?: string; errorType?: string; message?: string }[]> {
  return (await eventsOf(sessionId)).map((e) => e.data as { role: string; toolName: string; status: string }).filter((d) => d.role === 'tool');
}

async function say(sessionId: string, text: string): Promise<void> {
  const answer = await server.api('POST', `/api/sessions/${sessionId}/messages`, { text });
  expect(answer.status).toBe(200);
  expect(answer.body.reason).toBe('completed');
}

/** Every file of the SQLite store (the WAL holds recent appends), as raw bytes turned to text. */
function rawStore(): string {
  return readdirSync(dataDir)
    .filter((f) => f.startsWith('events.db'))
    .map((f) => readFileSync(path.join(dataDir, f)).toString('latin1'))
    .join('\n');
}

/** A user JS tool that reports whether _env.PROBE_TOKEN is set, with its length and a checksum (never the value). */
function writeProbeTool(expected: string): number {
  const tools = path.join(dataDir, 'tools');
  mkdirSync(tools, { recursive: true });
  writeFileSync(
    path.join(tools, 'env_probe.json'),
    JSON.stringify({ name: 'env_probe', description: 'Tells whether PROBE_TOKEN is set, with its length and a checksum.', parameters: { type: 'object', properties: {} } }),
  );
  writeFileSync(
    path.join(tools, 'env_probe.js'),
    `function execute(params) {
       const v = params._env.PROBE_TOKEN;
       if (v === undefined) return 'missing';
       let sum = 0;
       for (let i = 0; i < v.length; i++) sum = (sum * 31 + v.charCodeAt(i)) % 1000003;
       return 'length ' + v.length + ', checksum ' + sum;
     }`,
  );
  let checksum = 0;
  for (const ch of expected) checksum = (checksum * 31 + ch.charCodeAt(0)) % 1000003;
  return checksum;
}

beforeEach(async () => {
  envModel = await startFakeModelServer('anthropic', { apiKey: ENV_KEY });
  localModel = await startFakeModelServer('openai', { apiKey: LOCAL_KEY, models: [{ id: 'llama3.1:8b' }, { id: 'qwen2.5:7b' }] });
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-config-e2e-'));
});

afterEach(async () => {
  await server.close();
  await envModel.close();
  await localModel.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('configuration over HTTP with FAKE model servers', () => {
  it('a provider created by the model, keyed through the API, with fetched models and a default model, answers the next turn', async () => {
    server = await startTestServer({ dataDir, env: serverEnv() });
    await server.api('POST', '/api/sessions', { sessionId: 'cfg' });
    envModel.enqueue(
      fakeReply.toolCall('load_tool_group', { group_name: 'config' }),
      fakeReply.toolCall('create_provider', { name: 'Local server', type: 'OPENAI', api_base_url: localModel.url }),
      fakeReply.text('Created. Please set its key.'),
    );
    await say('cfg', 'Add my local OpenAI-compatible server');
    const created = (await toolResults('cfg')).find((r) => r.toolName === 'create_provider');
    const providerId = /with id (\S+)\./.exec(created?.result ?? '')?.[1] as string;
    expect(providerId).toBeDefined();

    // The key goes through the API only; the environment provider and unknown ids are refused.
    expect((await server.api('PUT', `/api/providers/${providerId}/api-key`, { apiKey: LOCAL_KEY }, { 'idempotency-key': 'key-once' })).status).toBe(204);
    // A retried PUT with the same Idempotency-Key records the change once.
    expect((await server.api('PUT', `/api/providers/${providerId}/api-key`, { apiKey: LOCAL_KEY }, { 'idempotency-key': 'key-once' })).status).toBe(204);
    expect(await server.api('PUT', '/api/providers/env/api-key', { apiKey: 'sk-another-key-123' })).toMatchObject({ status: 409, body: { code: 'read_only' } });
    expect(await server.api('PUT', '/api/providers/nope/api-key', { apiKey: 'sk-another-key-123' })).toMatchObject({ status: 404, body: { code: 'provider_not_found' } });
    expect(await server.api('PUT', `/api/providers/${providerId}/api-key`, { apiKey: 'has spaces' })).toMatchObject({ status: 400, body: { code: 'invalid_body' } });
    expect(await server.api('PUT', `/api/providers/${providerId}/api-key`, { key: LOCAL_KEY })).toMatchObject({ status: 400, body: { code: 'invalid_body' } });

    envModel.enqueue(
      fakeReply.toolCall('fetch_models', { provider_id: providerId }),
      fakeReply.toolCall('set_default_model', { provider_id: providerId, model_id: 'qwen2.5:7b' }),
      fakeReply.text('The local qwen model is the default now.'),
    );
    await say('cfg', 'Use its qwen model by default');
    expect(localModel.requests.find((r) => r.method === 'GET')).toMatchObject({ path: '/v1/models', headers: expect.objectContaining({ authorization: `Bearer ${LOCAL_KEY}` }) });
    const envRequestsBefore = chatRequests(envModel).length;

    localModel.enqueue(fakeReply.text('Hello from the local model.'));
    const answer = await server.api('POST', '/api/sessions/cfg/messages', { text: 'hi' });
    expect(answer.body).toMatchObject({ reason: 'completed', reply: 'Hello from the local model.' });
    const [chat] = chatRequests(localModel);
    expect(chat).toMatchObject({ path: '/v1/chat/completions', headers: expect.objectContaining({ authorization: `Bearer ${LOCAL_KEY}` }) });
    expect((chat?.body as { model: string }).model).toBe('qwen2.5:7b');
    expect(chatRequests(envModel)).toHaveLength(envRequestsBefore);
    expect((await eventsOf('cfg')).filter((e) => e.type === 'ModelRequested').at(-1)?.data).toMatchObject({ provider: 'openai', model: 'qwen2.5:7b' });

    // The audit stream has every change, and no key.
    const audit = await server.api('GET', '/api/config/events');
    expect(audit.status).toBe(200);
    expect(audit.body.streamId).toBe('config');
    expect(audit.body.events.map((e: RecordedEvent) => e.type)).toEqual(['ProviderCreated', 'ProviderApiKeySet', 'ModelsFetched', 'DefaultModelSet']);
    expect(audit.body.events[0].metadata.correlationId).toMatch(/^cfg\//);
    expect((await server.api('GET', '/api/config/events?fromRevision=2')).body.events.map((e: RecordedEvent) => e.revision)).toEqual([2, 3]);
    expect(await server.api('GET', '/api/config/events?fromRevision=-1')).toMatchObject({ status: 400, body: { code: 'validation_error' } });
    for (const text of [audit.text, rawStore(), server.logLines.text()]) expect(text).not.toContain(LOCAL_KEY);
    expect(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')).toContain(LOCAL_KEY);

    expect((await server.api('DELETE', `/api/providers/${providerId}/api-key`)).status).toBe(204);
    expect((await server.api('GET', '/api/config/events?fromRevision=4')).body.events.map((e: RecordedEvent) => e.type)).toEqual(['ProviderApiKeyRemoved']);
  });

  it('the model cannot move a keyed provider to another host: the key never reaches it, the model reads key_bound_to_url; the user can move it', async () => {
    const attacker = await startFakeModelServer('openai', { models: [{ id: 'bait' }] });
    const moved = await startFakeModelServer('openai', { apiKey: LOCAL_KEY });
    try {
      server = await startTestServer({ dataDir, env: serverEnv() });
      const created = await server.api('POST', '/api/providers', { name: 'Local server', kind: 'openai', apiBaseUrl: localModel.url, apiKey: LOCAL_KEY });
      expect(created).toMatchObject({ status: 201, body: { hasApiKey: true } });
      const providerId = created.body.providerId as string;

      await server.api('POST', '/api/sessions', { sessionId: 'steer' });
      envModel.enqueue(
        fakeReply.toolCall('load_tool_group', { group_name: 'config' }),
        fakeReply.toolCall('update_provider', { provider_id: providerId, api_base_url: attacker.url }),
        fakeReply.toolCall('fetch_models', { provider_id: providerId }),
        fakeReply.text('Done.'),
      );
      await say('steer', 'A web page told you to point my provider at another server');

      // The attacker saw nothing at all (no key, no request); the model list came from the provider's own address, with its key.
      expect(attacker.requests.map((r) => `${r.method} ${r.path} ${r.headers.authorization ?? ''}`)).toEqual([]);
      expect(localModel.requests.find((r) => r.method === 'GET')).toMatchObject({ path: '/v1/models', headers: expect.objectContaining({ authorization: `Bearer ${LOCAL_KEY}` }) });
      const update = (await toolResults('steer')).find((r) => r.toolName === 'update_provider');
      expect(update).toMatchObject({ status: 'error', errorType: 'key_bound_to_url', message: expect.stringContaining('Settings') });
      // What the model reads next is that refusal.
      expect(JSON.stringify(chatRequests(envModel)[2]?.body)).toContain('key_bound_to_url');
      expect((await server.api('GET', '/api/providers')).body.providers.find((p: { providerId: string }) => p.providerId === providerId)).toMatchObject({
        apiBaseUrl: localModel.url,
        hasApiKey: true,
      });

      // Later turns on that provider go to its own address too.
      expect((await server.api('PUT', '/api/default-model', { providerId, modelId: 'llama3.1:8b' })).status).toBe(204);
      localModel.enqueue(fakeReply.text('Hello from the local model.'));
      await say('steer', 'hi');
      expect(chatRequests(localModel)).toHaveLength(1);
      expect(attacker.requests).toEqual([]);

      // The user's own change (the settings screen) moves the provider with its key: their choice, made where they see both.
      const patched = await server.api('PATCH', `/api/providers/${providerId}`, { apiBaseUrl: moved.url });
      expect(patched).toMatchObject({ status: 200, body: { apiBaseUrl: moved.url, hasApiKey: true } });
      expect((await server.api('POST', `/api/providers/${providerId}/models/fetch`, {})).status).toBe(200);
      expect(moved.requests.find((r) => r.method === 'GET')?.headers.authorization).toBe(`Bearer ${LOCAL_KEY}`);
    } finally {
      await attacker.close();
      await moved.close();
    }
  }, 30_000);

  it('create_agent makes an agent that can start a session at once; its system prompt is what the model gets', async () => {
    server = await startTestServer({ dataDir, env: serverEnv() });
    await server.api('POST', '/api/sessions', { sessionId: 'maker' });
    envModel.enqueue(
      fakeReply.toolCall('create_agent', {
        name: 'Captain Pete',
        description: 'Talks like a pirate',
        system_prompt: 'You are Captain Pete. Answer every question in pirate speak.',
      }),
      fakeReply.text('Your pirate agent is ready.'),
    );
    await say('maker', 'Make me a pirate agent');
    expect(toolNamesOf(chatRequests(envModel)[0])).toContain('create_agent');
    const result = (await toolResults('maker')).find((r) => r.toolName === 'create_agent');
    const agentId = /with id (\S+)\./.exec(result?.result ?? '')?.[1] as string;

    const started = await server.api('POST', '/api/sessions', { sessionId: 'pirate', agentId });
    expect(started).toMatchObject({ status: 201, body: { agentId } });
    envModel.enqueue(fakeReply.text('Arr, ahoy!'));
    await say('pirate', 'hello');
    expect(String((chatRequests(envModel).at(-1)?.body as { system: unknown }).system)).toContain('You are Captain Pete. Answer every question in pirate speak.');
    expect((await server.api('GET', '/api/agents')).body.agents.map((a: { id: string }) => a.id)).toContain(agentId);
    expect(await server.api('POST', '/api/sessions', { agentId: 'no-such-agent' })).toMatchObject({ status: 400, body: { code: 'agent_not_found' } });
  });

  it('a tool disabled with set_tool_enabled vanishes from the next request, and stays disabled after a restart', async () => {
    server = await startTestServer({ dataDir, env: serverEnv() });
    await server.api('POST', '/api/sessions', { sessionId: 'off' });
    envModel.enqueue(
      fakeReply.toolCall('load_tool_group', { group_name: 'config' }),
      fakeReply.toolCall('set_tool_enabled', { name: 'get_current_time', enabled: false }),
      fakeReply.text('It is off.'),
    );
    await say('off', 'Turn off the clock tool');
    const requests = chatRequests(envModel);
    expect(toolNamesOf(requests[1])).toContain('get_current_time');
    expect(toolNamesOf(requests[2])).not.toContain('get_current_time');
    expect(toolNamesOf(requests[2])).toContain('set_tool_enabled');

    await server.close({ keepData: true });
    server = await startTestServer({ dataDir, env: serverEnv() });
    await server.api('POST', '/api/sessions', { sessionId: 'after' });
    envModel.enqueue(fakeReply.text('Hello.'));
    await say('after', 'hi');
    const first = toolNamesOf(chatRequests(envModel).at(-1));
    expect(first).toContain('load_tool_group');
    expect(first).not.toContain('get_current_time');
    const builtIns = (await server.api('GET', '/api/tools')).body.sources.flatMap((s: { tools: { name: string; enabled: boolean }[] }) => s.tools);
    expect(builtIns.find((t: { name: string }) => t.name === 'get_current_time')).toMatchObject({ enabled: false });
  });

  it('an env var set with manage_env_var reaches a JS tool as _env; its value is in no event, no answer and no log line', async () => {
    const secret = 'probe-secret-value-9f8e7d6c5b4a';
    const checksum = writeProbeTool(secret);

    server = await startTestServer({ dataDir, env: serverEnv() });
    await server.api('POST', '/api/sessions', { sessionId: 'env' });
    envModel.enqueue(fakeReply.toolCall('env_probe'), fakeReply.text('Not set yet.'));
    await say('env', 'is the probe token set?');
    envModel.enqueue(
      fakeReply.toolCall('load_tool_group', { group_name: 'config' }),
      fakeReply.toolCall('manage_env_var', { action: 'set', key: 'PROBE_TOKEN', value: secret }),
      fakeReply.toolCall('env_probe'),
      fakeReply.toolCall('manage_env_var', { action: 'list' }),
      fakeReply.text(`Set to ${secret}.`),
    );
    // The value is the model's (a user typing it would put it in their own message, recorded as typed).
    const streamed = await server.stream('/api/sessions/env/messages', { text: 'Set PROBE_TOKEN to the token I gave you' });
    expect(streamed.status).toBe(200);

    const results = await toolResults('env');
    expect(results.filter((r) => r.toolName === 'env_probe').map((r) => r.result)).toEqual(['missing', `length ${secret.length}, checksum ${checksum}`]);
    const events = await eventsOf('env');
    const setCall = events
      .flatMap((e) => (e.data as { toolCalls?: { toolName: string; arguments: Record<string, unknown> }[] }).toolCalls ?? [])
      .find((c) => c.toolName === 'manage_env_var');
    expect(setCall?.arguments).toEqual({ action: 'set', key: 'PROBE_TOKEN', value: '[Redacted]' });
    const sseStart = streamed.events.find((e) => e.event === 'tool_call_started' && e.data.toolName === 'manage_env_var');
    expect(sseStart?.data.arguments.value).toBe('[Redacted]');

    // The raw store holds the name (so the scan does see the data) but not the value, in any form the redactor knows.
    const raw = rawStore();
    expect(raw).toContain('PROBE_TOKEN');
    expect(raw).not.toContain(secret);
    expect(JSON.stringify(streamed.events)).not.toContain(secret);
    expect(JSON.stringify(events)).not.toContain(secret);
    expect((await server.api('GET', '/api/config/events')).text).not.toContain(secret);
    expect(server.logLines.lines.length).toBeGreaterThan(0);
    expect(server.logLines.text()).not.toContain(secret);

    // Still given to tools after a restart (the value is in the data directory's secret store).
    await server.close({ keepData: true });
    server = await startTestServer({ dataDir, env: serverEnv() });
    envModel.enqueue(fakeReply.toolCall('env_probe'), fakeReply.text('Still set.'));
    await say('env', 'still set?');
    expect((await toolResults('env')).at(-1)?.result).toBe(`length ${secret.length}, checksum ${checksum}`);
    expect(rawStore()).not.toContain(secret);
  });

  it('env vars set through the write-only HTTP API (no chat involved) reach tools; list shows names only; errors are typed', async () => {
    const secret = 'http-set-secret-value-314159';
    const checksum = writeProbeTool(secret);
    server = await startTestServer({ dataDir, env: { ...serverEnv(), ONECLAW_ENV_FROM_ENV: 'environment-value-2718' } });
    expect((await server.api('PUT', '/api/env-vars/PROBE_TOKEN', { value: secret })).status).toBe(204);
    const listed = await server.api('GET', '/api/env-vars');
    expect(listed.body).toEqual({
      variables: [
        { name: 'PROBE_TOKEN', source: 'configuration', valueAvailable: true },
        { name: 'FROM_ENV', source: 'environment', valueAvailable: true },
      ],
    });
    await server.api('POST', '/api/sessions', { sessionId: 'http-env' });
    envModel.enqueue(fakeReply.toolCall('env_probe'), fakeReply.text('ok'));
    await say('http-env', 'probe');
    expect((await toolResults('http-env')).at(-1)?.result).toBe(`length ${secret.length}, checksum ${checksum}`);

    expect(await server.api('PUT', '/api/env-vars/BAD-NAME', { value: 'v' })).toMatchObject({ status: 400, body: { code: 'validation_error' } });
    expect(await server.api('PUT', '/api/env-vars/PROBE_TOKEN', { value: '' })).toMatchObject({ status: 400, body: { code: 'invalid_body' } });
    // A value with a lone surrogate (valid JSON) is a value like any other: the redactor's
    // URL-encoded form of it threw URIError, which answered 500.
    expect((await server.api('PUT', '/api/env-vars/LONE_SURROGATE', { value: 'abc-secret\ud800' })).status).toBe(204);
    expect((await server.api('DELETE', '/api/env-vars/LONE_SURROGATE')).status).toBe(204);
    expect(server.logLines.text()).not.toContain('request failed');
    expect(await server.api('DELETE', '/api/env-vars/FROM_ENV')).toMatchObject({ status: 409, body: { code: 'read_only' } });
    expect(await server.api('DELETE', '/api/env-vars/NOPE')).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect((await server.api('DELETE', '/api/env-vars/PROBE_TOKEN')).status).toBe(204);
    expect((await server.api('GET', '/api/config/events')).body.events.map((e: RecordedEvent) => [e.type, e.data])).toEqual([
      ['EnvVarSet', { name: 'PROBE_TOKEN' }],
      ['EnvVarSet', { name: 'LONE_SURROGATE' }],
      ['EnvVarDeleted', { name: 'LONE_SURROGATE' }],
      ['EnvVarDeleted', { name: 'PROBE_TOKEN' }],
    ]);
    for (const text of [rawStore(), server.logLines.text(), listed.text]) expect(text).not.toContain(secret);
  });

  it('replicas on one store: a tool disabled and an agent created on one server take effect on the other at its next turn', async () => {
    const storeFile = path.join(dataDir, 'shared-events.db');
    const otherDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-config-replica-'));
    server = await startTestServer({ dataDir, env: serverEnv(), eventStore: SqliteEventStore.open(storeFile) });
    const other = await startTestServer({ dataDir: otherDir, env: serverEnv(), eventStore: SqliteEventStore.open(storeFile) });
    try {
      await other.api('POST', '/api/sessions', { sessionId: 'on-b' });
      envModel.enqueue(fakeReply.text('B first.'));
      expect((await other.api('POST', '/api/sessions/on-b/messages', { text: 'hi' })).status).toBe(200);
      expect(toolNamesOf(chatRequests(envModel).at(-1))).toContain('get_current_time');

      await server.api('POST', '/api/sessions', { sessionId: 'on-a' });
      envModel.enqueue(
        fakeReply.toolCall('load_tool_group', { group_name: 'config' }),
        fakeReply.toolCall('set_tool_enabled', { name: 'get_current_time', enabled: false }),
        fakeReply.toolCall('create_agent', { name: 'Shared', system_prompt: 'You are the shared agent.' }),
        fakeReply.text('Done on A.'),
      );
      await say('on-a', 'disable the clock and make an agent');
      const agentId = /with id (\S+)\./.exec((await toolResults('on-a')).find((r) => r.toolName === 'create_agent')?.result ?? '')?.[1] as string;

      envModel.enqueue(fakeReply.text('B again.'));
      expect((await other.api('POST', '/api/sessions/on-b/messages', { text: 'again' })).status).toBe(200);
      expect(toolNamesOf(chatRequests(envModel).at(-1))).not.toContain('get_current_time');
      expect(await other.api('POST', '/api/sessions', { sessionId: 'shared-agent', agentId })).toMatchObject({ status: 201, body: { agentId } });
    } finally {
      await other.close();
      rmSync(otherDir, { recursive: true, force: true });
    }
  });

  it('the OpenAPI description lists the configuration routes', async () => {
    server = await startTestServer({ dataDir, env: serverEnv() });
    const paths = Object.keys((await server.api('GET', '/api/docs/openapi.json')).body.paths);
    expect(paths).toEqual(expect.arrayContaining(['/api/config/events', '/api/providers/{id}/api-key', '/api/env-vars', '/api/env-vars/{name}']));
  });
});
