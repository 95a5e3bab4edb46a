import { describe, expect, it } from '@jest/globals';
import { deciderScenario } from '../testing/decider-scenario';
import { MAX_RUN_DETAIL_CHARS } from './decide';
import type { ScheduleTask } from './scheduled-task-commands';
import type { ScheduledTask } from './scheduled-task-state';
import { scheduledTasksAggregate } from './scheduled-tasks-aggregate';

const ZONE = 'Europe/Berlin';
/** 2026-03-01 09:00 in Berlin. */
const NOW = '2026-03-01T08:00:00.000Z';

/** The scheduled-tasks decider, its clock at NOW until a test moves it (`at`), and the task `t1` (or another) as it is. */
function newTasks() {
  const scenario = deciderScenario(scheduledTasksAggregate, { context: {}, clock: () => new Date(NOW), idPrefix: 'c' });
  return Object.assign(scenario, { task: (taskId = 't1') => scenario.state().tasks.get(taskId) as ScheduledTask });
}

const schedule = (overrides: Partial<ScheduleTask> = {}): ScheduleTask => ({
  type: 'ScheduleTask',
  taskId: 't1',
  name: 'Morning briefing',
  prompt: 'Summarise my day.',
  schedule: { type: 'daily', hour: 7, minute: 30 },
  agentId: 'default',
  sourceSessionId: 'chat-1',
  timeZone: ZONE,
  ...overrides,
});

describe('scheduled tasks decider', () => {
  it('ScheduleTask records TaskScheduled with the canonical schedule, the agent and the source session', () => {
    const tasks = newTasks();
    tasks.when(schedule({ name: '  Morning briefing ', schedule: { type: 'weekly', dayOfWeek: 'Monday', hour: 7, minute: 30 } })).then([
      {
        type: 'TaskScheduled',
        data: {
          taskId: 't1',
          name: 'Morning briefing',
          prompt: 'Summarise my day.',
          schedule: { type: 'weekly', dayOfWeek: 'monday', hour: 7, minute: 30 },
          agentId: 'default',
          sourceSessionId: 'chat-1',
        },
      },
    ]);
    expect(tasks.task()).toMatchObject({ enabled: true, completed: false, createdAt: NOW, activeSince: NOW, runs: [] });
  });

  it('refuses a second task with the same id (task_exists)', () => {
    const tasks = newTasks();
    tasks.record(schedule());
    tasks.when(schedule()).thenThrows('task_exists');
  });

  it.each([
    ['an empty name', { name: '   ' }, 'invalid_task'],
    ['a name over 200 characters', { name: 'x'.repeat(201) }, 'invalid_task'],
    ['an empty prompt', { prompt: '' }, 'invalid_task'],
    ['a prompt over 20 000 characters', { prompt: 'x'.repeat(20_001) }, 'invalid_task'],
    ['weekly without day_of_week', { schedule: { type: 'weekly', hour: 7, minute: 0 } }, 'invalid_schedule'],
    ['hour 25', { schedule: { type: 'daily', hour: 25, minute: 0 } }, 'invalid_schedule'],
    ['2026-02-30', { schedule: { type: 'one_time', date: '2026-02-30', hour: 7, minute: 0 } }, 'invalid_schedule'],
    ['an unknown zone', { timeZone: 'Mars/Olympus', schedule: { type: 'one_time', date: '2026-03-02', hour: 7, minute: 0 } }, 'invalid_time_zone'],
    ['no agent', { agentId: '' }, 'invalid_command'],
  ])('refuses %s', (_, overrides, code) => {
    newTasks()
      .when(schedule(overrides as Partial<ScheduleTask>))
      .thenThrows(code);
  });

  it('a one-time task must not be in the past on the wall clock of the given zone; the current minute still counts', () => {
    const tasks = newTasks();
    // 09:00 in Berlin: 08:59 today is past, 09:00 is not.
    tasks
      .when(schedule({ schedule: { type: 'one_time', date: '2026-03-01', hour: 8, minute: 59 } }))
      .thenThrows('invalid_schedule', '2026-03-01 08:59 is in the past (it is now 2026-03-01 09:00 in Europe/Berlin)');
    expect(tasks.record(schedule({ schedule: { type: 'one_time', date: '2026-03-01', hour: 9, minute: 0 } }))).toHaveLength(1);
    // The same instant is 03:00 in New York: 08:30 there is still ahead.
    expect(tasks.record(schedule({ taskId: 't2', timeZone: 'America/New_York', schedule: { type: 'one_time', date: '2026-03-01', hour: 8, minute: 30 } }))).toHaveLength(1);
  });

  describe('UpdateTask', () => {
    it('records only what changed, merging schedule fields into the current schedule', () => {
      const tasks = newTasks();
      tasks.record(schedule({ schedule: { type: 'weekly', dayOfWeek: 'friday', hour: 7, minute: 30 } }));
      const events = tasks
        .at('2026-03-01T09:00:00.000Z')
        .record({ type: 'UpdateTask', taskId: 't1', name: 'Morning briefing', prompt: 'New prompt', schedule: { hour: 8 }, timeZone: ZONE });
      expect(events.map((e) => e.data)).toEqual([{ taskId: 't1', prompt: 'New prompt', schedule: { type: 'weekly', dayOfWeek: 'friday', hour: 8, minute: 30 } }]);
      expect(tasks.task()).toMatchObject({ prompt: 'New prompt', updatedAt: '2026-03-01T09:00:00.000Z', activeSince: '2026-03-01T09:00:00.000Z' });
    });

    it('records nothing when nothing changes', () => {
      const tasks = newTasks();
      tasks.record(schedule());
      expect(tasks.record({ type: 'UpdateTask', taskId: 't1', name: 'Morning briefing', schedule: { hour: 7 }, enabled: true, timeZone: ZONE })).toEqual([]);
      expect(tasks.record({ type: 'UpdateTask', taskId: 't1', timeZone: ZONE })).toEqual([]);
    });

    it('refuses an unknown task (not_found), a schedule made inconsistent, a past one-time time, and a bad name', () => {
      const tasks = newTasks();
      tasks.record(schedule());
      tasks.when({ type: 'UpdateTask', taskId: 'nope', name: 'x', timeZone: ZONE }).thenThrows('not_found', 'list_scheduled_tasks');
      tasks.when({ type: 'UpdateTask', taskId: 't1', schedule: { type: 'weekly' }, timeZone: ZONE }).thenThrows('invalid_schedule');
      tasks.when({ type: 'UpdateTask', taskId: 't1', schedule: { type: 'one_time' }, timeZone: ZONE }).thenThrows('invalid_schedule');
      tasks.when({ type: 'UpdateTask', taskId: 't1', schedule: { type: 'one_time', date: '2026-02-28' }, timeZone: ZONE }).thenThrows('invalid_schedule');
      tasks.when({ type: 'UpdateTask', taskId: 't1', schedule: { minute: 61 }, timeZone: ZONE }).thenThrows('invalid_schedule');
      tasks.when({ type: 'UpdateTask', taskId: 't1', name: '', timeZone: ZONE }).thenThrows('invalid_task');
      tasks.when({ type: 'UpdateTask', taskId: 't1', enabled: 'yes' as unknown as boolean, timeZone: ZONE }).thenThrows('invalid_command');
    });

    it('disabling and re-enabling: enabling moves activeSince, so slots before it are not run', () => {
      const tasks = newTasks();
      tasks.record(schedule());
      tasks.at('2026-03-01T09:00:00.000Z').record({ type: 'UpdateTask', taskId: 't1', enabled: false, timeZone: ZONE });
      expect(tasks.task()).toMatchObject({ enabled: false, activeSince: NOW });
      tasks.at('2026-03-01T10:00:00.000Z').record({ type: 'UpdateTask', taskId: 't1', enabled: true, timeZone: ZONE });
      expect(tasks.task()).toMatchObject({ enabled: true, activeSince: '2026-03-01T10:00:00.000Z' });
    });

    it('refuses to enable a one-time task whose time has passed or that already ran, until it gets a new time', () => {
      const tasks = newTasks();
      tasks.record(schedule({ schedule: { type: 'one_time', date: '2026-03-01', hour: 10, minute: 0 } }));
      tasks.record({ type: 'UpdateTask', taskId: 't1', enabled: false, timeZone: ZONE });
      tasks.at('2026-03-01T12:00:00.000Z').when({ type: 'UpdateTask', taskId: 't1', enabled: true, timeZone: ZONE }).thenThrows('invalid_schedule', 'is in the past');
      // With a new date in the same update it is fine.
      expect(tasks.at('2026-03-01T12:00:00.000Z').record({ type: 'UpdateTask', taskId: 't1', enabled: true, schedule: { date: '2026-03-02' }, timeZone: ZONE })).toHaveLength(1);

      const ran = newTasks();
      ran.record(schedule({ schedule: { type: 'one_time', date: '2026-03-01', hour: 10, minute: 0 } }));
      ran.record({ type: 'StartTaskRun', taskId: 't1', runId: 'r1', sessionId: 's1', trigger: 'schedule', scheduledFor: '2026-03-01T09:00:00.000Z' });
      ran.record({ type: 'UpdateTask', taskId: 't1', enabled: false, timeZone: ZONE });
      ran.when({ type: 'UpdateTask', taskId: 't1', enabled: true, timeZone: ZONE }).thenThrows('invalid_schedule', 'ran once already');
    });

    it('a new schedule makes a completed one-time task pending again', () => {
      const tasks = newTasks();
      tasks.record(schedule({ schedule: { type: 'one_time', date: '2026-03-01', hour: 10, minute: 0 } }));
      tasks.record({ type: 'StartTaskRun', taskId: 't1', runId: 'r1', sessionId: 's1', trigger: 'schedule', scheduledFor: '2026-03-01T09:00:00.000Z' });
      expect(tasks.task().completed).toBe(true);
      tasks.at('2026-03-01T10:00:00.000Z').record({ type: 'UpdateTask', taskId: 't1', schedule: { date: '2026-03-05' }, timeZone: ZONE });
      expect(tasks.task()).toMatchObject({ completed: false, schedule: { date: '2026-03-05' } });
    });
  });

  it('DeleteTask removes the task; deleting it again is not_found', () => {
    const tasks = newTasks();
    tasks.record(schedule());
    expect(tasks.record({ type: 'DeleteTask', taskId: 't1' }).map((e) => e.type)).toEqual(['TaskDeleted']);
    expect(tasks.state().tasks.size).toBe(0);
    tasks.when({ type: 'DeleteTask', taskId: 't1' }).thenThrows('not_found');
  });

  it("DeleteTask with a padded id records the task's own id, so the task is really gone", () => {
    const tasks = newTasks();
    tasks.record(schedule());
    expect(tasks.record({ type: 'DeleteTask', taskId: ' t1\n' }).map((e) => e.data)).toEqual([{ taskId: 't1' }]);
    expect(tasks.state().tasks.size).toBe(0);
  });

  describe('StartTaskRun', () => {
    const slot = '2026-03-02T06:30:00.000Z';
    const start = (runId: string, scheduledFor?: string) =>
      ({ type: 'StartTaskRun', taskId: 't1', runId, sessionId: `s-${runId}`, trigger: scheduledFor ? 'schedule' : 'manual', ...(scheduledFor ? { scheduledFor } : {}) }) as const;

    it('records a scheduled run once per slot: the same run id, the same slot or an earlier one records nothing', () => {
      const tasks = newTasks();
      tasks.record(schedule());
      expect(tasks.record(start('r1', slot)).map((e) => e.data)).toEqual([{ taskId: 't1', runId: 'r1', sessionId: 's-r1', trigger: 'schedule', scheduledFor: slot, late: false }]);
      expect(tasks.task()).toMatchObject({ lastScheduledFor: slot, runs: [{ runId: 'r1', status: 'running', startedAt: NOW }] });
      expect(tasks.record(start('r1', slot))).toEqual([]);
      expect(tasks.record(start('r1-again', slot))).toEqual([]);
      expect(tasks.record(start('r0', '2026-03-01T06:30:00.000Z'))).toEqual([]);
      expect(tasks.record(start('r2', '2026-03-03T06:30:00.000Z'))).toHaveLength(1);
    });

    it('a disabled task starts no scheduled run but can be run by hand; a one-time task runs its slot once', () => {
      const tasks = newTasks();
      tasks.record(schedule());
      tasks.record({ type: 'UpdateTask', taskId: 't1', enabled: false, timeZone: ZONE });
      expect(tasks.record(start('r1', slot))).toEqual([]);
      expect(tasks.record(start('m1')).map((e) => e.data)).toEqual([{ taskId: 't1', runId: 'm1', sessionId: 's-m1', trigger: 'manual', late: false }]);

      const once = newTasks();
      once.record(schedule({ schedule: { type: 'one_time', date: '2026-03-02', hour: 7, minute: 30 } }));
      expect(once.record({ ...start('o1', slot), late: true }).map((e) => e.data)).toEqual([expect.objectContaining({ late: true })]);
      expect(once.task().completed).toBe(true);
      expect(once.record(start('o2', '2026-03-09T06:30:00.000Z'))).toEqual([]);
    });

    it('refuses a run of an unknown task, a scheduled run without its slot, and an unknown trigger', () => {
      const tasks = newTasks();
      tasks.when(start('r1', slot)).thenThrows('not_found');
      tasks.record(schedule());
      tasks.when({ type: 'StartTaskRun', taskId: 't1', runId: 'r1', sessionId: 's', trigger: 'schedule' }).thenThrows('invalid_command');
      tasks.when({ type: 'StartTaskRun', taskId: 't1', runId: 'r1', sessionId: 's', trigger: 'cron' as 'manual' }).thenThrows('invalid_command');
      tasks.when({ type: 'StartTaskRun', taskId: 't1', runId: '', sessionId: 's', trigger: 'manual' }).thenThrows('invalid_command');
    });

    const finish = (runId: string) => ({ type: 'FinishTaskRun', taskId: 't1', runId, outcome: 'succeeded', reason: 'completed', detail: '' }) as const;

    it('keeps the 20 most recent runs in the state', () => {
      const tasks = newTasks();
      tasks.record(schedule());
      for (let i = 0; i < 25; i++) {
        tasks.record(start(`m${i}`));
        tasks.record(finish(`m${i}`));
      }
      expect(tasks.task().runs.map((r) => r.runId)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 5}`));
    });

    it('never drops a run still running: 20 newer ones start and finish, and its outcome is still recorded', () => {
      const tasks = newTasks();
      tasks.record(schedule());
      tasks.record(start('long'));
      for (let i = 0; i < 20; i++) {
        tasks.record(start(`m${i}`));
        tasks.record(finish(`m${i}`));
      }
      // The oldest finished run made room.
      expect(tasks.task().runs.map((r) => r.runId)).toEqual(['long', ...Array.from({ length: 19 }, (_, i) => `m${i + 1}`)]);
      expect(tasks.record(finish('long')).map((e) => e.data)).toEqual([expect.objectContaining({ runId: 'long', outcome: 'succeeded' })]);
      expect(tasks.task().runs[0]).toMatchObject({ runId: 'long', status: 'succeeded' });
      // Finished now, it is the first to go.
      tasks.record(start('n0'));
      expect(tasks.task().runs.map((r) => r.runId)).toEqual([...Array.from({ length: 19 }, (_, i) => `m${i + 1}`), 'n0']);
    });

    it('keeps more than 20 runs only while more than 20 are running', () => {
      const tasks = newTasks();
      tasks.record(schedule());
      for (let i = 0; i < 22; i++) tasks.record(start(`m${i}`));
      expect(tasks.task().runs).toHaveLength(22);
      tasks.record(finish('m5'));
      tasks.record(finish('m0'));
      expect(tasks.task().runs.map((r) => r.runId)).toEqual(Array.from({ length: 22 }, (_, i) => `m${i}`).filter((id) => id !== 'm0' && id !== 'm5'));
    });
  });

  describe('FinishTaskRun', () => {
    const finish = (runId: string, outcome: 'succeeded' | 'failed' = 'succeeded') =>
      ({ type: 'FinishTaskRun', taskId: 't1', runId, outcome, reason: outcome === 'succeeded' ? 'completed' : 'provider_error', detail: 'd'.repeat(3000) }) as const;

    it('records the outcome once (a repeat records nothing), detail capped', () => {
      const tasks = newTasks();
      tasks.record(schedule());
      tasks.record({ type: 'StartTaskRun', taskId: 't1', runId: 'r1', sessionId: 's1', trigger: 'manual' });
      const [event] = tasks.at('2026-03-01T08:01:00.000Z').record(finish('r1', 'failed'));
      expect(event?.data).toMatchObject({ taskId: 't1', runId: 'r1', sessionId: 's1', outcome: 'failed', reason: 'provider_error' });
      expect((event?.data as { detail: string }).detail).toHaveLength(MAX_RUN_DETAIL_CHARS);
      expect(tasks.task().runs[0]).toMatchObject({ status: 'failed', reason: 'provider_error', finishedAt: '2026-03-01T08:01:00.000Z' });
      expect(tasks.record(finish('r1'))).toEqual([]);
    });

    it('refuses an unknown run (run_not_found), a deleted task (not_found) and an unknown outcome', () => {
      const tasks = newTasks();
      tasks.record(schedule());
      tasks.when(finish('r9')).thenThrows('run_not_found');
      tasks.record({ type: 'StartTaskRun', taskId: 't1', runId: 'r1', sessionId: 's1', trigger: 'manual' });
      tasks.when({ ...finish('r1'), outcome: 'maybe' as 'failed' }).thenThrows('invalid_command');
      tasks.when({ ...finish('r1'), reason: ' ' }).thenThrows('invalid_command');
      tasks.record({ type: 'DeleteTask', taskId: 't1' });
      tasks.when(finish('r1')).thenThrows('not_found');
    });
  });
});
