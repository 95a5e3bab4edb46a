import { randomUUID } from 'node:crypto';
import { configErrors, type AgentChanges } from '@oneclaw/core';
import type { Agent, AgentDirectory } from '../agents/agent-directory';
import type { ChangeOrigin, ConfigRepository } from './config-repository';
import type { ProviderService } from './provider-service';

/** Creates, changes and deletes agents through the configuration stream; the directory reads them. */
export class AgentService {
  constructor(
    private readonly repository: ConfigRepository,
    private readonly directory: AgentDirectory,
    private readonly providers: ProviderService,
  ) {}

  async list(): Promise<readonly Agent[]> {
    await this.repository.load();
    return this.directory.list();
  }

  /** The new agent can start a session at once (`POST /api/sessions {agentId}`). */
  async create(input: { readonly name: string; readonly description?: string; readonly systemPrompt: string }, origin?: ChangeOrigin): Promise<Agent> {
    const agentId = randomUUID();
    await this.repository.record(
      { type: 'CreateAgent', agentId, name: input.name, systemPrompt: input.systemPrompt, ...(input.description !== undefined ? { description: input.description } : {}) },
      origin,
    );
    return this.directory.get(agentId);
  }

  /** `null` clears an optional field. A preferred provider must exist (the environment provider is `env`). */
  async update(agentId: string, changes: AgentChanges, origin?: ChangeOrigin): Promise<{ readonly agent: Agent; readonly changed: boolean }> {
    const state = await this.repository.load();
    const providerId = changes.preferredProviderId?.trim();
    if (providerId && !this.providers.exists(state, providerId)) throw configErrors.providerNotFound(providerId);
    const recorded = await this.repository.record({ type: 'UpdateAgent', agentId, changes, outsideStream: this.directory.isDefinedOutside(agentId) }, origin);
    return { agent: this.directory.get(agentId), changed: recorded.events.length > 0 };
  }

  async delete(agentId: string, origin?: ChangeOrigin): Promise<Agent> {
    await this.repository.load();
    const agent = this.directory.has(agentId) ? this.directory.get(agentId) : undefined;
    await this.repository.record({ type: 'DeleteAgent', agentId, outsideStream: this.directory.isDefinedOutside(agentId) }, origin);
    return agent as Agent;
  }
}
