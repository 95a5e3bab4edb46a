import { describeEventStoreContract } from '../testing/event-store-contract';
import { testEvent } from '../testing/test-events';
import { InMemoryEventStore } from './in-memory-event-store';

describeEventStoreContract('InMemoryEventStore', () => ({ store: new InMemoryEventStore() }));
describeEventStoreContract('InMemoryEventStore (64 KiB limit)', () => ({ store: new InMemoryEventStore({ maxAppendBytes: 65536 }) }), {
  maxAppendBytes: 65536,
});

describe('InMemoryEventStore', () => {
  it('EST-10 requires an expected revision at compile time', async () => {
    const store = new InMemoryEventStore();
    // @ts-expect-error: the options argument with expectedRevision is required (tsc -b checks this line)
    await expect(store.append('s', [testEvent('e1')])).rejects.toMatchObject({ code: 'invalid_expected_revision' });
    // @ts-expect-error: there is no implicit 'any'
    await expect(store.append('s', [testEvent('e1')], {})).rejects.toMatchObject({ code: 'invalid_expected_revision' });
  });

  it('refuses every call after close with storage_unavailable', async () => {
    const store = new InMemoryEventStore();
    await store.close();
    await expect(store.readAll()).rejects.toMatchObject({ code: 'storage_unavailable' });
  });
});
