import type { CompiledScript } from './compiled-script';
import type { SandboxLimits } from './sandbox-limits';

/**
 * What a runner needs of a script: its name (for stack traces), the code to evaluate for a
 * function and, if known, the functions it declares. Only a declared function may have the name
 * of a built-in global (`function parseInt(p) {...}`); without the set, none may.
 */
export type ScriptCode = Pick<CompiledScript, 'fileName' | 'sliceFor'> & Partial<Pick<CompiledScript, 'functionNames'>>;

/** One call of a function in a tool file. */
export interface JsCall {
  readonly script: ScriptCode;
  /** `execute` for a single-tool file; the manifest's `function` for a group entry. */
  readonly functionName: string;
  /** The tool's arguments; the runner adds `_env`. */
  readonly params: Readonly<Record<string, unknown>>;
  /** Deployment-configured values given to the guest as `params._env`; redacted from everything that comes out. */
  readonly env: Readonly<Record<string, string>>;
  /**
   * Wall-clock limit for the call, bridges included, counted from when it starts running: time
   * spent waiting for a free sandbox worker does not count.
   */
  readonly timeoutMs: number;
  /**
   * The session the call runs for. A pooled runner shares its workers fairly between sessions,
   * so one session's long calls cannot starve another's. Unset: one shared anonymous session.
   */
  readonly sessionId?: string;
  readonly limits?: Partial<SandboxLimits>;
  readonly signal?: AbortSignal;
}

export interface JsLogLine {
  readonly level: 'log' | 'info' | 'warn' | 'error' | 'debug';
  readonly message: string;
}

/** `busy`: every sandbox worker is taken and the queue is full (or the call waited too long for one); retry later. */
export type JsCallErrorType = 'execution_error' | 'timeout' | 'sandbox_limit' | 'cancelled' | 'busy' | 'internal_error';
export type SandboxLimitKind = 'cpu' | 'memory' | 'stack' | 'output' | 'input';

export type JsCallOutcome =
  | { readonly status: 'success'; readonly result: string; readonly logs: readonly JsLogLine[]; readonly durationMs: number }
  | {
      readonly status: 'error';
      readonly errorType: JsCallErrorType;
      readonly message: string;
      readonly limit?: SandboxLimitKind;
      readonly logs: readonly JsLogLine[];
      readonly durationMs: number;
    };

/** Runs JS calls: in this thread, or in a pool of worker threads that can be killed. */
export interface JsRunner {
  run(call: JsCall): Promise<JsCallOutcome>;
  close(): Promise<void>;
}
