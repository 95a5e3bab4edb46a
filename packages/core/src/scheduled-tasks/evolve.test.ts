import { describe, expect, it } from '@jest/globals';
import type { EventEnvelope } from '../events/event-envelope';
import { foldAggregate } from '../aggregate/aggregate';
import { evolveScheduledTasks } from './evolve';
import { initialScheduledTasksState } from './scheduled-task-state';
import { scheduledTasksAggregate } from './scheduled-tasks-aggregate';

let n = 0;
const event = (type: string, data: unknown, schemaVersion = 1): EventEnvelope => ({
  type,
  data,
  metadata: { eventId: `e${n++}`, occurredAt: '2026-03-01T08:00:00.000Z', correlationId: 'c', causationId: 'c', schemaVersion },
});
const scheduled = event('TaskScheduled', { taskId: 't1', name: 'N', prompt: 'P', schedule: { type: 'daily', hour: 7, minute: 0 }, agentId: 'default' });

describe('scheduled tasks evolve', () => {
  it('never fails on history: unknown types, malformed data, newer schemas and unknown tasks are skipped and counted (EST-17)', () => {
    const state = foldAggregate(
      scheduledTasksAggregate,
      [
        scheduled,
        event('TaskScheduled', { taskId: 't1', name: 'again', prompt: 'P', schedule: { type: 'daily', hour: 7, minute: 0 }, agentId: 'default' }),
        event('TaskScheduled', { taskId: 't2', name: 'N', prompt: 'P', schedule: { type: 'daily', hour: 99, minute: 0 }, agentId: 'default' }),
        event('TaskSomethingNew', { taskId: 't1' }),
        event('TaskUpdated', { taskId: 't1', name: 'From the future' }, 2),
        event('TaskUpdated', { taskId: 'ghost', name: 'x' }),
        event('TaskUpdated', { taskId: 't1', schedule: { type: 'weekly', hour: 7, minute: 0 } }),
        event('TaskRunStarted', { taskId: 't1', runId: 'r1', sessionId: 's1', trigger: 'sometimes' }),
        event('TaskRunFinished', { taskId: 't1', runId: 'never-started', sessionId: 's', outcome: 'succeeded', reason: 'completed', detail: '' }),
        event('TaskDeleted', null),
      ],
      initialScheduledTasksState,
    );
    expect(state.skippedEvents).toBe(9);
    expect([...state.tasks.values()].map((t) => [t.taskId, t.name, t.schedule])).toEqual([['t1', 'N', { type: 'daily', hour: 7, minute: 0 }]]);
  });

  it('leaves the given state as it was', () => {
    const before = evolveScheduledTasks(initialScheduledTasksState, scheduled);
    const after = evolveScheduledTasks(before, event('TaskDeleted', { taskId: 't1' }));
    expect(before.tasks.size).toBe(1);
    expect(after.tasks.size).toBe(0);
    expect(initialScheduledTasksState.tasks.size).toBe(0);
  });

  it('replays events recorded with a padded task id (TaskDeleted {taskId: " t1"} of older versions) as events of that task', () => {
    const state = foldAggregate(
      scheduledTasksAggregate,
      [
        scheduled,
        event('TaskScheduled', { taskId: 't2', name: 'Other', prompt: 'P', schedule: { type: 'daily', hour: 8, minute: 0 }, agentId: 'default' }),
        event('TaskUpdated', { taskId: 't2 ', enabled: false }),
        event('TaskDeleted', { taskId: ' t1' }),
      ],
      initialScheduledTasksState,
    );
    expect(state.skippedEvents).toBe(0);
    expect([...state.tasks.values()].map((t) => [t.taskId, t.enabled])).toEqual([['t2', false]]);
  });

  it('replays a run an older version dropped while it ran (no TaskRunFinished) as still running, for the next start to finish', () => {
    const started = (runId: string) => event('TaskRunStarted', { taskId: 't1', runId, sessionId: runId, trigger: 'manual', late: false });
    const finished = (runId: string) => event('TaskRunFinished', { taskId: 't1', runId, sessionId: runId, outcome: 'succeeded', reason: 'completed', detail: '' });
    const quick = Array.from({ length: 20 }, (_, i) => [started(`m${i}`), finished(`m${i}`)]).flat();
    const state = foldAggregate(scheduledTasksAggregate, [scheduled, started('long'), ...quick], initialScheduledTasksState);
    expect(
      state.tasks
        .get('t1')
        ?.runs.filter((r) => r.status === 'running')
        .map((r) => r.runId),
    ).toEqual(['long']);
  });
});
