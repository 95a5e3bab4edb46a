export * from './scheduled-task-events';
export type * from './scheduled-task-commands';
export { ScheduledTaskRuleError, scheduledTaskErrors } from './scheduled-task-errors';
export { initialScheduledTasksState, lastRunOf, MAX_RUNS_KEPT, type ScheduledTask, type ScheduledTasksState, type TaskRun } from './scheduled-task-state';
export {
  DAYS_OF_WEEK,
  SCHEDULE_TYPES,
  localMinuteOf,
  mergeSchedule,
  parseSchedule,
  type DayOfWeek,
  type ScheduleInput,
  type ScheduleType,
  type TaskSchedule,
} from './task-schedule';
export { decideScheduledTasks, MAX_RUN_DETAIL_CHARS, MAX_TASK_NAME_CHARS, MAX_TASK_PROMPT_CHARS } from './decide';
export { evolveScheduledTasks } from './evolve';
export { scheduledTasksAggregate } from './scheduled-tasks-aggregate';
