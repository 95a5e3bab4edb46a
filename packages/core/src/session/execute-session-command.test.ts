import type { EventEnvelope } from '../events/event-envelope';
import { sessionStreamId } from '../events/session-events';
import type { AppendOptions, AppendResult, EventStore } from '../event-store/event-store';
import { InMemoryEventStore } from '../event-store/in-memory-event-store';
import { testCatalogue } from '../testing/fixed-tool-catalogue';
import { steppingClock } from '../testing/test-events';
import { executeSessionCommand, type ExecuteContext } from './execute-session-command';
import { MAX_COMMAND_ATTEMPTS } from '../aggregate/record-command';

/** A store where another writer (working on the same data directly) slips in before each of our next `races` appends. */
class RacingStore implements EventStore {
  readonly inner = new InMemoryEventStore();
  appendCalls = 0;
  constructor(
    public races: number,
    private readonly competitor: (store: EventStore) => Promise<unknown>,
  ) {}
  async append(streamId: string, events: readonly EventEnvelope[], options: AppendOptions): Promise<AppendResult> {
    this.appendCalls++;
    if (this.races > 0) {
      this.races--;
      await this.competitor(this.inner);
    }
    return this.inner.append(streamId, events, options);
  }
  readStream(...args: Parameters<EventStore['readStream']>) {
    return this.inner.readStream(...args);
  }
  readAll(...args: Parameters<EventStore['readAll']>) {
    return this.inner.readAll(...args);
  }
  streamState(streamId: string) {
    return this.inner.streamState(streamId);
  }
  close() {
    return this.inner.close();
  }
}

const catalogue = testCatalogue();
let n = 0;
const ctx = (): ExecuteContext => ({ now: steppingClock(), catalogue, commandId: `cmd-${n++}` });

async function startedStore(store: EventStore) {
  await executeSessionCommand(store, 's1', { type: 'StartSession', sessionId: 's1', agentId: 'default' }, ctx());
}

describe('executeSessionCommand', () => {
  it('EST-21 re-decides from fresh state after a conflict: the competitor loaded the group, so we record nothing', async () => {
    const store = new RacingStore(0, (s) => executeSessionCommand(s, 's1', { type: 'LoadToolGroup', groupName: 'google_gmail', source: { kind: 'user' } }, ctx()));
    await startedStore(store);
    store.races = 1;
    const result = await executeSessionCommand(store, 's1', { type: 'LoadToolGroup', groupName: 'google_gmail', source: { kind: 'tool_call', callId: 'c1' } }, ctx());
    expect(result.events).toEqual([]);
    const stream = await store.readStream(sessionStreamId('s1'));
    expect(stream.filter((e) => e.type === 'ToolGroupLoaded')).toHaveLength(1);
    expect(result.state.loadedGroups.map((g) => g.source)).toEqual([{ kind: 'user' }]);
  });

  it('EST-21 retries up to 5 attempts (MAX_COMMAND_ATTEMPTS, as every command path), then surfaces the conflict; nothing of ours is written', async () => {
    let k = 0;
    const store = new RacingStore(0, (s) => executeSessionCommand(s, 's1', { type: 'RecordUserMessage', messageId: `other-${k}`, text: `other ${k++}` }, ctx()));
    await startedStore(store);
    store.appendCalls = 0;
    store.races = MAX_COMMAND_ATTEMPTS;
    await expect(executeSessionCommand(store, 's1', { type: 'RecordUserMessage', messageId: 'mine', text: 'mine' }, ctx())).rejects.toMatchObject({
      code: 'stream_revision_conflict',
    });
    const texts = (await store.readStream(sessionStreamId('s1'))).flatMap((e) => (e.type === 'MessageSent' ? [(e.data as { text: string }).text] : []));
    expect(texts).toEqual(['other 0', 'other 1', 'other 2', 'other 3', 'other 4']);
    expect(store.appendCalls).toBe(MAX_COMMAND_ATTEMPTS);
  });

  it('succeeds on the second attempt after one lost race and returns the new revision and position', async () => {
    const store = new RacingStore(0, (s) => executeSessionCommand(s, 's1', { type: 'RecordUserMessage', messageId: 'o', text: 'other' }, ctx()));
    await startedStore(store);
    store.races = 1;
    const result = await executeSessionCommand(store, 's1', { type: 'RecordUserMessage', messageId: 'm', text: 'mine' }, ctx());
    expect(result.revision).toBe(2);
    expect(result.position).toBe(3);
    expect(result.state.messages.map((m) => m.messageId)).toEqual(['o', 'm']);
  });

  it('running the same command (same command id) twice records it once', async () => {
    const store = new InMemoryEventStore();
    await startedStore(store);
    const same = { ...ctx(), now: () => new Date('2026-01-01T00:00:00Z') };
    const command = { type: 'RecordUserMessage', messageId: 'm1', text: 'hello' } as const;
    await executeSessionCommand(store, 's1', command, same);
    // A retry after a lost response: the stream has moved on, ids are the same, content is the same.
    const stream = sessionStreamId('s1');
    await expect(store.append(stream, (await store.readStream(stream)).slice(1), { expectedRevision: 0 })).resolves.toMatchObject({ nextExpectedRevision: 1 });
    expect(await store.readStream(stream)).toHaveLength(2);
  });

  it('rule errors are thrown at once and write nothing', async () => {
    const store = new InMemoryEventStore();
    await expect(executeSessionCommand(store, 'nope', { type: 'ClearSession', reason: 'x' }, ctx())).rejects.toMatchObject({ code: 'session_not_found' });
    expect(await store.readAll()).toEqual([]);
  });
});
