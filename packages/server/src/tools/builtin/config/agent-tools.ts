import { CONFIG_LIMITS } from '@oneclaw/core';
import { builtinTool, type Tool } from '@oneclaw/tool-registry';
import type { Agent } from '../../../agents/agent-directory';
import type { AgentService } from '../../../config/agent-service';
import { clearable, json, toolOrigin } from './tool-origin';

const agentId = { type: 'string', minLength: 1, maxLength: 200, description: 'The agent id, as list_agents shows it.' } as const;
const PROMPT_PREVIEW_CHARS = 200;

interface CreateParams {
  readonly name: string;
  readonly description?: string;
  readonly system_prompt: string;
}

interface UpdateParams {
  readonly agent_id: string;
  readonly name?: string;
  readonly description?: string;
  readonly system_prompt?: string;
  readonly preferred_provider_id?: string;
  readonly preferred_model_id?: string;
}

/** create_agent: a core tool (always sent). The new agent can start a session at once. */
export function createCreateAgentTool(agents: AgentService): Tool {
  return builtinTool<CreateParams>(
    {
      name: 'create_agent',
      description: 'Create an agent (a named assistant with its own system prompt); returns its id.',
      parameters: {
        type: 'object',
        properties: {
          name: { type: 'string', minLength: 1, maxLength: CONFIG_LIMITS.agentName },
          description: { type: 'string', maxLength: CONFIG_LIMITS.agentDescription, description: 'What it is for' },
          system_prompt: { type: 'string', minLength: 1, maxLength: CONFIG_LIMITS.systemPrompt },
        },
        required: ['name', 'system_prompt'],
      },
      timeoutMs: 10_000,
    },
    async (params, context) => {
      const agent = await agents.create(
        { name: params.name, systemPrompt: params.system_prompt, ...(params.description !== undefined ? { description: params.description } : {}) },
        toolOrigin(context),
      );
      return `Created agent '${agent.name}' with id ${agent.id}. Start a conversation with it: POST /api/sessions {"agentId": "${agent.id}"}.`;
    },
  );
}

/** list_agents, update_agent, delete_agent (config group). */
export function createAgentTools(agents: AgentService): Tool[] {
  return [
    builtinTool(
      {
        name: 'list_agents',
        description: 'Lists the agents: id, name, description, where each is defined, its preferred provider and model, and the start of its system prompt.',
        parameters: { type: 'object', properties: {} },
        timeoutMs: 10_000,
      },
      async () => json({ agents: (await agents.list()).map(agentJson) }),
    ),
    builtinTool<UpdateParams>(
      {
        name: 'update_agent',
        description:
          'Changes an agent. Only the fields given change; an empty string clears description, preferred_provider_id or preferred_model_id. The default agent and agents of agents.json can be changed too (kept as configuration, the file is not edited).',
        parameters: {
          type: 'object',
          properties: {
            agent_id: agentId,
            name: { type: 'string', maxLength: CONFIG_LIMITS.agentName, description: 'New name (cannot be cleared).' },
            description: { type: 'string', maxLength: CONFIG_LIMITS.agentDescription, description: 'New description; "" clears it.' },
            system_prompt: { type: 'string', maxLength: CONFIG_LIMITS.systemPrompt, description: 'New system prompt (cannot be cleared).' },
            preferred_provider_id: { type: 'string', maxLength: 200, description: 'Provider this agent\u2019s turns use (see list_providers); "" clears it.' },
            preferred_model_id: { type: 'string', maxLength: 200, description: 'Model this agent\u2019s turns use; "" clears it.' },
          },
          required: ['agent_id'],
        },
        timeoutMs: 10_000,
      },
      async (params, context) => {
        const description = clearable(params.description);
        const preferredProviderId = clearable(params.preferred_provider_id);
        const preferredModelId = clearable(params.preferred_model_id);
        const { agent, changed } = await agents.update(
          params.agent_id,
          {
            ...(params.name !== undefined ? { name: params.name } : {}),
            ...(params.system_prompt !== undefined ? { systemPrompt: params.system_prompt } : {}),
            ...(description !== undefined ? { description } : {}),
            ...(preferredProviderId !== undefined ? { preferredProviderId } : {}),
            ...(preferredModelId !== undefined ? { preferredModelId } : {}),
          },
          toolOrigin(context),
        );
        return `${changed ? 'Updated' : 'Nothing changed for'} agent '${agent.name}'; new turns use it as it is now.\n${json(agentJson(agent))}`;
      },
    ),
    builtinTool<{ readonly agent_id: string }>(
      {
        name: 'delete_agent',
        description: 'Deletes an agent made with create_agent. The default agent and agents of agents.json cannot be deleted.',
        parameters: { type: 'object', properties: { agent_id: agentId }, required: ['agent_id'] },
        timeoutMs: 10_000,
      },
      async (params, context) => {
        const agent = await agents.delete(params.agent_id, toolOrigin(context));
        return `Deleted agent '${agent.name}' (${agent.id}). Its conversations stay readable but cannot continue.`;
      },
    ),
  ];
}

function agentJson(a: Agent): Record<string, unknown> {
  const prompt = a.systemPrompt;
  return {
    agent_id: a.id,
    name: a.name,
    ...(a.description ? { description: a.description } : {}),
    defined_by: a.source === 'config' ? 'configuration (create_agent)' : a.source === 'file' ? 'agents.json (cannot be deleted)' : 'built in (cannot be deleted)',
    ...(a.preferredProviderId ? { preferred_provider_id: a.preferredProviderId } : {}),
    ...(a.preferredModelId ? { preferred_model_id: a.preferredModelId } : {}),
    ...(a.model ? { model: a.model } : {}),
    ...(a.allowedTools ? { allowed_tools: [...a.allowedTools] } : {}),
    system_prompt: prompt.length > PROMPT_PREVIEW_CHARS ? `${prompt.slice(0, PROMPT_PREVIEW_CHARS)}... (${prompt.length} characters)` : prompt,
  };
}
