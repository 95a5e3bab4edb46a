/** JSON Schemas of the request bodies: validated by ValidateBody and shown in the OpenAPI description. */

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

export const sendMessageBody = {
  type: 'object',
  additionalProperties: false,
  required: ['text'],
  properties: {
    text: { type: 'string', minLength: 1, maxLength: 100_000, description: 'The user message. Exactly "/clear" clears the session instead.' },
  },
};

export interface SendMessageBody {
  readonly text: string;
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
export const emptyBody = { type: 'object', additionalProperties: false, properties: {} } as const;

export const providerApiKeyBody = {
  type: 'object',
  additionalProperties: false,
  required: ['apiKey'],
  properties: {
    apiKey: { type: 'string', minLength: 1, maxLength: 4096, pattern: '^[\\x21-\\x7e]+$', description: 'The API key (visible ASCII, no spaces). Write-only: it is never returned.' },
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
