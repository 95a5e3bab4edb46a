/**
 * The outcome of one tool call. Tools return errors as values: a tool that throws is a bug the
 * engine reports as `execution_error`, never a crash (T3, T6).
 */
export type ToolResult = ToolSuccess | ToolFailure;

export interface ToolSuccess {
  readonly status: 'success';
  readonly result: string;
  readonly log?: readonly ToolLogLine[];
}

export interface ToolFailure {
  readonly status: 'error';
  /** snake_case and stable: the engine's own types below, or a tool's (`not_found`, `empty_group`...). */
  readonly errorType: string;
  readonly message: string;
  readonly log?: readonly ToolLogLine[];
}

/**
 * What a tool printed while it ran (a JS tool's console), for the user and the audit trail;
 * never sent to the model.
 */
export interface ToolLogLine {
  readonly level: string;
  readonly message: string;
}

/** Error types the execution engine itself produces, in the order its checks run. */
export const ENGINE_ERROR_TYPES = [
  'tool_not_found',
  'tool_not_available',
  'tool_disabled',
  'validation_error',
  'permission_denied',
  'timeout',
  'execution_error',
  'cancelled',
] as const;
export type EngineErrorType = (typeof ENGINE_ERROR_TYPES)[number];

export function toolSuccess(result: string, log?: readonly ToolLogLine[]): ToolSuccess {
  return log && log.length > 0 ? { status: 'success', result, log } : { status: 'success', result };
}

export function toolError(errorType: string, message: string, log?: readonly ToolLogLine[]): ToolFailure {
  return log && log.length > 0 ? { status: 'error', errorType, message, log } : { status: 'error', errorType, message };
}

/** The log lines of a value that claims to be a tool result, if they are well-formed. */
export function logOf(value: { readonly log?: unknown }): readonly ToolLogLine[] | undefined {
  const log = value.log;
  if (!Array.isArray(log)) return undefined;
  const lines = log.filter((l): l is ToolLogLine => typeof l === 'object' && l !== null && typeof l.level === 'string' && typeof l.message === 'string');
  return lines.map((l) => ({ level: l.level, message: l.message }));
}

export function isToolResult(value: unknown): value is ToolResult {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  if (v.status === 'success') return typeof v.result === 'string';
  if (v.status === 'error') return typeof v.errorType === 'string' && v.errorType.length > 0 && typeof v.message === 'string';
  return false;
}

/**
 * The text the model receives for a result, the same for every tool and provider (T6):
 * `{"status":"success","result":...}` or `{"status":"error","error_type":...,"message":...}`.
 */
export function toolResultForModel(result: ToolResult): string {
  return result.status === 'success'
    ? JSON.stringify({ status: 'success', result: result.result })
    : JSON.stringify({ status: 'error', error_type: result.errorType, message: result.message });
}
