import type { ToolCatalogue } from '@oneclaw/core';
import { deepFreeze, isPlainObject, type JsonSchemaObject } from './json-schema';
import { adaptForProviders, type ProviderSchemas } from './providers/adapt-schema';
import { formatAdaptedTools, type ToolPayload } from './providers/provider-formats';
import { PROVIDER_NAMES, type ProviderName } from './providers/provider-name';
import type { SchemaIssue } from './providers/schema-issue';
import { nameProblems, resolveToolDefinition } from './resolve-tool-definition';
import { SchemaValidator, type CompiledParameters } from './schema-validator';
import type { Tool } from './tool';
import type { ResolvedToolDefinition } from './tool-definition';
import type { ToolGroupDefinition } from './tool-group-definition';
import { ToolRegistryError } from './tool-registry-error';
import { describeOrigin, ownerKey, type ToolOrigin, type ToolSource } from './tool-source';

export interface RegisteredTool {
  readonly tool: Tool;
  readonly definition: ResolvedToolDefinition;
  readonly source: ToolSource;
  /** What each provider could not take from the schema, and what was done (see SchemaIssue). */
  readonly schemaIssues: readonly SchemaIssue[];
}

export interface RegisteredGroup {
  readonly definition: ToolGroupDefinition;
  readonly origin: ToolOrigin;
}

export type ToolRegistryChange =
  | { readonly type: 'tool_registered' | 'tool_replaced' | 'tool_unregistered'; readonly name: string }
  | { readonly type: 'group_registered' | 'group_replaced' | 'group_unregistered'; readonly name: string }
  | { readonly type: 'tool_enabled' | 'tool_disabled' | 'group_enabled' | 'group_disabled'; readonly name: string };

export type ToolRegistryListener = (change: ToolRegistryChange, version: number) => void;

export interface ToolRegistryOptions {
  /** Share one validator (one Ajv instance) between registries; each registry makes its own otherwise. */
  readonly validator?: SchemaValidator;
}

interface ToolEntry extends RegisteredTool {
  readonly parameters: CompiledParameters;
  readonly providerSchemas: Readonly<Record<ProviderName, JsonSchemaObject | undefined>>;
}

/** Name lists derived from the entries, rebuilt lazily after a change. */
interface Index {
  readonly version: number;
  readonly all: readonly string[];
  readonly core: readonly string[];
  readonly byGroup: ReadonlyMap<string, readonly string[]>;
  readonly groupNames: readonly string[];
  readonly groups: readonly ToolGroupDefinition[];
}

/**
 * Every tool and group the server knows, in registration order (which keeps the prompt and the
 * tool list stable between requests, so provider prompt caches stay warm). Schemas are checked,
 * compiled and adapted per provider once, here, so the hot path only looks things up.
 *
 * Registration is explicit: a duplicate name is refused (T2), overriding is `replace`, and a
 * group name belongs to the source that registered it (G9). Enable/disable state is kept by name
 * and outlives unregister/register, so a reloaded JS file keeps the operator's settings.
 * `version` moves on every change; caches compare it or subscribe with `onChange`.
 */
export class ToolRegistry implements ToolCatalogue {
  private readonly tools = new Map<string, ToolEntry>();
  private readonly groups = new Map<string, RegisteredGroup>();
  private readonly disabledTools = new Set<string>();
  private readonly disabledGroups = new Set<string>();
  private readonly listeners = new Set<ToolRegistryListener>();
  private readonly validator: SchemaValidator;
  private currentVersion = 0;
  private index: Index | undefined;

  constructor(options: ToolRegistryOptions = {}) {
    this.validator = options.validator ?? new SchemaValidator();
  }

  get version(): number {
    return this.currentVersion;
  }

  /**
   * Called after each change. Listeners should only mark caches stale: one that throws is
   * ignored, because the change has already happened and must not look half-applied.
   */
  onChange(listener: ToolRegistryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ---- tools ----------------------------------------------------------------------------

  register(tool: Tool, source: ToolSource): RegisteredTool {
    const { definition, source: resolved } = this.check(tool, source);
    const existing = this.tools.get(definition.name);
    if (existing) {
      throw new ToolRegistryError(
        'duplicate_tool',
        `Tool '${definition.name}' is already registered by ${describeOrigin(existing.source)}; ${describeOrigin(source)} cannot register it again. Use a different name, or replace the tool explicitly.`,
        { name: definition.name, existing: existing.source, refused: resolved },
      );
    }
    const entry = this.compile(tool, definition, resolved);
    this.tools.set(definition.name, entry);
    this.changed({ type: 'tool_registered', name: definition.name });
    return publicView(entry);
  }

  /** Swaps an existing tool in place (its position in the order stays), e.g. a reloaded JS file. */
  replace(tool: Tool, source: ToolSource): RegisteredTool {
    const { definition, source: resolved } = this.check(tool, source);
    const existing = this.tools.get(definition.name);
    if (!existing) {
      throw new ToolRegistryError('tool_not_found', `Tool '${definition.name}' is not registered, so it cannot be replaced. Register it instead.`, {
        name: definition.name,
      });
    }
    const entry = this.compile(tool, definition, resolved);
    this.tools.set(definition.name, entry);
    this.validator.release(existing.definition.parameters);
    this.changed({ type: 'tool_replaced', name: definition.name });
    return publicView(entry);
  }

  /** False when there was no such tool. */
  unregister(name: string): boolean {
    const existing = this.tools.get(name);
    if (!existing) return false;
    this.tools.delete(name);
    this.validator.release(existing.definition.parameters);
    this.changed({ type: 'tool_unregistered', name });
    return true;
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  get(name: string): RegisteredTool | undefined {
    const entry = this.tools.get(name);
    return entry && publicView(entry);
  }

  definition(name: string): ResolvedToolDefinition | undefined {
    return this.tools.get(name)?.definition;
  }

  /** The group a tool belongs to, or undefined for a core tool (or an unknown one). */
  groupOf(name: string): string | undefined {
    return this.tools.get(name)?.source.group;
  }

  /** Every tool name in registration order. */
  toolNames(): readonly string[] {
    return this.currentIndex().all;
  }

  allDefinitions(): readonly ResolvedToolDefinition[] {
    return this.definitions(this.toolNames());
  }

  /** Tools in no group: always offered (RFC-040 getCoreToolDefinitions). */
  coreDefinitions(): readonly ResolvedToolDefinition[] {
    return this.definitions(this.coreToolNames());
  }

  /** The group's tools in registration order; empty for an unknown group. */
  groupDefinitions(groupName: string): readonly ResolvedToolDefinition[] {
    return this.definitions(this.groupToolNames(groupName));
  }

  /** Definitions for the given names in the given order; unknown names are skipped. */
  definitions(names: Iterable<string>): ResolvedToolDefinition[] {
    const out: ResolvedToolDefinition[] = [];
    for (const name of names) {
      const entry = this.tools.get(name);
      if (entry) out.push(entry.definition);
    }
    return out;
  }

  /** The compiled argument check, for the execution engine. */
  parametersOf(name: string): CompiledParameters | undefined {
    return this.tools.get(name)?.parameters;
  }

  // ---- groups ---------------------------------------------------------------------------

  registerGroup(group: ToolGroupDefinition, origin: ToolOrigin): void {
    const definition = resolveGroup(group);
    const existing = this.groups.get(definition.name);
    if (existing) throw groupConflict(definition.name, existing.origin, origin);
    this.groups.set(definition.name, { definition, origin: deepFreeze({ ...origin }) });
    this.changed({ type: 'group_registered', name: definition.name });
  }

  /** Updates a group's display name or description; only its owner may (G9). */
  replaceGroup(group: ToolGroupDefinition, origin: ToolOrigin): void {
    const definition = resolveGroup(group);
    const existing = this.groups.get(definition.name);
    if (!existing) throw groupNotFound(definition.name);
    if (ownerKey(existing.origin) !== ownerKey(origin)) throw groupConflict(definition.name, existing.origin, origin);
    this.groups.set(definition.name, { definition, origin: existing.origin });
    this.changed({ type: 'group_replaced', name: definition.name });
  }

  /** Removes the group and every tool in it. False when there was no such group. */
  unregisterGroup(name: string): boolean {
    if (!this.groups.has(name)) return false;
    for (const toolName of this.groupToolNames(name)) {
      const entry = this.tools.get(toolName);
      this.tools.delete(toolName);
      if (entry) this.validator.release(entry.definition.parameters);
    }
    this.groups.delete(name);
    this.changed({ type: 'group_unregistered', name });
    return true;
  }

  group(name: string): RegisteredGroup | undefined {
    return this.groups.get(name);
  }

  /** Every group in registration order. */
  allGroups(): readonly ToolGroupDefinition[] {
    return this.currentIndex().groups;
  }

  /** Group name → its tool names, for every group whatever its tools' source kind (RFC-040). */
  toolGroups(): ReadonlyMap<string, readonly string[]> {
    return this.currentIndex().byGroup;
  }

  // ---- enable / disable -----------------------------------------------------------------

  setToolEnabled(name: string, enabled: boolean): void {
    if (!this.tools.has(name)) {
      throw new ToolRegistryError('tool_not_found', `Tool '${name}' is not registered.`, { name });
    }
    if (enabled === !this.disabledTools.has(name)) return;
    if (enabled) this.disabledTools.delete(name);
    else this.disabledTools.add(name);
    this.changed({ type: enabled ? 'tool_enabled' : 'tool_disabled', name });
  }

  setGroupEnabled(name: string, enabled: boolean): void {
    if (!this.groups.has(name)) throw groupNotFound(name);
    if (enabled === !this.disabledGroups.has(name)) return;
    if (enabled) this.disabledGroups.delete(name);
    else this.disabledGroups.add(name);
    this.changed({ type: enabled ? 'group_enabled' : 'group_disabled', name });
  }

  /** False for an unknown tool, a disabled tool, or a tool whose group is disabled. */
  isToolEnabled(name: string): boolean {
    const entry = this.tools.get(name);
    if (!entry || this.disabledTools.has(name)) return false;
    const group = entry.source.group;
    return group === undefined || !this.disabledGroups.has(group);
  }

  isGroupEnabled(name: string): boolean {
    return this.groups.has(name) && !this.disabledGroups.has(name);
  }

  // ---- ToolCatalogue (core) -------------------------------------------------------------

  coreToolNames(): readonly string[] {
    return this.currentIndex().core;
  }

  hasGroup(groupName: string): boolean {
    return this.groups.has(groupName);
  }

  groupToolNames(groupName: string): readonly string[] {
    return this.currentIndex().byGroup.get(groupName) ?? [];
  }

  groupNames(): readonly string[] {
    return this.currentIndex().groupNames;
  }

  // ---- provider formats -----------------------------------------------------------------

  /** The tool's parameters as `provider` accepts them (undefined: Gemini, no parameters). */
  providerSchema(name: string, provider: ProviderName): JsonSchemaObject | undefined {
    return this.tools.get(name)?.providerSchemas[provider];
  }

  /** The provider's `tools` value for these tools, in the given order; unknown names are skipped. */
  toolPayload(provider: ProviderName, names: Iterable<string>): ToolPayload {
    const adapted = [];
    for (const name of names) {
      const entry = this.tools.get(name);
      if (entry) adapted.push({ name, description: entry.definition.description, schema: entry.providerSchemas[provider] });
    }
    return formatAdaptedTools(provider, adapted);
  }

  /** Every schema issue found at registration, per tool, in registration order. */
  schemaIssues(): readonly (SchemaIssue & { readonly toolName: string })[] {
    return [...this.tools.values()].flatMap((e) => e.schemaIssues.map((issue) => ({ toolName: e.definition.name, ...issue })));
  }

  // ---- internals ------------------------------------------------------------------------

  /** Everything that can be refused cheaply, before any schema is compiled. */
  private check(tool: Tool, source: ToolSource): { definition: ResolvedToolDefinition; source: ToolSource } {
    if (!tool || typeof tool.execute !== 'function') {
      const name = (tool as { definition?: { name?: unknown } } | undefined)?.definition?.name;
      throw new ToolRegistryError('invalid_tool_definition', `Tool '${String(name)}' has no execute function.`, { name: name ?? null });
    }
    const definition = resolveToolDefinition(tool.definition);
    const resolved = resolveSource(source, definition.name);
    if (resolved.group !== undefined) {
      const group = this.groups.get(resolved.group);
      if (!group) {
        throw new ToolRegistryError('group_not_found', `Tool '${definition.name}' names group '${resolved.group}', which is not registered. Register the group first.`, {
          name: definition.name,
          group: resolved.group,
        });
      }
      if (ownerKey(group.origin) !== ownerKey(resolved)) throw groupConflict(resolved.group, group.origin, resolved, definition.name);
    }
    return { definition, source: resolved };
  }

  private compile(tool: Tool, definition: ResolvedToolDefinition, source: ToolSource): ToolEntry {
    let parameters: CompiledParameters;
    try {
      parameters = this.validator.compile(definition.parameters);
    } catch (error) {
      const problem = error instanceof Error ? error.message : String(error);
      throw new ToolRegistryError('invalid_tool_definition', `Tool '${definition.name}' has an invalid parameters schema: ${problem}.`, {
        name: definition.name,
        problems: [problem],
      });
    }
    let adapted: ProviderSchemas;
    try {
      adapted = adaptForProviders(definition.parameters);
    } catch (error) {
      // Past the inlining caps (SchemaTooLargeError), or anything else: a schema that cannot be
      // turned into what a provider is sent is refused now, not at the first request.
      this.validator.release(definition.parameters);
      const problem = error instanceof Error ? error.message : String(error);
      throw new ToolRegistryError('invalid_tool_definition', `Tool '${definition.name}' has a parameters schema that cannot be sent to a model: ${problem}.`, {
        name: definition.name,
        problems: [problem],
      });
    }
    const providerSchemas = {} as Record<ProviderName, JsonSchemaObject | undefined>;
    for (const provider of PROVIDER_NAMES) {
      const schema = adapted.schemas[provider];
      providerSchemas[provider] = schema && deepFreeze(schema);
    }
    return { tool, definition, source, schemaIssues: deepFreeze([...adapted.issues]), parameters, providerSchemas };
  }

  private changed(change: ToolRegistryChange): void {
    this.currentVersion += 1;
    for (const listener of [...this.listeners]) {
      try {
        listener(change, this.currentVersion);
      } catch {
        // See onChange: the change stands whatever a listener does.
      }
    }
  }

  private currentIndex(): Index {
    if (this.index?.version === this.currentVersion) return this.index;
    const all: string[] = [];
    const core: string[] = [];
    const byGroup = new Map<string, string[]>();
    for (const name of this.groups.keys()) byGroup.set(name, []);
    for (const [name, entry] of this.tools) {
      all.push(name);
      const group = entry.source.group;
      if (group === undefined) core.push(name);
      else byGroup.get(group)?.push(name);
    }
    for (const names of byGroup.values()) Object.freeze(names);
    const groups = [...this.groups.values()].map((g) => g.definition);
    this.index = deepFreeze({ version: this.currentVersion, all, core, byGroup, groupNames: [...this.groups.keys()], groups });
    return this.index;
  }
}

function publicView(entry: ToolEntry): RegisteredTool {
  return { tool: entry.tool, definition: entry.definition, source: entry.source, schemaIssues: entry.schemaIssues };
}

function resolveSource(source: ToolSource, toolName: string): ToolSource {
  const kinds = ['built-in', 'js-built-in', 'js-user'];
  if (!isPlainObject(source) || !kinds.includes(source.kind as string)) {
    throw new ToolRegistryError('invalid_tool_definition', `Tool '${toolName}' needs a source of kind ${kinds.join(', ')}.`, { name: toolName });
  }
  if (source.group !== undefined && typeof source.group !== 'string') {
    throw new ToolRegistryError('invalid_tool_definition', `Tool '${toolName}' has a group that is not a string.`, { name: toolName });
  }
  return deepFreeze({ ...source });
}

function resolveGroup(group: ToolGroupDefinition): ToolGroupDefinition {
  const problems = isPlainObject(group) ? nameProblems(group.name, 'group') : ['a group definition must be an object'];
  if (isPlainObject(group)) {
    if (typeof group.displayName !== 'string' || group.displayName.trim().length === 0) problems.push('displayName must be a non-empty string');
    if (typeof group.description !== 'string') problems.push('description must be a string');
  }
  if (problems.length > 0) {
    const name = isPlainObject(group) && typeof group.name === 'string' ? group.name : null;
    throw new ToolRegistryError('invalid_group_definition', `Tool group ${name ? `'${name}' ` : ''}is invalid: ${problems.join('; ')}.`, {
      name,
      problems,
    });
  }
  return deepFreeze({ name: group.name, displayName: group.displayName, description: group.description });
}

function groupNotFound(name: string): ToolRegistryError {
  return new ToolRegistryError('group_not_found', `Tool group '${name}' is not registered.`, { group: name });
}

function groupConflict(name: string, owner: ToolOrigin, claimant: ToolOrigin, toolName?: string): ToolRegistryError {
  const what = toolName ? `tool '${toolName}' from ${describeOrigin(claimant)} cannot join it` : `${describeOrigin(claimant)} cannot register it too`;
  return new ToolRegistryError('group_conflict', `Tool group '${name}' already belongs to ${describeOrigin(owner)}; ${what}. Rename one of the groups.`, {
    group: name,
    owner,
    claimant,
    ...(toolName ? { tool: toolName } : {}),
  });
}
