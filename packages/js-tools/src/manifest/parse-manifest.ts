import { MAX_TOOL_NAME_LENGTH, TOOL_NAME_PATTERN, ToolRegistryError, resolveToolDefinition, type ToolDefinition, type ToolGroupDefinition } from '@oneclaw/tool-registry';

/** The seed's limit per group file: enough for any service, small enough to stop a runaway generator. */
export const MAX_TOOLS_PER_GROUP = 50;
/** The function a single-tool file calls when its manifest names none (J1). */
export const DEFAULT_FUNCTION_NAME = 'execute';
/** How many tool names a generated group description lists before "and N more". */
export const MAX_NAMES_IN_GENERATED_DESCRIPTION = 10;

export type ManifestProblemCode =
  // the manifest as a whole
  | 'invalid_json'
  | 'invalid_manifest'
  | 'invalid_group_name'
  | 'too_many_tools'
  | 'empty_group'
  | 'invalid_meta'
  // one entry
  | 'invalid_entry'
  | 'missing_function'
  | 'duplicate_tool'
  // loading the pair (JsToolCatalogue)
  | 'missing_script'
  | 'unreadable_file'
  | 'script_syntax_error'
  | 'function_not_defined'
  | 'tool_conflict'
  | 'tool_overridden'
  | 'group_conflict'
  | 'registration_failed';

export interface ManifestProblem {
  readonly severity: 'error' | 'warning';
  readonly code: ManifestProblemCode;
  /** The manifest file, e.g. `google_drive.json`. */
  readonly file: string;
  readonly tool?: string;
  readonly message: string;
}

export interface ManifestEntry {
  readonly definition: ToolDefinition;
  /** The JS function the tool calls: `execute` by default for a single tool, the entry's `function` in a group. */
  readonly functionName: string;
}

export interface ParsedManifest {
  /** Undefined when the file could not be read as a manifest at all. */
  readonly kind: 'single' | 'group' | undefined;
  /** Set for every readable group file, from `_meta` or generated (TEST-040-10/11). */
  readonly group?: ToolGroupDefinition;
  readonly entries: readonly ManifestEntry[];
  readonly problems: readonly ManifestProblem[];
  /** False when the manifest turns slicing off (see compiled-script.ts); passed to compileScript. */
  readonly slicing: boolean;
}

const JS_IDENTIFIER = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u;

/**
 * Reads one `.json` manifest (J1, J2, J5). Pure: no I/O, never throws. An object is one tool; an
 * array is a group named after the file, with an optional `_meta` first entry. A bad entry is
 * skipped with an error naming the file and the tool; the others load.
 */
export function parseManifest(fileName: string, json: string): ParsedManifest {
  const problems = new ProblemList(fileName);
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (error) {
    problems.error('invalid_json', `'${fileName}' is not valid JSON: ${(error as Error).message}. Fix the file and save it again.`);
    return { kind: undefined, entries: [], problems: problems.list, slicing: true };
  }
  if (Array.isArray(data)) return parseGroup(fileName, data, problems);
  if (isObject(data)) return parseSingle(fileName, data, problems);
  problems.error('invalid_manifest', `'${fileName}' must hold a JSON object (one tool) or an array (a tool group), not ${describeJson(data)}.`);
  return { kind: undefined, entries: [], problems: problems.list, slicing: true };
}

/** `google_drive.json` → `google_drive`. */
export function manifestBaseName(fileName: string): string {
  const last = fileName.split(/[\\/]/).pop() ?? fileName;
  return last.endsWith('.json') ? last.slice(0, -'.json'.length) : last;
}

/** `google_drive` → `Google Drive` (TEST-040-11). */
export function displayNameFromFile(baseName: string): string {
  return baseName
    .split('_')
    .filter((word) => word.length > 0)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/** One line listing the group's tools (TEST-040-11): "Tools: a, b, c" or "Tools: a, ..., j and 3 more". */
export function describeToolNames(toolNames: readonly string[]): string {
  if (toolNames.length === 0) return 'No tools yet';
  const shown = toolNames.slice(0, MAX_NAMES_IN_GENERATED_DESCRIPTION);
  const rest = toolNames.length - shown.length;
  return `Tools: ${shown.join(', ')}${rest > 0 ? ` and ${rest} more` : ''}`;
}

function parseSingle(fileName: string, data: Record<string, unknown>, problems: ProblemList): ParsedManifest {
  const slicing = readSlicing(data, problems);
  if (data._meta === true) {
    problems.error('invalid_manifest', `'${fileName}' holds only a '_meta' entry, which describes a group and is not a tool. Put it first in an array, followed by the tools.`);
    return { kind: 'single', entries: [], problems: problems.list, slicing };
  }
  const entry = parseEntry(data, { fileName, inGroup: false, label: 'the tool' }, problems);
  return { kind: 'single', entries: entry ? [entry] : [], problems: problems.list, slicing };
}

function parseGroup(fileName: string, data: readonly unknown[], problems: ProblemList): ParsedManifest {
  const baseName = manifestBaseName(fileName);
  if (!TOOL_NAME_PATTERN.test(baseName) || baseName.length > MAX_TOOL_NAME_LENGTH) {
    problems.error(
      'invalid_group_name',
      `'${fileName}' is a tool group, and a group is named after its file: rename it so that '${baseName}' is snake_case ` +
        `(a lowercase letter, then lowercase letters, digits or '_'), at most ${MAX_TOOL_NAME_LENGTH} characters.`,
    );
    return { kind: 'group', entries: [], problems: problems.list, slicing: true };
  }

  const first = data[0];
  const meta = isObject(first) && first._meta === true ? first : undefined;
  const toolItems = meta ? data.slice(1) : data;
  const slicing = meta ? readSlicing(meta, problems) : true;

  if (toolItems.length > MAX_TOOLS_PER_GROUP) {
    problems.error('too_many_tools', `Tool group '${fileName}' has ${toolItems.length} tools; a group may have at most ${MAX_TOOLS_PER_GROUP}. Split it into several files.`);
    return { kind: 'group', entries: [], problems: problems.list, slicing };
  }
  if (toolItems.length === 0) problems.warning('empty_group', `Empty tool group in '${fileName}': it defines no tools.`);

  const entries: ManifestEntry[] = [];
  const seen = new Set<string>();
  toolItems.forEach((item, index) => {
    const position = index + (meta ? 2 : 1);
    if (isObject(item) && item._meta !== undefined) {
      problems.error(
        'invalid_entry',
        `Entry ${position} in group '${fileName}' has a '_meta' field; only the first entry may be the '_meta' entry, and it is not a tool. It was skipped.`,
        stringOr(item.name),
      );
      return;
    }
    const entry = parseEntry(item, { fileName, inGroup: true, label: `entry ${position}` }, problems);
    if (!entry) return;
    const name = entry.definition.name;
    // Only accepted entries claim a name: when the first of two is invalid, the second loads.
    if (seen.has(name)) {
      problems.error('duplicate_tool', `Duplicate tool name '${name}' in group '${fileName}': the first definition is kept, this one was skipped.`, name);
      return;
    }
    seen.add(name);
    entries.push(entry);
  });

  const group: ToolGroupDefinition = {
    name: baseName,
    displayName: (meta && metaText(meta, 'display_name', fileName, problems)) || displayNameFromFile(baseName),
    description: (meta && metaText(meta, 'description', fileName, problems)) || describeToolNames(entries.map((e) => e.definition.name)),
  };
  return { kind: 'group', group, entries, problems: problems.list, slicing };
}

interface EntryContext {
  readonly fileName: string;
  readonly inGroup: boolean;
  /** How to name an entry that has no usable name. */
  readonly label: string;
}

function parseEntry(item: unknown, context: EntryContext, problems: ProblemList): ManifestEntry | undefined {
  const { fileName, inGroup } = context;
  const where = inGroup ? `in group '${fileName}'` : `in '${fileName}'`;
  if (!isObject(item)) {
    problems.error('invalid_entry', `The ${context.label} ${where} must be an object with name, description and parameters, not ${describeJson(item)}. It was skipped.`);
    return undefined;
  }
  const name = stringOr(item.name);
  const subject = name ? `Tool '${name}' ${where}` : `The ${context.label} ${where}`;
  const skip = (code: ManifestProblemCode, reason: string): undefined => {
    problems.error(code, `${subject} ${reason} It was skipped.`, name);
    return undefined;
  };

  let functionName = DEFAULT_FUNCTION_NAME;
  if (item.function === undefined) {
    if (inGroup) return skip('missing_function', "missing required 'function' field: name the JS function the tool calls.");
  } else if (typeof item.function !== 'string' || !JS_IDENTIFIER.test(item.function)) {
    return skip('invalid_entry', `has an invalid 'function' ${JSON.stringify(item.function)}: it must be a JavaScript function name such as "listFiles".`);
  } else {
    functionName = item.function;
  }

  const reasons: string[] = [];
  const timeoutMs = readTimeout(item, reasons);
  const candidate: Record<string, unknown> = {
    name: item.name,
    description: item.description,
    parameters: withObjectRoot(item.parameters),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(item.requiredPermissions !== undefined ? { requiredPermissions: item.requiredPermissions } : {}),
  };
  let definition: ToolDefinition | undefined;
  try {
    definition = resolveToolDefinition(candidate);
  } catch (error) {
    reasons.push(...definitionProblems(error));
  }
  if (!definition || reasons.length > 0) return skip('invalid_entry', `is invalid: ${reasons.join('; ')}.`);
  return { definition, functionName };
}

/**
 * Manifests usually leave out `"type": "object"` at the root (the origin app's format); the
 * registry requires it. A missing `parameters` means a tool without parameters.
 */
export function withObjectRoot(parameters: unknown): unknown {
  if (parameters === undefined) return { type: 'object', properties: {} };
  if (isObject(parameters) && parameters.type === undefined) return { type: 'object', ...parameters };
  return parameters;
}

/** The problems of a definition that resolveToolDefinition refused. */
export function definitionProblems(error: unknown): string[] {
  if (error instanceof ToolRegistryError) {
    const problems = error.details.problems;
    if (Array.isArray(problems) && problems.length > 0) return problems.map(String);
  }
  return [error instanceof Error ? error.message : String(error)];
}

/**
 * The longest timeout a JS tool's manifest may declare (5 minutes). A running call holds one of
 * the few sandbox workers for all of it, and the model's turn waits on it; work that takes longer
 * belongs in several calls (or a download with saveTo, which streams). A larger value is refused,
 * not clamped, so the author learns the tool cannot have what it asked for.
 */
export const MAX_MANIFEST_TIMEOUT_MS = 300_000;

/** resolveToolDefinition checks a `timeoutMs`; `timeoutSeconds` (the origin app's field) is converted here. */
function readTimeout(item: Record<string, unknown>, reasons: string[]): unknown {
  const { timeoutSeconds, timeoutMs } = item;
  if (timeoutSeconds !== undefined && timeoutMs !== undefined) {
    reasons.push('give either timeoutSeconds or timeoutMs, not both');
    return undefined;
  }
  if (timeoutSeconds === undefined) return checkMaximum(timeoutMs, `timeoutMs ${String(timeoutMs)}`, reasons);
  if (typeof timeoutSeconds !== 'number' || !Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) {
    reasons.push(`timeoutSeconds must be a positive number of seconds (got ${JSON.stringify(timeoutSeconds)})`);
    return undefined;
  }
  return checkMaximum(Math.round(timeoutSeconds * 1000), `timeoutSeconds ${timeoutSeconds}`, reasons);
}

function checkMaximum(timeoutMs: unknown, given: string, reasons: string[]): unknown {
  if (typeof timeoutMs !== 'number' || timeoutMs <= MAX_MANIFEST_TIMEOUT_MS) return timeoutMs;
  reasons.push(
    `${given} is longer than the ${MAX_MANIFEST_TIMEOUT_MS / 1000} s a JavaScript tool may run (timeoutSeconds up to ${MAX_MANIFEST_TIMEOUT_MS / 1000}, or timeoutMs up to ${MAX_MANIFEST_TIMEOUT_MS}); split the work into shorter calls`,
  );
  return undefined;
}

function readSlicing(data: Record<string, unknown>, problems: ProblemList): boolean {
  if (data.slicing === undefined) return true;
  if (typeof data.slicing === 'boolean') return data.slicing;
  problems.warning('invalid_meta', `'slicing' in '${problems.file}' must be true or false (got ${JSON.stringify(data.slicing)}); slicing stays on.`);
  return true;
}

function metaText(meta: Record<string, unknown>, key: 'display_name' | 'description', fileName: string, problems: ProblemList): string | undefined {
  const value = meta[key];
  if (value === undefined) return undefined;
  if (typeof value === 'string' && value.trim().length > 0) return value.trim();
  problems.warning('invalid_meta', `'_meta.${key}' in '${fileName}' must be a non-empty string; a generated one is used instead.`);
  return undefined;
}

class ProblemList {
  readonly list: ManifestProblem[] = [];

  constructor(readonly file: string) {}

  error(code: ManifestProblemCode, message: string, tool?: string): void {
    this.list.push({ severity: 'error', code, file: this.file, ...(tool ? { tool } : {}), message });
  }

  warning(code: ManifestProblemCode, message: string, tool?: string): void {
    this.list.push({ severity: 'warning', code, file: this.file, ...(tool ? { tool } : {}), message });
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value)}`;
  return typeof value === 'object' ? 'an object' : `the ${typeof value} ${String(value)}`;
}
