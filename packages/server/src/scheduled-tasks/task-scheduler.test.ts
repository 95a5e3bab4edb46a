import { describe, expect, it } from '@jest/globals';
import { InMemoryEventStore, OneClawError, SCHEDULED_TASKS_STREAM_ID, type EventEnvelope, type EventStore, type ScheduleInput } from '@oneclaw/core';
import { ScheduledTaskService } from './scheduled-task-service';
import type { TaskRunLauncher, TaskRunRequest, TaskRunResult } from './task-run-launcher';
import { TaskScheduler } from './task-scheduler';

/** Stands in for the TurnRunner (the e2e test runs real turns): records what it was asked to run. */
class RecordingLauncher implements TaskRunLauncher {
  readonly requests: TaskRunRequest[] = [];
  answer: (request: TaskRunRequest) => Promise<TaskRunResult> = async () => ({ reason: 'completed', detail: 'Answered after 1 model request(s).' });

  run(request: TaskRunRequest): Promise<TaskRunResult> {
    this.requests.push(request);
    return this.answer(request);
  }
}

/** One server: its clock, its task service and its scheduler, on a given store. */
class Server {
  clock: Date;
  readonly launcher = new RecordingLauncher();
  readonly service: ScheduledTaskService;
  readonly scheduler: TaskScheduler;
  readonly logs: string[] = [];

  constructor(
    readonly store: EventStore,
    at: string,
    readonly zone = 'America/New_York',
  ) {
    this.clock = new Date(at);
    let n = 0;
    this.service = new ScheduledTaskService({
      store,
      launcher: this.launcher,
      timeZone: () => this.zone,
      now: () => this.clock,
      newTaskId: () => `task-${++n}`,
      log: (level, message) => this.logs.push(`${level}: ${message}`),
    });
    this.service.start();
    this.scheduler = new TaskScheduler({ service: this.service, now: () => this.clock, log: (level, message) => this.logs.push(`${level}: ${message}`) });
  }

  schedule(schedule: ScheduleInput, name = 'Briefing') {
    return this.service.schedule({ name, prompt: `Run ${name}.`, schedule });
  }

  /** Moves the clock and ticks, as the timer would at that instant. */
  async tickAt(at: string): Promise<string[]> {
    this.clock = new Date(at);
    const started = await this.scheduler.tick(this.clock);
    await this.service.whenIdle();
    return started.map((r) => r.sessionId);
  }
}

const typesOf = async (store: EventStore) => (await store.readStream(SCHEDULED_TASKS_STREAM_ID)).map((e) => e.type);

describe('TaskScheduler.tick', () => {
  it('daily at 07:30 in New York runs at 12:30Z before the 2026-03-08 DST change and 11:30Z after, once per slot', async () => {
    const server = new Server(new InMemoryEventStore(), '2026-03-06T15:00:00Z');
    const { task, nextRun } = await server.schedule({ type: 'daily', hour: 7, minute: 30 });
    expect(nextRun?.toISOString()).toBe('2026-03-07T12:30:00.000Z');
    await server.scheduler.start({ timer: false });

    expect(await server.tickAt('2026-03-07T12:29:00Z')).toEqual([]);
    expect(await server.tickAt('2026-03-07T12:30:00Z')).toEqual(['task-1-20260307T1230Z']);
    expect(await server.tickAt('2026-03-07T12:31:00Z')).toEqual([]);
    expect(server.service.nextRunOf((await server.service.list())[0]!.task)?.toISOString()).toBe('2026-03-08T11:30:00.000Z');
    // After the change 07:30 EDT is 11:30Z; 12:30Z (08:30 EDT) is not a slot any more.
    expect(await server.tickAt('2026-03-08T11:29:00Z')).toEqual([]);
    expect(await server.tickAt('2026-03-08T11:30:00Z')).toEqual(['task-1-20260308T1130Z']);
    expect(await server.tickAt('2026-03-08T12:30:00Z')).toEqual([]);

    expect(server.launcher.requests.map((r) => [r.sessionId, r.agentId, r.prompt])).toEqual([
      ['task-1-20260307T1230Z', 'default', 'Run Briefing.'],
      ['task-1-20260308T1130Z', 'default', 'Run Briefing.'],
    ]);
    const [view] = await server.service.list();
    expect(view?.task.taskId).toBe(task.taskId);
    expect(view?.task.runs.map((r) => [r.trigger, r.scheduledFor, r.status, r.reason])).toEqual([
      ['schedule', '2026-03-07T12:30:00.000Z', 'succeeded', 'completed'],
      ['schedule', '2026-03-08T11:30:00.000Z', 'succeeded', 'completed'],
    ]);
    expect(await typesOf(server.store)).toEqual(['TaskScheduled', 'TaskRunStarted', 'TaskRunFinished', 'TaskRunStarted', 'TaskRunFinished']);
  });

  it('weekly in Berlin across both DST changes: 02:30 that does not exist runs at 03:00, 02:30 that occurs twice runs once', async () => {
    const server = new Server(new InMemoryEventStore(), '2026-03-25T12:00:00Z', 'Europe/Berlin');
    await server.schedule({ type: 'weekly', dayOfWeek: 'sunday', hour: 2, minute: 30 });
    await server.scheduler.start({ timer: false });
    // 2026-03-29: clocks jump from 02:00 to 03:00 CEST (01:00Z).
    expect(await server.tickAt('2026-03-29T00:59:00Z')).toEqual([]);
    expect(await server.tickAt('2026-03-29T01:00:00Z')).toEqual(['task-1-20260329T0100Z']);
    // The next Sunday 02:30 CEST is 00:30Z.
    expect(server.service.nextRunOf((await server.service.list())[0]!.task)?.toISOString()).toBe('2026-04-05T00:30:00.000Z');

    // 2026-10-25: 02:30 happens at 00:30Z (CEST) and again at 01:30Z (CET); it runs at the first.
    expect(await server.tickAt('2026-10-25T00:30:00Z')).toEqual(['task-1-20261025T0030Z']);
    expect(await server.tickAt('2026-10-25T01:30:00Z')).toEqual([]);
    expect(server.service.nextRunOf((await server.service.list())[0]!.task)?.toISOString()).toBe('2026-11-01T01:30:00.000Z');
  });

  it('a tick that comes late (the machine slept) runs the latest missed slot once, not every one', async () => {
    const server = new Server(new InMemoryEventStore(), '2026-03-01T00:00:00Z', 'UTC');
    await server.schedule({ type: 'daily', hour: 8, minute: 0 });
    await server.scheduler.start({ timer: false });
    expect(await server.tickAt('2026-03-04T09:00:00Z')).toEqual(['task-1-20260304T0800Z']);
  });

  it('a daily task set at 07:00:30 for 07:00 first runs tomorrow', async () => {
    const server = new Server(new InMemoryEventStore(), '2026-03-01T06:59:00Z', 'UTC');
    await server.scheduler.start({ timer: false });
    server.clock = new Date('2026-03-01T07:00:30Z');
    await server.schedule({ type: 'daily', hour: 7, minute: 0 });
    expect(await server.tickAt('2026-03-01T07:01:00Z')).toEqual([]);
    expect(await server.tickAt('2026-03-02T07:00:00Z')).toEqual(['task-1-20260302T0700Z']);
  });

  it('a one-time task runs at its time, once, and then has no next run', async () => {
    const server = new Server(new InMemoryEventStore(), '2026-03-01T10:00:00Z', 'UTC');
    await server.schedule({ type: 'one_time', date: '2026-03-01', hour: 12, minute: 15 });
    await server.scheduler.start({ timer: false });
    expect(await server.tickAt('2026-03-01T12:14:00Z')).toEqual([]);
    expect(await server.tickAt('2026-03-01T12:15:00Z')).toEqual(['task-1-20260301T1215Z']);
    expect(await server.tickAt('2026-03-01T12:16:00Z')).toEqual([]);
    const [view] = await server.service.list();
    expect(view).toMatchObject({ nextRun: undefined, task: { completed: true, runs: [{ late: false, status: 'succeeded' }] } });
  });

  it('restart: a one-time task whose time passed while the server was down runs once at start, marked late; a missed daily slot is not caught up', async () => {
    const store = new InMemoryEventStore();
    const before = new Server(store, '2026-03-01T10:00:00Z', 'UTC');
    await before.schedule({ type: 'one_time', date: '2026-03-01', hour: 11, minute: 0 }, 'Once');
    await before.schedule({ type: 'daily', hour: 11, minute: 0 }, 'Daily');
    await before.scheduler.start({ timer: false });
    await before.scheduler.stop();
    await before.service.stop();

    // Down from 10:00 to 13:00; a new process rebuilds everything from the stream.
    const after = new Server(store, '2026-03-01T13:00:00Z', 'UTC');
    const started = await after.scheduler.start({ timer: false });
    await after.service.whenIdle();
    expect(started.map((r) => [r.sessionId, r.late])).toEqual([['task-1-20260301T1100Z', true]]);
    expect(after.launcher.requests.map((r) => r.prompt)).toEqual(['Run Once.']);
    expect(await after.tickAt('2026-03-01T13:01:00Z')).toEqual([]);
    // Restarting again does not run it a second time.
    const again = new Server(store, '2026-03-01T14:00:00Z', 'UTC');
    expect(await again.scheduler.start({ timer: false })).toEqual([]);
    // The daily one runs at its next slot.
    expect(await after.tickAt('2026-03-02T11:00:00Z')).toEqual(['task-2-20260302T1100Z']);
    const views = await after.service.list();
    expect(views.map((v) => v.task.runs.map((r) => [r.late, r.status]))).toEqual([[[true, 'succeeded']], [[false, 'succeeded']]]);
  });

  it('a disabled task does not run; enabled again, it runs from its next slot', async () => {
    const server = new Server(new InMemoryEventStore(), '2026-03-01T00:00:00Z', 'UTC');
    const { task } = await server.schedule({ type: 'daily', hour: 9, minute: 0 });
    await server.service.update(task.taskId, { enabled: false });
    await server.scheduler.start({ timer: false });
    expect(await server.tickAt('2026-03-01T09:00:00Z')).toEqual([]);
    expect((await server.service.list())[0]?.nextRun).toBeUndefined();
    server.clock = new Date('2026-03-01T09:00:30Z');
    await server.service.update(task.taskId, { enabled: true });
    expect(await server.tickAt('2026-03-01T09:01:00Z')).toEqual([]);
    expect(await server.tickAt('2026-03-02T09:00:00Z')).toEqual(['task-1-20260302T0900Z']);
  });

  it('a deleted task does not run', async () => {
    const server = new Server(new InMemoryEventStore(), '2026-03-01T00:00:00Z', 'UTC');
    const { task } = await server.schedule({ type: 'daily', hour: 9, minute: 0 });
    await server.schedule({ type: 'one_time', date: '2026-03-01', hour: 9, minute: 0 }, 'Other');
    await server.service.delete('task-2');
    await server.scheduler.start({ timer: false });
    await server.service.delete(task.taskId);
    expect(await server.tickAt('2026-03-01T09:00:00Z')).toEqual([]);
    expect(server.launcher.requests).toEqual([]);
  });

  it('two schedulers on one store run a slot once (both ticking together)', async () => {
    const store = new InMemoryEventStore();
    const a = new Server(store, '2026-03-01T00:00:00Z', 'UTC');
    const b = new Server(store, '2026-03-01T00:00:00Z', 'UTC');
    await a.schedule({ type: 'daily', hour: 9, minute: 0 });
    await Promise.all([a.scheduler.start({ timer: false }), b.scheduler.start({ timer: false })]);
    const [fromA, fromB] = await Promise.all([a.tickAt('2026-03-01T09:00:00Z'), b.tickAt('2026-03-01T09:00:00Z')]);
    expect([...fromA, ...fromB]).toEqual(['task-1-20260301T0900Z']);
    expect(a.launcher.requests.length + b.launcher.requests.length).toBe(1);
    expect(await typesOf(store)).toEqual(['TaskScheduled', 'TaskRunStarted', 'TaskRunFinished']);
  });

  it('two schedulers on one store run a slot once (the loser decided on a stale state: its append conflicts, it re-reads and skips)', async () => {
    const store = new InMemoryEventStore();
    // B's appends wait until A's run is recorded, so B decides before A appends and appends after.
    let release!: () => void;
    const aRecorded = new Promise<void>((resolve) => (release = resolve));
    const bAppendErrors: string[] = [];
    const gated: EventStore = {
      append: async (streamId, events, options) => {
        if (events.some((e) => e.type === 'TaskRunStarted')) await aRecorded;
        return store.append(streamId, events, options).catch((error: Error) => {
          bAppendErrors.push(error.name);
          throw error;
        });
      },
      readStream: (streamId, options) => store.readStream(streamId, options),
      readAll: (options) => store.readAll(options),
      streamState: (streamId) => store.streamState(streamId),
      close: () => store.close(),
    };
    const a = new Server(store, '2026-03-01T00:00:00Z', 'UTC');
    const b = new Server(gated, '2026-03-01T00:00:00Z', 'UTC');
    await a.schedule({ type: 'daily', hour: 9, minute: 0 });
    await a.scheduler.start({ timer: false });
    await b.scheduler.start({ timer: false });
    const bTick = b.tickAt('2026-03-01T09:00:00Z');
    expect(await a.tickAt('2026-03-01T09:00:00Z')).toEqual(['task-1-20260301T0900Z']);
    release();
    expect(await bTick).toEqual([]);
    expect(bAppendErrors).toEqual(['StreamRevisionConflictError']);
    expect(b.launcher.requests).toEqual([]);
    const started = (await store.readStream(SCHEDULED_TASKS_STREAM_ID)).filter((e: EventEnvelope) => e.type === 'TaskRunStarted');
    expect(started).toHaveLength(1);
  });

  it('a run that fails is recorded as failed with the reason, never thrown: a turn stop, a typed error, a bug', async () => {
    const server = new Server(new InMemoryEventStore(), '2026-03-01T00:00:00Z', 'UTC');
    await server.schedule({ type: 'daily', hour: 9, minute: 0 });
    await server.scheduler.start({ timer: false });
    const answers: Array<() => Promise<TaskRunResult>> = [
      async () => ({ reason: 'provider_error', detail: 'The model API failed (rate_limited): slow down.' }),
      async () => {
        throw new OneClawError('provider_not_configured', 'No language model is configured.');
      },
      async () => {
        throw new TypeError('boom');
      },
    ];
    server.launcher.answer = () => (answers.shift() as () => Promise<TaskRunResult>)();
    await server.tickAt('2026-03-01T09:00:00Z');
    await server.tickAt('2026-03-02T09:00:00Z');
    await server.tickAt('2026-03-03T09:00:00Z');
    const [view] = await server.service.list();
    expect(view?.task.runs.map((r) => [r.status, r.reason, r.detail])).toEqual([
      ['failed', 'provider_error', 'The model API failed (rate_limited): slow down.'],
      ['failed', 'provider_not_configured', 'No language model is configured.'],
      ['failed', 'execution_error', 'The run failed: boom'],
    ]);
  });

  it('scrubs secrets from a failed run before it is recorded or logged', async () => {
    const store = new InMemoryEventStore();
    const logs: string[] = [];
    const service = new ScheduledTaskService({
      store,
      launcher: {
        run: async () => {
          throw new Error('connect failed with key sk-secret-123');
        },
      },
      timeZone: () => 'UTC',
      now: () => new Date('2026-03-01T00:00:00Z'),
      redact: (text) => text.replaceAll('sk-secret-123', '[REDACTED]'),
      log: (_, message) => logs.push(message),
    });
    service.start();
    const { task } = await service.schedule({ name: 'Leaky', prompt: 'Go.', schedule: { type: 'daily', hour: 9, minute: 0 } });
    await service.runNow(task.taskId);
    await service.whenIdle();
    const recorded = JSON.stringify(await store.readStream(SCHEDULED_TASKS_STREAM_ID));
    expect(recorded).toContain('The run failed: connect failed with key [REDACTED]');
    expect(recorded).not.toContain('sk-secret-123');
    expect(logs.join('\n')).not.toContain('sk-secret-123');
  });

  it('stopping the service cancels a run in progress and records it; a task deleted during its run finishes without a record', async () => {
    const server = new Server(new InMemoryEventStore(), '2026-03-01T00:00:00Z', 'UTC');
    await server.schedule({ type: 'daily', hour: 9, minute: 0 });
    await server.schedule({ type: 'daily', hour: 10, minute: 0 }, 'Doomed');
    await server.scheduler.start({ timer: false });
    let finishDoomed!: () => void;
    server.launcher.answer = (request) =>
      request.prompt === 'Run Doomed.'
        ? new Promise((resolve) => (finishDoomed = () => resolve({ reason: 'completed', detail: 'done' })))
        : new Promise((resolve) =>
            request.signal.addEventListener('abort', () => resolve({ reason: 'cancelled', detail: 'The turn was cancelled (the server is shutting down).' })),
          );

    server.clock = new Date('2026-03-01T10:00:00Z');
    const started = await server.scheduler.tick(server.clock);
    expect(started.map((r) => r.sessionId)).toEqual(['task-1-20260301T0900Z', 'task-2-20260301T1000Z']);
    await server.service.delete('task-2');
    finishDoomed();
    await server.scheduler.stop();
    await server.service.stop();
    const [view] = await server.service.list();
    expect(view?.task.runs.map((r) => [r.status, r.reason])).toEqual([['failed', 'cancelled']]);
    expect(server.logs).toContain('info: scheduled task task-2 was deleted during run task-2-20260301T1000Z; its outcome (completed) is in session task-2-20260301T1000Z');
    // After stop nothing starts any more.
    await expect(server.service.runNow('task-1')).rejects.toMatchObject({ code: 'scheduler_not_ready' });
    expect(await server.service.startScheduledRun('task-1', new Date('2026-03-02T09:00:00Z'), false)).toBeUndefined();
  });

  it('a long run overtaken by 20 quick runs of its task still gets its outcome recorded', async () => {
    const server = new Server(new InMemoryEventStore(), '2026-03-01T00:00:00Z', 'UTC');
    await server.schedule({ type: 'daily', hour: 9, minute: 0 });
    let release!: () => void;
    server.launcher.answer = () => new Promise((resolve) => (release = () => resolve({ reason: 'completed', detail: 'done at last' })));
    const long = await server.service.runNow('task-1');
    server.launcher.answer = async () => ({ reason: 'completed', detail: 'quick' });
    for (let i = 0; i < 20; i++) await server.service.runNow('task-1');
    release();
    await server.service.whenIdle();
    const finished = (await server.store.readStream(SCHEDULED_TASKS_STREAM_ID)).filter((e) => e.type === 'TaskRunFinished').map((e) => (e.data as { runId: string }).runId);
    expect(finished).toHaveLength(21);
    expect(finished).toContain(long.runId);
    expect(server.logs.filter((line) => line.startsWith('warn'))).toEqual([]);
  });

  it('reads the zone fresh at each tick: the setting changed elsewhere applies at the next tick; a tick that cannot read it starts nothing, and the next catches up', async () => {
    const store = new InMemoryEventStore();
    let clock = new Date('2026-03-01T00:00:00Z');
    // The setting as the store has it, and as this server last read it.
    let stored = 'UTC';
    let read = 'UTC';
    let storeDown = false;
    const launcher = new RecordingLauncher();
    const service = new ScheduledTaskService({
      store,
      launcher,
      timeZone: () => read,
      refreshTimeZone: async () => {
        if (storeDown) throw new Error('the config stream cannot be read');
        read = stored;
      },
      now: () => clock,
      newTaskId: () => 'task-1',
    });
    service.start();
    const scheduler = new TaskScheduler({ service, now: () => clock });
    await service.schedule({ name: 'Briefing', prompt: 'Run Briefing.', schedule: { type: 'daily', hour: 9, minute: 0 } });
    await scheduler.start({ timer: false });
    const tickAt = async (at: string) => {
      clock = new Date(at);
      const started = await scheduler.tick(clock);
      await service.whenIdle();
      return started.map((r) => r.sessionId);
    };

    // Another replica sets Tokyo: 09:00 there is 00:00Z.
    stored = 'Asia/Tokyo';
    expect(await tickAt('2026-03-02T00:01:00Z')).toEqual(['task-1-20260302T0000Z']);
    storeDown = true;
    clock = new Date('2026-03-03T00:01:00Z');
    await expect(scheduler.tick(clock)).rejects.toThrow('the config stream cannot be read');
    storeDown = false;
    expect(await tickAt('2026-03-03T00:02:00Z')).toEqual(['task-1-20260303T0000Z']);
  });
});
