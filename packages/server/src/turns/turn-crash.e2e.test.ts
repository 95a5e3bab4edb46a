import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { replay, type RecordedEvent } from '@oneclaw/core';
import { startFakeModelServer, type FakeModelServer, fakeReply } from '@oneclaw/model-providers/testing';
import { callServer, serverProcessEnv, ServerProcessGroup, waitFor } from '../testing/server-process';

// Real server processes from the TypeScript source, killed with SIGKILL mid-turn: nothing gets
// to run on the way out. Each start compiles the server (swc): the timeouts allow for it.
const TOKEN = 'crash-test-token-0123456789';
const KEY = 'sk-ant-crash-test-key-000';

type Data = { role?: string; errorType?: string; reason?: string; turnId?: string; detail?: string; rounds?: number };
const data = (e: RecordedEvent) => e.data as Data;
/** [type, errorType | reason | role] per event: a readable shape of a stream's tail. */
const shape = (events: readonly RecordedEvent[]) => events.map((e) => [e.type, data(e).errorType ?? data(e).reason ?? data(e).role]);

describe('a server killed with SIGKILL mid-turn (fake Anthropic model)', () => {
  let dataDir: string;
  let model: FakeModelServer;
  const servers = new ServerProcessGroup();
  afterEach(() => servers.killAll());

  async function setUp(extraEnv: Record<string, string> = {}) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-turn-crash-'));
    dataDir = dir;
    servers.also(() => rmSync(dir, { recursive: true, force: true }));
    const fake = await startFakeModelServer('anthropic', { apiKey: KEY });
    model = fake;
    servers.also(() => fake.close());
    const env = { ...serverProcessEnv({ dataDir, token: TOKEN, anthropic: { key: KEY, url: model.url } }), ...extraEnv };
    const start = async (more: Record<string, string> = {}) => {
      const server = servers.start({ ...env, ...more });
      return { server, url: await server.url() };
    };
    const api = (url: string, method: string, route: string, body?: unknown) => callServer(url, TOKEN, method, route, body);
    const eventsOf = async (url: string, sessionId: string): Promise<RecordedEvent[]> => (await api(url, 'GET', `/api/sessions/${sessionId}/events`)).events;
    return { start, api, eventsOf };
  }

  it('a tool call cut off is answered as interrupted and its turn closed at the next start, before any new message; the next turn goes on', async () => {
    const { start, api, eventsOf } = await setUp();
    // A user tool that never returns (until its 60 s timeout): the process dies while it runs.
    mkdirSync(path.join(dataDir, 'tools'));
    writeFileSync(
      path.join(dataDir, 'tools', 'spin.json'),
      JSON.stringify({ name: 'spin', description: 'Spins', parameters: { type: 'object', properties: {} }, timeoutSeconds: 60 }),
    );
    writeFileSync(path.join(dataDir, 'tools', 'spin.js'), 'function execute() { for (;;) {} }');
    const first = await start();
    await api(first.url, 'POST', '/api/sessions', { sessionId: 'c' });
    model.enqueue(fakeReply.toolCall('spin', {}, 'Spinning.'));
    void api(first.url, 'POST', '/api/sessions/c/messages', { text: 'spin please' }).catch(() => undefined);
    await waitFor('the spin call to be recorded', async () =>
      (await eventsOf(first.url, 'c')).some((e) => e.type === 'MessageSent' && data(e).role === 'assistant') ? true : undefined,
    );
    await first.server.kill();

    const second = await start();
    const afterRestart = await eventsOf(second.url, 'c');
    expect(afterRestart.map((e) => e.revision)).toEqual(afterRestart.map((_, i) => i));
    expect(shape(afterRestart)).toEqual([
      ['SessionStarted', undefined],
      ['MessageSent', 'user'],
      ['ModelRequested', undefined],
      ['MessageSent', 'assistant'],
      ['MessageSent', 'interrupted'],
      ['TurnFinished', 'interrupted'],
    ]);
    const state = replay(afterRestart);
    expect(state.skippedEvents).toBe(0);
    expect(state.pendingToolCalls.size).toBe(0);
    expect(state.openTurn).toBeNull();
    expect(data(afterRestart.at(-1) as RecordedEvent)).toMatchObject({ rounds: 1, detail: expect.stringContaining('restarted') });

    model.enqueue(fakeReply.text('Sorry, that tool was cut off.'));
    const turn = await api(second.url, 'POST', '/api/sessions/c/messages', { text: 'what happened?' });
    expect(turn.reason).toBe('completed');
    const events = await eventsOf(second.url, 'c');
    expect(shape(events.slice(afterRestart.length))).toEqual([
      ['MessageSent', 'user'],
      ['ModelRequested', undefined],
      ['MessageSent', 'assistant'],
      ['TurnFinished', 'completed'],
    ]);
    // The provider got a complete history: the cut-off call with its interrupted result.
    const lastRequest = model.requests.at(-1)?.body as { messages: { content: { type: string; is_error?: boolean }[] }[] };
    expect(lastRequest.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === 'tool_result')).toEqual([
      expect.objectContaining({ is_error: true }),
    ]);
  }, 90_000);

  it('a turn cut off while the fake model was answering gets TurnFinished{interrupted} at the next start, without another message', async () => {
    const { start, api, eventsOf } = await setUp();
    const first = await start();
    await api(first.url, 'POST', '/api/sessions', { sessionId: 'h' });
    model.enqueue(fakeReply.hang('I am thinking about '));
    void api(first.url, 'POST', '/api/sessions/h/messages', { text: 'tell me a long story' }).catch(() => undefined);
    await waitFor('the model request', async () => (model.requests.length === 1 && (await eventsOf(first.url, 'h')).some((e) => e.type === 'ModelRequested') ? true : undefined));
    await first.server.kill();

    const second = await start();
    const events = await eventsOf(second.url, 'h');
    expect(shape(events)).toEqual([
      ['SessionStarted', undefined],
      ['MessageSent', 'user'],
      ['ModelRequested', undefined],
      ['TurnFinished', 'interrupted'],
    ]);
    const user = events[1] as RecordedEvent;
    expect(data(events[3] as RecordedEvent)).toMatchObject({ rounds: 1 });
    expect(events[3]?.metadata.correlationId).toBe(data(user).turnId);
    expect(replay(events).openTurn).toBeNull();
  }, 90_000);

  it('a retried request (same Idempotency-Key) after a crash answers duplicate_request and its turn stays closed as interrupted, once', async () => {
    const { start, eventsOf } = await setUp();
    const first = await start();
    const send = (url: string) =>
      fetch(`${url}/api/sessions/d/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'idempotency-key': 'retry-me-1' },
        body: JSON.stringify({ text: 'hello?' }),
      });
    await callServer(first.url, TOKEN, 'POST', '/api/sessions', { sessionId: 'd' });
    model.enqueue(fakeReply.hang());
    void send(first.url).catch(() => undefined);
    await waitFor('the model request', async () => (model.requests.length === 1 ? true : undefined));
    await first.server.kill();

    const second = await start();
    const retry = await send(second.url);
    expect(retry.status).toBe(409);
    expect(((await retry.json()) as { code: string }).code).toBe('duplicate_request');
    const events = await eventsOf(second.url, 'd');
    expect(events.filter((e) => e.type === 'TurnFinished').map((e) => data(e).reason)).toEqual(['interrupted']);
    expect(replay(events).openTurn).toBeNull();
  }, 90_000);

  it("another replica's open turn is left alone at start-up and refuses a new message and a clear; that replica's own restart closes it", async () => {
    const { start, api, eventsOf } = await setUp();
    const b = await start({ ONECLAW_REPLICA_ID: 'replica-b' });
    await api(b.url, 'POST', '/api/sessions', { sessionId: 'r' });
    model.enqueue(fakeReply.hang());
    void api(b.url, 'POST', '/api/sessions/r/messages', { text: 'hi' }).catch(() => undefined);
    await waitFor('the model request', async () => (model.requests.length === 1 ? true : undefined));
    await b.server.kill();

    const a = await start({ ONECLAW_REPLICA_ID: 'replica-a' });
    expect((await eventsOf(a.url, 'r')).some((e) => e.type === 'TurnFinished')).toBe(false);
    const refused = await api(a.url, 'POST', '/api/sessions/r/messages', { text: 'are you there?' });
    expect(refused).toMatchObject({ code: 'turn_in_progress', detail: expect.stringContaining("replica 'replica-b'") });
    // A clear, by its route or as a message, would land inside that turn: refused the same way.
    for (const [route, body] of [
      ['/api/sessions/r/clear', {}],
      ['/api/sessions/r/messages', { text: '/clear' }],
    ] as const) {
      expect(await api(a.url, 'POST', route, body)).toMatchObject({ code: 'turn_in_progress', detail: expect.stringContaining("replica 'replica-b'") });
    }
    expect((await eventsOf(a.url, 'r')).some((e) => e.type === 'SessionCleared')).toBe(false);
    await a.server.kill();

    const bAgain = await start({ ONECLAW_REPLICA_ID: 'replica-b' });
    expect(shape(await eventsOf(bAgain.url, 'r')).slice(-1)).toEqual([['TurnFinished', 'interrupted']]);
  }, 120_000);
});
