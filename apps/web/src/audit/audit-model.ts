/**
 * The audit view's data: the shapes of `GET /api/sessions/:id/audit` (core's `buildAuditTrail`)
 * and `GET /api/sessions/:id/events`, and the pure steps that turn them into what the page shows.
 * The shapes are @oneclaw/api-contract's, which the server writes its answers with (type-only
 * imports are erased from the bundle, and the compiler then catches any drift).
 */
import type { AuditEventLine, AuditModelRequest, AuditToolReason, AuditTrail, SessionEvents, StoredEvent } from '@oneclaw/api-contract';

export type { AuditEventLine, AuditModelRequest, AuditTrail, SessionEvents };
export type ToolReason = AuditToolReason;
/** One event of the session's stream, as stored (the timeline's raw view). */
export type RawEvent = StoredEvent;

/** The tools of one request that are there for the same reason, in the order they were sent. */
export interface ToolBucket {
  /** Stable across renders: `core`, `unexplained:<name>`, or `group:<name>@<revision>`. */
  readonly key: string;
  readonly reason: ToolReason;
  readonly toolNames: readonly string[];
}

/**
 * Buckets a request's tools by why they were sent: the core tools, then one bucket per loaded
 * group in the order its first tool appears (which is load order, as the projection sends them).
 */
export function toolsByReason(request: Pick<AuditModelRequest, 'tools'>): ToolBucket[] {
  const buckets = new Map<string, { reason: ToolReason; toolNames: string[] }>();
  for (const tool of request.tools) {
    const key = reasonKey(tool.reason);
    const bucket = buckets.get(key) ?? { reason: tool.reason, toolNames: [] };
    bucket.toolNames.push(tool.name);
    buckets.set(key, bucket);
  }
  return [...buckets.entries()].map(([key, bucket]) => ({ key, reason: bucket.reason, toolNames: bucket.toolNames }));
}

/** "Core tools" or "Group gmail, loaded at revision 4 by call c1" / "... by the user". */
export function reasonLabel(reason: ToolReason): string {
  if (reason.kind === 'core') return 'Core tools';
  // Only streams from before a user's unload was refused mid-turn: the turn sent tools of a group it no longer had.
  if (reason.kind === 'unexplained') return `Not explained by the record: tools of group ${reason.groupName}, which was not loaded`;
  const by = reason.source.kind === 'user' ? 'by the user' : `by call ${reason.source.callId}`;
  return `Group ${reason.groupName}, loaded at revision ${reason.loadedAtRevision} ${by}`;
}

function reasonKey(reason: ToolReason): string {
  if (reason.kind === 'core') return 'core';
  return reason.kind === 'unexplained' ? `unexplained:${reason.groupName}` : `group:${reason.groupName}@${reason.loadedAtRevision}`;
}

/** One row of the timeline: the audit's line and, when the stream has it, the raw event. */
export interface TimelineEntry {
  readonly revision: number;
  readonly type: string;
  readonly occurredAt: string;
  readonly summary: string;
  readonly skipped: boolean;
  readonly raw?: RawEvent;
  /** Set on `ModelRequested` lines: the request's number, to link the line to its tool set. */
  readonly requestNumber?: number;
}

/**
 * The timeline in stream order. Audit lines and raw events are joined by revision; the two reads
 * are separate requests, so an event appended in between is shown from whichever read has it.
 */
export function timelineOf(trail: Pick<AuditTrail, 'events' | 'requests'>, raw: readonly RawEvent[]): TimelineEntry[] {
  const rawByRevision = new Map(raw.map((event) => [event.revision, event]));
  const requestByRevision = new Map(trail.requests.map((request) => [request.revision, request.number]));
  const entries = new Map<number, TimelineEntry>();
  for (const line of trail.events) {
    const rawEvent = rawByRevision.get(line.revision);
    const requestNumber = requestByRevision.get(line.revision);
    entries.set(line.revision, {
      ...line,
      ...(rawEvent ? { raw: rawEvent } : {}),
      ...(requestNumber !== undefined ? { requestNumber } : {}),
    });
  }
  for (const event of raw) {
    if (entries.has(event.revision)) continue;
    entries.set(event.revision, {
      revision: event.revision,
      type: event.type,
      occurredAt: occurredAtOf(event),
      summary: '(recorded after the audit was read; reload to see its summary)',
      skipped: false,
      raw: event,
    });
  }
  return [...entries.values()].sort((a, b) => a.revision - b.revision);
}

function occurredAtOf(event: RawEvent): string {
  const metadata = event.metadata as { occurredAt?: unknown } | undefined;
  return typeof metadata?.occurredAt === 'string' ? metadata.occurredAt : '';
}

/**
 * A timestamp as the timeline shows it: the local time, with the date only when it is not the
 * same day as `now` (a session is usually read the day it ran). Unknown or broken: "time unknown".
 */
export function formatEventTime(iso: string, now: Date = new Date()): string {
  const at = new Date(iso);
  if (iso === '' || Number.isNaN(at.getTime())) return 'time unknown';
  const time = at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return at.toDateString() === now.toDateString() ? time : `${at.toLocaleDateString()} ${time}`;
}

/** The raw event as indented JSON for the expandable view (data and metadata, as stored). */
export function rawJson(event: RawEvent): string {
  return JSON.stringify(event, null, 2);
}
