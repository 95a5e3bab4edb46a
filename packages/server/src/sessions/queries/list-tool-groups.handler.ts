import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { ToolGroupsAnswer, ToolGroupView } from '@oneclaw/api-contract';
import { activeToolSet, initialSessionState, type SessionState } from '@oneclaw/core';
import type { ProviderName } from '@oneclaw/tool-registry';
import { ConfigServices } from '../../config/config-services';
import { ToolRuntime } from '../../tools/tool-runtime';
import { ListToolGroupsQuery } from './list-tool-groups.query';

@QueryHandler(ListToolGroupsQuery)
export class ListToolGroupsHandler implements IQueryHandler<ListToolGroupsQuery> {
  constructor(
    private readonly tools: ToolRuntime,
    private readonly config: ConfigServices,
  ) {}

  async execute(): Promise<ToolGroupsAnswer> {
    // Caught up with other replicas' enablement changes first, as ListTools is (see there).
    await this.config.repository.load().catch(() => undefined);
    const registry = this.tools.registry;
    const format = this.defaultFormat();
    // The agent loop's own path (active set, then the payload memo), so these match what ModelRequested records.
    const tokensOf = (names: readonly string[]) => this.tools.payloads.build(format, names).schemaTokens;
    const groups = registry.groupNames().map((name): ToolGroupView => {
      const group = registry.group(name);
      const toolNames = registry.groupToolNames(name);
      return {
        name,
        displayName: group?.definition.displayName ?? name,
        description: group?.definition.description ?? '',
        toolNames,
        enabled: registry.isGroupEnabled(name),
        source: { kind: group?.origin.kind ?? 'built-in', ...(group?.origin.fileName ? { fileName: group.origin.fileName } : {}) },
        schemaTokens: tokensOf(toolNames),
      };
    });
    const everyGroupLoaded: SessionState = {
      ...initialSessionState,
      loadedGroups: registry.groupNames().map((groupName) => ({ groupName, toolNamesAtLoad: registry.groupToolNames(groupName), source: { kind: 'user' }, loadedAt: '' })),
    };
    return {
      groups,
      schemaTokens: { format, core: tokensOf(activeToolSet(initialSessionState, registry)), all: tokensOf(activeToolSet(everyGroupLoaded, registry)) },
    };
  }

  /**
   * The format of the provider a default turn uses: the default model's, else the environment
   * provider's, else openai. From the cached configuration: listing tools must not fail because the
   * store cannot be read this moment, and every turn catches the cache up anyway.
   */
  private defaultFormat(): ProviderName {
    const state = this.config.repository.cached;
    const provider = state.defaultModel ? this.config.providers.usable(state, state.defaultModel.providerId) : undefined;
    return provider?.kind ?? this.config.providers.environment?.kind ?? 'openai';
  }
}
