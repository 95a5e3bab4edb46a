/**
 * The HTTP status each error code answers with (docs/api.md, "Error codes"). A route may answer
 * a code with another status where it says so: a missing id in the path is a 404 (for example
 * `attachment_not_found` under GET /api/attachments/:hash). A code not listed here is a 500.
 * The server's problem filter reads this table, so a code it answers is a code of the contract.
 */
export const ERROR_STATUS = {
  invalid_command: 400,
  // A message with neither text nor a file (files-only messages are allowed).
  message_empty: 400,
  invalid_event: 400,
  invalid_expected_revision: 400,
  event_not_serializable: 400,
  invalid_session_id: 400,
  session_not_found: 404,
  // Session management: a deleted session is gone (410); titles and searches are checked.
  session_archived: 410,
  // A stream deleted in the store itself (a KurrentDB tombstone): gone for good, never retried.
  stream_deleted: 410,
  title_empty: 400,
  title_too_long: 400,
  query_too_long: 400,
  group_not_found: 404,
  session_already_started: 409,
  stream_revision_conflict: 409,
  idempotency_conflict: 409,
  group_not_loaded: 409,
  unknown_tool_call: 409,
  tool_call_mismatch: 409,
  payload_too_large: 413,
  unsupported_charset: 415,
  unsupported_content_encoding: 415,
  // A body that is not JSON on a JSON route (docs/api.md, "Request bodies").
  unsupported_media_type: 415,
  storage_unavailable: 503,
  storage_corrupt: 503,
  // The session list's search texts (a cache of the store) cannot be used: the list without a search still works.
  search_unavailable: 503,
  invalid_body: 400,
  invalid_if_match: 400,
  // An Idempotency-Key over MAX_IDEMPOTENCY_KEY_LENGTH (a blank one is no key).
  invalid_idempotency_key: 400,
  agent_not_found: 400,
  unauthorized: 401,
  turn_in_progress: 409,
  duplicate_request: 409,
  precondition_failed: 412,
  rate_limited: 429,
  provider_not_configured: 503,
  validation_error: 400,
  provider_not_found: 404,
  read_only: 409,
  not_found: 404,
  // Configuration (settings screens, config routes).
  model_not_found: 404,
  tool_not_found: 404,
  provider_inactive: 409,
  cannot_disable: 409,
  api_key_missing: 409,
  unknown_key: 400,
  web_ui_not_built: 404,
  // A provider's own API failed while the server asked it something for the client (its model list).
  provider_auth_failed: 502,
  provider_rate_limited: 502,
  provider_unavailable: 502,
  provider_bad_request: 502,
  provider_bad_response: 502,
  provider_timeout: 504,
  provider_cancelled: 504,
  provider_context_too_long: 502,
  // Attachments (docs/api.md, "Attachments").
  attachment_type_unsupported: 415,
  attachment_type_mismatch: 415,
  attachment_too_large: 413,
  attachment_empty: 400,
  attachment_not_found: 400,
  invalid_attachment_hash: 400,
  // Retry and edit of the last turn (docs/events.md, "Retry and edit").
  nothing_to_retry: 409,
  nothing_to_edit: 409,
  not_last_user_message: 409,
  // Paging GET /api/sessions/:id/events (docs/api.md, "Reading a session's events").
  invalid_from_revision: 400,
  invalid_limit: 400,
} as const satisfies Readonly<Record<string, number>>;

/** A code of the table above: stable, snake_case, safe to branch on. */
export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * Codes the HTTP layer answers itself, not from a domain error: a body that is not JSON, a fault
 * it does not explain (logged, answered without internals), and `http_<status>` for any other
 * framework error.
 */
export type HttpLayerCode = 'invalid_json' | 'internal_error' | `http_${number}`;

/**
 * Every error leaves the server as RFC 9457 problem+json with a stable `code` and a `detail` that
 * says what to do. Client errors keep the error's `details` as extra members; server faults
 * (5xx) carry no internals. An `error` SSE event carries the same object.
 */
export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  /** An `ErrorCode`, an `HttpLayerCode`, or a code newer than this contract (treat it as its status says). */
  readonly code: string;
  readonly detail: string;
  readonly [extra: string]: unknown;
}
