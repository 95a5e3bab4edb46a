import { beforeEach, describe, expect, it } from '@jest/globals';
import { InMemoryEventStore, SCHEDULED_TASKS_STREAM_ID } from '@oneclaw/core';
import { ToolExecutionEngine, ToolRegistry, type ToolResult } from '@oneclaw/tool-registry';
import { ScheduledTaskService } from '../../../scheduled-tasks/scheduled-task-service';
import type { TaskRunLauncher, TaskRunRequest, TaskRunResult } from '../../../scheduled-tasks/task-run-launcher';
import { BUILTIN_GROUPS } from '../builtin-tools';
import { createScheduledTaskTools } from './scheduled-task-tools';

const ZONE = 'Europe/Berlin';
/** Sunday 2026-03-01 09:00 in Berlin. */
const NOW = new Date('2026-03-01T08:00:00Z');

/** Stands in for the TurnRunner (the e2e test runs real turns); a run ends when the test says so. */
class HeldLauncher implements TaskRunLauncher {
  readonly requests: TaskRunRequest[] = [];
  private readonly pending: Array<(result: TaskRunResult) => void> = [];

  run(request: TaskRunRequest): Promise<TaskRunResult> {
    this.requests.push(request);
    return new Promise((resolve) => this.pending.push(resolve));
  }

  finishAll(result: TaskRunResult = { reason: 'completed', detail: 'Answered after 1 model request(s).' }): void {
    for (const resolve of this.pending.splice(0)) resolve(result);
  }
}

let store: InMemoryEventStore;
let service: ScheduledTaskService;
let launcher: HeldLauncher;
let engine: ToolExecutionEngine;
let registry: ToolRegistry;
let calls: number;

function build(start = true): void {
  let n = 0;
  launcher = new HeldLauncher();
  service = new ScheduledTaskService({ store, launcher, timeZone: () => ZONE, now: () => NOW, newTaskId: () => `task-${++n}` });
  if (start) service.start();
  registry = new ToolRegistry();
  registry.registerGroup(BUILTIN_GROUPS.scheduled_tasks, { kind: 'built-in', fileName: 'scheduled-task-tools.ts' });
  for (const tool of createScheduledTaskTools(service)) registry.register(tool, { kind: 'built-in', fileName: 'scheduled-task-tools.ts', group: 'scheduled_tasks' });
  engine = new ToolExecutionEngine(registry);
}

beforeEach(async () => {
  store = new InMemoryEventStore();
  calls = 0;
  // The calling session runs the "planner" agent: tasks scheduled from it run with that agent.
  await store.append(
    'session-chat',
    [
      {
        type: 'SessionStarted',
        data: { sessionId: 'chat', agentId: 'planner' },
        metadata: { eventId: 'start', occurredAt: NOW.toISOString(), correlationId: 'c', causationId: 'c', schemaVersion: 1 },
      },
    ],
    { expectedRevision: 'no_stream' },
  );
  build();
});

/** `messageId`: the model reply that made the call (the turn runner passes it; call ids repeat across replies). */
async function call(toolName: string, args: Record<string, unknown>, callId = `c${++calls}`, messageId?: string): Promise<ToolResult> {
  const outcome = await engine.execute({ callId, toolName, arguments: args }, { sessionId: 'chat', ...(messageId ? { messageId } : {}), activeToolNames: registry.toolNames() });
  return outcome.result;
}

async function text(toolName: string, args: Record<string, unknown> = {}, callId?: string, messageId?: string): Promise<string> {
  const result = await call(toolName, args, callId, messageId);
  if (result.status !== 'success') throw new Error(`expected success, got ${result.errorType}: ${result.message}`);
  return result.result;
}

async function expectError(toolName: string, args: Record<string, unknown>, errorType: string, needle?: string): Promise<void> {
  const before = await store.readStream(SCHEDULED_TASKS_STREAM_ID);
  const result = await call(toolName, args);
  expect(result).toMatchObject({ status: 'error', errorType });
  if (needle) expect(result.status === 'error' ? result.message : '').toContain(needle);
  // A refused call records nothing.
  expect(await store.readStream(SCHEDULED_TASKS_STREAM_ID)).toHaveLength(before.length);
}

const daily = { name: 'Morning briefing', prompt: 'Summarise my calendar for today.', schedule_type: 'daily', hour: 7, minute: 30 };

describe('scheduled_tasks group registration (issue 6)', () => {
  it('registers the five tools in the group, in the catalogue order, with 10 s timeouts', () => {
    const names = ['schedule_task', 'list_scheduled_tasks', 'run_scheduled_task', 'update_scheduled_task', 'delete_scheduled_task'];
    expect(registry.groupToolNames('scheduled_tasks')).toEqual(names);
    for (const name of names) expect(registry.definition(name)?.timeoutMs).toBe(10_000);
  });
});

describe('schedule_task', () => {
  it('schedules daily, weekly and one-time tasks and answers with the id, the schedule in words, the zone and the next run', async () => {
    expect(await text('schedule_task', daily)).toBe(
      'Scheduled task task-1 "Morning briefing": every day at 07:30 (Europe/Berlin); enabled; next run: Mon 2026-03-02 07:30. Each run starts a new conversation with the prompt.',
    );
    expect(await text('schedule_task', { ...daily, name: 'Weekly review', schedule_type: 'weekly', day_of_week: 'Friday', hour: 17, minute: 0 })).toContain(
      'task-2 "Weekly review": every Friday at 17:00 (Europe/Berlin); enabled; next run: Fri 2026-03-06 17:00',
    );
    expect(await text('schedule_task', { ...daily, name: 'Dentist', schedule_type: 'one_time', date: '2026-03-01', hour: 9, minute: 0 })).toContain(
      'task-3 "Dentist": once on 2026-03-01 at 09:00 (Europe/Berlin); enabled; next run: Sun 2026-03-01 09:00',
    );
    const [first] = await store.readStream(SCHEDULED_TASKS_STREAM_ID);
    expect(first?.data).toEqual({
      taskId: 'task-1',
      name: 'Morning briefing',
      prompt: 'Summarise my calendar for today.',
      schedule: { type: 'daily', hour: 7, minute: 30 },
      agentId: 'planner',
      sourceSessionId: 'chat',
    });
  });

  it.each([
    ['weekly without day_of_week', { schedule_type: 'weekly' }, 'A weekly task needs day_of_week'],
    ['weekly on a made-up day', { schedule_type: 'weekly', day_of_week: 'funday' }, 'is not a day'],
    ['one_time without a date', { schedule_type: 'one_time' }, 'A one_time task needs a date'],
    ['one_time in the past', { schedule_type: 'one_time', date: '2026-03-01', hour: 8, minute: 59 }, 'is in the past (it is now 2026-03-01 09:00 in Europe/Berlin)'],
    ['one_time on 2026-02-30', { schedule_type: 'one_time', date: '2026-02-30' }, 'does not exist in the calendar'],
    ['a malformed date', { schedule_type: 'one_time', date: 'next tuesday' }, 'use YYYY-MM-DD'],
    ['hour 24', { hour: 24 }, 'hour must be a whole number from 0 to 23'],
    ['minute -1', { minute: -1 }, 'minute must be a whole number from 0 to 59'],
    ['a date on a daily task', { date: '2026-03-05' }, 'date is only for one_time tasks'],
  ])('refuses %s as invalid_schedule', async (_, change, needle) => {
    await expectError('schedule_task', { ...daily, ...change }, 'invalid_schedule', needle);
  });

  it('refuses a blank name as invalid_task', async () => {
    await expectError('schedule_task', { ...daily, name: '   ' }, 'invalid_task', 'name must be 1 to 200 characters');
  });

  it.each([
    ['no name', { name: undefined }],
    ['no hour', { hour: undefined }],
    ['an unknown schedule_type', { schedule_type: 'hourly' }],
    ['the hour as text', { hour: '7' }],
    ['an empty prompt', { prompt: '' }],
  ])('refuses bad input (%s) with validation_error before running', async (_, change) => {
    await expectError('schedule_task', { ...daily, ...change }, 'validation_error');
  });
});

describe('list_scheduled_tasks', () => {
  it('says when there are none', async () => {
    expect(await text('list_scheduled_tasks')).toBe('No scheduled tasks. Create one with schedule_task (times are in Europe/Berlin).');
  });

  it('lists each task with its schedule in words, enabled, next run and last run (time, status, session)', async () => {
    await text('schedule_task', daily);
    await text('schedule_task', { ...daily, name: 'Paused', schedule_type: 'weekly', day_of_week: 'monday' });
    await text('update_scheduled_task', { task_id: 'task-2', enabled: false });
    await text('run_scheduled_task', { task_id: 'task-1' }, 'run-call');
    const running = await text('list_scheduled_tasks');
    expect(running).toContain('2 scheduled tasks (times in Europe/Berlin):');
    expect(running).toMatch(/last run: Sun 2026-03-01 09:00, started by hand, session task-1-run-[0-9a-f]{12}: running now/);
    launcher.finishAll();
    await service.whenIdle();
    expect((await text('list_scheduled_tasks')).split('\n')).toEqual([
      '2 scheduled tasks (times in Europe/Berlin):',
      '- task-1 "Morning briefing": every day at 07:30; enabled',
      '  next run: Mon 2026-03-02 07:30',
      `  last run: Sun 2026-03-01 09:00, started by hand, session ${launcher.requests[0]?.sessionId}: succeeded (completed: Answered after 1 model request(s).)`,
      '  prompt: Summarise my calendar for today.',
      '- task-2 "Paused": every Monday at 07:30; disabled',
      '  next run: none (disabled)',
      '  last run: never',
      '  prompt: Summarise my calendar for today.',
    ]);
  });
});

describe('run_scheduled_task', () => {
  it('starts a run in a new session with the task agent and prompt, and answers at once without waiting for the turn', async () => {
    await text('schedule_task', daily);
    const answer = await text('run_scheduled_task', { task_id: 'task-1' });
    // The run is still going (the launcher holds it): the tool did not wait.
    expect(launcher.requests).toHaveLength(1);
    const request = launcher.requests[0] as TaskRunRequest;
    expect(answer).toBe(
      `Started task task-1 now in session ${request.sessionId}. It runs in the background: its answer will be in that session, and list_scheduled_tasks shows how it ended.`,
    );
    expect(request).toMatchObject({ agentId: 'planner', prompt: 'Summarise my calendar for today.' });
    expect(request.sessionId).toMatch(/^task-1-run-[0-9a-f]{12}$/);
    launcher.finishAll({ reason: 'round_cap', detail: 'Stopped after 20 model requests.' });
    await service.whenIdle();
    const types = (await store.readStream(SCHEDULED_TASKS_STREAM_ID)).map((e) => e.type);
    expect(types).toEqual(['TaskScheduled', 'TaskRunStarted', 'TaskRunFinished']);
    expect((await service.list())[0]?.task.runs[0]).toMatchObject({ trigger: 'manual', status: 'failed', reason: 'round_cap' });
  });

  it('runs a disabled task too (the user asked), and the same call starts it only once', async () => {
    await text('schedule_task', daily);
    await text('update_scheduled_task', { task_id: 'task-1', enabled: false });
    await text('run_scheduled_task', { task_id: 'task-1' }, 'same-call');
    expect(await text('run_scheduled_task', { task_id: 'task-1' }, 'same-call')).toMatch(/^This call already started task task-1, in session task-1-run-/);
    expect(launcher.requests).toHaveLength(1);
    launcher.finishAll();
    await service.whenIdle();
  });

  it('a call id repeated by a later reply (Gemini: gemini-0-run_scheduled_task in every reply) starts a run of its own; the same call of the same reply still starts one', async () => {
    await text('schedule_task', daily);
    const first = await text('run_scheduled_task', { task_id: 'task-1' }, 'gemini-0-run_scheduled_task', 'turn-a-assistant-1');
    expect(first).toMatch(/^Started task task-1 now in session task-1-run-/);
    expect(await text('run_scheduled_task', { task_id: 'task-1' }, 'gemini-0-run_scheduled_task', 'turn-a-assistant-1')).toMatch(/^This call already started task task-1/);
    const second = await text('run_scheduled_task', { task_id: 'task-1' }, 'gemini-0-run_scheduled_task', 'turn-b-assistant-1');
    expect(second).toMatch(/^Started task task-1 now in session task-1-run-/);
    expect(launcher.requests.map((r) => r.sessionId)).toEqual([/in session (\S+)\./.exec(first)?.[1], /in session (\S+)\./.exec(second)?.[1]]);
    expect(new Set(launcher.requests.map((r) => r.sessionId)).size).toBe(2);
    launcher.finishAll();
    await service.whenIdle();
  });

  it('refuses an unknown task (not_found), a missing task_id (validation_error), and runs before the scheduler is ready (scheduler_not_ready)', async () => {
    await expectError('run_scheduled_task', { task_id: 'task-9' }, 'not_found', 'Call list_scheduled_tasks to see the task ids');
    await expectError('run_scheduled_task', {}, 'validation_error');
    await text('schedule_task', daily);
    build(false);
    await expectError('run_scheduled_task', { task_id: 'task-1' }, 'scheduler_not_ready', 'try again in a moment');
  });
});

describe('update_scheduled_task', () => {
  beforeEach(async () => {
    await text('schedule_task', { ...daily, schedule_type: 'weekly', day_of_week: 'friday' });
  });

  it('changes only what is given: the hour keeps the day; a new type takes what it needs', async () => {
    expect(await text('update_scheduled_task', { task_id: 'task-1', hour: 8 })).toBe(
      'Updated task task-1 "Morning briefing": every Friday at 08:30 (Europe/Berlin); enabled; next run: Fri 2026-03-06 08:30.',
    );
    expect(await text('update_scheduled_task', { task_id: 'task-1', schedule_type: 'one_time', date: '2026-03-10', name: 'Once', prompt: 'New prompt' })).toContain(
      'task-1 "Once": once on 2026-03-10 at 08:30',
    );
    expect(await text('update_scheduled_task', { task_id: 'task-1', schedule_type: 'daily', minute: 0 })).toContain('every day at 08:00');
    expect((await service.list())[0]?.task).toMatchObject({ name: 'Once', prompt: 'New prompt', schedule: { type: 'daily', hour: 8, minute: 0 } });
  });

  it('pauses and resumes; a call that changes nothing says so and records nothing', async () => {
    expect(await text('update_scheduled_task', { task_id: 'task-1', enabled: false })).toContain('; disabled; next run: none (disabled).');
    expect(await text('update_scheduled_task', { task_id: 'task-1', enabled: true })).toContain('; enabled; next run: Fri 2026-03-06 07:30.');
    const before = (await store.readStream(SCHEDULED_TASKS_STREAM_ID)).length;
    expect(await text('update_scheduled_task', { task_id: 'task-1', hour: 7, enabled: true })).toMatch(/^Nothing to change: task task-1/);
    expect(await store.readStream(SCHEDULED_TASKS_STREAM_ID)).toHaveLength(before);
  });

  it('refuses an unknown task, an inconsistent schedule, a past date, and bad input', async () => {
    await expectError('update_scheduled_task', { task_id: 'task-9', hour: 8 }, 'not_found');
    await expectError('update_scheduled_task', { task_id: 'task-1', schedule_type: 'one_time' }, 'invalid_schedule', 'A one_time task needs a date');
    await expectError('update_scheduled_task', { task_id: 'task-1', schedule_type: 'one_time', date: '2026-02-28' }, 'invalid_schedule', 'is in the past');
    await expectError('update_scheduled_task', { task_id: 'task-1', date: '2026-03-05' }, 'invalid_schedule', 'date is only for one_time tasks');
    await expectError('update_scheduled_task', { task_id: 'task-1', minute: 75 }, 'invalid_schedule');
    await expectError('update_scheduled_task', { task_id: 'task-1', name: ' ' }, 'invalid_task');
    await expectError('update_scheduled_task', { task_id: 'task-1', enabled: 'yes' }, 'validation_error');
    await expectError('update_scheduled_task', { hour: 8 }, 'validation_error');
  });
});

describe('delete_scheduled_task', () => {
  it('deletes the task; it is gone from the list and a second delete is not_found', async () => {
    await text('schedule_task', daily);
    expect(await text('delete_scheduled_task', { task_id: 'task-1' })).toBe('Deleted task task-1 "Morning briefing" (every day at 07:30).');
    expect(await text('list_scheduled_tasks')).toMatch(/^No scheduled tasks/);
    await expectError('delete_scheduled_task', { task_id: 'task-1' }, 'not_found');
    await expectError('delete_scheduled_task', {}, 'validation_error');
  });

  it('deletes a task given with spaces around its id (it stayed, running, though the answer said deleted)', async () => {
    await text('schedule_task', daily);
    expect(await text('delete_scheduled_task', { task_id: ' task-1 ' })).toBe('Deleted task task-1 "Morning briefing" (every day at 07:30).');
    expect(await text('list_scheduled_tasks')).toMatch(/^No scheduled tasks/);
  });
});
