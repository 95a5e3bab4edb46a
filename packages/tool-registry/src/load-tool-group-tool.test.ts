import { createLoadToolGroupTool, loadToolGroupDefinition } from './load-tool-group-tool';
import { fakeTool } from './testing/fake-tool';
import type { ToolContext } from './tool';
import { ToolRegistry } from './tool-registry';
import type { ToolSource } from './tool-source';

const builtIn: ToolSource = { kind: 'built-in' };
const gmailFile: ToolSource = { kind: 'js-built-in', fileName: 'google_gmail.json' };
const context: ToolContext = { signal: new AbortController().signal, sessionId: 's', callId: 'c1', env: {} };

function setup() {
  const registry = new ToolRegistry();
  const tool = createLoadToolGroupTool(registry);
  registry.register(tool, builtIn);
  registry.registerGroup({ name: 'google_gmail', displayName: 'Google Gmail', description: 'Email' }, gmailFile);
  registry.register(fakeTool('gmail_search', { description: 'Search Gmail messages' }), { ...gmailFile, group: 'google_gmail' });
  registry.register(fakeTool('gmail_read', { description: 'Read a Gmail message' }), { ...gmailFile, group: 'google_gmail' });
  registry.register(fakeTool('gmail_send', { description: 'Send a Gmail message' }), { ...gmailFile, group: 'google_gmail' });
  registry.registerGroup({ name: 'pdf', displayName: 'PDF Tools', description: 'PDF' }, builtIn);
  registry.register(fakeTool('pdf_info', { description: 'Get PDF info' }), { ...builtIn, group: 'pdf' });
  registry.registerGroup({ name: 'empty_one', displayName: 'Empty', description: 'Nothing yet' }, builtIn);
  const load = (params: Record<string, unknown>) => tool.execute(params, context);
  return { registry, tool, load };
}

describe('load_tool_group', () => {
  it('is defined as in RFC-040: group_name required, a core tool that checks its own parameters', () => {
    expect(loadToolGroupDefinition.name).toBe('load_tool_group');
    expect(loadToolGroupDefinition.parameters).toEqual({
      type: 'object',
      properties: { group_name: { type: 'string' } },
      required: ['group_name'],
    });
    const { registry, tool } = setup();
    expect(registry.coreToolNames()).toEqual(['load_tool_group']);
    expect(tool.validatesOwnParameters).toBe(true);
  });

  it('G3 answers "Loaded N tools from group \'<display name>\':" and one "- name: description" line per tool', async () => {
    const { load } = setup();
    expect(await load({ group_name: 'google_gmail' })).toEqual({
      status: 'success',
      result:
        "Loaded 3 tools from group 'Google Gmail':\n" + '- gmail_search: Search Gmail messages\n' + '- gmail_read: Read a Gmail message\n' + '- gmail_send: Send a Gmail message',
    });
  });

  it('G9 a one-tool group loads its one tool', async () => {
    const { load } = setup();
    expect(await load({ group_name: 'pdf' })).toEqual({ status: 'success', result: "Loaded 1 tools from group 'PDF Tools':\n- pdf_info: Get PDF info" });
  });

  it('G4 an unknown group is not_found, listing every group name in registration order', async () => {
    const { load } = setup();
    expect(await load({ group_name: 'nonexistent' })).toEqual({
      status: 'error',
      errorType: 'not_found',
      message: "Tool group 'nonexistent' not found. Available groups: google_gmail, pdf, empty_one",
    });
  });

  it('G4 a missing, null or blank group_name is missing_parameter; a non-string is a validation_error', async () => {
    const { load } = setup();
    const missing = { status: 'error', errorType: 'missing_parameter', message: "Required parameter 'group_name' is missing." };
    expect(await load({})).toEqual(missing);
    expect(await load({ group_name: null })).toEqual(missing);
    expect(await load({ group_name: '  ' })).toEqual(missing);
    expect(await load({ group_name: 42 })).toMatchObject({ status: 'error', errorType: 'validation_error' });
  });

  it('G4 a group without tools, or whose tools are all disabled, is empty_group', async () => {
    const { load, registry } = setup();
    expect(await load({ group_name: 'empty_one' })).toEqual({
      status: 'error',
      errorType: 'empty_group',
      message: "Tool group 'empty_one' has no available tools.",
    });
    registry.setToolEnabled('pdf_info', false);
    expect(await load({ group_name: 'pdf' })).toMatchObject({ errorType: 'empty_group' });
    registry.setToolEnabled('pdf_info', true);
    registry.setGroupEnabled('pdf', false);
    expect(await load({ group_name: 'pdf' })).toMatchObject({ errorType: 'empty_group' });
  });

  it('T5 lists only the tools the agent allows, and is empty_group when it allows none of them', async () => {
    const { tool } = setup();
    const asAgent = (allowed: string[]) => tool.execute({ group_name: 'google_gmail' }, { ...context, allowedTools: new Set(allowed) });
    const result = await asAgent(['load_tool_group', 'gmail_search']);
    expect(result.status === 'success' && result.result).toBe("Loaded 1 tools from group 'Google Gmail':\n- gmail_search: Search Gmail messages");
    expect(await asAgent(['load_tool_group'])).toMatchObject({ status: 'error', errorType: 'empty_group' });
  });

  it('G9 leaves a disabled tool out of the loaded list', async () => {
    const { load, registry } = setup();
    registry.setToolEnabled('gmail_read', false);
    const result = await load({ group_name: 'google_gmail' });
    expect(result).toMatchObject({ status: 'success' });
    expect(result.status === 'success' && result.result).toBe(
      "Loaded 2 tools from group 'Google Gmail':\n- gmail_search: Search Gmail messages\n- gmail_send: Send a Gmail message",
    );
  });

  it('G5 loading twice succeeds with the same answer and changes nothing in the registry', async () => {
    const { load, registry } = setup();
    const before = registry.version;
    const first = await load({ group_name: 'google_gmail' });
    const second = await load({ group_name: 'google_gmail' });
    expect(second).toEqual(first);
    expect(registry.version).toBe(before);
  });

  it('accepts surrounding spaces and keeps one line per tool when a description spans lines', async () => {
    const { load, registry } = setup();
    registry.replace(fakeTool('pdf_info', { description: 'Get PDF info:\n  pages,\n  metadata' }), { ...builtIn, group: 'pdf' });
    expect(await load({ group_name: ' pdf ' })).toEqual({
      status: 'success',
      result: "Loaded 1 tools from group 'PDF Tools':\n- pdf_info: Get PDF info: pages, metadata",
    });
  });
});
