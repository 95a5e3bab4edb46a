import { afterEach, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { replay, SCHEDULED_TASKS_STREAM_ID, type RecordedEvent } from '@oneclaw/core';
import { SqliteEventStore } from '@oneclaw/event-store-sqlite';
import { startFakeModelServer, fakeReply } from '@oneclaw/model-providers/testing';
import { callServer, serverProcessEnv, ServerProcessGroup, waitFor } from '../testing/server-process';
import { ScheduledTaskService } from './scheduled-task-service';

// A real server process, killed with SIGKILL while a task run's turn waits for the (loopback,
// fake) model; the next start must close the run's turn and finish the run as interrupted.
const TOKEN = 'scheduled-crash-token-0123456789';
const KEY = 'sk-ant-scheduled-crash-key-000';

const servers = new ServerProcessGroup();
afterEach(() => servers.killAll());

it('a task run cut off by SIGKILL while the fake model answers is finished as interrupted, and its turn closed, at the next start', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-run-crash-'));
  servers.also(() => rmSync(dataDir, { recursive: true, force: true }));
  // The chat's agent stops after two model requests, so the chat turn never competes with the run for the fake's replies.
  writeFileSync(path.join(dataDir, 'agents.json'), JSON.stringify([{ id: 'chat', name: 'Chat', systemPrompt: 'Chat.', maxRounds: 2 }]));
  const seeding = SqliteEventStore.open(path.join(dataDir, 'events.db'));
  // Only schedules (never started, so its launcher is never asked to run anything).
  const notRunning = { run: () => Promise.reject(new Error('the seeding service runs nothing')) };
  const tasks = new ScheduledTaskService({ store: seeding, launcher: notRunning, timeZone: () => 'UTC', newTaskId: () => 'task-report' });
  await tasks.schedule({ name: 'Report', prompt: 'Write the daily report.', schedule: { type: 'daily', hour: 7, minute: 0 } });
  await seeding.close();

  const model = await startFakeModelServer('anthropic', { apiKey: KEY });
  servers.also(() => model.close());
  const env = { ...serverProcessEnv({ dataDir, token: TOKEN, anthropic: { key: KEY, url: model.url } }), ONECLAW_TIMEZONE: 'UTC' };
  const api = (url: string, method: string, route: string, body?: unknown) => callServer(url, TOKEN, method, route, body);
  const first = servers.start(env);
  const url1 = await first.url();
  await api(url1, 'POST', '/api/sessions', { sessionId: 'chat', agentId: 'chat' });
  model.enqueue(
    fakeReply.toolCall('load_tool_group', { group_name: 'scheduled_tasks' }),
    fakeReply.toolCall('run_scheduled_task', { task_id: 'task-report' }),
    fakeReply.hang('Here is the report: '),
  );
  const chat = await api(url1, 'POST', '/api/sessions/chat/messages', { text: 'run the report now' });
  expect(chat.reason).toBe('round_cap');
  await waitFor('the run to ask the model', async () => (model.requests.length === 3 ? true : undefined));
  const runSession = await waitFor('the run session', async () => {
    const sessions = (await api(url1, 'GET', '/api/sessions')).sessions as { sessionId: string }[];
    return sessions.find((s) => s.sessionId.startsWith('task-report-run-'))?.sessionId;
  });
  await first.kill();

  const second = servers.start(env);
  const url2 = await second.url();
  const events: RecordedEvent[] = (await api(url2, 'GET', `/api/sessions/${runSession}/events`)).events;
  expect(events.map((e) => e.type)).toEqual(['SessionStarted', 'MessageSent', 'ModelRequested', 'TurnFinished']);
  expect(events.at(-1)?.data).toMatchObject({ reason: 'interrupted' });
  expect(replay(events).openTurn).toBeNull();

  await second.kill();
  const store = SqliteEventStore.open(path.join(dataDir, 'events.db'));
  try {
    const finished = (await store.readStream(SCHEDULED_TASKS_STREAM_ID)).filter((e) => e.type === 'TaskRunFinished').map((e) => e.data);
    expect(finished).toEqual([expect.objectContaining({ taskId: 'task-report', sessionId: runSession, outcome: 'failed', reason: 'interrupted' })]);
  } finally {
    await store.close();
  }
}, 90_000);
