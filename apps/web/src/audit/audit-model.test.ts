import { describe, expect, it } from '@jest/globals';
import { formatEventTime, rawJson, reasonLabel, timelineOf, toolsByReason, type AuditTrail, type RawEvent, type ToolReason } from './audit-model';

const gmail: ToolReason = { kind: 'group', groupName: 'gmail', loadedAtRevision: 4, loadEventId: 'e4', source: { kind: 'tool_call', callId: 'call-1' } };
const pdf: ToolReason = { kind: 'group', groupName: 'pdf', loadedAtRevision: 9, loadEventId: 'e9', source: { kind: 'user' } };

/** A stored event as GET /api/sessions/:id/events answers it. */
const raw = (revision: number, type: string): RawEvent => ({
  streamId: 'session-s1',
  revision,
  position: revision,
  type,
  data: { n: revision },
  metadata: { eventId: `e${revision}`, occurredAt: '2025-01-01T10:00:09.000Z', correlationId: 'c', causationId: 'c', schemaVersion: 1 },
});

describe('toolsByReason', () => {
  it('buckets tools by why they were sent, core first, groups in load order, tools in sent order', () => {
    const buckets = toolsByReason({
      tools: [
        { name: 'load_tool_group', reason: { kind: 'core' } },
        { name: 'read_file', reason: { kind: 'core' } },
        { name: 'gmail_search', reason: gmail },
        { name: 'gmail_send', reason: gmail },
        { name: 'pdf_info', reason: pdf },
      ],
    });
    expect(buckets).toEqual([
      { key: 'core', reason: { kind: 'core' }, toolNames: ['load_tool_group', 'read_file'] },
      { key: 'group:gmail@4', reason: gmail, toolNames: ['gmail_search', 'gmail_send'] },
      { key: 'group:pdf@9', reason: pdf, toolNames: ['pdf_info'] },
    ]);
  });

  it('keeps a group reloaded after a clear apart from its first load', () => {
    const again: ToolReason = { ...gmail, loadedAtRevision: 12, loadEventId: 'e12' };
    const keys = toolsByReason({
      tools: [
        { name: 'a', reason: gmail },
        { name: 'b', reason: again },
      ],
    }).map((b) => b.key);
    expect(keys).toEqual(['group:gmail@4', 'group:gmail@12']);
  });

  it('gives no buckets for a request without tools', () => {
    expect(toolsByReason({ tools: [] })).toEqual([]);
  });
});

describe('reasonLabel', () => {
  it('names the core tools, or the group with the revision and who loaded it', () => {
    expect(reasonLabel({ kind: 'core' })).toBe('Core tools');
    expect(reasonLabel(gmail)).toBe('Group gmail, loaded at revision 4 by call call-1');
    expect(reasonLabel(pdf)).toBe('Group pdf, loaded at revision 9 by the user');
  });

  it('says when the record does not explain a tool (a group unloaded mid-turn by an older server), in a bucket of its own', () => {
    const unexplained: ToolReason = { kind: 'unexplained', groupName: 'config' };
    expect(reasonLabel(unexplained)).toBe('Not explained by the record: tools of group config, which was not loaded');
    const buckets = toolsByReason({
      tools: [
        { name: 'read_file', reason: { kind: 'core' } },
        { name: 'set_model', reason: unexplained },
      ],
    });
    expect(buckets.map((b) => [b.key, b.toolNames])).toEqual([
      ['core', ['read_file']],
      ['unexplained:config', ['set_model']],
    ]);
  });
});

describe('timelineOf', () => {
  const trail: Pick<AuditTrail, 'events' | 'requests'> = {
    events: [
      { revision: 0, type: 'SessionStarted', occurredAt: '2025-01-01T10:00:00.000Z', summary: 'session s started', skipped: false },
      { revision: 1, type: 'MessageSent', occurredAt: '2025-01-01T10:00:01.000Z', summary: 'user: hi', skipped: false },
      { revision: 2, type: 'ModelRequested', occurredAt: '2025-01-01T10:00:02.000Z', summary: 'model request #1', skipped: false },
    ],
    requests: [{ number: 1, revision: 2, occurredAt: '', provider: 'p', model: 'm', schemaTokens: 10, toolNames: [], tools: [], loadedGroups: [] }],
  };

  it('joins each audit line with its raw event by revision, and marks model requests with their number', () => {
    const entries = timelineOf(trail, [raw(0, 'SessionStarted'), raw(1, 'MessageSent'), raw(2, 'ModelRequested')]);
    expect(entries.map((e) => [e.revision, e.type, e.raw?.revision, e.requestNumber])).toEqual([
      [0, 'SessionStarted', 0, undefined],
      [1, 'MessageSent', 1, undefined],
      [2, 'ModelRequested', 2, 1],
    ]);
    expect(entries[1]!.summary).toBe('user: hi');
  });

  it('keeps lines whose raw event is missing, and adds raw events the audit did not have yet, in revision order', () => {
    const entries = timelineOf(trail, [raw(3, 'MessageSent'), raw(0, 'SessionStarted')]);
    expect(entries.map((e) => e.revision)).toEqual([0, 1, 2, 3]);
    expect(entries[1]!.raw).toBeUndefined();
    expect(entries[3]).toMatchObject({ type: 'MessageSent', occurredAt: '2025-01-01T10:00:09.000Z', summary: expect.stringContaining('reload') });
  });
});

describe('formatEventTime and rawJson', () => {
  it('shows the time alone on the same day, with the date otherwise, and says when it is unknown', () => {
    const at = new Date(2025, 0, 2, 9, 30, 15);
    const sameDay = formatEventTime(at.toISOString(), new Date(2025, 0, 2, 18, 0, 0));
    expect(sameDay).toBe(at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' }));
    expect(formatEventTime(at.toISOString(), new Date(2025, 0, 5))).toContain(at.toLocaleDateString());
    expect(formatEventTime('')).toBe('time unknown');
    expect(formatEventTime('not a date')).toBe('time unknown');
  });

  it('prints the event as indented JSON', () => {
    const event = raw(1, 'X');
    const text = rawJson(event);
    expect(JSON.parse(text)).toEqual(event);
    expect(text).toContain('\n  "type": "X"');
  });
});
