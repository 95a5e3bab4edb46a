import { describe, expect, test } from '@jest/globals';
import type { ToolGroupView, ToolSourceView, ToolView } from '@oneclaw/api-contract';
import { filterGroups, sourceLabel, toolsByName } from './group-catalogue';

const group = (name: string, overrides: Partial<ToolGroupView> = {}): ToolGroupView => ({
  name,
  displayName: name.toUpperCase(),
  description: '',
  toolNames: [],
  enabled: true,
  source: { kind: 'built-in' },
  schemaTokens: 0,
  ...overrides,
});

const groups = [
  group('google_gmail', {
    displayName: 'Google Gmail',
    description: 'Search and send mail',
    toolNames: ['gmail_search', 'gmail_send'],
    source: { kind: 'js-built-in', fileName: 'google_gmail.js' },
  }),
  group('pdf', { displayName: 'PDF Tools', description: 'Read PDF files', toolNames: ['pdf_info'] }),
  group('scheduled_tasks', { displayName: 'Scheduled Tasks', toolNames: ['list_scheduled_tasks'] }),
];

const sources: ToolSourceView[] = [
  {
    fileName: 'built-in',
    kind: 'built-in',
    tools: [
      { name: 'pdf_info', description: 'Page count and metadata', group: 'pdf', enabled: true },
      { name: 'list_scheduled_tasks', description: 'List tasks', enabled: false },
    ],
    problems: [],
  },
  { fileName: 'google_gmail.js', kind: 'js-built-in', group: 'google_gmail', tools: [{ name: 'gmail_search', description: 'Search messages' } as ToolView], problems: [] }, // an older server's tool, without `enabled`
];

describe('the groups browser catalogue', () => {
  test('an empty query lists every group in catalogue order', () => {
    expect(filterGroups(groups, '  ').map((g) => g.name)).toEqual(['google_gmail', 'pdf', 'scheduled_tasks']);
  });

  test('every word must match, in any field, case-insensitively', () => {
    expect(filterGroups(groups, 'MAIL').map((g) => g.name)).toEqual(['google_gmail']);
    expect(filterGroups(groups, 'gmail send').map((g) => g.name)).toEqual(['google_gmail']);
    expect(filterGroups(groups, 'gmail pdf')).toEqual([]);
    expect(filterGroups(groups, 'list_scheduled').map((g) => g.name)).toEqual(['scheduled_tasks']);
    expect(filterGroups(groups, 'google_gmail.js').map((g) => g.name)).toEqual(['google_gmail']);
  });

  test('tool descriptions are searched when known', () => {
    expect(filterGroups(groups, 'metadata', toolsByName(sources)).map((g) => g.name)).toEqual(['pdf']);
    expect(filterGroups(groups, 'metadata')).toEqual([]);
  });

  test('tools are looked up by name with their description, state and file', () => {
    const tools = toolsByName(sources);
    expect(tools.get('gmail_search')).toEqual({ name: 'gmail_search', description: 'Search messages', enabled: true, fileName: 'google_gmail.js' });
    expect(tools.get('list_scheduled_tasks')?.enabled).toBe(false);
    expect(tools.get('nope')).toBeUndefined();
  });

  test('sources read as words', () => {
    expect(sourceLabel({ kind: 'built-in', fileName: 'pdf-tools.ts' })).toBe('Built-in (pdf-tools.ts)');
    expect(sourceLabel({ kind: 'js-user' })).toBe('Your JavaScript');
    expect(sourceLabel({ kind: 'other' } as unknown as ToolGroupView['source'])).toBe('other'); // a kind newer than this bundle
  });
});
