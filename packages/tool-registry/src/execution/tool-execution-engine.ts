import { performance } from 'node:perf_hooks';
import type { ToolContext } from '../tool';
import { isToolResult, logOf, toolError, toolSuccess, type ToolResult } from '../tool-result';
import type { ToolRegistry } from '../tool-registry';
import { parseArguments } from './parse-arguments';
import { grantAllPermissions, type PermissionChecker } from './permission-checker';
import { runBounded } from './run-bounded';
import { DEFAULT_MAX_RESULT_CHARS, truncateText } from './truncate-text';

export interface ToolCallRequest {
  readonly callId: string;
  readonly toolName: string;
  /** As the model sent them: a JSON string (OpenAI), an object (Anthropic, Gemini), or nothing. */
  readonly arguments?: unknown;
}

export interface ToolCallOutcome {
  readonly callId: string;
  readonly toolName: string;
  /** The parsed arguments when they were a JSON object (the server reads `group_name` from them). */
  readonly arguments: Readonly<Record<string, unknown>> | undefined;
  readonly result: ToolResult;
  readonly durationMs: number;
}

export interface ExecutionScope {
  readonly sessionId: string;
  /** The assistant message whose calls these are; tools get it as `ToolContext.messageId`. */
  readonly messageId?: string;
  /** What the model may call now: the session's active tool set (core + loaded groups, allowed, enabled). */
  readonly activeToolNames: Iterable<string>;
  /**
   * The session's loaded groups. Lets the engine tell "load group X first" from "this agent may
   * not use it"; without it a group counts as loaded when any of its tools is active.
   */
  readonly loadedGroups?: Iterable<string>;
  readonly env?: Readonly<Record<string, string>>;
  /** The agent's allowed tools (T5), handed to tools such as load_tool_group; undefined means all. */
  readonly allowedTools?: ReadonlySet<string>;
  /** Aborting it (turn cancelled) ends every unfinished call as `cancelled`. */
  readonly signal?: AbortSignal;
}

export interface ToolExecutionEngineOptions {
  readonly permissionChecker?: PermissionChecker;
  /** Calls of one model reply that run at the same time; default 4. */
  readonly maxConcurrency?: number;
  /** Longer results and error messages are cut with a visible marker; default 30 000. */
  readonly maxResultChars?: number;
  /**
   * Scrubs secrets from every result and error message before it is cut: a secret across the
   * cut would leave its start behind, which no redaction afterwards can recognise. Tools get it
   * as `context.redact`, for the cuts they make themselves.
   */
  readonly redact?: (text: string) => string;
  /** Milliseconds clock for durations (tests pass a fake). */
  readonly now?: () => number;
}

interface Scope {
  readonly sessionId: string;
  readonly messageId: string | undefined;
  readonly active: ReadonlySet<string>;
  readonly loadedGroups: ReadonlySet<string> | undefined;
  readonly env: Readonly<Record<string, string>>;
  readonly allowedTools: ReadonlySet<string> | undefined;
  readonly signal: AbortSignal | undefined;
}

const NO_ENV: Readonly<Record<string, string>> = Object.freeze({});

/**
 * Runs the model's tool calls (T3). Each call passes, in order: tool_not_found,
 * tool_not_available, tool_disabled, validation_error, permission_denied, then runs under its
 * own timeout (timeout) with any throw caught (execution_error). Every call gets exactly one
 * outcome, in input order, whatever the tools do; nothing here throws.
 */
export class ToolExecutionEngine {
  private readonly permissions: PermissionChecker;
  private readonly maxConcurrency: number;
  private readonly maxResultChars: number;
  private readonly redact: (text: string) => string;
  private readonly now: () => number;

  constructor(
    private readonly registry: ToolRegistry,
    options: ToolExecutionEngineOptions = {},
  ) {
    this.permissions = options.permissionChecker ?? grantAllPermissions;
    this.maxConcurrency = Math.max(1, Math.floor(options.maxConcurrency ?? 4));
    // Below this the truncation marker alone would not fit.
    this.maxResultChars = Math.max(200, Math.floor(options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS));
    this.redact = options.redact ?? ((text) => text);
    this.now = options.now ?? (() => performance.now());
  }

  async execute(call: ToolCallRequest, scope: ExecutionScope): Promise<ToolCallOutcome> {
    return this.runOne(call, resolveScope(scope));
  }

  /** Runs the calls concurrently (bounded); outcomes come back in the order of `calls`. */
  async executeAll(calls: readonly ToolCallRequest[], scope: ExecutionScope): Promise<ToolCallOutcome[]> {
    const resolved = resolveScope(scope);
    return runBounded(calls, this.maxConcurrency, (call) => this.runOne(call, resolved));
  }

  private async runOne(call: ToolCallRequest, scope: Scope): Promise<ToolCallOutcome> {
    const started = this.now();
    const parsed = parseArguments(call.arguments);
    let result: ToolResult;
    try {
      result = await this.resultOf(call, parsed, scope);
    } catch (error) {
      // Only a bug in the engine or a port gets here; the caller still gets its one result.
      result = toolError('execution_error', `Tool '${call.toolName}' could not be run: ${messageOf(error)}`);
    }
    return {
      callId: call.callId,
      toolName: call.toolName,
      arguments: parsed.ok ? parsed.value : undefined,
      result: this.capped(result),
      durationMs: Math.max(0, this.now() - started),
    };
  }

  private async resultOf(call: ToolCallRequest, parsed: ReturnType<typeof parseArguments>, scope: Scope): Promise<ToolResult> {
    const name = call.toolName;
    if (scope.signal?.aborted) return cancelled(name);

    const registered = this.registry.get(name);
    if (!registered) {
      return toolError('tool_not_found', `Tool '${name}' does not exist. Call only the tools you were given.`);
    }

    if (!scope.active.has(name)) {
      // A disabled tool is absent from the active set too; saying "load its group" would send
      // the model round in circles, so the real reason wins.
      if (!this.registry.isToolEnabled(name)) return this.disabled(name);
      const group = registered.source.group;
      if (group !== undefined && !this.isLoaded(group, scope)) {
        return toolError(
          'tool_not_available',
          `Tool '${name}' is not available yet: it belongs to the tool group '${group}'. Call load_tool_group with group_name "${group}" first, then call '${name}' again.`,
        );
      }
      return toolError('tool_not_available', `Tool '${name}' is not available in this session.`);
    }

    if (!this.registry.isToolEnabled(name)) return this.disabled(name);

    if (!parsed.ok) return toolError('validation_error', `Invalid arguments for '${name}': ${parsed.problem}.`);
    if (!registered.tool.validatesOwnParameters) {
      const check = this.registry.parametersOf(name)?.check(parsed.value);
      if (check && !check.ok) return toolError('validation_error', `Invalid arguments for '${name}': ${check.problems.join('; ')}.`);
    }

    const { requiredPermissions, timeoutMs } = registered.definition;
    if (requiredPermissions.length > 0) {
      const denied = await this.deniedPermissions(name, requiredPermissions, scope.sessionId);
      if (denied) return toolError('permission_denied', denied);
    }

    const engineTimeoutMs = registered.tool.enforcesOwnTimeout ? undefined : timeoutMs;
    return this.run(name, engineTimeoutMs, parsed.value, call.callId, scope, registered.tool.execute.bind(registered.tool));
  }

  /** `timeoutMs` undefined: the tool enforces its own timeout (Tool.enforcesOwnTimeout). */
  private async run(
    name: string,
    timeoutMs: number | undefined,
    params: Record<string, unknown>,
    callId: string,
    scope: Scope,
    execute: (params: Record<string, unknown>, context: ToolContext) => Promise<ToolResult>,
  ): Promise<ToolResult> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    let detach = (): void => {};
    const stopped = new Promise<ToolResult>((resolve) => {
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          controller.abort(new DOMException(`Tool '${name}' timed out after ${timeoutMs} ms`, 'TimeoutError'));
          resolve(toolError('timeout', `Tool '${name}' did not finish within ${timeoutMs} ms and was stopped.`));
        }, timeoutMs);
      }
      const outer = scope.signal;
      if (outer) {
        const onAbort = (): void => {
          controller.abort(outer.reason);
          resolve(cancelled(name));
        };
        outer.addEventListener('abort', onAbort, { once: true });
        detach = () => outer.removeEventListener('abort', onAbort);
      }
    });
    const context: ToolContext = {
      signal: controller.signal,
      sessionId: scope.sessionId,
      callId,
      ...(scope.messageId !== undefined ? { messageId: scope.messageId } : {}),
      env: scope.env,
      ...(scope.allowedTools ? { allowedTools: scope.allowedTools } : {}),
      redact: this.redact,
    };
    // The async wrapper turns a synchronous throw into a rejection; both handlers are attached
    // now, so a tool failing after its timeout is never an unhandled rejection.
    const work = (async () => execute(params, context))().then(
      (value): ToolResult =>
        // Rebuilt from the known fields, so nothing else a tool attaches reaches events or the model.
        isToolResult(value)
          ? value.status === 'success'
            ? toolSuccess(value.result, logOf(value))
            : toolError(value.errorType, value.message, logOf(value))
          : toolError('execution_error', `Tool '${name}' returned something that is not a tool result (expected {status, result} or {status, errorType, message}).`),
      (error: unknown): ToolResult => toolError('execution_error', `Tool '${name}' failed: ${messageOf(error)}`),
    );
    try {
      return await Promise.race([work, stopped]);
    } finally {
      clearTimeout(timer);
      detach();
    }
  }

  private async deniedPermissions(toolName: string, permissions: readonly string[], sessionId: string): Promise<string | undefined> {
    try {
      const decision = await this.permissions.check({ toolName, permissions, sessionId });
      if (decision.granted) return undefined;
      const denied = decision.denied.length > 0 ? decision.denied : permissions;
      return decision.message ?? `Permission ${denied.map((p) => `'${p}'`).join(', ')} required by '${toolName}' was denied. The tool did not run.`;
    } catch (error) {
      // Fail closed: a broken policy must not let the call through.
      return `The permissions of '${toolName}' could not be checked (${messageOf(error)}). The tool did not run.`;
    }
  }

  private disabled(name: string): ToolResult {
    const group = this.registry.groupOf(name);
    const why = group !== undefined && !this.registry.isGroupEnabled(group) ? ` (its tool group '${group}' is disabled)` : '';
    return toolError('tool_disabled', `Tool '${name}' is disabled by the operator${why}. Do not call it again in this conversation.`);
  }

  private isLoaded(group: string, scope: Scope): boolean {
    if (scope.loadedGroups) return scope.loadedGroups.has(group);
    return this.registry.groupToolNames(group).some((t) => scope.active.has(t));
  }

  private capped(result: ToolResult): ToolResult {
    if (result.status === 'success') {
      const text = truncateText(this.redact(result.result), this.maxResultChars);
      return text === result.result ? result : { ...result, result: text };
    }
    const message = truncateText(this.redact(result.message), this.maxResultChars);
    return message === result.message ? result : { ...result, message };
  }
}

function resolveScope(scope: ExecutionScope): Scope {
  return {
    sessionId: scope.sessionId,
    messageId: scope.messageId,
    active: new Set(scope.activeToolNames),
    loadedGroups: scope.loadedGroups ? new Set(scope.loadedGroups) : undefined,
    env: scope.env ?? NO_ENV,
    allowedTools: scope.allowedTools,
    signal: scope.signal,
  };
}

function cancelled(name: string): ToolResult {
  return toolError('cancelled', `Tool '${name}' was cancelled because the turn was stopped.`);
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
