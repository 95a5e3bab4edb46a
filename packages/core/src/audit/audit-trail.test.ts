import type { EventEnvelope, RecordedEvent } from '../events/event-envelope';
import { replay } from '../session/evolve';
import type { SessionCommand } from '../session/session-commands';
import { testCatalogue } from '../testing/fixed-tool-catalogue';
import { sessionScenario } from '../testing/session-scenario';
import { testEvent } from '../testing/test-events';
import { activeToolSet } from '../tools/active-tool-set';
import { activeGroupsAt, buildAuditTrail, type AuditModelRequest, type AuditToolReason } from './audit-trail';

const catalogue = testCatalogue();
const CORE = ['load_tool_group', 'get_current_time', 'read_file', 'write_file'];
const GMAIL = ['gmail_search', 'gmail_get_message', 'gmail_send', 'gmail_trash'];
const DRIVE = ['drive_list_files', 'drive_get_file'];

/** Stamps stream positions on events, as a store would on read. */
function recorded(events: readonly EventEnvelope[]): RecordedEvent[] {
  return events.map((e, i) => ({ ...e, streamId: 'session-s1', revision: i, position: 100 + i }));
}

/**
 * A session as the agent loop writes it: each model request carries the active tool set of the
 * moment. Covers a load by the model, a second load by the user, an unload, a clear, and a
 * re-load after the clear.
 */
function realisticStream(): RecordedEvent[] {
  const s = sessionScenario(catalogue);
  const ask = (): SessionCommand => ({
    type: 'RecordModelRequest',
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    toolNames: activeToolSet(s.state(), catalogue),
    schemaTokens: 100 * activeToolSet(s.state(), catalogue).length,
  });
  s.given({ type: 'StartSession', sessionId: 's1', agentId: 'default' }, { type: 'RecordUserMessage', messageId: 'm1', text: 'what is in my inbox?' });
  s.given(ask()); // #1 at rev 2: core only
  s.given(
    {
      type: 'RecordAssistantMessage',
      messageId: 'm2',
      text: '',
      toolCalls: [{ callId: 'c1', toolName: 'load_tool_group', arguments: { group_name: 'google_gmail' } }],
    },
    { type: 'LoadToolGroup', groupName: 'google_gmail', source: { kind: 'tool_call', callId: 'c1' } }, // rev 4
    { type: 'RecordToolResult', messageId: 'm3', callId: 'c1', toolName: 'load_tool_group', durationMs: 2, status: 'success', result: 'loaded' },
  );
  s.given(ask()); // #2 at rev 6: core + gmail
  s.given(
    {
      type: 'RecordAssistantMessage',
      messageId: 'm4',
      text: 'Searching.',
      toolCalls: [{ callId: 'c2', toolName: 'gmail_search', arguments: { query: 'is:unread '.repeat(20) } }],
    },
    { type: 'RecordToolResult', messageId: 'm5', callId: 'c2', toolName: 'gmail_search', durationMs: 12, status: 'success', result: '[3 mails]' },
  );
  s.given(ask()); // #3 at rev 9
  s.given(
    { type: 'RecordAssistantMessage', messageId: 'm6', text: 'You have\n3 unread mails.', toolCalls: [] },
    { type: 'RecordTurnFinished', reason: 'completed', detail: 'done', rounds: 3, usage: { inputTokens: 300, outputTokens: 40 } },
    { type: 'LoadToolGroup', groupName: 'google_drive', source: { kind: 'user' } }, // rev 12
    { type: 'RecordUserMessage', messageId: 'm7', text: 'and my files?' },
  );
  s.given(ask()); // #4 at rev 14: core + gmail + drive
  // Hand-built from here: written before the user's unload and load were refused mid-turn (m7's turn is open).
  s.givenEvents({ type: 'ToolGroupUnloaded', data: { groupName: 'google_gmail' } }); // rev 15
  s.given(ask()); // #5 at rev 16: core + drive
  s.givenEvents({ type: 'SessionCleared', data: { reason: 'user' } }); // rev 17 (a hand-built stream: no TurnFinished before it)
  s.given(ask()); // #6 at rev 18: core only
  s.givenEvents({ type: 'ToolGroupLoaded', data: { groupName: 'google_gmail', toolNames: GMAIL, source: { kind: 'user' } } }); // rev 19
  s.given(ask()); // #7 at rev 20: core + gmail, from the re-load
  return recorded(s.history());
}

const gmailByCall = { kind: 'group', groupName: 'google_gmail', loadedAtRevision: 4, source: { kind: 'tool_call', callId: 'c1' } };
const driveByUser = { kind: 'group', groupName: 'google_drive', loadedAtRevision: 12, source: { kind: 'user' } };
const gmailReloaded = { kind: 'group', groupName: 'google_gmail', loadedAtRevision: 19, source: { kind: 'user' } };

/** Tool name -> reason without the event id (checked separately), for compact expectations. */
function reasons(request: AuditModelRequest): Record<string, Partial<AuditToolReason>> {
  return Object.fromEntries(
    request.tools.map((t) => {
      if (t.reason.kind !== 'group') return [t.name, t.reason];
      const { loadEventId: _id, ...rest } = t.reason;
      return [t.name, rest];
    }),
  );
}

const expectAll = (names: readonly string[], reason: object) => Object.fromEntries(names.map((n) => [n, reason]));

describe('buildAuditTrail', () => {
  const events = realisticStream();
  const trail = buildAuditTrail(events);

  it('sanity: the hand-built stream has the revisions the expectations below rely on', () => {
    expect(events).toHaveLength(21);
    expect(events.filter((e) => e.type === 'ModelRequested').map((e) => e.revision)).toEqual([2, 6, 9, 14, 16, 18, 20]);
    expect(events.filter((e) => e.type === 'ToolGroupLoaded').map((e) => e.revision)).toEqual([4, 12, 19]);
  });

  it('names the session and numbers the requests over the whole stream, across the clear', () => {
    expect(trail.sessionId).toBe('s1');
    expect(trail.agentId).toBe('default');
    expect(trail.skippedEvents).toBe(0);
    expect(trail.requests.map((r) => [r.number, r.revision])).toEqual([
      [1, 2],
      [2, 6],
      [3, 9],
      [4, 14],
      [5, 16],
      [6, 18],
      [7, 20],
    ]);
    expect(trail.requests[3]).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-4-5', schemaTokens: 1000 });
  });

  it('gives each tool of each request its reason: core, or the load still in effect', () => {
    const byRequest = trail.requests.map(reasons);
    const core = expectAll(CORE, { kind: 'core' });
    expect(byRequest[0]).toEqual(core);
    expect(byRequest[1]).toEqual({ ...core, ...expectAll(GMAIL, gmailByCall) });
    expect(byRequest[2]).toEqual({ ...core, ...expectAll(GMAIL, gmailByCall) });
    expect(byRequest[3]).toEqual({ ...core, ...expectAll(GMAIL, gmailByCall), ...expectAll(DRIVE, driveByUser) });
    // Unloading gmail leaves drive's reason untouched.
    expect(byRequest[4]).toEqual({ ...core, ...expectAll(DRIVE, driveByUser) });
    // The clear drops every group.
    expect(byRequest[5]).toEqual(core);
    // After the re-load the reason is the new load, not the one the clear undid.
    expect(byRequest[6]).toEqual({ ...core, ...expectAll(GMAIL, gmailReloaded) });
  });

  it('keeps the tools in the order sent and names the load event by id', () => {
    const fourth = trail.requests[3] as AuditModelRequest;
    expect(fourth.tools.map((t) => t.name)).toEqual([...CORE, ...GMAIL, ...DRIVE]);
    expect(fourth.toolNames).toEqual([...CORE, ...GMAIL, ...DRIVE]);
    const search = fourth.tools.find((t) => t.name === 'gmail_search');
    expect(search?.reason).toMatchObject({ loadEventId: events[4]?.metadata.eventId });
    const reloaded = trail.requests[6]?.tools.find((t) => t.name === 'gmail_search');
    expect(reloaded?.reason).toMatchObject({ loadEventId: events[19]?.metadata.eventId });
    expect(events[19]?.metadata.eventId).not.toBe(events[4]?.metadata.eventId);
  });

  it('lists the groups in effect at each request in load order', () => {
    expect(trail.requests.map((r) => r.loadedGroups.map((g) => `${g.groupName}@${g.loadedAtRevision}`))).toEqual([
      [],
      ['google_gmail@4'],
      ['google_gmail@4'],
      ['google_gmail@4', 'google_drive@12'],
      ['google_drive@12'],
      [],
      ['google_gmail@19'],
    ]);
    expect(trail.requests[3]?.loadedGroups[1]).toMatchObject({ toolNames: DRIVE, source: { kind: 'user' }, loadedAt: events[12]?.metadata.occurredAt });
  });

  it('P4: replaying the prefix before each request rebuilds exactly the tools that request recorded', () => {
    for (const request of trail.requests) {
      const state = replay(events.slice(0, request.revision));
      expect({ n: request.number, tools: activeToolSet(state, catalogue) }).toEqual({ n: request.number, tools: request.toolNames });
      // The audit's own bookkeeping agrees with evolve's projection.
      expect(request.loadedGroups.map((g) => g.groupName)).toEqual(state.loadedGroups.map((g) => g.groupName));
      expect(activeGroupsAt(events, request.revision).map((g) => g.groupName)).toEqual(state.loadedGroups.map((g) => g.groupName));
    }
  });

  it('activeGroupsAt counts the event at the revision itself', () => {
    expect(activeGroupsAt(events, 3)).toEqual([]);
    expect(activeGroupsAt(events, 4).map((g) => g.groupName)).toEqual(['google_gmail']);
    expect(activeGroupsAt(events, 15).map((g) => g.groupName)).toEqual(['google_drive']);
    expect(activeGroupsAt(events, 17)).toEqual([]);
  });

  it('writes one readable line per event', () => {
    expect(trail.events).toHaveLength(events.length);
    expect(trail.events.map((l) => l.revision)).toEqual(events.map((e) => e.revision));
    const at = (revision: number) => trail.events[revision]?.summary;
    expect(at(0)).toBe('session s1 started for agent default');
    expect(at(1)).toBe('user: what is in my inbox?');
    expect(at(2)).toBe('model request #1 anthropic/claude-sonnet-4-5: 4 tools, 400 schema tokens');
    expect(at(3)).toBe('assistant → load_tool_group({"group_name":"google_gmail"}) [c1]');
    expect(at(4)).toBe('loaded group google_gmail (4 tools) by call c1');
    expect(at(5)).toBe('tool load_tool_group success (2 ms)');
    expect(at(7)).toMatch(/^assistant: Searching\. → gmail_search\(\{"query":"is:unread is:unread .*…\) \[c2\]$/);
    expect(at(7)?.length).toBeLessThan(120);
    expect(at(8)).toBe('tool gmail_search success (12 ms)');
    expect(at(10)).toBe('assistant: You have 3 unread mails.');
    expect(at(11)).toBe('turn finished: completed after 3 rounds (in 300 / out 40 tokens)');
    expect(at(12)).toBe('loaded group google_drive (2 tools) by the user');
    expect(at(15)).toBe('unloaded group google_gmail');
    expect(at(17)).toBe('cleared (user)');
    expect(trail.events[4]).toMatchObject({ type: 'ToolGroupLoaded', occurredAt: events[4]?.metadata.occurredAt, skipped: false });
  });
});

describe('buildAuditTrail on odd streams', () => {
  const base = realisticStream().slice(0, 7); // start … load gmail … request #2
  const duplicateLoad: EventEnvelope = {
    ...(base[4] as RecordedEvent),
    data: { groupName: 'google_gmail', toolNames: GMAIL, source: { kind: 'user' } },
    metadata: { ...(base[4] as RecordedEvent).metadata, eventId: 'dup' },
  };
  const request = (toolNames: unknown): EventEnvelope => testEvent('req', { provider: 'openai', model: 'gpt-4o-mini', toolNames, schemaTokens: 5 }, 'ModelRequested');
  const events = recorded([
    ...base,
    testEvent('x', { anything: true }, 'SomethingNew'), // 7
    duplicateLoad, // 8
    request('not a list'), // 9: malformed, evolve skips it
    request([...CORE, ...GMAIL]), // 10
    testEvent('u', { groupName: 'google_drive' }, 'ToolGroupUnloaded'), // 11
    testEvent('t', { reason: 'round_cap', detail: 'Stopped after\n20 rounds.', rounds: 20, usage: { inputTokens: 1, outputTokens: 2 } }, 'TurnFinished'),
    testEvent(
      'e',
      { messageId: 'mx', role: 'tool', callId: 'c9', toolName: 'gmail_send', status: 'error', errorType: 'timeout', message: 'took too long', durationMs: 30000 },
      'MessageSent',
    ),
  ]);
  const trail = buildAuditTrail(events);

  it('shows unreadable events as skipped lines, as evolve counts them', () => {
    expect(trail.skippedEvents).toBe(2);
    expect(trail.skippedEvents).toBe(replay(events).skippedEvents);
    expect(trail.events[7]).toMatchObject({ type: 'SomethingNew', summary: 'unreadable event (skipped)', skipped: true });
    expect(trail.events[9]).toMatchObject({ type: 'ModelRequested', summary: 'unreadable event (skipped)', skipped: true });
  });

  it('numbers only readable requests, and keeps the first load as the reason when a group is loaded twice', () => {
    expect(trail.requests.map((r) => [r.number, r.revision])).toEqual([
      [1, 2],
      [2, 6],
      [3, 10],
    ]);
    expect(trail.events[10]?.summary).toBe('model request #3 openai/gpt-4o-mini: 8 tools, 5 schema tokens');
    expect(trail.events[8]?.summary).toBe('loaded group google_gmail (4 tools) by the user (already loaded: no effect)');
    const search = trail.requests[2]?.tools.find((t) => t.name === 'gmail_search');
    expect(search?.reason).toEqual({
      kind: 'group',
      groupName: 'google_gmail',
      loadedAtRevision: 4,
      loadEventId: events[4]?.metadata.eventId,
      source: { kind: 'tool_call', callId: 'c1' },
    });
  });

  it('says when an unload had no effect, why a turn stopped, and why a tool failed', () => {
    expect(trail.events[11]?.summary).toBe('unloaded group google_drive (was not loaded: no effect)');
    expect(trail.events[12]?.summary).toBe('turn finished: round_cap after 20 rounds (in 1 / out 2 tokens): Stopped after 20 rounds.');
    expect(trail.events[13]?.summary).toBe('tool gmail_send error timeout: took too long (30000 ms)');
  });

  it('names the reasoning setting a request was made with; an unknown one (hand-written into the store) is left out, the request kept', () => {
    const asked = (reasoningEffort: unknown) =>
      testEvent('r', { provider: 'anthropic', model: 'claude-sonnet-4-5', toolNames: CORE, schemaTokens: 5, reasoningEffort }, 'ModelRequested');
    const withEffort = buildAuditTrail(recorded([...base, asked('low'), asked('extreme')]));
    expect(withEffort.events.slice(7).map((e) => e.summary)).toEqual([
      `model request #3 anthropic/claude-sonnet-4-5: ${CORE.length} tools, 5 schema tokens, reasoning set to low`,
      `model request #4 anthropic/claude-sonnet-4-5: ${CORE.length} tools, 5 schema tokens`,
    ]);
    expect(withEffort.requests.map((r) => r.reasoningEffort)).toEqual([undefined, undefined, 'low', undefined]);
  });

  it('labels a tool the replayed state cannot explain "unexplained", never core: a request after a mid-turn unload (streams written before it was refused) that still lists the group', () => {
    const s = sessionScenario(catalogue);
    const CONFIG = catalogue.groupToolNames('config');
    const request = (toolNames: readonly string[]): SessionCommand => ({ type: 'RecordModelRequest', provider: 'openai', model: 'gpt', toolNames, schemaTokens: 1 });
    s.given(
      { type: 'StartSession', sessionId: 's1', agentId: 'default' },
      { type: 'LoadToolGroup', groupName: 'config', source: { kind: 'user' } },
      { type: 'RecordUserMessage', messageId: 't1-user', text: 'run it', turnId: 't1' },
      request([...CORE, ...CONFIG]),
    );
    // The unload landed mid-turn; the turn's next request still carried the tools it had decided on.
    s.givenEvents({ type: 'ToolGroupUnloaded', data: { groupName: 'config' } });
    s.given(request([...CORE, ...CONFIG]));
    const [first, second] = buildAuditTrail(recorded(s.history())).requests;
    expect(first?.tools.filter((t) => t.reason.kind === 'group')).toHaveLength(CONFIG.length);
    expect(second?.loadedGroups).toEqual([]);
    expect(reasons(second as AuditModelRequest)).toEqual({ ...expectAll(CORE, { kind: 'core' }), ...expectAll(CONFIG, { kind: 'unexplained', groupName: 'config' }) });
  });

  it('gives an empty trail for an empty stream', () => {
    expect(buildAuditTrail([])).toEqual({ sessionId: null, agentId: null, events: [], skippedEvents: 0, requests: [] });
  });

  it('marks a reply cut short by a cancel as partial', () => {
    const s = sessionScenario(catalogue).given({ type: 'StartSession', sessionId: 's1', agentId: 'default' });
    s.given({ type: 'RecordAssistantMessage', messageId: 'a1', text: 'Working on it, ', toolCalls: [], partial: true });
    s.given({ type: 'RecordAssistantMessage', messageId: 'a2', text: 'Done.', toolCalls: [] });
    const lines = buildAuditTrail(recorded(s.history())).events.map((e) => e.summary);
    expect(lines.slice(1)).toEqual(['assistant (partial, cancelled while streaming): Working on it,', 'assistant: Done.']);
  });

  it('shows what the server changed in a model reply: renamed call ids, a missing tool name, a cut reply', () => {
    const s = sessionScenario(catalogue).given({ type: 'StartSession', sessionId: 's1', agentId: 'default' });
    s.given({
      type: 'RecordAssistantMessage',
      messageId: 'a1',
      text: 'Working',
      toolCalls: [
        { callId: 'x', toolName: 'read_file', arguments: {} },
        { callId: 'x_2', toolName: 'read_file', arguments: {} },
        { callId: 'call_r1_3', toolName: 'missing_tool_name', arguments: {} },
      ],
      adjustments: {
        renamedCalls: [
          { callId: 'x_2', originalCallId: 'x' },
          { callId: 'call_r1_3', originalCallId: '' },
        ],
        unnamedCalls: ['call_r1_3'],
        cut: { limitBytes: 1000, textBytes: 5000, keptTextBytes: 900, argumentsCut: ['x'], providerMetadataDropped: true },
      },
    });
    const line = buildAuditTrail(recorded(s.history())).events[1]?.summary;
    expect(line).toContain(
      '[repeated call id x renamed x_2; call without id named call_r1_3; call call_r1_3 had no tool name; reply over the 1000-byte record limit: text 900 of 5000 bytes kept, arguments of x not kept, provider state dropped]',
    );
  });

  it('names an over-long call id by its length, an over-long tool name by its length and start, and the calls dropped over the limit', () => {
    const s = sessionScenario(catalogue).given({ type: 'StartSession', sessionId: 's1', agentId: 'default' });
    s.given({
      type: 'RecordAssistantMessage',
      messageId: 'a1',
      text: '',
      toolCalls: [
        { callId: 'call_r1_1', toolName: 'read_file', arguments: {} },
        { callId: 'c2', toolName: 'tool_name_too_long', arguments: {} },
      ],
      adjustments: {
        renamedCalls: [{ callId: 'call_r1_1', originalCallId: 'b'.repeat(128), originalCallIdChars: 2_000_000 }],
        longToolNames: [{ callId: 'c2', start: 'c'.repeat(64), chars: 3_000 }],
        callsDropped: { limit: 128, count: 5 },
      },
    });
    const line = buildAuditTrail(recorded(s.history())).events[1]?.summary;
    expect(line).toContain(
      `[call id of 2000000 characters renamed call_r1_1; call c2 had a tool name of 3000 characters, starting ${'c'.repeat(39)}…; 5 calls over the limit of 128 per reply dropped]`,
    );
  });
});
