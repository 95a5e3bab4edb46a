import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { countTextTokens, countToolPayloadTokens, ToolGroupPrompt, type ToolRegistry } from '@oneclaw/tool-registry';
import { CORE_TOOLS_BEFORE } from '../../../bench/core-tools-before';
import { startTestServer, type TestServer } from '../../../testing/test-server';
import { ToolRuntime } from '../../tool-runtime';

/**
 * F1 (issue 17): the core tools were tightened without losing anything the model must send or
 * the code enforces. Checked against the snapshot of the definitions before (src/bench), on the
 * booted server's real catalogue.
 */
type Schema = { properties?: Record<string, Record<string, unknown>>; required?: string[] };
const CONSTRAINTS = ['type', 'enum', 'minimum', 'maximum', 'minLength', 'maxLength', 'additionalProperties'] as const;

describe('F1 core tool budget on the real catalogue', () => {
  let server: TestServer;
  let registry: ToolRegistry;

  beforeAll(async () => {
    server = await startTestServer();
    registry = server.app.get(ToolRuntime).registry;
  });
  afterAll(async () => {
    await server.close();
  });

  it('F1 every core tool keeps each parameter, its required list and every enforced constraint (enum, min/max, lengths)', () => {
    expect([...registry.coreToolNames()].sort()).toEqual(CORE_TOOLS_BEFORE.map((t) => t.name).sort());
    for (const before of CORE_TOOLS_BEFORE) {
      const now = registry.definition(before.name)?.parameters as Schema;
      const old = before.parameters as Schema;
      expect(Object.keys(now.properties ?? {})).toEqual(Object.keys(old.properties ?? {}));
      expect(now.required ?? []).toEqual(old.required ?? []);
      for (const [param, oldSchema] of Object.entries(old.properties ?? {})) {
        for (const key of CONSTRAINTS) expect([before.name, param, key, now.properties?.[param]?.[key]]).toEqual([before.name, param, key, oldSchema[key]]);
      }
    }
  });

  it('F1 a fresh session (13 core tools + group listing, OpenAI format) costs at most 1564 o200k tokens, one line per group', () => {
    const listing = new ToolGroupPrompt(registry).render();
    const fresh = countToolPayloadTokens(registry.toolPayload('openai', registry.coreToolNames())) + countTextTokens(listing);
    expect(fresh).toBeLessThanOrEqual(1564);
    const groupLines = listing.split('\n').filter((l) => l.startsWith('- '));
    expect(groupLines.map((l) => l.slice(2, l.indexOf(':')))).toEqual(registry.groupNames());
    for (const line of groupLines) expect(line.length).toBeLessThanOrEqual(90);
  });
});
