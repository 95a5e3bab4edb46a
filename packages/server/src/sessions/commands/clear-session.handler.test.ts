import { describe, expect, it } from '@jest/globals';
import { InMemoryEventStore } from '@oneclaw/core';
import { testCatalogue } from '@oneclaw/core/testing';
import { CutOffTurns } from '../../turns/cut-off-turns';
import { ServerIdentity } from '../../turns/server-identity';
import { TurnRegistry } from '../../turns/turn-registry';
import { SessionIndex } from '../session-index';
import { SessionRepository } from '../session-repository';
import type { SessionViews } from '../session-views';
import { ClearSessionCommand } from './clear-session.command';
import { ClearSessionHandler } from './clear-session.handler';

/** A session whose turn t1 is open in the store (its user message, no TurnFinished). */
async function sessionWithOpenTurn() {
  const store = new InMemoryEventStore();
  const sessions = new SessionRepository(store, testCatalogue());
  const identity = new ServerIdentity('replica-a', 30 * 60_000);
  const turns = new TurnRegistry();
  const cutOff = new CutOffTurns({ index: new SessionIndex(store), sessions, turns, identity });
  // The view is not what is under test: what the clear records is.
  const views = { of: () => ({}) } as unknown as SessionViews;
  const handler = new ClearSessionHandler(sessions, views, cutOff);
  await sessions.record('s1', { type: 'StartSession', sessionId: 's1', agentId: 'default' }, { commandId: 'start' });
  await sessions.record('s1', { type: 'RecordUserMessage', messageId: 't1-user', text: 'hi', turnId: 't1', host: identity.host }, { commandId: 't1' });
  const types = async () => (await store.readStream('session-s1')).map((e) => e.type);
  return { handler, turns, types };
}

describe('ClearSessionHandler: a clear never lands inside a turn', () => {
  it('a turn running on this server refuses the clear with turn_in_progress, and nothing is recorded', async () => {
    const { handler, turns, types } = await sessionWithOpenTurn();
    turns.begin('s1', 't1');
    await expect(handler.execute(new ClearSessionCommand('s1'))).rejects.toMatchObject({ code: 'turn_in_progress' });
    expect(await types()).toEqual(['SessionStarted', 'MessageSent']);
  });

  it('a turn that was cut off (open in the store, running nowhere) is closed as interrupted first, then the session is cleared', async () => {
    const { handler, types } = await sessionWithOpenTurn();
    await handler.execute(new ClearSessionCommand('s1'));
    expect(await types()).toEqual(['SessionStarted', 'MessageSent', 'TurnFinished', 'SessionCleared']);
  });

  it('If-Match is checked against what the client read, before a cut-off turn is closed: a stale one changes nothing, a current one clears', async () => {
    const { handler, types } = await sessionWithOpenTurn();
    await expect(handler.execute(new ClearSessionCommand('s1', undefined, 0))).rejects.toMatchObject({ code: 'precondition_failed' });
    expect(await types()).toEqual(['SessionStarted', 'MessageSent']);
    await handler.execute(new ClearSessionCommand('s1', undefined, 1));
    expect(await types()).toEqual(['SessionStarted', 'MessageSent', 'TurnFinished', 'SessionCleared']);
  });
});
