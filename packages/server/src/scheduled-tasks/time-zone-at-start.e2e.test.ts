import { afterEach, expect, it, jest } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { CONFIG_STREAM_ID, InMemoryEventStore, SCHEDULED_TASKS_STREAM_ID, type EventStore } from '@oneclaw/core';
import { ConfigRepository } from '../config/config-repository';
import { startTestServer, type TestServer } from '../testing/test-server';
import { ScheduledTaskService } from './scheduled-task-service';

// Boots a real server and runs (a failing) turn: more than Jest's 5 s on a busy machine.
jest.setTimeout(30_000);

const CONFIGURED_ZONE = 'Asia/Tokyo';
/** ONECLAW_TIMEZONE: 13 or 14 hours behind Tokyo, so a Tokyo wall time passed an hour ago is still ahead here. */
const ENV_ZONE = 'America/New_York';

/** A store on a slow PostgreSQL or KurrentDB, as far as the config stream goes: its reads take a while. */
function slowConfigReads(inner: EventStore, delayMs: number): EventStore {
  return {
    append: (streamId, events, options) => inner.append(streamId, events, options),
    readStream: async (streamId, options) => {
      if (streamId === CONFIG_STREAM_ID) await delay(delayMs);
      return inner.readStream(streamId, options);
    },
    readAll: (options) => inner.readAll(options),
    streamState: (streamId) => inner.streamState(streamId),
    close: () => inner.close(),
  };
}

/** The wall-clock date, hour and minute of `at` in `zone`. */
function wallClock(at: Date, zone: string): { date: string; hour: number; minute: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour), minute: Number(parts.minute) };
}

let server: TestServer | undefined;
let dataDir: string;

afterEach(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('the scheduler starts in the configured time zone even when the config stream is read slowly: a one-time task missed in that zone runs at start', async () => {
  const store = new InMemoryEventStore();
  // Recorded by an earlier process: the `timezone` setting, and a one-time task for an hour ago
  // on the Tokyo clock, scheduled before its time (the server was down when it came).
  await new ConfigRepository(store).record({ type: 'SetSetting', key: 'timezone', value: CONFIGURED_ZONE });
  const now = Date.now();
  const earlier = new ScheduledTaskService({
    store,
    launcher: { run: () => Promise.reject(new Error('not started here')) },
    timeZone: () => CONFIGURED_ZONE,
    now: () => new Date(now - 2 * 3_600_000),
    newTaskId: () => 'task-00000000aa',
  });
  await earlier.schedule({ name: 'Reminder', prompt: 'Remind me of the call.', schedule: { type: 'one_time', ...wallClock(new Date(now - 3_600_000), CONFIGURED_ZONE) } });

  dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-tasks-zone-'));
  server = await startTestServer({ dataDir, eventStore: slowConfigReads(store, 500), env: { ONECLAW_TIMEZONE: ENV_ZONE } });
  const service = server.app.get(ScheduledTaskService);
  await service.whenIdle();

  // Read in New York the task would still be 13 or 14 hours away and nothing would have started.
  const started = (await store.readStream(SCHEDULED_TASKS_STREAM_ID)).filter((e) => e.type === 'TaskRunStarted').map((e) => e.data);
  expect(started).toEqual([expect.objectContaining({ taskId: 'task-00000000aa', trigger: 'schedule', late: true })]);
  expect(service.timeZone()).toBe(CONFIGURED_ZONE);
});
