import type { Aggregate } from '../aggregate/aggregate';
import { decideScheduledTasks } from './decide';
import { evolveScheduledTasks } from './evolve';
import type { ScheduledTaskCommand } from './scheduled-task-commands';
import { SCHEDULED_TASK_EVENT_SCHEMA_VERSION, SCHEDULED_TASKS_STREAM_ID, type ScheduledTaskEvent } from './scheduled-task-events';
import { initialScheduledTasksState, type ScheduledTasksState } from './scheduled-task-state';

/** Every scheduled task and run, in the `scheduled-tasks` stream. */
export const scheduledTasksAggregate: Aggregate<ScheduledTasksState, ScheduledTaskCommand, ScheduledTaskEvent> = {
  streamId: SCHEDULED_TASKS_STREAM_ID,
  initialState: initialScheduledTasksState,
  schemaVersion: SCHEDULED_TASK_EVENT_SCHEMA_VERSION,
  decide: (command, state, { now }) => decideScheduledTasks(command, state, now),
  evolve: evolveScheduledTasks,
};
