import { OneClawError } from '@oneclaw/core';
import { TOOL_BASE_NAME_PATTERN, type UserToolChanges, type UserToolInfo, type UserToolManager } from '@oneclaw/js-tools';
import { builtinTool, type Tool } from '@oneclaw/tool-registry';

/** The JS tool timeouts these tools accept (the registry's default is 30 s). */
export const MAX_TIMEOUT_SECONDS = 300;

const nameParameter = {
  type: 'string',
  description: 'The tool name: snake_case, starting with a lowercase letter, at most 64 characters, e.g. "word_count".',
} as const;

// Update and delete look a name up in the user tools folder: a tool name, or a user file's base
// name (a group file, or a file that failed to load). The pattern refuses anything that could name a
// path out of the folder ('../lib/x') before the manager is asked; the manager checks again.
const existingNameParameter = {
  type: 'string',
  pattern: TOOL_BASE_NAME_PATTERN.source,
} as const;

// Models send a schema as JSON text or as an object; both are accepted, as the manager does.
const schemaParameter = {
  type: ['string', 'object'],
  description: 'JSON Schema of the tool\'s arguments, as JSON text or an object, e.g. {"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}.',
} as const;

const codeParameter = {
  type: 'string',
  description:
    'JavaScript that defines a top-level "async function execute(params) { ... }" returning a string or a JSON value. It runs in a QuickJS sandbox with fetch, fs (the files folder), console, _time and lib(); there is no require or process.',
} as const;

const permissionsParameter = {
  type: ['string', 'array'],
  items: { type: 'string' },
  description: 'Permissions the tool needs before each call, comma-separated (e.g. "network,files"). Most tools need none.',
} as const;

const timeoutParameter = {
  type: 'number',
  minimum: 1,
  maximum: MAX_TIMEOUT_SECONDS,
  description: `Seconds one call may run (default 30; 1 to ${MAX_TIMEOUT_SECONDS}).`,
} as const;

interface CreateParams {
  readonly name: string;
  readonly description: string;
  readonly parameters_schema: string | object;
  readonly js_code: string;
  readonly required_permissions?: string | readonly string[];
  readonly timeout_seconds?: number;
}

type UpdateParams = Partial<Omit<CreateParams, 'name'>> & { readonly name: string };

const UPDATABLE = ['description', 'parameters_schema', 'js_code', 'required_permissions', 'timeout_seconds'] as const;

/**
 * The js_tool_management group (CATALOGUE.md section 8, the js_tools row): the user's own JS
 * tools, through the js-tools UserToolManager, which checks name, schema and code before anything
 * is written and loads the file at once. Its refusals are OneClawErrors with stable codes
 * (invalid_name, name_taken, invalid_parameters, invalid_definition, invalid_code,
 * missing_function, not_found, not_a_user_tool, write_failed) that reach the model as they are.
 */
export function createJsToolManagementTools(manager: UserToolManager): Tool[] {
  return [
    builtinTool<CreateParams>(
      {
        name: 'create_js_tool',
        description: 'Creates a JavaScript tool in the user tools folder. Name, schema and code are checked before anything is saved; the new tool can be called right after.',
        parameters: {
          type: 'object',
          properties: {
            name: nameParameter,
            description: { type: 'string', description: 'One sentence saying what the tool does; the model reads it to decide when to call the tool.' },
            parameters_schema: schemaParameter,
            js_code: codeParameter,
            required_permissions: permissionsParameter,
            timeout_seconds: timeoutParameter,
          },
          required: ['name', 'description', 'parameters_schema', 'js_code'],
        },
        timeoutMs: 10_000,
      },
      (params) => {
        const info = manager.create({
          name: params.name,
          description: params.description,
          parameters: params.parameters_schema,
          code: params.js_code,
          ...(params.required_permissions !== undefined ? { requiredPermissions: params.required_permissions } : {}),
          ...(params.timeout_seconds !== undefined ? { timeoutSeconds: params.timeout_seconds } : {}),
        });
        return `Created the tool '${params.name}' (${info.name}.json and ${info.fileName} in the user tools folder). It can be called from now on.${problemLines(info)}`;
      },
    ),
    builtinTool(
      {
        name: 'list_user_tools',
        description: 'Lists the files of the user tools folder with their tools (single tools and tool groups) and any problem that kept a tool from loading.',
        parameters: { type: 'object', properties: {} },
        timeoutMs: 5_000,
      },
      () => formatList(manager.list()),
    ),
    builtinTool<UpdateParams>(
      {
        name: 'update_js_tool',
        description: 'Changes a user JavaScript tool: only the fields given change. Everything is checked before it is saved; the new version is used from the next call.',
        parameters: {
          type: 'object',
          properties: {
            name: { ...existingNameParameter, description: 'The user tool to change, e.g. "word_count" (no folders).' },
            description: { type: 'string', description: 'The new description.' },
            parameters_schema: schemaParameter,
            js_code: codeParameter,
            required_permissions: permissionsParameter,
            timeout_seconds: timeoutParameter,
          },
          required: ['name'],
        },
        timeoutMs: 10_000,
      },
      (params) => {
        const changes: UserToolChanges = {
          ...(params.description !== undefined ? { description: params.description } : {}),
          ...(params.parameters_schema !== undefined ? { parameters: params.parameters_schema } : {}),
          ...(params.js_code !== undefined ? { code: params.js_code } : {}),
          ...(params.required_permissions !== undefined ? { requiredPermissions: params.required_permissions } : {}),
          ...(params.timeout_seconds !== undefined ? { timeoutSeconds: params.timeout_seconds } : {}),
        };
        if (Object.keys(changes).length === 0) {
          throw new OneClawError('nothing_to_update', `Nothing to change in '${params.name}': pass at least one of ${UPDATABLE.join(', ')}.`);
        }
        const info = manager.update(params.name, changes);
        const changed = UPDATABLE.filter((field) => params[field] !== undefined);
        return `Updated the tool '${params.name}' (${changed.join(', ')}). The new version is used from the next call.${problemLines(info)}`;
      },
    ),
    builtinTool<{ readonly name: string }>(
      {
        name: 'delete_js_tool',
        description: 'Deletes a user JavaScript tool (its .json and .js files); it cannot be called any more.',
        parameters: {
          type: 'object',
          properties: { name: { ...existingNameParameter, description: 'The user tool, or a user file\'s name without ".json", to delete (no folders).' } },
          required: ['name'],
        },
        timeoutMs: 5_000,
      },
      (params) => {
        manager.delete(params.name);
        return `Deleted the user tool '${params.name}'.`;
      },
    ),
  ];
}

function formatList(files: readonly UserToolInfo[]): string {
  if (files.length === 0) return 'The user tools folder is empty. Create a tool with create_js_tool.';
  const lines = [`${files.length} ${files.length === 1 ? 'file' : 'files'} in the user tools folder:`];
  for (const file of files) {
    const manifest = `${file.name}.json`;
    if (file.manifest === 'group') {
      const title = file.group ? ` (${file.group.displayName}: ${file.group.description})` : '';
      lines.push(`- ${manifest}: tool group '${file.name}'${title}, ${file.tools.length} ${file.tools.length === 1 ? 'tool' : 'tools'}`);
      for (const tool of file.tools) lines.push(`    - ${tool.name}: ${tool.description}`);
    } else if (file.manifest === 'single' && file.tools.length > 0) {
      for (const tool of file.tools) lines.push(`- ${manifest}: tool ${tool.name}: ${tool.description}`);
    } else {
      lines.push(`- ${manifest}: not loaded`);
    }
    for (const problem of file.problems) lines.push(`    ${problem.severity}${problem.tool ? ` (${problem.tool})` : ''}: ${problem.message}`);
  }
  return lines.join('\n');
}

function problemLines(info: UserToolInfo): string {
  if (info.problems.length === 0) return '';
  return `\nNote:\n${info.problems.map((p) => `- ${p.severity}: ${p.message}`).join('\n')}`;
}
