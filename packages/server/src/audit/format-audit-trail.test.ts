import { describe, expect, it } from '@jest/globals';
import { activeToolSet, buildAuditTrail, type RecordedEvent, type SessionCommand } from '@oneclaw/core';
import { sessionScenario, testCatalogue, testEvent } from '@oneclaw/core/testing';
import { formatAuditTrail } from './format-audit-trail';

function sessionStream(): RecordedEvent[] {
  const catalogue = testCatalogue();
  const s = sessionScenario(catalogue);
  const ask = (): SessionCommand => ({
    type: 'RecordModelRequest',
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    toolNames: activeToolSet(s.state(), catalogue),
    schemaTokens: 2100,
  });
  s.given({ type: 'StartSession', sessionId: 's1', agentId: 'default' }, { type: 'RecordUserMessage', messageId: 'm1', text: 'find my files' });
  s.given(ask());
  s.given(
    { type: 'RecordAssistantMessage', messageId: 'm2', text: '', toolCalls: [{ callId: 'c1', toolName: 'load_tool_group', arguments: { group_name: 'google_drive' } }] },
    { type: 'LoadToolGroup', groupName: 'google_drive', source: { kind: 'tool_call', callId: 'c1' } },
    { type: 'RecordToolResult', messageId: 'm3', callId: 'c1', toolName: 'load_tool_group', durationMs: 3, status: 'success', result: 'ok' },
  );
  s.given(ask());
  // As recorded before a user's load and a clear were refused mid-turn (the turn has no TurnFinished here).
  s.givenEvents({ type: 'ToolGroupLoaded', data: { groupName: 'google_gmail', toolNames: catalogue.groupToolNames('google_gmail'), source: { kind: 'user' } } });
  s.givenEvents({ type: 'SessionCleared', data: { reason: 'user' } });
  return s.history().map((e, i) => ({ ...e, streamId: 'session-s1', revision: i, position: i + 1 }));
}

describe('formatAuditTrail', () => {
  const events = sessionStream();
  const text = formatAuditTrail(buildAuditTrail(events));
  const time = (revision: number) => events[revision]?.metadata.occurredAt;

  it('prints every event and, after each request, the tools the model saw with why', () => {
    expect(text).toBe(
      [
        'session s1 (agent default): 9 events, 2 model requests',
        `#0  ${time(0)}  SessionStarted   session s1 started for agent default`,
        `#1  ${time(1)}  MessageSent      user: find my files`,
        `#2  ${time(2)}  ModelRequested   model request #1 anthropic/claude-sonnet-4-5: 4 tools, 2100 schema tokens`,
        '    groups loaded: none',
        '    model saw 4 tools:',
        '      load_tool_group   core',
        '      get_current_time  core',
        '      read_file         core',
        '      write_file        core',
        `#3  ${time(3)}  MessageSent      assistant → load_tool_group({"group_name":"google_drive"}) [c1]`,
        `#4  ${time(4)}  ToolGroupLoaded  loaded group google_drive (2 tools) by call c1`,
        `#5  ${time(5)}  MessageSent      tool load_tool_group success (3 ms)`,
        `#6  ${time(6)}  ModelRequested   model request #2 anthropic/claude-sonnet-4-5: 6 tools, 2100 schema tokens`,
        '    groups loaded: google_drive',
        '    model saw 6 tools:',
        '      load_tool_group   core',
        '      get_current_time  core',
        '      read_file         core',
        '      write_file        core',
        '      drive_list_files  group google_drive, loaded at #4 by call c1',
        '      drive_get_file    group google_drive, loaded at #4 by call c1',
        `#7  ${time(7)}  ToolGroupLoaded  loaded group google_gmail (4 tools) by the user`,
        `#8  ${time(8)}  SessionCleared   cleared (user)`,
        '',
      ].join('\n'),
    );
  });

  it('is plain text: no colour codes, no trailing spaces', () => {
    expect(text).not.toMatch(/\u001b\[/);
    expect(text.split('\n').filter((l) => l !== l.trimEnd())).toEqual([]);
  });

  it('says so for a stream with no session start, unreadable events, or a request with no tools', () => {
    const odd: RecordedEvent[] = [testEvent('x', {}, 'Mystery'), testEvent('r', { provider: 'openai', model: 'm', toolNames: [], schemaTokens: 0 }, 'ModelRequested')].map(
      (e, i) => ({ ...e, streamId: 'session-x', revision: i, position: i + 1 }),
    );
    const out = formatAuditTrail(buildAuditTrail(odd));
    expect(out.split('\n')[0]).toBe('session (no SessionStarted event): 2 events, 1 model request, 1 unreadable (skipped)');
    expect(out).toContain('Mystery         unreadable event (skipped)');
    expect(out).toContain('    model saw no tools');
  });

  it('names a tool the stream does not explain (a group unloaded mid-turn by an older server) as unexplained, not core', () => {
    const at = (e: ReturnType<typeof testEvent>, i: number): RecordedEvent => ({ ...e, streamId: 'session-u', revision: i, position: i + 1 });
    const stream = [
      testEvent('l', { groupName: 'google_drive', toolNames: ['drive_list_files'], source: { kind: 'user' } }, 'ToolGroupLoaded'),
      testEvent('u', { groupName: 'google_drive' }, 'ToolGroupUnloaded'),
      testEvent('r', { provider: 'openai', model: 'm', toolNames: ['read_file', 'drive_list_files'], schemaTokens: 0 }, 'ModelRequested'),
    ].map(at);
    const out = formatAuditTrail(buildAuditTrail(stream));
    expect(out).toContain('      read_file         core\n      drive_list_files  unexplained: a tool of group google_drive, which was not loaded\n');
  });

  it('prints a note for an empty trail', () => {
    expect(formatAuditTrail(buildAuditTrail([]))).toBe('session (no SessionStarted event): 0 events, 0 model requests\n(no events)\n');
  });
});
