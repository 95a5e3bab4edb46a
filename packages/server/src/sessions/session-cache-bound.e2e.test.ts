import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fakeReply, startFakeModelServer } from '@oneclaw/model-providers/testing';
import { callServer, ServerProcessGroup, waitFor } from '../testing/server-process';

// A real server process (main.ts from source, SQLite) with a small session cache and debug
// logging: the cache reports what it holds each time it drops a session, so the retained size is
// checked from the code's own measure, deterministically (RSS is the memory bench's job).
const TOKEN = 'cache-bound-test-token-0123456789';
const KEY = 'sk-cache-bound-test-key-000';
const BOUND = 200_000;

interface EvictionLine {
  readonly msg: string;
  readonly sessionId: string;
  readonly evictedBytes: number;
  readonly cache: { readonly sessions: number; readonly bytes: number; readonly maxBytes: number; readonly evictions: number };
}

function evictions(printed: string): EvictionLine[] {
  return printed
    .split('\n')
    .filter((line) => line.includes('session cache full'))
    .map((line) => JSON.parse(line) as EvictionLine);
}

describe('session cache bound over a real server process (FAKE OpenAI model)', () => {
  const servers = new ServerProcessGroup();
  afterEach(() => servers.killAll());

  it('long messages across sessions keep the cache under ONECLAW_SESSION_CACHE_BYTES, least recently used first; an evicted session answers with its whole conversation', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-cache-bound-'));
    servers.also(() => rmSync(dataDir, { recursive: true, force: true }));
    const model = await startFakeModelServer('openai', { apiKey: KEY });
    servers.also(() => model.close());
    const server = servers.start({
      ONECLAW_DATA_DIR: dataDir,
      PORT: '0',
      ONECLAW_API_TOKEN: TOKEN,
      OPENAI_API_KEY: KEY,
      OPENAI_BASE_URL: model.url,
      ONECLAW_LOG: 'debug',
      ONECLAW_SESSION_CACHE_BYTES: String(BOUND),
    });
    const url = await server.url();
    const api = (method: string, route: string, body?: unknown) => callServer(url, TOKEN, method, route, body);
    const long = (session: string, turn: number) => `${session} turn ${turn}: `.padEnd(30_000, 'lorem ipsum ');

    // Four sessions of about 100 KB each (three turns of 30 KB): two fit in the bound.
    for (const session of ['a', 'b', 'c', 'd']) {
      await api('POST', '/api/sessions', { sessionId: session });
      for (let turn = 0; turn < 3; turn++) {
        model.enqueue(fakeReply.text(`reply ${session}${turn}`));
        expect(await api('POST', `/api/sessions/${session}/messages`, { text: long(session, turn) })).toMatchObject({ reason: 'completed' });
      }
    }
    const lines = await waitFor('the cache to drop sessions a and b', async () => {
      const found = evictions(server.printed);
      return found.some((l) => l.sessionId === 'b') ? found : undefined;
    });
    for (const line of lines) {
      expect(line.cache.maxBytes).toBe(BOUND);
      expect(line.cache.bytes).toBeLessThanOrEqual(BOUND);
      expect(line.evictedBytes).toBeGreaterThan(0);
    }
    // Least recently used first: a went before b, and c and d (the latest) stayed.
    expect([...new Set(lines.map((l) => l.sessionId))]).toEqual(['a', 'b']);
    expect(lines.at(-1)?.cache.sessions).toBe(2);

    // a was dropped: its next turn reads it back from the store and sends the model all of it.
    model.enqueue(fakeReply.text('still here'));
    expect(await api('POST', '/api/sessions/a/messages', { text: 'do you remember?' })).toMatchObject({ reason: 'completed', reply: 'still here' });
    const sent = JSON.stringify(model.requests.at(-1)?.body);
    for (let turn = 0; turn < 3; turn++) {
      expect(sent).toContain(`a turn ${turn}: lorem ipsum`);
      expect(sent).toContain(`reply a${turn}`);
    }
    const view = await api('GET', '/api/sessions/a');
    expect(view.messages.filter((m: { role: string }) => m.role === 'user')).toHaveLength(4);
    // Taking a back in pushed out the least recently used of the others (c).
    await waitFor('c to be dropped', async () => (evictions(server.printed).some((l) => l.sessionId === 'c') ? true : undefined));
    expect(evictions(server.printed).every((l) => l.cache.bytes <= BOUND)).toBe(true);
  }, 120_000);
});
