import type { AuditModelRequest, AuditToolReason, AuditTrail } from '@oneclaw/core';

/**
 * The audit trail as plain text for a terminal or a file: one line per event, and after each
 * model request the tools it carried with the reason each was there. No colours, and the same
 * trail always gives the same text, so outputs can be diffed and attached to reports.
 */
export function formatAuditTrail(trail: AuditTrail): string {
  const out: string[] = [header(trail)];
  if (trail.events.length === 0) return `${out[0]}\n(no events)\n`;

  const lastRevision = trail.events[trail.events.length - 1]?.revision ?? 0;
  const revisionWidth = `#${lastRevision}`.length;
  const typeWidth = Math.max(...trail.events.map((e) => e.type.length));
  const requests = new Map(trail.requests.map((r) => [r.revision, r]));
  // Continuation lines start under the summary column, so a request's block reads as part of it.
  const indent = ' '.repeat(revisionWidth + 2);

  for (const line of trail.events) {
    const time = line.occurredAt || '-';
    out.push(`${`#${line.revision}`.padEnd(revisionWidth)}  ${time}  ${line.type.padEnd(typeWidth)}  ${line.summary}`.trimEnd());
    const request = requests.get(line.revision);
    if (request) out.push(...requestBlock(request).map((l) => `${indent}${l}`));
  }
  return `${out.join('\n')}\n`;
}

function header(trail: AuditTrail): string {
  const who = trail.sessionId === null ? 'session (no SessionStarted event)' : `session ${trail.sessionId} (agent ${trail.agentId ?? '?'})`;
  const counts = [
    plural(trail.events.length, 'event'),
    plural(trail.requests.length, 'model request'),
    ...(trail.skippedEvents > 0 ? [`${trail.skippedEvents} unreadable (skipped)`] : []),
  ];
  return `${who}: ${counts.join(', ')}`;
}

function requestBlock(request: AuditModelRequest): string[] {
  const groups = request.loadedGroups.map((g) => g.groupName);
  const lines = [`groups loaded: ${groups.length === 0 ? 'none' : groups.join(', ')}`];
  if (request.tools.length === 0) return [...lines, 'model saw no tools'];
  lines.push(`model saw ${plural(request.tools.length, 'tool')}:`);
  const nameWidth = Math.max(...request.tools.map((t) => t.name.length));
  for (const tool of request.tools) lines.push(`  ${tool.name.padEnd(nameWidth)}  ${reasonText(tool.reason)}`);
  return lines;
}

function reasonText(reason: AuditToolReason): string {
  if (reason.kind === 'core') return 'core';
  if (reason.kind === 'unexplained') return `unexplained: a tool of group ${reason.groupName}, which was not loaded`;
  const by = reason.source.kind === 'user' ? 'by the user' : `by call ${reason.source.callId}`;
  return `group ${reason.groupName}, loaded at #${reason.loadedAtRevision} ${by}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
