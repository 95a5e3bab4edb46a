import { afterEach, describe, expect, it } from '@jest/globals';
import { InMemoryEventStore, StorageUnavailableError, type EventStore } from '@oneclaw/core';
import { testCatalogue } from '@oneclaw/core/testing';
import { SessionIndex } from '../sessions/session-index';
import { SessionRepository } from '../sessions/session-repository';
import { waitFor } from '../testing/server-process';
import { CutOffTurns } from './cut-off-turns';
import { ServerIdentity } from './server-identity';
import { TurnRegistry } from './turn-registry';

/** A store that can be taken down: every call then fails as an unreachable PostgreSQL does. */
function switchableStore(inner: EventStore): EventStore & { down: boolean; refused: number } {
  const guard = <T>(run: () => Promise<T>): Promise<T> => {
    if (!wrapper.down) return run();
    wrapper.refused += 1;
    return Promise.reject(new StorageUnavailableError('PostgreSQL is unreachable.'));
  };
  const wrapper = {
    down: false,
    refused: 0,
    append: (...args: Parameters<EventStore['append']>) => guard(() => inner.append(...args)),
    readStream: (...args: Parameters<EventStore['readStream']>) => guard(() => inner.readStream(...args)),
    readAll: (...args: Parameters<EventStore['readAll']>) => guard(() => inner.readAll(...args)),
    streamState: (...args: Parameters<EventStore['streamState']>) => guard(() => inner.streamState(...args)),
    close: () => inner.close(),
  };
  return wrapper;
}

describe('CutOffTurns.closeLater: a turn cut off by a store outage is closed by its own process once the store is back', () => {
  let cutOff: CutOffTurns | undefined;
  afterEach(() => cutOff?.stop());

  it('retries while the store is down (more than once), then records TurnFinished interrupted as soon as it is back', async () => {
    const store = switchableStore(new InMemoryEventStore());
    const sessions = new SessionRepository(store, testCatalogue());
    const identity = new ServerIdentity('replica-a', 30 * 60_000);
    cutOff = new CutOffTurns({ index: new SessionIndex(store), sessions, turns: new TurnRegistry(), identity });
    await sessions.record('s1', { type: 'StartSession', sessionId: 's1', agentId: 'default' }, { commandId: 'start' });
    await sessions.record('s1', { type: 'RecordUserMessage', messageId: 't1-user', text: 'hi', turnId: 't1', host: identity.host }, { commandId: 't1' });

    store.down = true;
    await expect(cutOff.closeIfCutOff('s1')).rejects.toMatchObject({ code: 'storage_unavailable' });
    const refusedBefore = store.refused;
    cutOff.closeLater('s1');
    await waitFor('two refused retries', async () => (store.refused >= refusedBefore + 2 ? true : undefined));
    store.down = false;
    const finished = await waitFor('the cut-off turn to be closed', async () => {
      const events = await store.readStream('session-s1');
      return events.find((e) => e.type === 'TurnFinished');
    });
    expect(finished.data).toMatchObject({ reason: 'interrupted' });
    expect((await sessions.load('s1')).state.openTurn).toBeNull();
  });
});
