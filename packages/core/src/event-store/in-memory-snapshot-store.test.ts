import { describeSnapshotStoreContract } from '../testing/snapshot-store-contract';
import { InMemorySnapshotStore } from './in-memory-snapshot-store';

describeSnapshotStoreContract('InMemorySnapshotStore', () => ({ snapshots: new InMemorySnapshotStore() }));
