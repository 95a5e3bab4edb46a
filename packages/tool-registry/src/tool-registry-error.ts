import { OneClawError } from '@oneclaw/core';

export type ToolRegistryErrorCode = 'invalid_tool_definition' | 'invalid_group_definition' | 'duplicate_tool' | 'tool_not_found' | 'group_not_found' | 'group_conflict';

/** A registry change that was refused; nothing was changed. */
export class ToolRegistryError extends OneClawError {
  declare readonly code: ToolRegistryErrorCode;

  constructor(code: ToolRegistryErrorCode, message: string, details: Readonly<Record<string, unknown>> = {}) {
    super(code, message, details);
  }
}
