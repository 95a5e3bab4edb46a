import { renderToolGroupPrompt, shorten, ToolGroupPrompt } from './tool-group-prompt';
import { fakeTool } from './testing/fake-tool';
import { ToolRegistry } from './tool-registry';
import type { ToolSource } from './tool-source';

const builtIn: ToolSource = { kind: 'built-in' };

function registry(): ToolRegistry {
  const r = new ToolRegistry();
  r.register(fakeTool('load_tool_group'), builtIn);
  r.registerGroup({ name: 'config', displayName: 'Configuration', description: 'Manage providers, models, agents' }, builtIn);
  r.register(fakeTool('list_providers'), { ...builtIn, group: 'config' });
  r.registerGroup({ name: 'pdf', displayName: 'PDF Tools', description: 'Extract text, get info, and render pages from PDF files' }, builtIn);
  r.register(fakeTool('pdf_info'), { ...builtIn, group: 'pdf' });
  return r;
}

describe('prompt section "## Available Tool Groups"', () => {
  it('G2 lists each group as "- name: description" under the heading and the instruction line, in registration order', () => {
    expect(new ToolGroupPrompt(registry()).render()).toBe(
      '## Available Tool Groups\n\n' +
        'Load a group with `load_tool_group` to use its tools.\n\n' +
        '- config: Manage providers, models, agents\n' +
        '- pdf: Extract text, get info, and render pages from PDF files',
    );
  });

  it('G2 is empty when there are no groups', () => {
    const r = new ToolRegistry();
    r.register(fakeTool('exec'), builtIn);
    expect(new ToolGroupPrompt(r).render()).toBe('');
    expect(renderToolGroupPrompt([])).toBe('');
  });

  it('G9 cuts a description over 200 characters to 200 with an ellipsis; 200 exactly stays whole', () => {
    const long = `${'word '.repeat(60)}end`;
    const cut = shorten(long);
    expect(Array.from(cut)).toHaveLength(200);
    expect(cut.endsWith('…')).toBe(true);
    expect(long.startsWith(cut.slice(0, -1))).toBe(true);
    const exact = 'x'.repeat(200);
    expect(shorten(exact)).toBe(exact);
    const r = registry();
    r.replaceGroup({ name: 'pdf', displayName: 'PDF', description: long }, builtIn);
    const line = new ToolGroupPrompt(r).render().split('\n').at(-1);
    expect(line).toBe(`- pdf: ${cut}`);
  });

  it('keeps one line per group when a description has newlines or odd characters', () => {
    const r = registry();
    r.replaceGroup({ name: 'pdf', displayName: 'PDF', description: 'Line one\nline two:\t"quoted" & <b>' }, builtIn);
    expect(new ToolGroupPrompt(r).render().split('\n').at(-1)).toBe('- pdf: Line one line two: "quoted" & <b>');
  });

  it('leaves out groups that have no enabled tool (loading them could only fail)', () => {
    const r = registry();
    r.registerGroup({ name: 'empty_one', displayName: 'Empty', description: 'nothing' }, builtIn);
    r.setGroupEnabled('config', false);
    const text = new ToolGroupPrompt(r).render();
    expect(text).not.toContain('- config:');
    expect(text).not.toContain('- empty_one:');
    expect(text).toContain('- pdf:');
  });

  it('T5 lists only groups with a tool the agent is allowed to use', () => {
    const prompt = new ToolGroupPrompt(registry());
    const text = prompt.render({ allowedTools: new Set(['load_tool_group', 'pdf_info']) });
    expect(text).toContain('- pdf:');
    expect(text).not.toContain('- config:');
    expect(prompt.render({ allowedTools: new Set(['load_tool_group']) })).toBe('');
  });

  it('is cached until the registry changes', () => {
    const r = registry();
    const allGroups = jest.spyOn(r, 'allGroups');
    const prompt = new ToolGroupPrompt(r);
    const allowed = new Set(['pdf_info']);
    const first = prompt.render();
    prompt.render({ allowedTools: allowed });
    expect(prompt.render()).toBe(first);
    prompt.render({ allowedTools: allowed });
    expect(allGroups).toHaveBeenCalledTimes(2);
    r.registerGroup({ name: 'later', displayName: 'Later', description: 'Added later' }, builtIn);
    r.register(fakeTool('later_tool'), { ...builtIn, group: 'later' });
    expect(prompt.render()).toContain('- later: Added later');
    expect(allGroups).toHaveBeenCalledTimes(3);
  });
});
