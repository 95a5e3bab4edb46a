import type { CompiledScript } from './compiled-script';
import type { SandboxLimits } from './sandbox-limits';

/** What a runner needs of a script: its name (for stack traces) and the code to evaluate for a function. */
export type ScriptCode = Pick<CompiledScript, 'fileName' | 'sliceFor'>;

/** One call of a function in a tool file. */
export interface JsCall {
  readonly script: ScriptCode;
  /** `execute` for a single-tool file; the manifest's `function` for a group entry. */
  readonly functionName: string;
  /** The tool's arguments; the runner adds `_env`. */
  readonly params: Readonly<Record<string, unknown>>;
  /** Deployment-configured values given to the guest as `params._env`; redacted from everything that comes out. */
  readonly env: Readonly<Record<string, string>>;
  /** Wall-clock limit for the whole call, bridges included. */
  readonly timeoutMs: number;
  readonly limits?: Partial<SandboxLimits>;
  readonly signal?: AbortSignal;
}

export interface JsLogLine {
  readonly level: 'log' | 'info' | 'warn' | 'error' | 'debug';
  readonly message: string;
}

export type JsCallErrorType = 'execution_error' | 'timeout' | 'sandbox_limit' | 'cancelled' | 'internal_error';
export type SandboxLimitKind = 'cpu' | 'memory' | 'stack' | 'output';

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
