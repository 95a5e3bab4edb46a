import type { JsonSchemaObject } from '../json-schema';
import type { Tool } from '../tool';
import { toolSuccess } from '../tool-result';

export interface FakeToolOptions {
  readonly description?: string;
  readonly parameters?: JsonSchemaObject;
  readonly timeoutMs?: number;
  readonly requiredPermissions?: readonly string[];
  readonly validatesOwnParameters?: boolean;
  readonly enforcesOwnTimeout?: boolean;
  /** Defaults to answering `{"tool": name, "params": params}` as a success. */
  readonly execute?: Tool['execute'];
}

/** A tool for tests: any name, any schema, behaviour supplied by the test. */
export function fakeTool(name: string, options: FakeToolOptions = {}): Tool {
  return {
    definition: {
      name,
      description: options.description ?? `Test tool ${name}.`,
      parameters: options.parameters ?? { type: 'object', properties: {} },
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.requiredPermissions !== undefined ? { requiredPermissions: options.requiredPermissions } : {}),
    },
    ...(options.validatesOwnParameters !== undefined ? { validatesOwnParameters: options.validatesOwnParameters } : {}),
    ...(options.enforcesOwnTimeout !== undefined ? { enforcesOwnTimeout: options.enforcesOwnTimeout } : {}),
    execute: options.execute ?? (async (params) => toolSuccess(JSON.stringify({ tool: name, params }))),
  };
}
