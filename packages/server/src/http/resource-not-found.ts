import { OneClawError } from '@oneclaw/core';

/**
 * A "no such thing" error about the resource the URL names. Some codes answer 400 elsewhere
 * (`agent_not_found` from `POST /api/sessions {agentId}` is a bad body); under the thing's own URL
 * (`/api/agents/:id`) the same code answers 404. The code, message and details stay as they were.
 */
export class ResourceNotFoundError extends OneClawError {
  readonly status = 404;
}

/** A `.catch` for routes whose path names the resource: the listed codes become 404s, others pass through. */
export function notFoundInPath(...codes: readonly string[]): (error: unknown) => never {
  return (error) => {
    if (error instanceof OneClawError && codes.includes(error.code)) throw new ResourceNotFoundError(error.code, error.message, error.details);
    throw error;
  };
}
