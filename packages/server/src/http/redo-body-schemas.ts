/** Bodies of RetryTurn and EditLastUserMessage (kept apart from body-schemas.ts, which other routes share). */

export const retryTurnBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    messageId: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'The user message you mean to retry (the last one); refused with 409 not_last_user_message when it is no longer the last.',
    },
  },
};

export interface RetryTurnBody {
  readonly messageId?: string;
}

export const editMessageBody = {
  type: 'object',
  additionalProperties: false,
  required: ['text'],
  properties: {
    text: {
      type: 'string',
      minLength: 1,
      maxLength: 100_000,
      pattern: '\\S',
      description: 'The new text of the last user message. Sent as a message: "/clear" is not a command here.',
    },
  },
};

export interface EditMessageBody {
  readonly text: string;
}
