import { SESSION_EVENTS_PAGE } from '@oneclaw/api-contract';
import { OneClawError } from '@oneclaw/core';

/** The page GET /api/sessions/:id/events asks for, from its query values; anything else is a 400. */
export function eventsPageOf(fromRevision: unknown, limit: unknown): { readonly fromRevision: number; readonly limit: number } {
  return {
    fromRevision: wholeNumber(
      fromRevision,
      0,
      Number.MAX_SAFE_INTEGER,
      0,
      (raw) =>
        new OneClawError(
          'invalid_from_revision',
          `fromRevision must be a whole number, 0 or more (got '${raw}'): the revision of the first event you want, or the nextRevision of the page before.`,
          {
            fromRevision: raw,
          },
        ),
    ),
    limit: wholeNumber(
      limit,
      1,
      SESSION_EVENTS_PAGE.maxLimit,
      SESSION_EVENTS_PAGE.defaultLimit,
      (raw) =>
        new OneClawError(
          'invalid_limit',
          `limit must be a whole number from 1 to ${SESSION_EVENTS_PAGE.maxLimit} (got '${raw}'); leave it out for ${SESSION_EVENTS_PAGE.defaultLimit}.`,
          {
            limit: raw,
            maxLimit: SESSION_EVENTS_PAGE.maxLimit,
          },
        ),
    ),
  };
}

function wholeNumber(raw: unknown, min: number, max: number, fallback: number, refuse: (raw: string) => OneClawError): number {
  if (raw === undefined || raw === '') return fallback;
  // ?limit=1&limit=2 arrives as an array: one value is expected.
  const text = typeof raw === 'string' ? raw : String(raw).slice(0, 40);
  if (typeof raw !== 'string' || !/^\d{1,16}$/.test(raw)) throw refuse(text.slice(0, 40));
  const value = Number(raw);
  if (value < min || value > max) throw refuse(text);
  return value;
}
