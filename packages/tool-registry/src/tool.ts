import type { ToolDefinition } from './tool-definition';
import type { ToolResult } from './tool-result';

export interface ToolContext {
  /** Aborted when the call times out or the turn is cancelled; long work must watch it. */
  readonly signal: AbortSignal;
  readonly sessionId: string;
  /** Unique within its model reply only: Gemini's ids (`gemini-<index>-<tool>`) repeat in every reply. */
  readonly callId: string;
  /**
   * The assistant message (model reply) that made the call, when the caller has one. With
   * `sessionId` and `callId` it names the call uniquely: a tool that must tell one call from
   * another (run_scheduled_task starts a run once per call) keys by all three.
   */
  readonly messageId?: string;
  /** Deployment-configured values (secrets included); never echo them into results. */
  readonly env: Readonly<Record<string, string>>;
  /** The agent's allowed tools; undefined means all (T5). `load_tool_group` lists only these. */
  readonly allowedTools?: ReadonlySet<string>;
  /**
   * Scrubs the deployment's secrets from text (the engine's `redact` option; unset: no secrets
   * known). A tool that cuts text redacts it first: a secret across the cut would leave its start
   * behind, which no redaction afterwards can recognise.
   */
  readonly redact?: (text: string) => string;
}

export interface Tool {
  readonly definition: ToolDefinition;
  /**
   * True when the tool reports bad arguments itself with its own error types, so the engine
   * skips schema validation (load_tool_group answers `missing_parameter`, as the seed specifies).
   * Malformed argument JSON is still refused by the engine.
   */
  readonly validatesOwnParameters?: boolean;
  /**
   * True when the tool enforces `definition.timeoutMs` itself, counted from when its work really
   * starts, and bounds any wait before that on its own. JavaScript tools wait for a free sandbox
   * worker first, and that wait must not eat their time. The engine then arms no timer of its own;
   * a cancelled turn still aborts the call.
   */
  readonly enforcesOwnTimeout?: boolean;
  execute(params: Readonly<Record<string, unknown>>, context: ToolContext): Promise<ToolResult>;
}
