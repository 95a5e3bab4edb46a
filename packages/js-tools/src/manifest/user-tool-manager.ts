import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { OneClawError } from '@oneclaw/core';
import {
  MAX_TOOL_NAME_LENGTH,
  SchemaValidator,
  TOOL_NAME_PATTERN,
  adaptForProviders,
  resolveToolDefinition,
  type JsonSchemaObject,
  type ResolvedToolDefinition,
  type ToolGroupDefinition,
  type ToolRegistry,
} from '@oneclaw/tool-registry';
import { ScriptSyntaxError, compileScript } from '../sandbox/compiled-script';
import type { FileReport, JsToolCatalogue, JsToolFolder } from './js-tool-catalogue';
import { DEFAULT_FUNCTION_NAME, definitionProblems, parseManifest, withObjectRoot, type ManifestProblem } from './parse-manifest';
import { isToolBaseName, readToolFilePair } from './tool-file-pair';

export type UserToolErrorCode =
  'invalid_name' | 'name_taken' | 'invalid_parameters' | 'invalid_definition' | 'invalid_code' | 'missing_function' | 'not_found' | 'not_a_user_tool' | 'write_failed';

/** A refused create, update or delete; nothing on disk or in the registry changed. */
export class UserToolError extends OneClawError {
  declare readonly code: UserToolErrorCode;

  constructor(code: UserToolErrorCode, message: string, details: Readonly<Record<string, unknown>> = {}) {
    super(code, message, details);
  }
}

export interface UserToolInput {
  readonly name: string;
  readonly description: string;
  /** A JSON Schema object, or its JSON text (models often send it as a string). */
  readonly parameters: object | string;
  /** JavaScript defining a top-level `execute(params)`. */
  readonly code: string;
  /** An array, or a comma-separated list. */
  readonly requiredPermissions?: readonly string[] | string;
  readonly timeoutSeconds?: number;
}

export type UserToolChanges = Partial<Omit<UserToolInput, 'name'>>;

export interface UserToolInfo {
  /** The file's base name; for a single-tool file written here, the tool's name too. */
  readonly name: string;
  readonly fileName: string;
  readonly manifest: 'single' | 'group' | undefined;
  readonly group?: ToolGroupDefinition;
  /** The file's tools as registered now. */
  readonly tools: readonly { readonly name: string; readonly description: string }[];
  readonly problems: readonly ManifestProblem[];
}

export interface UserToolManagerOptions {
  readonly folder: string;
  readonly catalogue: JsToolCatalogue;
  readonly registry: ToolRegistry;
}

/**
 * Creates, updates and deletes single-tool files in the user tools folder (the
 * js_tool_management group). Everything is checked before anything is written; files are
 * written atomically and loaded at once, so the tool can be called in the same turn.
 */
export class UserToolManager {
  private readonly folder: JsToolFolder;
  private readonly validator = new SchemaValidator();

  constructor(private readonly options: UserToolManagerOptions) {
    this.folder = { path: resolve(options.folder), kind: 'js-user' };
  }

  create(input: UserToolInput): UserToolInfo {
    const name = checkName(input.name);
    this.checkNameFree(name);
    const manifest = this.buildManifest(name, {}, input);
    const code = checkCode(name, input.code, DEFAULT_FUNCTION_NAME);
    this.write(name, code, manifest, true);
    return this.info(this.options.catalogue.reloadFile(this.folder, name));
  }

  /** Changes a single-tool file of the user folder; fields left out keep their value. */
  update(name: string, changes: UserToolChanges): UserToolInfo {
    const file = this.locate(checkFileName(name), 'update');
    const pair = readToolFilePair(this.folder.path, file);
    const existing = existingManifest(pair.json);
    const functionName = typeof existing.function === 'string' ? existing.function : DEFAULT_FUNCTION_NAME;
    const manifest = this.buildManifest(typeof existing.name === 'string' ? existing.name : file, existing, changes);
    const source = changes.code ?? pair.js;
    if (source === undefined) {
      throw new UserToolError('invalid_code', `'${file}.js' is missing; pass the tool's code to update it.`, { name });
    }
    const code = checkCode(file, source, functionName);
    this.write(file, code, manifest, false);
    return this.info(this.options.catalogue.reloadFile(this.folder, file));
  }

  /** Deletes a user file (by tool name or file name) and unregisters its tools. */
  delete(name: string): void {
    const file = this.locate(checkFileName(name), 'delete');
    try {
      // The manifest first: a script without one is ignored, a manifest without one is an error.
      rmSync(join(this.folder.path, `${file}.json`), { force: true });
      rmSync(join(this.folder.path, `${file}.js`), { force: true });
    } catch (error) {
      this.options.catalogue.reloadFile(this.folder, file);
      throw new UserToolError('write_failed', `Could not delete '${file}' from '${this.folder.path}': ${errorText(error)}. Check the folder's permissions and try again.`, {
        name,
      });
    }
    this.options.catalogue.removeFile(this.folder, file);
  }

  /** Every file of the user folder the catalogue knows, single or group, with its tools and problems. */
  list(): UserToolInfo[] {
    return this.userFiles().map((file) => this.info(file));
  }

  // ---- checks ---------------------------------------------------------------------------

  private checkNameFree(name: string): void {
    const registered = this.options.registry.get(name);
    if (registered) {
      const where = registered.source.kind === 'built-in' ? 'a built-in tool' : `a tool from '${registered.source.fileName ?? 'another file'}'`;
      throw new UserToolError('name_taken', `The name '${name}' is already used by ${where}. Choose another name, or update that tool if it is yours.`, { name });
    }
    if (existsSync(join(this.folder.path, `${name}.json`)) || existsSync(join(this.folder.path, `${name}.js`))) {
      throw new UserToolError(
        'name_taken',
        `The user tools folder already has a file named '${name}' (it may have failed to load). Update or delete '${name}' instead, or choose another name.`,
        { name },
      );
    }
  }

  /** The manifest to write: the existing one (update) with the given fields applied, fully checked. */
  private buildManifest(name: string, existing: Record<string, unknown>, input: UserToolChanges): Record<string, unknown> {
    const manifest: Record<string, unknown> = { ...existing, name };
    if (input.description !== undefined) manifest.description = input.description;
    if (input.parameters !== undefined) manifest.parameters = withObjectRoot(checkParameters(name, input.parameters));
    if (input.requiredPermissions !== undefined) manifest.requiredPermissions = permissionList(input.requiredPermissions);
    if (input.timeoutSeconds !== undefined) {
      delete manifest.timeoutMs;
      manifest.timeoutSeconds = input.timeoutSeconds;
    }

    const timeoutSeconds = manifest.timeoutSeconds;
    if (timeoutSeconds !== undefined && !(typeof timeoutSeconds === 'number' && Number.isFinite(timeoutSeconds) && timeoutSeconds > 0)) {
      throw new UserToolError('invalid_definition', `Tool '${name}' was not saved: timeoutSeconds must be a positive number of seconds (got ${JSON.stringify(timeoutSeconds)}).`, {
        name,
      });
    }
    let definition: ResolvedToolDefinition;
    try {
      definition = resolveToolDefinition({
        name,
        description: manifest.description,
        parameters: withObjectRoot(manifest.parameters),
        ...(typeof timeoutSeconds === 'number' ? { timeoutMs: Math.round(timeoutSeconds * 1000) } : {}),
        ...(manifest.timeoutMs !== undefined ? { timeoutMs: manifest.timeoutMs } : {}),
        ...(manifest.requiredPermissions !== undefined ? { requiredPermissions: manifest.requiredPermissions } : {}),
      });
    } catch (error) {
      const problems = definitionProblems(error);
      const code = problems.some((p) => p.startsWith('parameters')) ? 'invalid_parameters' : 'invalid_definition';
      throw new UserToolError(code, `Tool '${name}' was not saved: ${problems.join('; ')}.`, { name, problems });
    }
    this.checkSchemaCompiles(name, definition.parameters);
    checkSchemaAdapts(name, definition.parameters);

    // The loader must read back exactly this tool: the same parser decides.
    const parsed = parseManifest(`${name}.json`, JSON.stringify(manifest));
    const errors = parsed.problems.filter((p) => p.severity === 'error');
    if (parsed.kind !== 'single' || parsed.entries.length !== 1 || errors.length > 0) {
      throw new UserToolError('invalid_definition', `Tool '${name}' was not saved: ${errors.map((p) => p.message).join(' ') || 'the manifest does not describe one tool.'}`, {
        name,
      });
    }
    return manifest;
  }

  private checkSchemaCompiles(name: string, schema: JsonSchemaObject): void {
    try {
      this.validator.compile(schema);
    } catch (error) {
      throw new UserToolError(
        'invalid_parameters',
        `Tool '${name}' was not saved: its parameters are not a valid JSON Schema (${errorText(error)}). Fix the schema and try again.`,
        { name },
      );
    } finally {
      this.validator.release(schema);
    }
  }

  /**
   * The user file behind a tool or file name. Only single-tool files can be updated; a whole file
   * (a group too) can be deleted by its file name.
   */
  private locate(name: string, action: 'update' | 'delete'): string {
    const files = this.userFiles();
    const file = files.find((f) => f.baseName === name) ?? files.find((f) => f.toolNames.includes(name));
    if (file) {
      const isGroup = file.manifest === 'group';
      if (isGroup && (action === 'update' || file.baseName !== name)) {
        const hint = action === 'update' ? 'edit the group file itself' : `delete the whole file with the name '${file.baseName}'`;
        throw new UserToolError(
          'not_a_user_tool',
          `'${name}' belongs to the tool group file '${file.baseName}.json', which this command does not ${action} tool by tool; ${hint}.`,
          { name, file: file.fileName },
        );
      }
      return file.baseName;
    }
    const registered = this.options.registry.get(name);
    if (registered) {
      const where = registered.source.kind === 'built-in' ? 'a built-in tool' : `from '${registered.source.fileName ?? 'a shipped file'}'`;
      throw new UserToolError(
        'not_a_user_tool',
        `Tool '${name}' is ${where}, not a user tool, so it cannot be ${action === 'update' ? 'updated' : 'deleted'} here. Create a user tool with another name instead.`,
        { name },
      );
    }
    const pair = readToolFilePair(this.folder.path, name);
    if (pair.json !== undefined || pair.js !== undefined) return name; // on disk, not loaded yet (half a pair)
    throw new UserToolError('not_found', `There is no user tool named '${name}'. List the user tools to see their names, or create it.`, { name });
  }

  private userFiles(): FileReport[] {
    return this.options.catalogue.files().filter((f) => f.folder === this.folder.path);
  }

  // ---- files ----------------------------------------------------------------------------

  /** The script first, then the manifest, each atomically: a watcher never sees a manifest without its script. */
  private write(baseName: string, code: string, manifest: Record<string, unknown>, isNew: boolean): void {
    const jsPath = join(this.folder.path, `${baseName}.js`);
    try {
      mkdirSync(this.folder.path, { recursive: true });
      writeAtomically(jsPath, code);
      writeAtomically(join(this.folder.path, `${baseName}.json`), `${JSON.stringify(manifest, null, 2)}\n`);
    } catch (error) {
      // A new tool leaves nothing behind; an update may have replaced the script only, so the
      // registry is brought in line with what is on disk.
      if (isNew) removeQuietly(jsPath);
      else this.options.catalogue.reloadFile(this.folder, baseName);
      throw new UserToolError(
        'write_failed',
        `Tool '${baseName}' could not be saved in '${this.folder.path}': ${errorText(error)}. Check that the folder is writable and try again.`,
        { name: baseName },
      );
    }
  }

  private info(file: FileReport): UserToolInfo {
    const tools = file.toolNames.map((name) => ({ name, description: this.options.registry.definition(name)?.description ?? '' }));
    return {
      name: file.baseName,
      fileName: file.fileName,
      manifest: file.manifest,
      ...(file.group ? { group: file.group } : {}),
      tools,
      problems: file.problems,
    };
  }
}

/**
 * The registry adapts every schema for each provider when it registers the tool, and refuses one
 * it cannot (its $refs inlined past the caps, in schema-too-large-error.ts). Run the same here, so
 * such a schema is refused before anything is written, not saved as a file that fails to load.
 */
function checkSchemaAdapts(name: string, schema: JsonSchemaObject): void {
  try {
    adaptForProviders(schema);
  } catch (error) {
    throw new UserToolError(
      'invalid_parameters',
      `Tool '${name}' was not saved: its parameters schema cannot be sent to a model (${errorText(error)}). Fix the schema and try again.`,
      { name },
    );
  }
}

function checkName(name: unknown): string {
  if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name) || name.length > MAX_TOOL_NAME_LENGTH) {
    throw new UserToolError(
      'invalid_name',
      `${JSON.stringify(name)} is not a valid tool name: use snake_case (a lowercase letter, then lowercase letters, digits or '_'), at most ${MAX_TOOL_NAME_LENGTH} characters, e.g. "word_count".`,
      { name: typeof name === 'string' ? name : null },
    );
  }
  return name;
}

/**
 * A name that update and delete look up: a tool name, or the base name of a user file (a group file,
 * or a file whose name is no tool name). It becomes a path when the file is not loaded, so anything
 * that could leave the user folder ('../lib/x', 'a/b', '.hidden') is refused before the disk is touched.
 */
function checkFileName(name: unknown): string {
  if (typeof name !== 'string' || !isToolBaseName(name)) {
    throw new UserToolError(
      'invalid_name',
      `${JSON.stringify(name)} is not the name of a user tool or file: give a tool name such as "word_count", or a user file's name without ".json" (no folders, so no '/' or '\\', and not starting with '.'). List the user tools to see their names.`,
      { name: typeof name === 'string' ? name : null },
    );
  }
  return name;
}

function checkParameters(name: string, parameters: unknown): unknown {
  let schema = parameters;
  if (typeof parameters === 'string') {
    try {
      schema = JSON.parse(parameters);
    } catch (error) {
      throw new UserToolError(
        'invalid_parameters',
        `The parameters of '${name}' are not valid JSON (${errorText(error)}). Pass a JSON Schema object such as {"type":"object","properties":{}}.`,
        { name },
      );
    }
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new UserToolError('invalid_parameters', `The parameters of '${name}' must be a JSON Schema object such as {"type":"object","properties":{"text":{"type":"string"}}}.`, {
      name,
    });
  }
  return schema;
}

function checkCode(baseName: string, code: unknown, functionName: string): string {
  if (typeof code !== 'string' || code.trim().length === 0) {
    throw new UserToolError('invalid_code', `The code of '${baseName}' is empty. Pass JavaScript that defines "async function ${functionName}(params) { ... }".`, {
      name: baseName,
    });
  }
  let functionNames: ReadonlySet<string>;
  try {
    functionNames = compileScript(`${baseName}.js`, code).functionNames;
  } catch (error) {
    if (!(error instanceof ScriptSyntaxError)) throw error;
    throw new UserToolError('invalid_code', `${error.message}. Fix the code and try again.`, { name: baseName, line: error.line, column: error.column });
  }
  if (!functionNames.has(functionName)) {
    throw new UserToolError(
      'missing_function',
      `The code of '${baseName}' does not define a top-level function '${functionName}'. Add "async function ${functionName}(params) { ... }": it is what the tool calls.`,
      { name: baseName },
    );
  }
  return code;
}

function permissionList(value: readonly string[] | string): unknown {
  if (typeof value !== 'string') return value;
  return value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}

function existingManifest(json: string | undefined): Record<string, unknown> {
  if (json === undefined) return {};
  try {
    const data: unknown = JSON.parse(json);
    return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function writeAtomically(filePath: string, content: string): void {
  const temp = join(resolve(filePath, '..'), `.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(temp, content, { encoding: 'utf8', flag: 'wx' });
    renameSync(temp, filePath);
  } catch (error) {
    removeQuietly(temp);
    throw error;
  }
}

function removeQuietly(filePath: string): void {
  try {
    rmSync(filePath, { force: true });
  } catch {
    // Nothing more can be done; the caller reports the original failure.
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
