// Contracts
export type { JsonSchemaObject } from './json-schema';
export { DEFAULT_TOOL_TIMEOUT_MS, MAX_TOOL_NAME_LENGTH, TOOL_NAME_PATTERN, type ResolvedToolDefinition, type ToolDefinition } from './tool-definition';
export {
  ENGINE_ERROR_TYPES,
  isToolResult,
  logOf,
  toolError,
  toolResultForModel,
  toolSuccess,
  type EngineErrorType,
  type ToolFailure,
  type ToolLogLine,
  type ToolResult,
  type ToolSuccess,
} from './tool-result';
export type { Tool, ToolContext } from './tool';
export type { ToolOrigin, ToolSource, ToolSourceKind } from './tool-source';
export type { ToolGroupDefinition } from './tool-group-definition';
export { resolveToolDefinition } from './resolve-tool-definition';
export { builtinTool, MAX_ANSWER_CHARS, type BuiltinExecute } from './builtin-tool';

// Registry
export { ToolRegistryError, type ToolRegistryErrorCode } from './tool-registry-error';
export { ToolRegistry, type RegisteredGroup, type RegisteredTool, type ToolRegistryChange, type ToolRegistryListener, type ToolRegistryOptions } from './tool-registry';
export { SchemaValidator } from './schema-validator';

// load_tool_group and the prompt section
export { LOAD_TOOL_GROUP, createLoadToolGroupTool, loadToolGroupDefinition } from './load-tool-group-tool';
export {
  MAX_GROUP_DESCRIPTION_CHARS,
  TOOL_GROUP_PROMPT_HEADING,
  TOOL_GROUP_PROMPT_INSTRUCTION,
  ToolGroupPrompt,
  renderToolGroupPrompt,
  type ToolGroupPromptOptions,
} from './tool-group-prompt';

// Execution
export { ToolExecutionEngine, type ExecutionScope, type ToolCallOutcome, type ToolCallRequest, type ToolExecutionEngineOptions } from './execution/tool-execution-engine';
export { grantAllPermissions, type PermissionChecker, type PermissionDecision, type PermissionRequest } from './execution/permission-checker';
export { DEFAULT_MAX_RESULT_CHARS, truncateText } from './execution/truncate-text';
export {
  DEFAULT_MAX_CONSECUTIVE_FAILURES,
  DEFAULT_MAX_ERROR_ROUNDS,
  DEFAULT_MAX_SAME_RESULTS,
  ToolLoopBreaker,
  type LoopOutcome,
  type LoopVerdict,
} from './execution/tool-loop-breaker';

// Provider formats and token accounting
export { PROVIDER_NAMES, type ProviderName } from './providers/provider-name';
export type { SchemaIssue } from './providers/schema-issue';
export { adaptForProviders, adaptSchema, type AdaptedSchema, type ProviderSchemas } from './providers/adapt-schema';
export { MAX_INLINED_SCHEMA_DEPTH, MAX_INLINED_SCHEMA_NODES, SchemaTooLargeError } from './providers/schema-too-large-error';
export {
  formatAdaptedTools,
  formatTools,
  type AdaptedTool,
  type AnthropicTool,
  type GeminiFunctionDeclaration,
  type GeminiTool,
  type OpenAiTool,
  type ToolPayload,
} from './providers/provider-formats';
export { countTextTokens, countToolPayloadTokens, cutToTokens } from './providers/token-count';
export { ToolPayloads, type BuiltToolPayload } from './providers/tool-payloads';
