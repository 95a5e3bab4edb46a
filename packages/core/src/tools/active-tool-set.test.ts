import { FixedToolCatalogue } from '../testing/fixed-tool-catalogue';
import { sessionScenario } from '../testing/session-scenario';
import { activeToolSet } from './active-tool-set';

const catalogue = () =>
  new FixedToolCatalogue({
    core: ['load_tool_group', 'get_current_time', 'exec'],
    groups: { mail: ['mail_search', 'mail_send'], files: ['file_list', 'mail_search'], solo: ['solo_tool'] },
  });

function sessionWith(c: FixedToolCatalogue, ...groups: string[]) {
  return sessionScenario(c)
    .given({ type: 'StartSession', sessionId: 's', agentId: 'a' })
    .given(...groups.map((groupName) => ({ type: 'LoadToolGroup' as const, groupName, source: { kind: 'user' as const } })))
    .state();
}

describe('active tool set', () => {
  it('is core first, then groups in load order, tools in registration order, each once', () => {
    const c = catalogue();
    expect(activeToolSet(sessionWith(c, 'files', 'mail'), c)).toEqual(['load_tool_group', 'get_current_time', 'exec', 'file_list', 'mail_search', 'mail_send']);
  });

  it('G9 leaves out a disabled tool, also inside a loaded group', () => {
    const c = catalogue().disable('exec').disable('mail_send');
    expect(activeToolSet(sessionWith(c, 'mail'), c)).toEqual(['load_tool_group', 'get_current_time', 'mail_search']);
  });

  it('T5 leaves out tools the agent does not allow', () => {
    const c = catalogue();
    const allowed = new Set(['load_tool_group', 'mail_search', 'solo_tool']);
    expect(activeToolSet(sessionWith(c, 'mail', 'solo'), c, { allowedTools: allowed })).toEqual(['load_tool_group', 'mail_search', 'solo_tool']);
  });

  it('G9 a one-tool group adds its one tool; loading every group adds every tool once', () => {
    const c = catalogue();
    expect(activeToolSet(sessionWith(c, 'solo'), c).at(-1)).toBe('solo_tool');
    const all = activeToolSet(sessionWith(c, 'mail', 'files', 'solo'), c);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toHaveLength(7);
  });

  it('follows the catalogue: a group that disappeared contributes nothing, a grown group shows its new tools', () => {
    const state = sessionWith(catalogue(), 'mail', 'solo');
    const changed = new FixedToolCatalogue({ core: ['load_tool_group'], groups: { mail: ['mail_search', 'mail_send', 'mail_label'] } });
    expect(activeToolSet(state, changed)).toEqual(['load_tool_group', 'mail_search', 'mail_send', 'mail_label']);
  });
});
