import { describe, expect, it } from '@jest/globals';
import { InMemoryEventStore, type SessionState } from '@oneclaw/core';
import { testCatalogue } from '@oneclaw/core/testing';
import { SessionRepository } from './session-repository';
import { measureState, TURN_ID_BYTES, type StateSize } from './session-state-size';

describe('measureState: approximate bytes of a session state, for the session cache bound', () => {
  it('measured step by step (only new messages each time) it equals a measure from scratch, grows with the text, and drops after a clear', async () => {
    const repo = new SessionRepository(new InMemoryEventStore(), testCatalogue());
    let previous: { state: SessionState; size: StateSize } | undefined;
    const step = (state: SessionState) => {
      const size = measureState(state, previous);
      previous = { state, size };
      return size;
    };
    step((await repo.record('s', { type: 'StartSession', sessionId: 's', agentId: 'a' }, { commandId: 'start' })).state);
    let last: StateSize | undefined;
    for (let i = 0; i < 20; i++) {
      const { state } = await repo.record('s', { type: 'RecordUserMessage', messageId: `m${i}`, text: 'x'.repeat(1000 * (i + 1)) }, { commandId: `m${i}` });
      last = step(state);
      expect(last).toEqual(measureState(state));
    }
    // 1 + 2 + ... + 20 thousand characters of text.
    expect(last?.bytes).toBeGreaterThan(210_000);
    expect(last?.bytes).toBeLessThan(220_000);
    step(
      (await repo.record('s', { type: 'RecordTurnFinished', reason: 'completed', detail: '', rounds: 1, usage: { inputTokens: 0, outputTokens: 0 } }, { commandId: 'done' })).state,
    );
    const cleared = step((await repo.record('s', { type: 'ClearSession', reason: 'user' }, { commandId: 'clear' })).state);
    // A clear keeps the ids of the 20 turns opened (openedTurnIds) and drops the rest.
    expect(cleared.bytes).toBeLessThan(2_000 + 20 * TURN_ID_BYTES);
    expect(cleared).toEqual(measureState((await repo.get('s')).state));
  });
});
