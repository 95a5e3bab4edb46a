import { describe, expect, test } from '@jest/globals';
import { argumentsHint, formatDuration, prettyJson, prettyResult, toolCardSummary } from './tool-card-summary';
import type { ToolItem } from './transcript';

const card = (overrides: Partial<ToolItem>): ToolItem => ({
  kind: 'tool',
  key: 'k',
  callId: 'c',
  toolName: 'read_file',
  arguments: { path: 'notes.txt' },
  status: 'running',
  ...overrides,
});

describe('tool call card summary', () => {
  test('each status has its own word and icon; an error names its type and is flagged', () => {
    expect(toolCardSummary(card({ status: 'running', durationMs: 5 }))).toEqual({ icon: 'running', statusText: 'Running', isError: false, argumentsHint: 'path: "notes.txt"' });
    expect(toolCardSummary(card({ status: 'success', durationMs: 85 }))).toMatchObject({ icon: 'done', statusText: 'Done', duration: '85 ms', isError: false });
    expect(toolCardSummary(card({ status: 'error', errorType: 'timeout', durationMs: 30000 }))).toMatchObject({
      icon: 'error',
      statusText: 'Error: timeout',
      duration: '30 s',
      isError: true,
    });
    expect(toolCardSummary(card({ status: 'error' }))).toMatchObject({ statusText: 'Error', isError: true });
    expect(toolCardSummary(card({ status: 'no_result' }))).toMatchObject({ statusText: 'No result', isError: false });
  });

  test('durations read as a person says them', () => {
    expect(formatDuration(0)).toBe('0 ms');
    expect(formatDuration(999.4)).toBe('999 ms');
    expect(formatDuration(1234)).toBe('1.2 s');
    expect(formatDuration(12_345)).toBe('12 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
    expect(formatDuration(179_800)).toBe('3 min');
    expect(formatDuration(-1)).toBe('');
  });

  test('arguments are indented JSON; results are indented when they are JSON and kept as they came otherwise', () => {
    expect(prettyJson({ group_name: 'pdf' })).toBe('{\n  "group_name": "pdf"\n}');
    expect(prettyResult('{"a":[1,2]}')).toBe('{\n  "a": [\n    1,\n    2\n  ]\n}');
    expect(prettyResult('plain text {not json')).toBe('plain text {not json');
    expect(prettyResult('{"cut": "…')).toBe('{"cut": "…');
    expect(prettyResult(undefined)).toBe('');
  });

  test('the one-line hint lists arguments and is cut to fit a phone', () => {
    expect(argumentsHint({ group_name: 'pdf', force: true })).toBe('group_name: "pdf", force: true');
    expect(argumentsHint({})).toBe('');
    expect(argumentsHint(['x'])).toBe('');
    const long = argumentsHint({ body: 'y'.repeat(200) }, 30);
    expect(long).toHaveLength(30);
    expect(long.endsWith('…')).toBe(true);
  });
});
