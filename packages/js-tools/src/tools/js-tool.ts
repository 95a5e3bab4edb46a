import { DEFAULT_TOOL_TIMEOUT_MS, toolError, toolSuccess, type Tool, type ToolContext, type ToolDefinition, type ToolResult } from '@oneclaw/tool-registry';
import type { CompiledScript } from '../sandbox/compiled-script';
import type { JsRunner } from '../sandbox/js-call';
import type { SandboxLimits } from '../sandbox/sandbox-limits';

export interface JsToolOptions {
  readonly definition: ToolDefinition;
  /** The file's compiled source, shared by every tool of the file (J1). */
  readonly script: CompiledScript;
  /** `execute` for a single-tool file; the entry's `function` for a group (J3). */
  readonly functionName: string;
  readonly runner: JsRunner;
  readonly limits?: Partial<SandboxLimits>;
}

/**
 * A tool whose body is a function in a JavaScript file, run in the QuickJS sandbox. The guest's
 * console output comes back as the result's `log`, never on the server's stdout.
 */
export class JsTool implements Tool {
  readonly definition: ToolDefinition;
  readonly script: CompiledScript;
  readonly functionName: string;
  /** The runner starts the timeout when a worker takes the call and bounds the wait for one itself. */
  readonly enforcesOwnTimeout = true;

  constructor(private readonly options: JsToolOptions) {
    this.definition = options.definition;
    this.script = options.script;
    this.functionName = options.functionName;
  }

  async execute(params: Readonly<Record<string, unknown>>, context: ToolContext): Promise<ToolResult> {
    const outcome = await this.options.runner.run({
      script: this.script,
      functionName: this.functionName,
      params,
      env: context.env,
      timeoutMs: this.definition.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
      sessionId: context.sessionId,
      signal: context.signal,
      ...(this.options.limits ? { limits: this.options.limits } : {}),
    });
    return outcome.status === 'success' ? toolSuccess(outcome.result, outcome.logs) : toolError(outcome.errorType, outcome.message, outcome.logs);
  }
}
