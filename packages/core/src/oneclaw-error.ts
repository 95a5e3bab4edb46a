/**
 * Base of every typed error in OneClaw. `code` is stable (snake_case) and safe to match on;
 * `message` says what happened and what to do. `details` carries structured context for APIs.
 */
export class OneClawError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}
