/**
 * The life of one change made on a settings screen: running (with what it is doing), then done
 * (what changed) or failed (the server's own `detail`, which says what to do). Pure, so the
 * wording is tested without a browser.
 */
import { ApiError } from '../api/api-error';

export type ActionState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running'; readonly message: string }
  | { readonly kind: 'done'; readonly message: string }
  | { readonly kind: 'failed'; readonly message: string; readonly code: string };

export const IDLE: ActionState = { kind: 'idle' };

export function running(message: string): ActionState {
  return { kind: 'running', message };
}

export function done(message: string): ActionState {
  return { kind: 'done', message };
}

/**
 * The failure as the user reads it. Read-only answers get a lead-in so the reason is clear even
 * when the detail is about the server's environment; everything else is the detail as sent.
 */
export function failed(what: string, error: unknown): ActionState {
  const apiError = error instanceof ApiError ? error : new ApiError(0, 'client_error', error instanceof Error ? error.message : String(error));
  const lead = apiError.code === 'read_only' ? `${what}: not possible here. ` : `${what} failed: `;
  return { kind: 'failed', message: `${lead}${apiError.detail}`, code: apiError.code };
}
