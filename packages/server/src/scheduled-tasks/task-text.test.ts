import { describe, expect, it } from '@jest/globals';
import type { ScheduledTask, TaskRun } from '@oneclaw/core';
import { describeSchedule, describeTask, formatLocal } from './task-text';

const task = (overrides: Partial<ScheduledTask> = {}): ScheduledTask => ({
  taskId: 'task-1',
  name: 'Once',
  prompt: 'Remind me\nto call Ada.',
  schedule: { type: 'one_time', date: '2026-03-01', hour: 7, minute: 5 },
  enabled: true,
  agentId: 'default',
  createdAt: '2026-02-28T10:00:00.000Z',
  updatedAt: '2026-02-28T10:00:00.000Z',
  activeSince: '2026-02-28T10:00:00.000Z',
  completed: true,
  runs: [],
  ...overrides,
});
const run = (overrides: Partial<TaskRun>): TaskRun => ({
  runId: 'task-1-20260301T0605Z',
  sessionId: 'task-1-20260301T0605Z',
  trigger: 'schedule',
  scheduledFor: '2026-03-01T06:05:00.000Z',
  late: false,
  startedAt: '2026-03-01T09:00:00.000Z',
  status: 'running',
  ...overrides,
});

describe('task text', () => {
  it('says schedules in words and instants on the zone clock', () => {
    expect(describeSchedule({ type: 'daily', hour: 7, minute: 5 })).toBe('every day at 07:05');
    expect(describeSchedule({ type: 'weekly', dayOfWeek: 'wednesday', hour: 18, minute: 0 })).toBe('every Wednesday at 18:00');
    expect(describeSchedule({ type: 'one_time', date: '2026-03-01', hour: 0, minute: 0 })).toBe('once on 2026-03-01 at 00:00');
    expect(formatLocal('2026-03-01T23:30:00.000Z', 'Asia/Tokyo')).toBe('Mon 2026-03-02 08:30');
  });

  it('a late run, a run with no outcome (on another replica or cut off), and a one-time task that ran', () => {
    const late = describeTask(task({ runs: [run({ late: true, status: 'succeeded', reason: 'completed', detail: 'Answered.' })] }), undefined, 'Europe/Berlin', false);
    expect(late.split('\n')).toEqual([
      '- task-1 "Once": once on 2026-03-01 at 07:05; enabled',
      '  next run: none (it ran once; give it a new date to run it again)',
      '  last run: Sun 2026-03-01 10:00, late: its time passed while the server was down, session task-1-20260301T0605Z: succeeded (completed: Answered.)',
      '  prompt: Remind me to call Ada.',
    ]);
    expect(describeTask(task({ runs: [run({})] }), undefined, 'Europe/Berlin', false)).toContain(
      'session task-1-20260301T0605Z: started, no outcome recorded yet (if the server stopped during it, open the session to see how far it got)',
    );
    expect(describeTask(task({ runs: [run({})] }), undefined, 'Europe/Berlin', true)).toContain('session task-1-20260301T0605Z: running now');
  });
});
