import { describe, expect, it } from '@jest/globals';
import { MAX_TOOLS_PER_GROUP, describeToolNames, displayNameFromFile, parseManifest, type ParsedManifest } from './parse-manifest';

const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  description: `Does ${name}`,
  parameters: { properties: { q: { type: 'string' } }, required: ['q'] },
  ...extra,
});

const parse = (fileName: string, data: unknown): ParsedManifest => parseManifest(fileName, JSON.stringify(data));
const names = (parsed: ParsedManifest) => parsed.entries.map((e) => e.definition.name);
const errors = (parsed: ParsedManifest) => parsed.problems.filter((p) => p.severity === 'error');

describe('parseManifest: single-tool files (J1)', () => {
  it('J1: an object is one tool calling execute(params) by default, with "type":"object" added at the root', () => {
    const parsed = parse('weather_lookup.json', tool('weather_lookup'));
    expect(parsed.kind).toBe('single');
    expect(parsed.group).toBeUndefined();
    expect(parsed.problems).toEqual([]);
    expect(parsed.slicing).toBe(true);
    expect(parsed.entries).toHaveLength(1);
    expect(parsed.entries[0]?.functionName).toBe('execute');
    expect(parsed.entries[0]?.definition.parameters).toEqual({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] });
  });

  it('J1: a single tool may name its function, timeout in seconds and permissions; no parameters means none', () => {
    const parsed = parse('x.json', { name: 'x_tool', description: 'X', function: 'run', timeoutSeconds: 2.5, requiredPermissions: ['net'], slicing: false });
    expect(parsed.entries[0]?.functionName).toBe('run');
    expect(parsed.entries[0]?.definition).toMatchObject({ timeoutMs: 2500, requiredPermissions: ['net'], parameters: { type: 'object', properties: {} } });
    expect(parsed.slicing).toBe(false);
    expect(parse('x.json', { ...tool('x_tool'), timeoutMs: 1200 }).entries[0]?.definition.timeoutMs).toBe(1200);
    // The maximum itself is allowed.
    expect(parse('x.json', { ...tool('x_tool'), timeoutSeconds: 300 }).entries[0]?.definition.timeoutMs).toBe(300_000);
  });

  it('J5: an invalid single tool is reported naming the file and the tool, and loads nothing', () => {
    const parsed = parse('bad.json', { name: 'BadName', description: '', parameters: { type: 'string' } });
    expect(parsed.entries).toEqual([]);
    expect(parsed.problems).toHaveLength(1);
    const [p] = parsed.problems;
    expect(p).toMatchObject({ severity: 'error', code: 'invalid_entry', file: 'bad.json', tool: 'BadName' });
    expect(p?.message).toContain("Tool 'BadName' in 'bad.json'");
    expect(p?.message).toContain('snake_case');
    expect(p?.message).toContain('description');
    expect(p?.message).toContain('type "object"');
  });

  it.each([
    ['timeoutSeconds zero', { timeoutSeconds: 0 }, 'timeoutSeconds'],
    ['timeoutSeconds as text', { timeoutSeconds: '5' }, 'timeoutSeconds'],
    ['both timeouts', { timeoutSeconds: 5, timeoutMs: 5000 }, 'not both'],
    ['timeoutSeconds above the 300 s maximum', { timeoutSeconds: 301 }, 'timeoutSeconds 301 is longer than the 300 s'],
    ['timeoutMs above the 300 s maximum', { timeoutMs: 300_001 }, 'timeoutMs 300001 is longer than the 300 s'],
    ['permissions not an array', { requiredPermissions: 'net' }, 'requiredPermissions'],
    ['properties not an object', { parameters: { properties: [] } }, 'properties'],
    ['required not strings', { parameters: { required: [1] } }, 'required'],
    ['parameters not an object', { parameters: 'q' }, 'parameters'],
    ['function not an identifier', { function: 'list-files' }, "invalid 'function'"],
  ])('J5: %s is refused with a message naming file and tool', (_label, extra, needle) => {
    const parsed = parse('t.json', tool('t_tool', extra));
    expect(parsed.entries).toEqual([]);
    expect(errors(parsed)[0]?.message).toContain("Tool 't_tool' in 't.json'");
    expect(errors(parsed)[0]?.message).toContain(needle);
  });

  it('a lone _meta object is not a tool', () => {
    const parsed = parse('meta.json', { _meta: true, display_name: 'Meta' });
    expect(parsed.entries).toEqual([]);
    expect(errors(parsed)[0]?.message).toContain("'_meta'");
  });
});

describe('parseManifest: whole-file problems', () => {
  it('invalid JSON is one error and no entries', () => {
    const parsed = parseManifest('broken.json', '{"name": ');
    expect(parsed).toMatchObject({ kind: undefined, entries: [] });
    expect(parsed.problems).toHaveLength(1);
    expect(parsed.problems[0]).toMatchObject({ severity: 'error', code: 'invalid_json', file: 'broken.json' });
    expect(parsed.problems[0]?.message).toContain("'broken.json' is not valid JSON");
  });

  it.each([['42'], ['"text"'], ['null'], ['true']])('JSON that is neither object nor array (%s) is one error', (json) => {
    const parsed = parseManifest('odd.json', json);
    expect(parsed.entries).toEqual([]);
    expect(parsed.problems).toEqual([expect.objectContaining({ severity: 'error', code: 'invalid_manifest', file: 'odd.json' })]);
  });

  it('J5: an empty array is a warning "Empty tool group", with no tools', () => {
    const parsed = parse('empty_group.json', []);
    expect(parsed.kind).toBe('group');
    expect(parsed.entries).toEqual([]);
    expect(parsed.problems).toEqual([
      { severity: 'warning', code: 'empty_group', file: 'empty_group.json', message: "Empty tool group in 'empty_group.json': it defines no tools." },
    ]);
  });

  it(`J5: ${MAX_TOOLS_PER_GROUP} tools load; one more refuses the whole file`, () => {
    const entries = (n: number) => Array.from({ length: n }, (_, i) => tool(`t_${i}`, { function: `f${i}` }));
    expect(parse('big.json', entries(MAX_TOOLS_PER_GROUP)).entries).toHaveLength(MAX_TOOLS_PER_GROUP);
    const withMeta = parse('big.json', [{ _meta: true, display_name: 'Big' }, ...entries(MAX_TOOLS_PER_GROUP)]);
    expect(withMeta.entries).toHaveLength(MAX_TOOLS_PER_GROUP);
    const tooMany = parse('big.json', entries(MAX_TOOLS_PER_GROUP + 1));
    expect(tooMany.entries).toEqual([]);
    expect(tooMany.problems).toEqual([expect.objectContaining({ severity: 'error', code: 'too_many_tools', file: 'big.json' })]);
    expect(tooMany.problems[0]?.message).toContain('51 tools');
  });

  it('a group file must be named like a tool group (snake_case), else it is refused', () => {
    const parsed = parse('Google-Drive.json', [tool('drive_list', { function: 'list' })]);
    expect(parsed.entries).toEqual([]);
    expect(parsed.group).toBeUndefined();
    expect(parsed.problems[0]).toMatchObject({ severity: 'error', code: 'invalid_group_name', file: 'Google-Drive.json' });
    // A single-tool file has no group, so its file name is free.
    expect(parse('Weather-Lookup.json', tool('weather_lookup')).entries).toHaveLength(1);
  });
});

describe('parseManifest: groups (J1, J2, J5)', () => {
  it('J1: an array is a group named after the file; each entry calls its own function', () => {
    const parsed = parse('google_drive.json', [tool('drive_list_files', { function: 'listFiles' }), tool('drive_get_file', { function: 'getFile' })]);
    expect(parsed.kind).toBe('group');
    expect(parsed.group?.name).toBe('google_drive');
    expect(parsed.entries.map((e) => [e.definition.name, e.functionName])).toEqual([
      ['drive_list_files', 'listFiles'],
      ['drive_get_file', 'getFile'],
    ]);
  });

  it('J1: function names follow JavaScript rules, not snake_case ($, _, camelCase, unicode, even "execute")', () => {
    const fns = ['listFiles', '_private', '$x', 'déjà', 'execute'];
    const parsed = parse(
      'fns.json',
      fns.map((f, i) => tool(`t_${i}`, { function: f })),
    );
    expect(parsed.entries.map((e) => e.functionName)).toEqual(fns);
  });

  it('TEST-040-10: a first _meta entry gives display name and description and is not a tool', () => {
    const parsed = parse('google_gmail.json', [
      { _meta: true, display_name: 'Google Gmail', description: 'Email management: search, read, send' },
      tool('gmail_search', { function: 'gmailSearch' }),
    ]);
    expect(parsed.group).toEqual({ name: 'google_gmail', displayName: 'Google Gmail', description: 'Email management: search, read, send' });
    expect(names(parsed)).toEqual(['gmail_search']);
    expect(parsed.problems).toEqual([]);
  });

  it('TEST-040-10: _meta may turn slicing off for the file', () => {
    expect(parse('g.json', [{ _meta: true, slicing: false }, tool('a_tool', { function: 'a' })]).slicing).toBe(false);
    const odd = parse('g.json', [{ _meta: true, slicing: 'no' }, tool('a_tool', { function: 'a' })]);
    expect(odd.slicing).toBe(true);
    expect(odd.problems).toEqual([expect.objectContaining({ severity: 'warning', code: 'invalid_meta' })]);
  });

  it('TEST-040-11: without _meta, the display name comes from the file name and the description from the tool names', () => {
    const parsed = parse('google_drive.json', [tool('drive_list_files', { function: 'a' }), tool('drive_get_file', { function: 'b' })]);
    expect(parsed.group).toEqual({ name: 'google_drive', displayName: 'Google Drive', description: 'Tools: drive_list_files, drive_get_file' });
  });

  it('TEST-040-11: a _meta without texts (or with blank ones) falls back to the generated ones', () => {
    const parsed = parse('text_utils.json', [{ _meta: true, display_name: ' ' }, tool('word_count', { function: 'wc' })]);
    expect(parsed.group).toEqual({ name: 'text_utils', displayName: 'Text Utils', description: 'Tools: word_count' });
    expect(parsed.problems).toEqual([expect.objectContaining({ severity: 'warning', code: 'invalid_meta' })]);
  });

  it('TEST-040-11: the generated description stays one line with at most 10 names', () => {
    const many = Array.from({ length: 13 }, (_, i) => `tool_${i}`);
    expect(describeToolNames(many)).toBe('Tools: tool_0, tool_1, tool_2, tool_3, tool_4, tool_5, tool_6, tool_7, tool_8, tool_9 and 3 more');
    expect(describeToolNames([])).toBe('No tools yet');
    expect(displayNameFromFile('google_gmail_settings')).toBe('Google Gmail Settings');
    expect(displayNameFromFile('a__b_')).toBe('A B');
  });

  it("J5: a group entry without 'function' is skipped with the seed's message; the others load", () => {
    const parsed = parse('google_drive.json', [tool('drive_a', { function: 'a' }), tool('drive_b'), tool('drive_c', { function: 'c' })]);
    expect(names(parsed)).toEqual(['drive_a', 'drive_c']);
    expect(parsed.problems).toHaveLength(1);
    expect(parsed.problems[0]).toMatchObject({ severity: 'error', code: 'missing_function', file: 'google_drive.json', tool: 'drive_b' });
    expect(parsed.problems[0]?.message).toContain("Tool 'drive_b' in group 'google_drive.json' missing required 'function' field");
  });

  it('J5: invalid entries (no name, no description, bad schema, not an object) are skipped; the rest load', () => {
    const parsed = parse('mixed.json', [
      { description: 'nameless', function: 'a', parameters: {} },
      { name: 'no_description', function: 'b', parameters: {} },
      tool('bad_schema', { function: 'c', parameters: { type: 'array' } }),
      'not an entry',
      tool('good_one', { function: 'd' }),
    ]);
    expect(names(parsed)).toEqual(['good_one']);
    const messages = errors(parsed).map((p) => p.message);
    expect(messages).toHaveLength(4);
    expect(messages[0]).toContain("The entry 1 in group 'mixed.json'");
    expect(messages[1]).toContain("Tool 'no_description' in group 'mixed.json'");
    expect(messages[2]).toContain("Tool 'bad_schema' in group 'mixed.json'");
    expect(messages[3]).toContain("The entry 4 in group 'mixed.json' must be an object");
    expect(errors(parsed).map((p) => p.tool)).toEqual([undefined, 'no_description', 'bad_schema', undefined]);
  });

  it('J5: a duplicate name in one group: the first wins, the second is skipped', () => {
    const parsed = parse('dups.json', [tool('same_name', { function: 'first' }), tool('same_name', { function: 'second' }), tool('other', { function: 'o' })]);
    expect(parsed.entries.map((e) => e.functionName)).toEqual(['first', 'o']);
    expect(parsed.problems).toEqual([expect.objectContaining({ severity: 'error', code: 'duplicate_tool', file: 'dups.json', tool: 'same_name' })]);
    expect(parsed.problems[0]?.message).toContain("Duplicate tool name 'same_name' in group 'dups.json'");
  });

  it('J5: when the first of two same-named entries is invalid, the valid one loads', () => {
    const parsed = parse('dups.json', [tool('same_name'), tool('same_name', { function: 'second' })]);
    expect(parsed.entries.map((e) => e.functionName)).toEqual(['second']);
    expect(parsed.problems.map((p) => p.code)).toEqual(['missing_function']);
  });

  it('a _meta entry anywhere but first is an invalid entry', () => {
    const parsed = parse('late_meta.json', [tool('a_tool', { function: 'a' }), { _meta: true, display_name: 'Late' }]);
    expect(names(parsed)).toEqual(['a_tool']);
    expect(parsed.group?.displayName).toBe('Late Meta');
    expect(parsed.problems).toEqual([expect.objectContaining({ severity: 'error', code: 'invalid_entry', file: 'late_meta.json' })]);
    expect(parsed.problems[0]?.message).toContain('Entry 2');
  });

  it('one-tool group (array of 1) behaves like a group; two entries may share one function', () => {
    expect(parse('solo.json', [tool('solo_tool', { function: 'run' })])).toMatchObject({ kind: 'group', group: { name: 'solo' } });
    const shared = parse('shared.json', [tool('a_tool', { function: 'run' }), tool('b_tool', { function: 'run' })]);
    expect(shared.entries.map((e) => e.functionName)).toEqual(['run', 'run']);
  });
});
