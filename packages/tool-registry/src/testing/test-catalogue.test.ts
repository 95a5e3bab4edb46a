import { activeToolSet } from '@oneclaw/core';
import { sessionScenario } from '@oneclaw/core/testing';
import { ToolExecutionEngine } from '../execution/tool-execution-engine';
import { PROVIDER_NAMES } from '../providers/provider-name';
import { ToolGroupPrompt } from '../tool-group-prompt';
import { createTestCatalogue } from './test-catalogue';

const SEED_CORE_TOOLS = [
  'load_skill',
  'load_tool_group',
  'save_memory',
  'search_history',
  'exec',
  'js_eval',
  'webfetch',
  'browser',
  'create_agent',
  'read_file',
  'write_file',
  'get_current_time',
  'http_request',
];

function freshSession() {
  const { registry } = createTestCatalogue();
  // Not chained: given() is typed `any` in core's emitted declarations.
  const session = sessionScenario(registry);
  session.given({ type: 'StartSession', sessionId: 's1', agentId: 'default' });
  return { registry, session };
}

describe('the test catalogue (seed shapes)', () => {
  it('has the seed shape: 13 core tools, config 17, pdf 3, scheduled_tasks 5, js_tool_management 4, and 10 Google groups', () => {
    const { registry, coreToolNames } = createTestCatalogue();
    expect(coreToolNames).toEqual(SEED_CORE_TOOLS);
    expect(registry.coreToolNames()).toEqual(SEED_CORE_TOOLS);
    const sizes = Object.fromEntries([...registry.toolGroups()].map(([name, tools]) => [name, tools.length]));
    expect(sizes).toEqual({
      config: 17,
      pdf: 3,
      scheduled_tasks: 5,
      js_tool_management: 4,
      google_gmail: 24,
      google_gmail_settings: 14,
      google_drive: 15,
      google_calendar: 14,
      google_contacts: 7,
      google_docs: 8,
      google_sheets: 9,
      google_slides: 7,
      google_forms: 3,
      google_tasks: 8,
    });
    expect(registry.toolNames()).toHaveLength(151);
  });

  it('G8 groups are registered for built-in TypeScript tools and for every JS group manifest', () => {
    const { registry } = createTestCatalogue();
    const owners = Object.fromEntries(registry.groupNames().map((g) => [g, registry.group(g)?.origin]));
    for (const g of ['config', 'pdf', 'scheduled_tasks', 'js_tool_management']) expect(owners[g]).toEqual({ kind: 'built-in' });
    expect(owners.google_drive).toEqual({ kind: 'js-built-in', fileName: 'google_drive.json' });
    expect(registry.get('gmail_search')?.source).toEqual({ kind: 'js-built-in', fileName: 'google_gmail.json', group: 'google_gmail' });
  });

  it('G1 / TEST-040-01 a new session sends only the 13 core tools', () => {
    const { registry, session } = freshSession();
    expect(activeToolSet(session.state(), registry)).toEqual(SEED_CORE_TOOLS);
  });

  it('G6 / TEST-040-08/09 with the full catalogue: core only at first, core + 17 after loading config, in a stable order', () => {
    const { registry, session } = freshSession();
    expect(registry.toolNames().length).toBeGreaterThan(100);
    expect(activeToolSet(session.state(), registry)).toHaveLength(13);
    session.given({ type: 'LoadToolGroup', groupName: 'config', source: { kind: 'tool_call', callId: 'c1' } });
    const active = activeToolSet(session.state(), registry);
    expect(active).toHaveLength(30);
    expect(active).toEqual([...SEED_CORE_TOOLS, ...registry.groupToolNames('config')]);
  });

  it('G3 / G5 load_tool_group("google_gmail") through the engine lists the tools, which are sent next; a second load adds nothing', async () => {
    const { registry, session } = freshSession();
    const engine = new ToolExecutionEngine(registry);
    const load = async (callId: string) => {
      const out = await engine.execute(
        { callId, toolName: 'load_tool_group', arguments: '{"group_name":"google_gmail"}' },
        { sessionId: 's1', activeToolNames: activeToolSet(session.state(), registry) },
      );
      if (out.result.status === 'success') session.given({ type: 'LoadToolGroup', groupName: 'google_gmail', source: { kind: 'tool_call', callId } });
      return out;
    };
    const first = await load('c1');
    expect(first.result.status === 'success' && first.result.result.split('\n')[0]).toBe("Loaded 24 tools from group 'Google Gmail':");
    expect(first.result.status === 'success' && first.result.result).toContain('- gmail_search: Search Gmail messages with a Gmail query.');
    const afterFirst = activeToolSet(session.state(), registry);
    expect(afterFirst).toEqual([...SEED_CORE_TOOLS, ...registry.groupToolNames('google_gmail')]);
    await load('c2');
    expect(activeToolSet(session.state(), registry)).toEqual(afterFirst);
    expect(session.history().filter((e) => e.type === 'ToolGroupLoaded')).toHaveLength(1);
  });

  it('G5 / G9 several groups at once, then every group: each tool once, groups in load order', () => {
    const { registry, session } = freshSession();
    session.given({ type: 'LoadToolGroup', groupName: 'google_gmail', source: { kind: 'user' } }, { type: 'LoadToolGroup', groupName: 'google_drive', source: { kind: 'user' } });
    expect(activeToolSet(session.state(), registry)).toEqual([...SEED_CORE_TOOLS, ...registry.groupToolNames('google_gmail'), ...registry.groupToolNames('google_drive')]);
    session.given(...registry.groupNames().map((groupName) => ({ type: 'LoadToolGroup' as const, groupName, source: { kind: 'user' as const } })));
    const all = activeToolSet(session.state(), registry);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toHaveLength(registry.toolNames().length);
  });

  it('G2 the prompt lists the 14 groups in registration order', () => {
    const { registry } = createTestCatalogue();
    const lines = new ToolGroupPrompt(registry).render().split('\n');
    expect(lines.slice(0, 3)).toEqual(['## Available Tool Groups', '', 'Load a group with `load_tool_group` to use its tools.']);
    expect(lines.slice(4).map((l) => l.split(':')[0])).toEqual(registry.groupNames().map((g) => `- ${g}`));
    expect(lines[4]).toBe('- config: Manage providers, models, agents, app settings, environment variables, and tool states');
  });

  it('T1 every tool of the catalogue formats for every provider; Gemini gets only the keywords it accepts', () => {
    const { registry } = createTestCatalogue();
    const geminiKeys = new Set([
      'type',
      'format',
      'title',
      'description',
      'nullable',
      'enum',
      'items',
      'minItems',
      'maxItems',
      'properties',
      'required',
      'minimum',
      'maximum',
      'anyOf',
      'propertyOrdering',
      'minLength',
      'maxLength',
      'pattern',
      'minProperties',
      'maxProperties',
      'default',
      'example',
    ]);
    const offending: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (typeof node !== 'object' || node === null) return;
      for (const [key, value] of Object.entries(node)) {
        if (!geminiKeys.has(key)) offending.push(`${path}.${key}`);
        if (key === 'properties') for (const [p, child] of Object.entries(value as object)) walk(child, `${path}.${p}`);
        if (key === 'items') walk(value, `${path}[]`);
        if (key === 'anyOf') (value as unknown[]).forEach((b, i) => walk(b, `${path}|${i}`));
        if (key === 'type' && value === 'object' && !(node as Record<string, unknown>).properties) offending.push(`${path} (object without properties)`);
        if (key === 'type' && value === 'array' && !(node as Record<string, unknown>).items) offending.push(`${path} (array without items)`);
      }
    };
    for (const name of registry.toolNames()) walk(registry.providerSchema(name, 'gemini'), name);
    expect(offending).toEqual([]);
    for (const provider of PROVIDER_NAMES) expect(registry.toolPayload(provider, registry.toolNames()).tools.length).toBeGreaterThan(0);
    // Free-form objects (http_request headers, batchUpdate requests) cannot be offered to Gemini; that is reported.
    expect(
      new Set(
        registry
          .schemaIssues()
          .filter((i) => i.provider === 'gemini')
          .map((i) => i.toolName),
      ),
    ).toEqual(new Set(['http_request', 'docs_batch_update', 'sheets_batch_update', 'slides_batch_update']));
  });
});
