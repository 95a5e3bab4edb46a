import { activeToolSet } from '../tools/active-tool-set';
import type { SessionEvent } from '../events/session-events';
import { decide } from '../session/decide';
import { evolve } from '../session/evolve';
import { deterministicIds } from '../ids';
import type { SessionCommand } from '../session/session-commands';
import { initialSessionState, type SessionState } from '../session/session-state';
import type { EventStore } from '../event-store/event-store';
import { FixedToolCatalogue } from './fixed-tool-catalogue';

// Without Jest (the benches run in plain Node): `@oneclaw/core/testing` itself loads
// @jest/globals, so this has an entry of its own, `@oneclaw/core/testing/long-session`.

/** Four core tools and 12 groups of 6: the catalogue `longSession` records against. */
export const longSessionCatalogue = new FixedToolCatalogue({
  core: ['load_tool_group', 'get_current_time', 'read_file', 'write_file'],
  groups: Object.fromEntries(Array.from({ length: 12 }, (_, g) => [`group_${g}`, Array.from({ length: 6 }, (_, t) => `group_${g}_tool_${t}`)])),
});

/**
 * A session of `size` events as the agent loop records a chat with tool use (user message,
 * model request, tool call, its result, reply; a group the model loads every 25 turns), in the batches
 * each command produced. Deterministic: the same arguments give the same events and ids.
 */
export function longSession(sessionId: string, size: number): SessionEvent[][] {
  const batches: SessionEvent[][] = [];
  let state: SessionState = initialSessionState;
  let t = Date.UTC(2026, 0, 1);
  let n = 0;
  const record = (command: SessionCommand): void => {
    const events = decide(command, state, { now: () => new Date((t += 1000)), newId: deterministicIds(`${sessionId}-c${n++}`), catalogue: longSessionCatalogue });
    for (const event of events) state = evolve(state, event);
    if (events.length > 0) batches.push(events);
  };
  record({ type: 'StartSession', sessionId, agentId: 'default' });
  for (let turn = 0; state.eventCount < size; turn++) {
    const steps: SessionCommand[] = [
      { type: 'RecordUserMessage', messageId: `u${turn}`, text: `Turn ${turn}: please look through my files and summarise what changed since yesterday.` },
      { type: 'RecordModelRequest', provider: 'anthropic', model: 'claude', toolNames: activeToolSet(state, longSessionCatalogue), schemaTokens: 1800 },
      {
        type: 'RecordAssistantMessage',
        messageId: `a${turn}`,
        text: '',
        toolCalls: [{ callId: `call${turn}`, toolName: 'read_file', arguments: { path: `notes/day-${turn}.md` } }],
      },
      { type: 'RecordToolResult', messageId: `r${turn}`, callId: `call${turn}`, toolName: 'read_file', durationMs: 12, status: 'success', result: 'x'.repeat(300) },
      { type: 'RecordAssistantMessage', messageId: `s${turn}`, text: `Summary for turn ${turn}: three files changed, nothing urgent.`, toolCalls: [] },
    ];
    // Loaded by the model in the turn (a user's load is refused while a turn is open).
    if (turn % 25 === 0) steps.push({ type: 'LoadToolGroup', groupName: `group_${(turn / 25) % 12}`, source: { kind: 'tool_call', callId: `call${turn}` } });
    for (const step of steps) if (state.eventCount < size) record(step);
  }
  return batches;
}

/** Appends `longSession`'s batches to a new stream, one append per command, as the server records them. */
export async function appendBatches(store: EventStore, streamId: string, batches: readonly SessionEvent[][]): Promise<void> {
  let expectedRevision: number | 'no_stream' = 'no_stream';
  for (const batch of batches) expectedRevision = (await store.append(streamId, batch, { expectedRevision })).nextExpectedRevision;
}
