/** JSON Schemas of the request bodies: validated by ValidateBody and shown in the OpenAPI description. */

import { CONFIG_LIMITS, PROVIDER_KINDS, REASONING_EFFORTS, type ProviderKind, type ReasoningEffort } from '@oneclaw/core';

/**
 * Well-formed Unicode only (Ajv compiles patterns with the u flag, so a lone UTF-16 surrogate is
 * a code point of this range and an emoji's pair is not). For the ids and names configured here,
 * and attachment names, which end up in URLs and headers: `"gem\ud800"` was stored as a model id,
 * and every Gemini turn then failed with "URI malformed" when the id was percent-encoded into the
 * request URL.
 */
export const WELL_FORMED_TEXT = '^[^\\uD800-\\uDFFF]*$';

export const startSessionBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    sessionId: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'Optional; generated when absent (or derived from Idempotency-Key).' },
    agentId: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', description: "Default 'default'." },
  },
};

export interface StartSessionBody {
  readonly sessionId?: string;
  readonly agentId?: string;
}

/** Attachments one message may carry: each is sent to the model on every later request of the session. */
export const MAX_ATTACHMENTS_PER_MESSAGE = 10;

export const sendMessageBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    // Optional so a message can be files only; no text and no files is `400 message_empty` (the handler's rule).
    text: {
      type: 'string',
      maxLength: 100_000,
      description: 'The user message. Exactly "/clear" clears the session instead (and "/compact" compacts it). May be empty or left out when `attachments` has at least one file.',
    },
    attachments: {
      type: 'array',
      maxItems: MAX_ATTACHMENTS_PER_MESSAGE,
      description: 'Files uploaded with POST /api/attachments, by hash; `name` overrides the uploaded file name.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['hash'],
        properties: { hash: { type: 'string', pattern: '^[0-9a-f]{64}$' }, name: { type: 'string', minLength: 1, maxLength: 200, pattern: WELL_FORMED_TEXT } },
      },
    },
  },
};

export interface SendMessageBody {
  readonly text?: string;
  readonly attachments?: readonly { readonly hash: string; readonly name?: string }[];
}

export const loadToolGroupBody = {
  type: 'object',
  additionalProperties: false,
  required: ['groupName'],
  properties: { groupName: { type: 'string', minLength: 1, maxLength: 200 } },
};

export interface LoadToolGroupBody {
  readonly groupName: string;
}

/** For commands that take no body: anything sent must be empty. */
export const renameSessionBody = {
  type: 'object',
  additionalProperties: false,
  required: ['title'],
  properties: {
    // The length rule (1 to 120 characters, trimmed) is the domain's: title_empty, title_too_long.
    title: { type: 'string', maxLength: 10_000, description: 'The new name: one line, 1 to 120 characters after trimming.' },
  },
};

export interface RenameSessionBody {
  readonly title: string;
}

export const emptyBody = { type: 'object', additionalProperties: false, properties: {} } as const;

export const providerApiKeyBody = {
  type: 'object',
  additionalProperties: false,
  required: ['apiKey'],
  properties: {
    apiKey: {
      type: 'string',
      minLength: 1,
      maxLength: 4096,
      pattern: '^[\\x21-\\x7e]+$',
      description: 'The API key (visible ASCII, no spaces). Write-only: it is never returned.',
    },
  },
};

export interface ProviderApiKeyBody {
  readonly apiKey: string;
}

export const envVarValueBody = {
  type: 'object',
  additionalProperties: false,
  required: ['value'],
  properties: {
    value: { type: 'string', minLength: 1, maxLength: 16_384, description: 'The value tools read as _env.NAME. Write-only: it is never returned.' },
  },
};

export interface EnvVarValueBody {
  readonly value: string;
}

const apiKeyField = providerApiKeyBody.properties.apiKey;

export const createProviderBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'kind', 'apiBaseUrl'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: CONFIG_LIMITS.providerName, pattern: WELL_FORMED_TEXT, description: 'A name for people, e.g. "Local Ollama".' },
    kind: {
      type: 'string',
      enum: [...PROVIDER_KINDS],
      description: 'The API the provider speaks; openai covers every OpenAI-compatible server (Ollama, vLLM, llama.cpp, OpenRouter).',
    },
    apiBaseUrl: {
      type: 'string',
      minLength: 1,
      maxLength: CONFIG_LIMITS.url,
      pattern: WELL_FORMED_TEXT,
      description: 'Base URL of the API, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1. No key in it.',
    },
    apiKey: { ...apiKeyField, description: 'Optional: stored in the secret store as PUT /api/providers/{id}/api-key does. Write-only: it is never returned.' },
  },
};

export interface CreateProviderBody {
  readonly name: string;
  readonly kind: ProviderKind;
  readonly apiBaseUrl: string;
  readonly apiKey?: string;
}

export const updateProviderBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: CONFIG_LIMITS.providerName, pattern: WELL_FORMED_TEXT },
    apiBaseUrl: { type: 'string', minLength: 1, maxLength: CONFIG_LIMITS.url, pattern: WELL_FORMED_TEXT },
    isActive: { type: 'boolean', description: 'false: the provider is not used until it is activated again.' },
  },
};

export interface UpdateProviderBody {
  readonly name?: string;
  readonly apiBaseUrl?: string;
  readonly isActive?: boolean;
}

export const addModelBody = {
  type: 'object',
  additionalProperties: false,
  required: ['modelId'],
  properties: {
    modelId: {
      type: 'string',
      minLength: 1,
      maxLength: CONFIG_LIMITS.modelId,
      pattern: WELL_FORMED_TEXT,
      description: 'The model id as the provider names it, e.g. gpt-4o-mini or llama3.1:8b.',
    },
    displayName: { type: 'string', maxLength: CONFIG_LIMITS.displayName, pattern: WELL_FORMED_TEXT, description: 'A name for people.' },
  },
};

export interface AddModelBody {
  readonly modelId: string;
  readonly displayName?: string;
}

export const modelChangesBody = {
  type: 'object',
  additionalProperties: false,
  required: ['reasoning'],
  properties: {
    reasoning: {
      enum: [...REASONING_EFFORTS, null],
      description:
        'How hard the model is asked to think: low, medium or high (OpenAI reasoning_effort; Anthropic and Gemini a thinking budget of 1024, 4096 or 16384 tokens), or null for the provider\u2019s default (nothing asked).',
    },
  },
};

export interface ModelChangesBody {
  readonly reasoning: ReasoningEffort | null;
}

export const defaultModelBody = {
  type: 'object',
  additionalProperties: false,
  required: ['providerId', 'modelId'],
  properties: {
    providerId: {
      type: 'string',
      minLength: 1,
      maxLength: CONFIG_LIMITS.referenceId,
      pattern: WELL_FORMED_TEXT,
      description: 'A provider id from GET /api/providers (env: the provider set by environment variables).',
    },
    modelId: { type: 'string', minLength: 1, maxLength: CONFIG_LIMITS.modelId, pattern: WELL_FORMED_TEXT, description: 'One of that provider\u2019s models.' },
  },
};

export interface DefaultModelBody {
  readonly providerId: string;
  readonly modelId: string;
}

export const createAgentBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'systemPrompt'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: CONFIG_LIMITS.agentName, pattern: WELL_FORMED_TEXT },
    description: { type: 'string', maxLength: CONFIG_LIMITS.agentDescription, pattern: WELL_FORMED_TEXT },
    systemPrompt: { type: 'string', minLength: 1, maxLength: CONFIG_LIMITS.systemPrompt, description: 'Who the agent is and how it works.' },
  },
};

export interface CreateAgentBody {
  readonly name: string;
  readonly description?: string;
  readonly systemPrompt: string;
}

/** The AgentChanges fields; null (or "") clears an optional one. */
export const updateAgentBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: CONFIG_LIMITS.agentName, pattern: WELL_FORMED_TEXT },
    description: { type: 'string', nullable: true, maxLength: CONFIG_LIMITS.agentDescription, pattern: WELL_FORMED_TEXT },
    systemPrompt: { type: 'string', minLength: 1, maxLength: CONFIG_LIMITS.systemPrompt },
    preferredProviderId: {
      type: 'string',
      nullable: true,
      maxLength: CONFIG_LIMITS.referenceId,
      pattern: WELL_FORMED_TEXT,
      description: 'The provider this agent\u2019s turns use; null clears it.',
    },
    preferredModelId: {
      type: 'string',
      nullable: true,
      maxLength: CONFIG_LIMITS.modelId,
      pattern: WELL_FORMED_TEXT,
      description: 'The model this agent\u2019s turns use; null clears it.',
    },
    allowedTools: {
      type: 'array',
      nullable: true,
      maxItems: CONFIG_LIMITS.allowedTools,
      items: { type: 'string', pattern: '^[a-z][a-z0-9_]*$', maxLength: 64 },
      description: 'The tools the agent may see and call (list load_tool_group to let it load groups); null: every tool.',
    },
  },
};

export interface UpdateAgentBody {
  readonly name?: string;
  readonly description?: string | null;
  readonly systemPrompt?: string;
  readonly preferredProviderId?: string | null;
  readonly preferredModelId?: string | null;
  readonly allowedTools?: readonly string[] | null;
}

export const toolEnabledBody = {
  type: 'object',
  additionalProperties: false,
  required: ['enabled'],
  properties: { enabled: { type: 'boolean', description: 'false: not offered to the model from its next request on.' } },
};

export interface ToolEnabledBody {
  readonly enabled: boolean;
}
