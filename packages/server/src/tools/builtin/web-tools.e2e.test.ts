import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { RecordedEvent } from '@oneclaw/core';
import { CHROMIUM_SKIP_REASON, chromiumAvailable, serve, startLoopbackSite, type LoopbackSite } from '@oneclaw/tools-web/testing';
import { loadServerConfig } from '../../server-config';
import { startFakeModelServer, type FakeModelServer, fakeReply } from '@oneclaw/model-providers/testing';
import { startTestServer, type TestServer } from '../../testing/test-server';

/**
 * webfetch and browser through a booted server (ToolRuntime wiring, the operator settings) with a
 * loopback FAKE OpenAI model scripting the calls, against a real site on loopback.
 */
const MODEL_KEY = 'sk-test-web-tools-000111';

interface ToolMessage {
  readonly role: string;
  readonly toolName?: string;
  readonly status?: string;
  readonly result?: string;
  readonly errorType?: string;
}

async function toolResults(server: TestServer, sessionId: string): Promise<ToolMessage[]> {
  const events = (await server.api('GET', `/api/sessions/${sessionId}/events`)).body.events as RecordedEvent[];
  return events
    .filter((e) => e.type === 'MessageSent')
    .map((e) => e.data as ToolMessage)
    .filter((m) => m.role === 'tool');
}

describe('web tools in the booted server (fake OpenAI model, real site on loopback)', () => {
  let model: FakeModelServer;
  let site: LoopbackSite;

  beforeAll(async () => {
    model = await startFakeModelServer('openai', { apiKey: MODEL_KEY });
    site = await startLoopbackSite({ '/nas': serve('text/html', '<html><head><title>My NAS</title></head><body><h1>Disks</h1><p>All 4 disks healthy.</p></body></html>') });
  });

  afterAll(async () => {
    await model.close();
    await site.close();
  });

  const env = (extra: Record<string, string> = {}) => ({ ONECLAW_PROVIDER: 'openai', OPENAI_API_KEY: MODEL_KEY, OPENAI_BASE_URL: model.url, ...extra });

  it('ONECLAW_TOOLS_ALLOW_PRIVATE_NETWORK and ONECLAW_BROWSER_PATH are read from the environment (default: private networks off, browser found on the system)', () => {
    const defaults = loadServerConfig({});
    expect(defaults.toolsAllowPrivateNetwork).toBe(false);
    expect(defaults.browserPath).toBeUndefined();
    const set = loadServerConfig({ ONECLAW_TOOLS_ALLOW_PRIVATE_NETWORK: 'true', ONECLAW_BROWSER_PATH: '/opt/chrome/chrome' });
    expect(set).toMatchObject({ toolsAllowPrivateNetwork: true, browserPath: '/opt/chrome/chrome' });
    expect(() => loadServerConfig({ ONECLAW_TOOLS_ALLOW_PRIVATE_NETWORK: 'lan' })).toThrow('ONECLAW_TOOLS_ALLOW_PRIVATE_NETWORK=lan is not valid');
  });

  it('by default the tools refuse the local network: webfetch and browser answer forbidden_url, and the site sees nothing', async () => {
    const server = await startTestServer({ env: env() });
    try {
      const tools = (await server.api('POST', '/api/sessions', { sessionId: 'web-default' })).status;
      expect(tools).toBe(201);
      model.enqueue(
        fakeReply.toolCalls({ name: 'webfetch', arguments: { url: `${site.origin}/nas` } }, { name: 'browser', arguments: { url: `${site.origin}/nas`, mode: 'extract' } }),
        fakeReply.text('I cannot reach your NAS.'),
      );
      expect((await server.api('POST', '/api/sessions/web-default/messages', { text: 'how are my disks?' })).status).toBe(200);
      const sent = model.requests.at(-2)?.body as { tools?: { function: { name: string } }[] };
      const names = (sent.tools ?? []).map((t) => t.function.name);
      expect(names).toEqual(expect.arrayContaining(['webfetch', 'browser']));
      expect(names.indexOf('webfetch')).toBeLessThan(names.indexOf('browser'));
      expect(await toolResults(server, 'web-default')).toEqual([
        expect.objectContaining({ toolName: 'webfetch', status: 'error', errorType: 'forbidden_url' }),
        expect.objectContaining({ toolName: 'browser', status: 'error', errorType: 'forbidden_url' }),
      ]);
      expect(site.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });

  (chromiumAvailable ? it : it.skip)(
    `with ONECLAW_TOOLS_ALLOW_PRIVATE_NETWORK=true, webfetch, browser (the system Chromium) and the JS http_request read a page on the local network${chromiumAvailable ? '' : ` (${CHROMIUM_SKIP_REASON})`}`,
    async () => {
      const server = await startTestServer({ env: env({ ONECLAW_TOOLS_ALLOW_PRIVATE_NETWORK: 'true' }) });
      try {
        expect((await server.api('POST', '/api/sessions', { sessionId: 'web-lan' })).status).toBe(201);
        model.enqueue(
          fakeReply.toolCalls(
            { name: 'webfetch', arguments: { url: `${site.origin}/nas` } },
            { name: 'browser', arguments: { url: `${site.origin}/nas`, mode: 'extract', wait_seconds: 0 } },
            { name: 'http_request', arguments: { url: `${site.origin}/nas` } },
          ),
          fakeReply.text('All 4 disks are healthy.'),
        );
        expect((await server.api('POST', '/api/sessions/web-lan/messages', { text: 'how are my disks?' })).status).toBe(200);
        const results = await toolResults(server, 'web-lan');
        expect(results).toEqual([
          expect.objectContaining({ toolName: 'webfetch', status: 'success', result: expect.stringContaining('# Disks\n\nAll 4 disks healthy.') }),
          expect.objectContaining({ toolName: 'browser', status: 'success', result: expect.stringContaining('# Disks\n\nAll 4 disks healthy.') }),
          expect.objectContaining({ toolName: 'http_request', status: 'success', result: expect.stringContaining('All 4 disks healthy.') }),
        ]);
        expect(site.paths().filter((p) => p === '/nas')).toHaveLength(3);
      } finally {
        await server.close();
      }
    },
  );
});
