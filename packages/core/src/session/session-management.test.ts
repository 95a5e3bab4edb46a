import type { EventEnvelope, RecordedEvent } from '../events/event-envelope';
import { SESSION_TITLE_MAX_CHARS } from '../events/session-events';
import { buildAuditTrail } from '../audit/audit-trail';
import { testCatalogue } from '../testing/fixed-tool-catalogue';
import { sessionScenario } from '../testing/session-scenario';
import { testEvent } from '../testing/test-events';
import { replay } from './evolve';
import type { SessionCommand } from './session-commands';

const catalogue = testCatalogue();
const start: SessionCommand = { type: 'StartSession', sessionId: 's1', agentId: 'default' };
const userSays = (messageId: string, text: string, turnId?: string): SessionCommand => ({ type: 'RecordUserMessage', messageId, text, ...(turnId ? { turnId } : {}) });
const rename = (title: string): SessionCommand => ({ type: 'RenameSession', title });
const archive: SessionCommand = { type: 'ArchiveSession' };

function refusal(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (error) {
    return { code: (error as { code: string }).code, message: (error as Error).message };
  }
  throw new Error('expected a typed error');
}

describe('renaming a session (SessionRenamed)', () => {
  it('records the title on one line, trimmed; the state and a clear keep it', () => {
    const s = sessionScenario(catalogue).given(start, userSays('m1', 'hello'));
    expect(s.record(rename('  Trip\n\tplanning  '))).toMatchObject([{ type: 'SessionRenamed', data: { title: 'Trip planning' } }]);
    expect(s.state().title).toBe('Trip planning');
    s.given({ type: 'RecordTurnFinished', reason: 'completed', detail: '', rounds: 1, usage: { inputTokens: 0, outputTokens: 0 } }, { type: 'ClearSession', reason: 'user' });
    expect(s.state().title).toBe('Trip planning');
    expect(s.state().messages).toEqual([]);
  });

  it('renaming to the same title records nothing; a new title wins', () => {
    const s = sessionScenario(catalogue).given(start, rename('One'));
    expect(s.record(rename(' One '))).toEqual([]);
    s.given(rename('Two'));
    expect(s.state().title).toBe('Two');
  });

  it('refuses an empty or too long title with a stable code and records nothing', () => {
    const s = sessionScenario(catalogue).given(start);
    expect(refusal(() => s.record(rename(' \n ')))).toMatchObject({ code: 'title_empty', message: expect.stringContaining('cannot be empty') });
    const long = 'x'.repeat(SESSION_TITLE_MAX_CHARS + 1);
    expect(refusal(() => s.record(rename(long)))).toMatchObject({ code: 'title_too_long', message: expect.stringContaining(`at most ${SESSION_TITLE_MAX_CHARS}`) });
    // Characters, not UTF-16 units: an emoji title at the limit is fine.
    expect(s.record(rename('🙂'.repeat(SESSION_TITLE_MAX_CHARS)))).toHaveLength(1);
    expect(s.history().map((e) => e.type)).toEqual(['SessionStarted', 'SessionRenamed']);
  });

  it('refuses renaming a session that was never started', () => {
    expect(refusal(() => sessionScenario(catalogue).record(rename('x'))).code).toBe('session_not_found');
  });
});

describe('archiving (deleting) a session (SessionArchived)', () => {
  it('records the archive once; a second archive records nothing', () => {
    const s = sessionScenario(catalogue).given(start, userSays('m1', 'hello'));
    expect(s.record(archive)).toMatchObject([{ type: 'SessionArchived', data: {} }]);
    expect(s.state().archivedAt).toEqual(expect.any(String));
    expect(s.record(archive)).toEqual([]);
    // The conversation stays in the state: archiving hides, it does not erase.
    expect(s.state().messages).toHaveLength(1);
  });

  it('an archived session refuses new messages, renames, clears and user group loads with session_archived and says what to do', () => {
    const s = sessionScenario(catalogue).given(start, archive);
    const refused: SessionCommand[] = [
      userSays('m2', 'are you there?'),
      rename('new name'),
      { type: 'ClearSession', reason: 'user' },
      { type: 'LoadToolGroup', groupName: 'google_gmail', source: { kind: 'user' } },
    ];
    for (const command of refused) {
      const { code, message } = refusal(() => s.record(command));
      expect(code).toBe('session_archived');
      expect(message).toContain('Start a new session');
      expect(message).toContain('/api/sessions/s1/audit');
    }
    expect(s.history().map((e) => e.type)).toEqual(['SessionStarted', 'SessionArchived']);
  });

  it('a turn that was running when the session was archived still records its reply, results and stop', () => {
    const s = sessionScenario(catalogue).given(start, userSays('m1', 'check my mail', 't1'), archive);
    s.given(
      { type: 'RecordModelRequest', provider: 'anthropic', model: 'm', toolNames: ['load_tool_group'], schemaTokens: 10 },
      { type: 'RecordAssistantMessage', messageId: 'a1', text: '', toolCalls: [{ callId: 'c1', toolName: 'load_tool_group', arguments: { group_name: 'google_gmail' } }] },
      { type: 'LoadToolGroup', groupName: 'google_gmail', source: { kind: 'tool_call', callId: 'c1' } },
      { type: 'RecordToolResult', messageId: 'r1', callId: 'c1', toolName: 'load_tool_group', durationMs: 1, status: 'success', result: 'ok' },
      { type: 'RecordTurnFinished', reason: 'cancelled', detail: 'The session was deleted.', rounds: 1, usage: { inputTokens: 0, outputTokens: 0 } },
    );
    expect(s.state().openTurn).toBeNull();
    expect(s.state().loadedGroups.map((g) => g.groupName)).toEqual(['google_gmail']);
    expect(s.history().at(-1)?.type).toBe('TurnFinished');
  });
});

describe('old and odd streams', () => {
  it('a stream from before rename and archive replays as it did: no title, not archived', () => {
    const state = replay([
      testEvent('e0', { sessionId: 's1', agentId: 'default' }, 'SessionStarted'),
      testEvent('e1', { messageId: 'm1', role: 'user', text: 'hi' }, 'MessageSent'),
    ]);
    expect(state).toMatchObject({ status: 'active', title: null, archivedAt: null, skippedEvents: 0 });
  });

  it('a SessionRenamed without a title is skipped, not fatal', () => {
    const state = replay([testEvent('e0', { sessionId: 's1', agentId: 'default' }, 'SessionStarted'), testEvent('e1', { title: '' }, 'SessionRenamed')]);
    expect(state).toMatchObject({ title: null, skippedEvents: 1 });
  });

  it('the audit shows the rename and the archive', () => {
    const s = sessionScenario(catalogue).given(start, rename('Groceries'), archive);
    const events: RecordedEvent[] = (s.history() as readonly EventEnvelope[]).map((e, i) => ({ ...e, streamId: 'session-s1', revision: i, position: i }));
    const lines = buildAuditTrail(events).events;
    expect(lines.map((l) => [l.type, l.summary])).toEqual([
      ['SessionStarted', 'session s1 started for agent default'],
      ['SessionRenamed', 'renamed to "Groceries"'],
      ['SessionArchived', 'deleted (archived): gone from the session list; the stream and this audit keep it'],
    ]);
  });
});
