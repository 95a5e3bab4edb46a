/**
 * The outcome of one tool call. Tools return errors as values: a tool that throws is a bug the
 * engine reports as `execution_error`, never a crash (T3, T6).
 */
export type ToolResult = ToolSuccess | ToolFailure;

export interface ToolSuccess {
  readonly status: 'success';
  readonly result: string;
}

export interface ToolFailure {
  readonly status: 'error';
  /** snake_case and stable: the engine's own types below, or a tool's (`not_found`, `empty_group`...). */
  readonly errorType: string;
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

export function toolSuccess(result: string): ToolSuccess {
  return { status: 'success', result };
}

export function toolError(errorType: string, message: string): ToolFailure {
  return { status: 'error', errorType, message };
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
