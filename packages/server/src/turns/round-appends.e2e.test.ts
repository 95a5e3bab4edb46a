import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CONFIG_STREAM_ID, sessionStreamId, type EventEnvelope, type EventStore } from '@oneclaw/core';
import { SqliteEventStore } from '@oneclaw/event-store-sqlite';
import { startFakeModelServer, type FakeModelServer, fakeReply } from '@oneclaw/model-providers/testing';
import { startTestServer, type TestServer } from '../testing/test-server';

const MODEL_KEY = 'sk-ant-round-appends-key-000';

/** "MessageSent:user", "ModelRequested", "TurnFinished:completed"... for one appended event. */
function label(event: EventEnvelope): string {
  const data = event.data as { role?: string; reason?: string };
  return [event.type, data.role ?? data.reason].filter(Boolean).join(':');
}

/** The real SQLite store, noting the event types of each append (one append is one transaction). */
function recordingStore(file: string): { store: EventStore; appends: string[][]; reads: string[]; close: () => Promise<void> } {
  const inner = SqliteEventStore.open(file);
  const appends: string[][] = [];
  const reads: string[] = [];
  const store: EventStore = {
    append: (streamId, events, options) => {
      if (streamId.startsWith('session-')) appends.push(events.map(label));
      return inner.append(streamId, events, options);
    },
    readStream: (streamId, options) => {
      reads.push(streamId);
      return inner.readStream(streamId, options);
    },
    readAll: (options) => inner.readAll(options),
    streamState: (streamId) => inner.streamState(streamId),
    close: () => inner.close(),
  };
  return { store, appends, reads, close: () => inner.close() };
}

describe('F5 a turn records each round in as few appends as its durability points allow, and reads the store twice (FAKE Anthropic model)', () => {
  let model: FakeModelServer;
  let server: TestServer;
  let dataDir: string;
  let recording: ReturnType<typeof recordingStore>;

  beforeEach(async () => {
    model = await startFakeModelServer('anthropic', { apiKey: MODEL_KEY });
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-rounds-'));
    recording = recordingStore(path.join(dataDir, 'events.db'));
    server = await startTestServer({
      dataDir,
      eventStore: recording.store,
      env: { ONECLAW_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: MODEL_KEY, ANTHROPIC_BASE_URL: model.url, ONECLAW_PROVIDER_MAX_RETRIES: '0' },
    });
  });

  afterEach(async () => {
    await server.close();
    await recording.close();
    await model.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a tool turn: user message + ModelRequested, the reply with its call (before the tool runs), the result + the next ModelRequested, the last reply + TurnFinished', async () => {
    await server.api('POST', '/api/sessions', { sessionId: 'rounds' });
    recording.appends.length = 0;
    recording.reads.length = 0;
    model.enqueue(fakeReply.toolCall('get_current_time', { timezone: 'UTC' }), fakeReply.text('It is noon.'));
    const streamed = await server.stream('/api/sessions/rounds/messages', { text: 'what time is it?' });

    expect(recording.appends).toEqual([
      ['MessageSent:user', 'ModelRequested'],
      ['MessageSent:assistant'],
      ['MessageSent:tool', 'ModelRequested'],
      ['MessageSent:assistant', 'TurnFinished:completed'],
    ]);
    // One read of the session and one catch-up with the configuration (agent and model) per turn.
    expect(recording.reads).toEqual([sessionStreamId('rounds'), CONFIG_STREAM_ID]);
    // The stream reports the same steps in the same order as when each command had its own append.
    expect(streamed.events.map((e) => e.event).filter((name) => name !== 'text_delta')).toEqual([
      'turn_started',
      'model_requested',
      'assistant_message',
      'tool_call_started',
      'tool_call_finished',
      'model_requested',
      'assistant_message',
      'turn_finished',
      'done',
    ]);
    const events = (await server.api('GET', '/api/sessions/rounds/events')).body.events as { revision: number; type: string }[];
    expect(events.map((e) => e.revision)).toEqual(events.map((_, i) => i));
    expect(streamed.events.at(-1)?.data).toMatchObject({ reason: 'completed', rounds: 2, reply: 'It is noon.', revision: events.length - 1 });
  });

  it('a loaded group is recorded with its tool result and the next ModelRequested, which already sends its tools', async () => {
    await server.api('POST', '/api/sessions', { sessionId: 'group' });
    recording.appends.length = 0;
    model.enqueue(fakeReply.toolCall('load_tool_group', { group_name: 'pdf' }), fakeReply.text('Loaded.'));
    const streamed = await server.stream('/api/sessions/group/messages', { text: 'load pdf tools' });

    expect(recording.appends).toEqual([
      ['MessageSent:user', 'ModelRequested'],
      ['MessageSent:assistant'],
      ['MessageSent:tool', 'ToolGroupLoaded', 'ModelRequested'],
      ['MessageSent:assistant', 'TurnFinished:completed'],
    ]);
    expect(streamed.events.map((e) => e.event).filter((name) => name !== 'text_delta')).toEqual([
      'turn_started',
      'model_requested',
      'assistant_message',
      'tool_call_started',
      'tool_call_finished',
      'group_loaded',
      'model_requested',
      'assistant_message',
      'turn_finished',
      'done',
    ]);
    const second = streamed.events.filter((e) => e.event === 'model_requested')[1]?.data as { toolNames: string[] };
    const loaded = streamed.events.find((e) => e.event === 'group_loaded')?.data as { toolNames: string[] };
    expect(loaded.toolNames.length).toBeGreaterThan(0);
    expect(second.toolNames).toEqual(expect.arrayContaining(loaded.toolNames));
  });
});
