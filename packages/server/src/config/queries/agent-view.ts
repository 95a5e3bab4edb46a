import type { AgentView } from '@oneclaw/api-contract';
import type { Agent } from '../../agents/agent-directory';

/** An agent as the HTTP API shows it (the contract's AgentView): only agents of the configuration may be deleted. */
export function agentView(a: Agent): AgentView {
  return {
    id: a.id,
    name: a.name,
    ...(a.description ? { description: a.description } : {}),
    source: a.source,
    deletable: a.source === 'config',
    systemPrompt: a.systemPrompt,
    ...(a.preferredProviderId ? { preferredProviderId: a.preferredProviderId } : {}),
    ...(a.preferredModelId ? { preferredModelId: a.preferredModelId } : {}),
    maxRounds: a.maxRounds,
    ...(a.model ? { model: a.model } : {}),
    ...(a.allowedTools ? { allowedTools: [...a.allowedTools] } : {}),
  };
}
