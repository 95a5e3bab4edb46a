// Test helpers for this package and its dependants; free of Jest so benchmarks can use them.
export { createTestCatalogue, parseToolSpec, type TestCatalogue } from './test-catalogue';
export { CORE_TOOL_SPECS, GROUP_SPECS, type GroupSpec } from './catalogue-spec';
export { explodingRefSchema } from './exploding-ref-schema';
export { fakeTool, type FakeToolOptions } from './fake-tool';
export { toolTokenTable, type TokenScenario } from './token-table';
