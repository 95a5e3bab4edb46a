export { describeEventStoreContract, type ContractOptions, type ContractStore } from './event-store-contract';
export { FixedToolCatalogue, testCatalogue, type FixedCatalogueSpec } from './fixed-tool-catalogue';
export { steppingClock, testEvent } from './test-events';
export { deciderScenario, type DeciderScenario, type DeciderScenarioOptions, type Then } from './decider-scenario';
export { sessionScenario, type SessionScenario } from './session-scenario';
export { describeSnapshotStoreContract, type SnapshotContractSubject } from './snapshot-store-contract';
