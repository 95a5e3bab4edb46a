/** What a run of a task asks for: a new session with the task's agent, and the prompt as its first turn. */
export interface TaskRunRequest {
  readonly sessionId: string;
  readonly agentId: string;
  readonly prompt: string;
  /** Aborted when the server stops: the turn ends as cancelled and the run is recorded so. */
  readonly signal: AbortSignal;
}

/** How the turn ended: its stop reason (`completed`, `round_cap`, `provider_error`, ...) and plain words. */
export interface TaskRunResult {
  readonly reason: string;
  readonly detail: string;
}

/**
 * Runs a task's prompt: the port between the task service and the agent loop. The server's
 * launcher (TurnRunLauncher) starts a session and runs a turn through the TurnRunner; the task
 * service is created before the tools (it backs them) and so before the runner, and
 * composeRuntime (composition.ts) completes this port once the runner exists.
 */
export interface TaskRunLauncher {
  run(request: TaskRunRequest): Promise<TaskRunResult>;
}
