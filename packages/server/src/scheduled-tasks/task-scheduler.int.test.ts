import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SCHEDULED_TASKS_STREAM_ID } from '@oneclaw/core';
import { SqliteEventStore } from '@oneclaw/event-store-sqlite';
import { ScheduledTaskService } from './scheduled-task-service';
import type { TaskRunLauncher, TaskRunRequest } from './task-run-launcher';
import { TaskScheduler } from './task-scheduler';

/** Two server replicas on one SQLite file: each its own store connection, task service and scheduler. */
describe('two schedulers on one SQLite store', () => {
  let dir: string;
  const stores: SqliteEventStore[] = [];

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-replicas-'));
  });

  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function replica(clock: { now: Date }) {
    const store = SqliteEventStore.open(path.join(dir, 'events.db'));
    stores.push(store);
    const requests: TaskRunRequest[] = [];
    const launcher: TaskRunLauncher = {
      run: async (request) => {
        requests.push(request);
        return { reason: 'completed', detail: 'ok' };
      },
    };
    let n = 0;
    const service = new ScheduledTaskService({
      store,
      launcher,
      timeZone: () => 'Europe/Berlin',
      now: () => clock.now,
      newTaskId: () => `task-${store === stores[0] ? 'a' : 'b'}${++n}`,
    });
    service.start();
    const scheduler = new TaskScheduler({ service, now: () => clock.now });
    return { store, service, scheduler, requests };
  }

  it('runs every slot of every task exactly once across both, over several days', async () => {
    const clock = { now: new Date('2026-03-01T00:00:00Z') };
    const a = replica(clock);
    const b = replica(clock);
    await a.service.schedule({ name: 'Daily', prompt: 'daily', schedule: { type: 'daily', hour: 9, minute: 0 } });
    await b.service.schedule({ name: 'Weekly', prompt: 'weekly', schedule: { type: 'weekly', dayOfWeek: 'tuesday', hour: 9, minute: 0 } });
    await a.service.schedule({ name: 'Once', prompt: 'once', schedule: { type: 'one_time', date: '2026-03-02', hour: 9, minute: 0 } });
    await Promise.all([a.scheduler.start({ timer: false }), b.scheduler.start({ timer: false })]);

    for (const day of ['02', '03', '04']) {
      // 09:00 in Berlin is 08:00Z in March.
      clock.now = new Date(`2026-03-${day}T08:00:00Z`);
      await Promise.all([a.scheduler.tick(clock.now), b.scheduler.tick(clock.now)]);
    }
    await Promise.all([a.service.whenIdle(), b.service.whenIdle()]);

    const ran = [...a.requests, ...b.requests].map((r) => r.sessionId).sort();
    expect(ran).toEqual(['task-a1-20260302T0800Z', 'task-a1-20260303T0800Z', 'task-a1-20260304T0800Z', 'task-a2-20260302T0800Z', 'task-b1-20260303T0800Z']);
    const stream = await a.store.readStream(SCHEDULED_TASKS_STREAM_ID);
    expect(stream.filter((e) => e.type === 'TaskRunStarted')).toHaveLength(5);
    expect(stream.filter((e) => e.type === 'TaskRunFinished')).toHaveLength(5);
  });
});
