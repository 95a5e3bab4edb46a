import { describe, expect, it } from '@jest/globals';
import type { ToolGroupView, ToolSourceView } from '@oneclaw/api-contract';
import { allToolNames, countLabel, countsOf, filterSources, groupsOfSource, sourceKindLabel, totalsOf } from './tools-view';

const builtIn: ToolSourceView = {
  fileName: 'built-in',
  kind: 'built-in',
  tools: [
    { name: 'load_tool_group', description: 'Load a group of tools', enabled: true },
    { name: 'pdf_info', description: 'Get PDF info', group: 'pdf', enabled: true },
    { name: 'list_providers', description: 'List providers', group: 'config', enabled: false },
    { name: 'set_config', description: 'Set a setting', group: 'config', enabled: true },
  ],
  problems: [],
};
const drive: ToolSourceView = {
  fileName: 'google_drive.json',
  kind: 'js-built-in',
  group: 'google_drive',
  tools: [
    { name: 'google_drive_list_files', description: 'List files in a Google Drive folder', group: 'google_drive', enabled: true },
    { name: 'google_drive_read_file', description: 'Read the content of a file', group: 'google_drive', enabled: true },
  ],
  problems: [],
};
const broken: ToolSourceView = {
  fileName: 'my_tools.json',
  kind: 'js-user',
  group: 'my_tools',
  tools: [{ name: 'word_count', description: 'Count words', group: 'my_tools', enabled: true }],
  problems: [
    { severity: 'error', tool: 'bad_tool', message: "my_tools.json: tool 'bad_tool' skipped: function missing" },
    { severity: 'warning', message: 'no _meta' },
  ],
};
const groups: ToolGroupView[] = [
  {
    name: 'google_drive',
    displayName: 'Google Drive',
    description: 'Drive files and folders',
    toolNames: [],
    enabled: true,
    source: { kind: 'js-built-in', fileName: 'google_drive.js' },
    schemaTokens: 0,
  },
];

describe('counts and labels', () => {
  it('counts tools, enabled ones, errors and warnings of a file', () => {
    expect(countsOf(builtIn)).toEqual({ tools: 4, enabled: 3, errors: 0, warnings: 0 });
    expect(countsOf(broken)).toEqual({ tools: 1, enabled: 1, errors: 1, warnings: 1 });
  });

  it('says how many tools, and how many are disabled', () => {
    expect(countLabel({ tools: 1, enabled: 1 })).toBe('1 tool');
    expect(countLabel({ tools: 3, enabled: 3 })).toBe('3 tools');
    expect(countLabel({ tools: 4, enabled: 3 })).toBe('4 tools, 1 disabled');
  });

  it('names source kinds for people', () => {
    expect(sourceKindLabel('built-in')).toBe('Built-in');
    expect(sourceKindLabel('js-built-in')).toBe('Shipped JS');
    expect(sourceKindLabel('js-user')).toBe('User JS');
    expect(sourceKindLabel('other')).toBe('other');
  });

  it('totals files, tools and the files with load errors', () => {
    expect(totalsOf([builtIn, drive, broken])).toEqual({ files: 3, tools: 7, enabled: 6, filesWithErrors: ['my_tools.json'] });
  });
});

describe('groupsOfSource', () => {
  it('gives a JS file its own group, and the built-ins the groups their tools belong to', () => {
    expect(groupsOfSource(drive)).toEqual(['google_drive']);
    expect(groupsOfSource(builtIn)).toEqual(['pdf', 'config']);
    expect(groupsOfSource({ ...builtIn, tools: [] })).toEqual([]);
  });
});

describe('filterSources', () => {
  const all = [builtIn, drive, broken];

  it('keeps everything for an empty query', () => {
    expect(filterSources(all, '  ')).toEqual(all);
  });

  it('keeps a whole file when its name, kind, group or group description matches', () => {
    expect(filterSources(all, 'DRIVE.json')).toEqual([drive]);
    expect(filterSources(all, 'user js')).toEqual([broken]);
    expect(filterSources(all, 'folders', groups)).toEqual([drive]);
  });

  it('keeps only the matching tools of other files, words in any order', () => {
    const result = filterSources(all, 'file read');
    expect(result.map((s) => [s.fileName, s.tools.map((t) => t.name)])).toEqual([['google_drive.json', ['google_drive_read_file']]]);
    const providers = filterSources(all, 'providers');
    expect(providers.map((s) => s.tools.map((t) => t.name))).toEqual([['list_providers']]);
  });

  it('keeps a file whose load problem matches, with that problem', () => {
    const result = filterSources(all, 'bad_tool');
    expect(result).toHaveLength(1);
    expect(result[0]!.problems).toEqual([broken.problems[0]]);
  });

  it('drops files with nothing matching', () => {
    expect(filterSources(all, 'nothing-like-this')).toEqual([]);
  });
});

describe('allToolNames', () => {
  it('lists every tool once, in catalogue order', () => {
    expect(allToolNames([builtIn, drive, builtIn])).toEqual(['load_tool_group', 'pdf_info', 'list_providers', 'set_config', 'google_drive_list_files', 'google_drive_read_file']);
  });
});
