import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startFakeModelServer, type FakeModelServer, fakeReply } from '@oneclaw/model-providers/testing';
import { CONFIG_TOOL_NAMES, CORE_TOOL_NAMES } from '../../testing/real-catalogue';
import { startTestServer, type TestServer } from '../../testing/test-server';
import { ToolRuntime } from '../tool-runtime';

/**
 * The real catalogue, as the server boots it: every TypeScript built-in, the shipped JS tools
 * and the ten Google groups. A loopback FAKE Anthropic server records exactly what each model
 * request carried.
 */
const MODEL_KEY = 'sk-ant-test-catalogue-key-000222';

const CORE = CORE_TOOL_NAMES;
const CONFIG_TOOLS = CONFIG_TOOL_NAMES;

const BUILTIN_GROUP_TOOLS: Record<string, readonly string[]> = {
  config: CONFIG_TOOLS,
  pdf: ['pdf_info', 'pdf_extract_text', 'pdf_render_page'],
  scheduled_tasks: ['schedule_task', 'list_scheduled_tasks', 'run_scheduled_task', 'update_scheduled_task', 'delete_scheduled_task'],
  js_tool_management: ['create_js_tool', 'list_user_tools', 'update_js_tool', 'delete_js_tool'],
};

const toolNamesOf = (request: { body: unknown }): string[] => ((request.body as { tools?: { name: string }[] }).tools ?? []).map((t) => t.name);

describe('the real catalogue (G6, G8, TEST-040-08/09)', () => {
  let model: FakeModelServer;
  let server: TestServer;

  beforeAll(async () => {
    model = await startFakeModelServer('anthropic', { apiKey: MODEL_KEY });
    server = await startTestServer({ env: { ANTHROPIC_API_KEY: MODEL_KEY, ANTHROPIC_BASE_URL: model.url } });
  });

  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  it('G8 registers the four built-in groups with the seed tool counts, listed before the JS groups', () => {
    const registry = server.app.get(ToolRuntime).registry;
    for (const [group, tools] of Object.entries(BUILTIN_GROUP_TOOLS)) {
      expect({ group, tools: [...registry.groupToolNames(group)].sort() }).toEqual({ group, tools: [...tools].sort() });
      for (const tool of tools) expect(registry.get(tool)?.source.kind).toBe('built-in');
    }
    expect(registry.groupNames().slice(0, 4)).toEqual(['config', 'pdf', 'scheduled_tasks', 'js_tool_management']);
    expect(registry.groupNames().filter((g) => g.startsWith('google_'))).toHaveLength(10);
    // 13 core + 17 + 3 + 5 + 4 built-in group tools + 109 Google tools.
    expect(registry.toolNames()).toHaveLength(13 + 29 + 109);
    expect(server.app.get(ToolRuntime).startupReport.problems).toEqual([]);
  });

  it('TEST-040-08/09 a fresh session sends exactly the 13 core tools; after load_tool_group("config"), the 13 + 17 = 30', async () => {
    expect((await server.api('POST', '/api/sessions', { sessionId: 'catalogue' })).status).toBe(201);
    model.enqueue(fakeReply.toolCall('load_tool_group', { group_name: 'config' }), fakeReply.text('The configuration tools are loaded.'));
    const turn = await server.api('POST', '/api/sessions/catalogue/messages', { text: 'I want to change my settings' });
    expect(turn.body).toMatchObject({ reason: 'completed' });

    const [first, second] = model.requests;
    expect(toolNamesOf(first!)).toEqual(CORE);
    const afterLoad = toolNamesOf(second!);
    expect(afterLoad).toHaveLength(30);
    expect(afterLoad.slice(0, 13)).toEqual(CORE);
    expect([...afterLoad.slice(13)].sort()).toEqual([...CONFIG_TOOLS].sort());

    // G2: the listing names every group, built-ins first, and the first request's prompt carries it.
    const system = String((first!.body as { system: unknown }).system);
    for (const group of ['config', 'pdf', 'scheduled_tasks', 'js_tool_management', 'google_gmail']) expect(system).toContain(`- ${group}: `);
    expect(system.indexOf('- config: ')).toBeLessThan(system.indexOf('- google_calendar: '));
  });
});
