export { startFakeKurrentDb, type FakeKurrentDb, type FakeKurrentDbMethod, type FakeKurrentDbOptions } from './fake-kurrentdb-server';
export type { FakeRecord } from './fake-kurrentdb-log';
