import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  OneClawError,
  scheduledTaskErrors,
  scheduledTasksAggregate,
  sessionStreamId,
  type EventStore,
  type ScheduledTask,
  type ScheduledTaskCommand,
  type ScheduledTaskEvent,
  type ScheduledTasksState,
  type ScheduleInput,
} from '@oneclaw/core';
import { DEFAULT_AGENT_ID } from '../agents/agent-directory';
import { AggregateRepository } from '../persistence/aggregate-repository';
import { oneTimeSlot, slotAfter } from './schedule-calendar';
import type { TaskRunLauncher } from './task-run-launcher';

export interface ScheduledTaskServiceOptions {
  readonly store: EventStore;
  /**
   * Runs a run's prompt. A port, not the TurnRunner: the runner needs the tools, which need this
   * service, so the composition root (composition.ts) hands in a launcher it completes once the
   * runner exists. It is called only after `start`.
   */
  readonly launcher: TaskRunLauncher;
  /** The IANA zone schedules are read in, asked for at each use (the setting may change while running). */
  readonly timeZone: () => string;
  /**
   * Brings `timeZone` up to date with the store: the `timezone` setting lives in the config
   * stream, read at start concurrently with the scheduler's start (Nest runs one module's
   * bootstrap hooks together) and changed by other replicas. The scheduler awaits it before each
   * tick (`currentTimeZone`). Without it, `timeZone` is taken as it is.
   */
  readonly refreshTimeZone?: () => Promise<void>;
  readonly now?: () => Date;
  readonly newTaskId?: () => string;
  /** Scrubs secrets from error text before it is recorded. */
  readonly redact?: (text: string) => string;
  readonly log?: (level: 'info' | 'warn', message: string) => void;
}

export interface TaskView {
  readonly task: ScheduledTask;
  /** Undefined when the task will not run by itself (disabled, or a one-time task that ran). */
  readonly nextRun: Date | undefined;
}

export interface StartedRun {
  readonly taskId: string;
  readonly runId: string;
  readonly sessionId: string;
  readonly late: boolean;
  /** The same request had started this run before (a retried call): nothing new was started. */
  readonly alreadyStarted: boolean;
}

export interface TaskChanges {
  readonly name?: string;
  readonly prompt?: string;
  readonly schedule?: ScheduleInput;
  readonly enabled?: boolean;
}

/** A run's session as `finishCutOffRuns` needs it: is its turn open, and how did the last one end. */
export interface RunTurnState {
  readonly open: boolean;
  readonly lastStop?: { readonly reason: string; readonly detail: string };
}

/** Turn stop reasons of a run that did what it was asked. */
const SUCCEEDED = new Set(['completed', 'cleared', 'compacted']);

/**
 * The scheduled tasks: what the tools and the scheduler work with. Tasks and runs live in the
 * `scheduled-tasks` stream (AggregateRepository: cached, conflict-retrying), so they survive
 * restarts, are the same on every replica and are audited. Starting a run records
 * TaskRunStarted first (that claims the run), then runs the prompt in the background through
 * the launcher and records TaskRunFinished with how it ended; a run that fails is
 * recorded as failed, never thrown into the void.
 */
export class ScheduledTaskService {
  readonly repository: AggregateRepository<ScheduledTasksState, ScheduledTaskCommand, ScheduledTaskEvent>;
  readonly timeZone: () => string;
  private readonly now: () => Date;
  private readonly newTaskId: () => string;
  private readonly redact: (text: string) => string;
  private readonly log: (level: 'info' | 'warn', message: string) => void;
  /** Makes this server's command ids differ from another replica's for the same run (see startScheduledRun). */
  private readonly instanceId = randomUUID();
  private readonly launcher: TaskRunLauncher;
  /** Runs start only once the server has bootstrapped (`start`), and no more once it stops. */
  private accepting = false;
  private readonly running = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();

  constructor(private readonly options: ScheduledTaskServiceOptions) {
    this.now = options.now ?? (() => new Date());
    this.timeZone = options.timeZone;
    this.newTaskId = options.newTaskId ?? (() => `task-${randomBytes(5).toString('hex')}`);
    this.redact = options.redact ?? ((text) => text);
    this.log = options.log ?? (() => undefined);
    this.launcher = options.launcher;
    this.repository = new AggregateRepository(options.store, scheduledTasksAggregate, { now: this.now });
  }

  /**
   * Lets runs start, once the server has bootstrapped (ScheduledTasksLifecycle: cut-off turns are
   * closed); until then they cannot (`scheduler_not_ready`).
   */
  start(): void {
    this.accepting = true;
  }

  /** The session runs of this server that have not finished yet. */
  get runningRunIds(): ReadonlySet<string> {
    return new Set(this.running.keys());
  }

  /** A new task; its runs use the agent of the session it was scheduled from. */
  async schedule(input: { name: string; prompt: string; schedule: ScheduleInput }, origin: { sessionId?: string } = {}): Promise<TaskView> {
    const taskId = this.newTaskId();
    const agentId = origin.sessionId ? await this.agentOfSession(origin.sessionId) : DEFAULT_AGENT_ID;
    const recorded = await this.repository.record(
      {
        type: 'ScheduleTask',
        taskId,
        name: input.name,
        prompt: input.prompt,
        schedule: input.schedule,
        agentId,
        ...(origin.sessionId ? { sourceSessionId: origin.sessionId } : {}),
        timeZone: this.timeZone(),
      },
      { commandId: `schedule:${taskId}` },
    );
    return this.viewOf(recorded.state.tasks.get(taskId) as ScheduledTask);
  }

  async list(): Promise<TaskView[]> {
    const { state } = await this.repository.load();
    return [...state.tasks.values()].map((task) => this.viewOf(task));
  }

  /** Applies the changes; `changed` is false when they changed nothing. */
  async update(taskId: string, changes: TaskChanges): Promise<{ view: TaskView; changed: boolean }> {
    const recorded = await this.repository.record({ type: 'UpdateTask', taskId, ...changes, timeZone: this.timeZone() }, { commandId: `update:${taskId}:${randomUUID()}` });
    const task = recorded.state.tasks.get(taskId.trim());
    if (!task) throw new OneClawError('not_found', `Scheduled task '${taskId}' was deleted meanwhile.`);
    return { view: this.viewOf(task), changed: recorded.events.length > 0 };
  }

  /** Deletes the task (a run in progress finishes, but its outcome is no longer recorded); resolves with it as it was. */
  async delete(taskId: string): Promise<ScheduledTask> {
    const before = (await this.repository.load()).state.tasks.get(taskId.trim());
    if (!before) throw scheduledTaskErrors.notFound(taskId);
    await this.repository.record({ type: 'DeleteTask', taskId }, { commandId: `delete:${taskId}:${randomUUID()}` });
    return before;
  }

  /**
   * Starts a run now (disabled tasks too: the user asked) and resolves as soon as it is
   * recorded, without waiting for the turn. The same call (session, assistant message and call
   * id) starts it once: the run id derives from them, so a repeated execution of that call finds
   * its run recorded. The message id is part of the key because call ids repeat from one reply
   * to the next (Gemini's `gemini-<index>-<tool>`, `call_r1_1` for an OpenAI-compatible server
   * that sends none): keyed by the call id alone, a later reply's call found the first one's run
   * and started nothing.
   */
  async runNow(taskId: string, origin: { sessionId?: string; messageId?: string; callId?: string } = {}): Promise<StartedRun> {
    this.assertCanRun();
    const id = taskId.trim();
    const key =
      origin.sessionId && origin.callId
        ? createHash('sha256')
            .update([origin.sessionId, origin.messageId ?? '', origin.callId].join('\n'))
            .digest('hex')
            .slice(0, 12)
        : randomBytes(6).toString('hex');
    const runId = `${id}-run-${key}`;
    const recorded = await this.repository.record({ type: 'StartTaskRun', taskId: id, runId, sessionId: runId, trigger: 'manual' }, { commandId: `${runId}:start` });
    const started: StartedRun = { taskId: id, runId, sessionId: runId, late: false, alreadyStarted: recorded.events.length === 0 };
    if (!started.alreadyStarted) this.launch(recorded.state.tasks.get(id) as ScheduledTask, started);
    return started;
  }

  /**
   * Claims and starts the run of one slot, or resolves undefined when there is nothing to start:
   * another replica claimed the slot first, or the task changed meanwhile. The run id derives
   * from the task and the slot, so every replica computes the same one and the stream records
   * it once; the command id is this server's own, so a loser's append is a revision conflict
   * (re-decided on fresh state: "already recorded") rather than an idempotent acknowledgement.
   */
  async startScheduledRun(taskId: string, slot: Date, late: boolean): Promise<StartedRun | undefined> {
    if (!this.accepting || this.stopping.signal.aborted) return undefined;
    const runId = `${taskId}-${compactSlot(slot)}`;
    const recorded = await this.repository.record(
      { type: 'StartTaskRun', taskId, runId, sessionId: runId, trigger: 'schedule', scheduledFor: slot.toISOString(), late },
      { commandId: `${runId}:start:${this.instanceId}` },
    );
    if (recorded.events.length === 0) return undefined;
    const started: StartedRun = { taskId, runId, sessionId: runId, late, alreadyStarted: false };
    this.launch(recorded.state.tasks.get(taskId) as ScheduledTask, started);
    return started;
  }

  /**
   * At start-up, before the scheduler: finishes the runs recorded as started that no process
   * finished (the server was killed mid-run). Their sessions' cut-off turns were closed first,
   * so a run whose turn has ended is recorded with how it ended (`interrupted` for a cut-off
   * one). A run whose turn is still open runs on another replica and is left to it. A run with
   * no turn at all is taken as cut off once it is older than `silenceLimitMs` (who started it is
   * not recorded; the window between the start record and the turn's first event is short).
   */
  async finishCutOffRuns(turnOf: (sessionId: string) => Promise<RunTurnState>, silenceLimitMs: number): Promise<readonly string[]> {
    const { state } = await this.repository.load();
    const finished: string[] = [];
    for (const task of state.tasks.values()) {
      for (const run of task.runs) {
        if (run.status !== 'running' || this.running.has(run.runId)) continue;
        const turn = await turnOf(run.sessionId);
        if (turn.open) continue;
        let finish = turn.lastStop;
        if (!finish) {
          if (this.now().getTime() - Date.parse(run.startedAt) < silenceLimitMs) continue;
          finish = { reason: 'interrupted', detail: 'The server stopped before the run started its turn.' };
        }
        await this.repository.record(
          {
            type: 'FinishTaskRun',
            taskId: task.taskId,
            runId: run.runId,
            outcome: SUCCEEDED.has(finish.reason) ? 'succeeded' : 'failed',
            reason: finish.reason,
            detail: this.redact(finish.detail),
          },
          { commandId: `${run.runId}:finish` },
        );
        finished.push(run.runId);
        this.log('info', `scheduled task ${task.taskId} run ${run.runId} was cut off; recorded as ${finish.reason}`);
      }
    }
    return finished;
  }

  /**
   * The zone as the store has it now, for the scheduler's ticks. A read that fails rejects: a
   * tick that cannot tell the zone starts nothing, and the next one looks back to the last that did.
   */
  async currentTimeZone(): Promise<string> {
    await this.options.refreshTimeZone?.();
    return this.timeZone();
  }

  /** When the task runs next by itself, from now. */
  nextRunOf(task: ScheduledTask, now: Date = this.now()): Date | undefined {
    if (!task.enabled) return undefined;
    const zone = this.timeZone();
    if (task.schedule.type === 'one_time') return task.completed ? undefined : oneTimeSlot(task.schedule, zone);
    const after = Math.max(now.getTime(), Date.parse(task.activeSince), task.lastScheduledFor ? Date.parse(task.lastScheduledFor) : 0);
    return slotAfter(task.schedule, new Date(after), zone);
  }

  /** Resolves when every run this server started has finished and been recorded. */
  async whenIdle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
  }

  /** Cancels the runs in progress (each records its turn as cancelled) and waits for their records; starts no more. */
  async stop(): Promise<void> {
    this.stopping.abort(new Error('the server is shutting down'));
    await this.whenIdle();
  }

  private viewOf(task: ScheduledTask): TaskView {
    return { task, nextRun: this.nextRunOf(task) };
  }

  private assertCanRun(): void {
    if (this.stopping.signal.aborted) throw new OneClawError('scheduler_not_ready', 'The server is shutting down; run the task again once it is back.');
    if (!this.accepting) throw new OneClawError('scheduler_not_ready', 'The task scheduler has not started yet; try again in a moment.');
  }

  private launch(task: ScheduledTask, run: StartedRun): void {
    const work = this.execute(task, run)
      .catch((error: unknown) => this.log('warn', `scheduled task ${run.taskId} run ${run.runId}: ${this.redact(String((error as Error)?.message ?? error))}`))
      .finally(() => this.running.delete(run.runId));
    this.running.set(run.runId, work);
  }

  private async execute(task: ScheduledTask, run: StartedRun): Promise<void> {
    let finish: { outcome: 'succeeded' | 'failed'; reason: string; detail: string };
    try {
      const result = await this.launcher.run({ sessionId: run.sessionId, agentId: task.agentId, prompt: task.prompt, signal: this.stopping.signal });
      finish = { outcome: SUCCEEDED.has(result.reason) ? 'succeeded' : 'failed', reason: result.reason, detail: this.redact(result.detail) };
    } catch (error) {
      const known = error instanceof OneClawError;
      finish = {
        outcome: 'failed',
        reason: known ? error.code : 'execution_error',
        detail: this.redact(known ? error.message : `The run failed: ${(error as Error)?.message ?? String(error)}`),
      };
      this.log('warn', `scheduled task ${run.taskId} run ${run.runId} failed: ${finish.reason}: ${finish.detail}`);
    }
    try {
      await this.repository.record({ type: 'FinishTaskRun', taskId: run.taskId, runId: run.runId, ...finish }, { commandId: `${run.runId}:finish` });
      this.log('info', `scheduled task ${run.taskId} run ${run.runId} ${finish.outcome} (${finish.reason})`);
    } catch (error) {
      if (error instanceof OneClawError && error.code === 'not_found') {
        this.log('info', `scheduled task ${run.taskId} was deleted during run ${run.runId}; its outcome (${finish.reason}) is in session ${run.sessionId}`);
        return;
      }
      throw error;
    }
  }

  /** The agent of the session the task is scheduled from; the default agent when there is none. */
  private async agentOfSession(sessionId: string): Promise<string> {
    const [first] = await this.options.store.readStream(sessionStreamId(sessionId), { maxCount: 1 });
    const agentId = first?.type === 'SessionStarted' ? (first.data as { agentId?: unknown }).agentId : undefined;
    return typeof agentId === 'string' && agentId ? agentId : DEFAULT_AGENT_ID;
  }
}

/** `2026-03-01T06:30:00.000Z` -> `20260301T0630Z`: a slot as a session-id-safe stamp. */
function compactSlot(slot: Date): string {
  const iso = slot.toISOString();
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}Z`;
}
