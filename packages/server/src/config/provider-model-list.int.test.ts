import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fakeReply, startFakeModelServer, type FakeModelServer } from '@oneclaw/model-providers/testing';
import { fetchProviderModels } from './provider-model-list';

const KEY = 'sk-model-list-key-0123456789';
const signal = () => new AbortController().signal;
let fake: FakeModelServer | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('fetchProviderModels against the FAKE model servers (real wire shapes)', () => {
  it('OpenAI-compatible: GET {base}/models with the Bearer key', async () => {
    fake = await startFakeModelServer('openai', { apiKey: KEY, models: [{ id: 'llama3.1:8b' }, { id: 'qwen2.5' }] });
    const models = await fetchProviderModels({ providerId: 'p', kind: 'openai', baseUrl: fake.url, apiKey: KEY }, signal());
    expect(models).toEqual([{ modelId: 'llama3.1:8b' }, { modelId: 'qwen2.5' }]);
    expect(fake.requests).toEqual([expect.objectContaining({ method: 'GET', path: '/v1/models', headers: expect.objectContaining({ authorization: `Bearer ${KEY}` }) })]);
  });

  it('OpenAI-compatible: a local server needs no key', async () => {
    fake = await startFakeModelServer('openai');
    await expect(fetchProviderModels({ providerId: 'p', kind: 'openai', baseUrl: fake.url }, signal())).resolves.toHaveLength(3);
    expect(fake.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('Anthropic: GET /v1/models with x-api-key and anthropic-version, following has_more pages', async () => {
    const many = Array.from({ length: 1203 }, (_, i) => ({ id: `claude-test-${i}`, displayName: `Claude Test ${i}` }));
    fake = await startFakeModelServer('anthropic', { apiKey: KEY, models: many });
    const models = await fetchProviderModels({ providerId: 'p', kind: 'anthropic', baseUrl: fake.url, apiKey: KEY }, signal());
    expect(models).toHaveLength(1203);
    expect(models[1202]).toEqual({ modelId: 'claude-test-1202', displayName: 'Claude Test 1202' });
    expect(fake.requests.map((r) => r.path)).toEqual(['/v1/models?limit=1000', '/v1/models?limit=1000&after_id=claude-test-999']);
    expect(fake.requests[0]?.headers).toMatchObject({ 'x-api-key': KEY, 'anthropic-version': '2023-06-01' });
  });

  it('Gemini: GET /v1beta/models with x-goog-api-key, only models that can generateContent, without the models/ prefix', async () => {
    fake = await startFakeModelServer('gemini', { apiKey: KEY });
    const models = await fetchProviderModels({ providerId: 'p', kind: 'gemini', baseUrl: fake.url, apiKey: KEY }, signal());
    expect(models).toEqual([
      { modelId: 'gemini-2.5-flash', displayName: 'Gemini 2.5 Flash', contextWindowTokens: 1_048_576 },
      { modelId: 'gemini-2.5-pro', displayName: 'Gemini 2.5 Pro', contextWindowTokens: 1_048_576 },
    ]);
    expect(fake.requests[0]).toMatchObject({ path: '/v1beta/models?pageSize=1000', headers: expect.objectContaining({ 'x-goog-api-key': KEY }) });
    expect(fake.requests[0]?.path).not.toContain(KEY);
  });

  it('Gemini: follows nextPageToken pages', async () => {
    const many = Array.from({ length: 1001 }, (_, i) => ({ id: `gemini-test-${i}` }));
    fake = await startFakeModelServer('gemini', { apiKey: KEY, models: many });
    const models = await fetchProviderModels({ providerId: 'p', kind: 'gemini', baseUrl: fake.url, apiKey: KEY }, signal());
    expect(models.map((m) => m.modelId)).toEqual(many.map((m) => m.id));
    expect(fake.requests.map((r) => r.path)).toEqual(['/v1beta/models?pageSize=1000', '/v1beta/models?pageSize=1000&pageToken=1000']);
  });

  it('keeps the context window where the list states it: Gemini inputTokenLimit, Anthropic max_input_tokens, OpenRouter context_length', async () => {
    fake = await startFakeModelServer('gemini', { apiKey: KEY, models: [{ id: 'gemini-small', contextWindow: 32_768 }] });
    expect(await fetchProviderModels({ providerId: 'p', kind: 'gemini', baseUrl: fake.url, apiKey: KEY }, signal())).toEqual([
      { modelId: 'gemini-small', displayName: 'gemini-small', contextWindowTokens: 32_768 },
    ]);
    await fake.close();
    fake = await startFakeModelServer('anthropic', { apiKey: KEY, models: [{ id: 'claude-new', displayName: 'Claude New', contextWindow: 1_000_000 }, { id: 'claude-old' }] });
    expect(await fetchProviderModels({ providerId: 'p', kind: 'anthropic', baseUrl: fake.url, apiKey: KEY }, signal())).toEqual([
      { modelId: 'claude-new', displayName: 'Claude New', contextWindowTokens: 1_000_000 },
      { modelId: 'claude-old', displayName: 'claude-old' },
    ]);
    await fake.close();
    fake = await startFakeModelServer('openai', { models: [{ id: 'meta-llama/llama-3.1-8b-instruct', contextWindow: 131_072 }, { id: 'gpt-4o' }] });
    expect(await fetchProviderModels({ providerId: 'p', kind: 'openai', baseUrl: fake.url }, signal())).toEqual([
      { modelId: 'meta-llama/llama-3.1-8b-instruct', contextWindowTokens: 131_072 },
      { modelId: 'gpt-4o' },
    ]);
  });

  it('OpenAI-compatible servers name the window each their own way (Groq, Mistral, vLLM); an implausible figure is left out', async () => {
    const list = {
      object: 'list',
      data: [
        { id: 'llama-3.3-70b-versatile', object: 'model', owned_by: 'Meta', active: true, context_window: 131_072 },
        { id: 'mistral-large-latest', object: 'model', owned_by: 'mistralai', max_context_length: 128_000 },
        { id: 'Qwen/Qwen2.5-7B-Instruct', object: 'model', owned_by: 'vllm', max_model_len: 32_768 },
        { id: 'odd', object: 'model', context_length: 'lots' },
        { id: 'tiny', object: 'model', context_length: 12 },
      ],
    };
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(list));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      expect(await fetchProviderModels({ providerId: 'p', kind: 'openai', baseUrl: base }, signal())).toEqual([
        { modelId: 'llama-3.3-70b-versatile', contextWindowTokens: 131_072 },
        { modelId: 'mistral-large-latest', contextWindowTokens: 128_000 },
        { modelId: 'Qwen/Qwen2.5-7B-Instruct', contextWindowTokens: 32_768 },
        { modelId: 'odd' },
        { modelId: 'tiny' },
      ]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('listing models consumes no scripted chat reply', async () => {
    fake = await startFakeModelServer('openai', { replies: [fakeReply.text('still here')] });
    await fetchProviderModels({ providerId: 'p', kind: 'openai', baseUrl: fake.url }, signal());
    expect(fake.pendingReplies).toBe(1);
  });

  it('a wrong key is provider_auth_failed, and the key is not in the message', async () => {
    fake = await startFakeModelServer('anthropic', { apiKey: KEY });
    const failure = fetchProviderModels({ providerId: 'p', kind: 'anthropic', baseUrl: fake.url, apiKey: 'sk-wrong-key-9876543210' }, signal());
    await expect(failure).rejects.toMatchObject({ code: 'provider_auth_failed' });
    await expect(failure).rejects.not.toThrow('sk-wrong-key-9876543210');
  });

  it('an unreachable server is provider_unavailable; an answer that is not a model list is provider_bad_response', async () => {
    fake = await startFakeModelServer('openai');
    const url = fake.url;
    await fake.close();
    fake = undefined;
    await expect(fetchProviderModels({ providerId: 'p', kind: 'openai', baseUrl: url }, signal())).rejects.toMatchObject({ code: 'provider_unavailable' });

    const odd = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"models": "nope"}');
    });
    await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(odd.address() as AddressInfo).port}`;
      await expect(fetchProviderModels({ providerId: 'p', kind: 'openai', baseUrl: base }, signal())).rejects.toMatchObject({ code: 'provider_bad_response' });
      await expect(fetchProviderModels({ providerId: 'p', kind: 'gemini', baseUrl: base, apiKey: KEY }, signal())).rejects.toMatchObject({ code: 'provider_bad_response' });
    } finally {
      await new Promise<void>((resolve) => odd.close(() => resolve()));
    }
  });

  it('an aborted request (the tool timed out) is provider_cancelled', async () => {
    fake = await startFakeModelServer('openai');
    const controller = new AbortController();
    controller.abort();
    await expect(fetchProviderModels({ providerId: 'p', kind: 'openai', baseUrl: fake.url }, controller.signal)).rejects.toMatchObject({ code: 'provider_cancelled' });
  });
});
