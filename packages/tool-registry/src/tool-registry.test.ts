import { activeToolSet, type ToolCatalogue } from '@oneclaw/core';
import { sessionScenario } from '@oneclaw/core/testing';
import { SchemaValidator } from './schema-validator';
import { explodingRefSchema } from './testing/exploding-ref-schema';
import { fakeTool } from './testing/fake-tool';
import { ToolRegistry, type ToolRegistryChange } from './tool-registry';
import type { ToolSource } from './tool-source';

const builtIn: ToolSource = { kind: 'built-in' };
const inGroup = (group: string, source: Omit<ToolSource, 'group'> = builtIn): ToolSource => ({ ...source, group });

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as { code?: string }).code ?? `untyped: ${String(error)}`;
  }
  throw new Error('expected a refusal, but the call succeeded');
}

function registryWithGroups(): ToolRegistry {
  const r = new ToolRegistry();
  r.register(fakeTool('load_tool_group'), builtIn);
  r.register(fakeTool('get_current_time'), { kind: 'js-built-in', fileName: 'get_current_time.json' });
  r.registerGroup({ name: 'pdf', displayName: 'PDF Tools', description: 'PDF things' }, builtIn);
  r.registerGroup({ name: 'google_gmail', displayName: 'Google Gmail', description: 'Email' }, { kind: 'js-built-in', fileName: 'google_gmail.json' });
  r.register(fakeTool('pdf_info'), inGroup('pdf'));
  r.register(fakeTool('gmail_search'), inGroup('google_gmail', { kind: 'js-built-in', fileName: 'google_gmail.json' }));
  r.register(fakeTool('pdf_extract_text'), inGroup('pdf'));
  r.register(fakeTool('exec'), builtIn);
  return r;
}

describe('ToolRegistry: registration (T2)', () => {
  it('T2 refuses a duplicate name with a typed error naming both sources, and keeps the first tool', () => {
    const r = new ToolRegistry();
    const first = fakeTool('read_file');
    r.register(first, { kind: 'js-built-in', fileName: 'read_file.json' });
    let error: unknown;
    try {
      r.register(fakeTool('read_file'), { kind: 'js-user', fileName: 'my_read.json' });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'duplicate_tool', details: { name: 'read_file' } });
    expect((error as Error).message).toContain("'read_file.json'");
    expect((error as Error).message).toContain("'my_read.json'");
    expect(r.get('read_file')?.tool).toBe(first);
    expect(r.toolNames()).toEqual(['read_file']);
  });

  it('T2 refuses names that are not snake_case or longer than 64 characters', () => {
    const r = new ToolRegistry();
    for (const bad of ['ReadFile', 'read-file', '1tool', '_tool', 'read file', '', 'a'.repeat(65)]) {
      expect(codeOf(() => r.register(fakeTool(bad), builtIn))).toBe('invalid_tool_definition');
    }
    r.register(fakeTool('a'.repeat(64)), builtIn);
    r.register(fakeTool('tool_2_go'), builtIn);
    expect(r.toolNames()).toEqual(['a'.repeat(64), 'tool_2_go']);
  });

  it('refuses a schema Ajv cannot compile at registration, not at the first call', () => {
    const r = new ToolRegistry();
    const bad = fakeTool('broken', { parameters: { type: 'object', properties: { n: { type: 'strng' } } } });
    let error: unknown;
    try {
      r.register(bad, builtIn);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'invalid_tool_definition' });
    expect((error as Error).message).toContain("'broken'");
    expect(r.has('broken')).toBe(false);
  });

  it('refuses a schema whose $refs inline past the cap at registration, naming the tool and the cap', () => {
    const r = new ToolRegistry();
    let error: unknown;
    try {
      r.register(fakeTool('exploding', { parameters: explodingRefSchema(18) }), builtIn);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'invalid_tool_definition', details: { name: 'exploding' } });
    expect((error as Error).message).toMatch(/^Tool 'exploding' has a parameters schema that cannot be sent to a model: .* more than 10000 subschemas/);
    expect(r.has('exploding')).toBe(false);
    expect(r.version).toBe(0);
  });

  it('refuses a tool without an execute function and a source of an unknown kind', () => {
    const r = new ToolRegistry();
    const noExecute = { definition: fakeTool('x').definition } as unknown as ReturnType<typeof fakeTool>;
    expect(codeOf(() => r.register(noExecute, builtIn))).toBe('invalid_tool_definition');
    expect(codeOf(() => r.register(fakeTool('x'), { kind: 'plugin' } as unknown as ToolSource))).toBe('invalid_tool_definition');
  });

  it('keeps registration order; replace keeps the position; unregister removes', () => {
    const r = registryWithGroups();
    expect(r.toolNames()).toEqual(['load_tool_group', 'get_current_time', 'pdf_info', 'gmail_search', 'pdf_extract_text', 'exec']);
    const replacement = fakeTool('get_current_time', { description: 'New clock.' });
    r.replace(replacement, { kind: 'js-user', fileName: 'clock.json' });
    expect(r.toolNames()[1]).toBe('get_current_time');
    expect(r.definition('get_current_time')?.description).toBe('New clock.');
    expect(r.get('get_current_time')?.source).toEqual({ kind: 'js-user', fileName: 'clock.json' });
    expect(r.unregister('pdf_info')).toBe(true);
    expect(r.unregister('pdf_info')).toBe(false);
    expect(r.groupToolNames('pdf')).toEqual(['pdf_extract_text']);
  });

  it('replace of an unknown tool is refused: overriding is explicit, adding is register', () => {
    const r = new ToolRegistry();
    expect(codeOf(() => r.replace(fakeTool('ghost'), builtIn))).toBe('tool_not_found');
    expect(r.has('ghost')).toBe(false);
  });

  it('holds a frozen copy with defaults: later edits to the caller object change nothing', () => {
    const r = new ToolRegistry();
    const parameters = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
    const tool = fakeTool('read_file', { parameters });
    r.register(tool, builtIn);
    (parameters.properties.path as { type: string }).type = 'number';
    const held = r.definition('read_file');
    expect(held?.parameters).toEqual({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] });
    expect(held?.timeoutMs).toBe(30_000);
    expect(held?.requiredPermissions).toEqual([]);
    expect(Object.isFrozen(held?.parameters)).toBe(true);
    expect(r.parametersOf('read_file')?.check({ path: 'a.txt' })).toEqual({ ok: true });
  });

  it('compiles each schema once, with one validator shared by all tools', () => {
    const validator = new SchemaValidator();
    const compile = jest.spyOn(validator, 'compile');
    const r = new ToolRegistry({ validator });
    r.register(fakeTool('a'), builtIn);
    r.register(fakeTool('b'), builtIn);
    const checker = r.parametersOf('a');
    for (let i = 0; i < 5; i++) checker?.check({});
    expect(r.parametersOf('a')).toBe(checker);
    expect(compile).toHaveBeenCalledTimes(2);
  });
});

describe('ToolRegistry: groups (RFC-040)', () => {
  it('core definitions are the tools in no group; group definitions are that group in registration order', () => {
    const r = registryWithGroups();
    expect(r.coreDefinitions().map((d) => d.name)).toEqual(['load_tool_group', 'get_current_time', 'exec']);
    expect(r.allDefinitions().map((d) => d.name)).toEqual(r.toolNames());
    expect(r.definitions(['exec', 'ghost', 'pdf_info']).map((d) => d.name)).toEqual(['exec', 'pdf_info']);
    expect(r.groupDefinitions('pdf').map((d) => d.name)).toEqual(['pdf_info', 'pdf_extract_text']);
    expect(r.groupDefinitions('nonexistent')).toEqual([]);
    expect(r.allGroups().map((g) => g.name)).toEqual(['pdf', 'google_gmail']);
    expect(r.group('google_gmail')?.definition).toEqual({ name: 'google_gmail', displayName: 'Google Gmail', description: 'Email' });
    expect(r.groupOf('gmail_search')).toBe('google_gmail');
    expect(r.groupOf('exec')).toBeUndefined();
  });

  it('maps every group to its tool names whatever the source kind, empty groups included', () => {
    const r = registryWithGroups();
    r.registerGroup({ name: 'empty', displayName: 'Empty', description: '' }, builtIn);
    expect([...r.toolGroups()]).toEqual([
      ['pdf', ['pdf_info', 'pdf_extract_text']],
      ['google_gmail', ['gmail_search']],
      ['empty', []],
    ]);
  });

  it('a tool naming an unregistered group is refused', () => {
    const r = new ToolRegistry();
    expect(codeOf(() => r.register(fakeTool('pdf_info'), inGroup('pdf')))).toBe('group_not_found');
  });

  it('G9 a group name claimed by a built-in and a JS file is refused and reported with both owners', () => {
    const r = registryWithGroups();
    let error: unknown;
    try {
      r.registerGroup({ name: 'pdf', displayName: 'My PDF', description: 'mine' }, { kind: 'js-user', fileName: 'pdf.json' });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'group_conflict', details: { group: 'pdf' } });
    expect((error as Error).message).toContain('built-in');
    expect((error as Error).message).toContain("'pdf.json'");
    expect(r.group('pdf')?.definition.displayName).toBe('PDF Tools');
  });

  it('G9 two JS files claiming one group name conflict; a tool from another source cannot join a group', () => {
    const r = registryWithGroups();
    expect(codeOf(() => r.registerGroup({ name: 'google_gmail', displayName: 'G', description: '' }, { kind: 'js-user', fileName: 'gmail2.json' }))).toBe('group_conflict');
    expect(codeOf(() => r.register(fakeTool('pdf_spy'), inGroup('pdf', { kind: 'js-user', fileName: 'spy.json' })))).toBe('group_conflict');
    expect(codeOf(() => r.register(fakeTool('gmail_extra'), inGroup('google_gmail', { kind: 'js-built-in', fileName: 'other.json' })))).toBe('group_conflict');
    // Built-in TypeScript tools live in many files but are one owner.
    r.register(fakeTool('pdf_render_page'), inGroup('pdf', { kind: 'built-in', fileName: 'pdf-render-page.tool.ts' }));
    expect(r.groupToolNames('pdf')).toContain('pdf_render_page');
    expect(r.has('pdf_spy')).toBe(false);
  });

  it('replaceGroup lets only the owner update a group; unregisterGroup removes it with its tools', () => {
    const r = registryWithGroups();
    r.replaceGroup({ name: 'pdf', displayName: 'PDF', description: 'Read PDFs' }, builtIn);
    expect(r.allGroups()[0]).toEqual({ name: 'pdf', displayName: 'PDF', description: 'Read PDFs' });
    expect(codeOf(() => r.replaceGroup({ name: 'pdf', displayName: 'x', description: '' }, { kind: 'js-user', fileName: 'p.json' }))).toBe('group_conflict');
    expect(codeOf(() => r.replaceGroup({ name: 'nope', displayName: 'x', description: '' }, builtIn))).toBe('group_not_found');
    expect(r.unregisterGroup('pdf')).toBe(true);
    expect(r.hasGroup('pdf')).toBe(false);
    expect(r.has('pdf_info')).toBe(false);
    expect(r.toolNames()).toEqual(['load_tool_group', 'get_current_time', 'gmail_search', 'exec']);
    expect(r.unregisterGroup('pdf')).toBe(false);
  });

  it('refuses invalid group definitions', () => {
    const r = new ToolRegistry();
    expect(codeOf(() => r.registerGroup({ name: 'Bad Name', displayName: 'x', description: '' }, builtIn))).toBe('invalid_group_definition');
    expect(codeOf(() => r.registerGroup({ name: 'ok', displayName: ' ', description: '' }, builtIn))).toBe('invalid_group_definition');
    expect(codeOf(() => r.registerGroup({ name: 'ok', displayName: 'Ok' } as never, builtIn))).toBe('invalid_group_definition');
  });
});

describe('ToolRegistry: enable / disable', () => {
  it('disables a tool, or every tool of a group, and enables them again', () => {
    const r = registryWithGroups();
    r.setToolEnabled('exec', false);
    r.setGroupEnabled('pdf', false);
    expect(r.isToolEnabled('exec')).toBe(false);
    expect(r.isToolEnabled('pdf_info')).toBe(false);
    expect(r.isGroupEnabled('pdf')).toBe(false);
    expect(r.isToolEnabled('gmail_search')).toBe(true);
    r.setGroupEnabled('pdf', true);
    r.setToolEnabled('exec', true);
    expect(r.isToolEnabled('pdf_info')).toBe(true);
    expect(r.isToolEnabled('exec')).toBe(true);
    expect(r.isToolEnabled('no_such_tool')).toBe(false);
  });

  it('refuses to change the state of unknown tools or groups', () => {
    const r = registryWithGroups();
    expect(codeOf(() => r.setToolEnabled('nope', false))).toBe('tool_not_found');
    expect(codeOf(() => r.setGroupEnabled('nope', false))).toBe('group_not_found');
  });

  it("keeps a disabled tool disabled across unregister and register (a reloaded file keeps the operator's choice)", () => {
    const r = registryWithGroups();
    r.setToolEnabled('exec', false);
    r.unregister('exec');
    r.register(fakeTool('exec'), builtIn);
    expect(r.isToolEnabled('exec')).toBe(false);
  });
});

describe('ToolRegistry: change tracking', () => {
  it('moves the version and tells listeners on every change, and only on a change', () => {
    const r = new ToolRegistry();
    const seen: [ToolRegistryChange, number][] = [];
    const off = r.onChange((change, version) => seen.push([change, version]));
    r.register(fakeTool('a'), builtIn);
    r.setToolEnabled('a', false);
    r.setToolEnabled('a', false); // no change
    r.registerGroup({ name: 'g', displayName: 'G', description: '' }, builtIn);
    r.unregister('a');
    expect(seen.map(([c, v]) => [c.type, c.name, v])).toEqual([
      ['tool_registered', 'a', 1],
      ['tool_disabled', 'a', 2],
      ['group_registered', 'g', 3],
      ['tool_unregistered', 'a', 4],
    ]);
    expect(r.version).toBe(4);
    off();
    r.register(fakeTool('b'), builtIn);
    expect(seen).toHaveLength(4);
  });

  it('a refused change neither moves the version nor notifies', () => {
    const r = new ToolRegistry();
    r.register(fakeTool('a'), builtIn);
    const listener = jest.fn();
    r.onChange(listener);
    expect(codeOf(() => r.register(fakeTool('a'), builtIn))).toBe('duplicate_tool');
    expect(r.version).toBe(1);
    expect(listener).not.toHaveBeenCalled();
  });

  it('a throwing listener does not stop the change nor the other listeners', () => {
    const r = new ToolRegistry();
    const other = jest.fn();
    r.onChange(() => {
      throw new Error('boom');
    });
    r.onChange(other);
    r.register(fakeTool('a'), builtIn);
    expect(r.has('a')).toBe(true);
    expect(other).toHaveBeenCalledTimes(1);
  });
});

describe("ToolRegistry as core's ToolCatalogue", () => {
  it('G1 drives the active tool set: a fresh session gets core tools; loading a group adds it; disabled tools drop out', () => {
    const r = registryWithGroups();
    const catalogue: ToolCatalogue = r;
    // Not chained: given() is typed `any` in core's emitted declarations.
    const session = sessionScenario(catalogue);
    session.given({ type: 'StartSession', sessionId: 's', agentId: 'a' });
    expect(activeToolSet(session.state(), catalogue)).toEqual(['load_tool_group', 'get_current_time', 'exec']);
    session.given({ type: 'LoadToolGroup', groupName: 'pdf', source: { kind: 'user' } });
    expect(activeToolSet(session.state(), catalogue)).toEqual(['load_tool_group', 'get_current_time', 'exec', 'pdf_info', 'pdf_extract_text']);
    r.setToolEnabled('pdf_info', false);
    expect(activeToolSet(session.state(), catalogue)).toEqual(['load_tool_group', 'get_current_time', 'exec', 'pdf_extract_text']);
    expect(r.groupNames()).toEqual(['pdf', 'google_gmail']);
    expect(r.hasGroup('google_gmail')).toBe(true);
    expect(r.hasGroup('nope')).toBe(false);
  });
});
