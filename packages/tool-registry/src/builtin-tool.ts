import { OneClawError } from '@oneclaw/core';
import { DEFAULT_MAX_RESULT_CHARS } from './execution/truncate-text';
import type { Tool, ToolContext } from './tool';
import type { ToolDefinition } from './tool-definition';
import { toolError, toolSuccess, type ToolResult } from './tool-result';

/**
 * The most text a built-in puts in one answer. The engine cuts every result above
 * DEFAULT_MAX_RESULT_CHARS with a marker of its own, which would drop a tool's note saying how to
 * read on; tools cut their text here first (the origin's larger `max_length` defaults included),
 * leaving room for that note.
 */
export const MAX_ANSWER_CHARS = DEFAULT_MAX_RESULT_CHARS - 1_000;

export type BuiltinExecute<P> = (params: P, context: ToolContext) => Promise<string | ToolResult> | string | ToolResult;

/**
 * A TypeScript tool: the server's built-ins and the tool packages (tools-web, tools-pdf). The
 * services behind built-in tools throw `OneClawError`s with stable codes (the same errors the
 * HTTP API answers with); at this boundary they become error values whose `errorType` is that
 * code, so the model reads what went wrong and what to do. Anything else a tool throws is a bug,
 * which the engine reports as `execution_error`.
 *
 * The engine validates `params` against `definition.parameters` before `execute` runs, so
 * `execute` may treat them as `P`.
 */
export function builtinTool<P = Readonly<Record<string, unknown>>>(definition: ToolDefinition, execute: BuiltinExecute<P>): Tool {
  return {
    definition,
    async execute(params, context) {
      try {
        const outcome = await execute(params as P, context);
        return typeof outcome === 'string' ? toolSuccess(outcome) : outcome;
      } catch (error) {
        if (error instanceof OneClawError) return toolError(error.code, error.message);
        throw error;
      }
    },
  };
}
