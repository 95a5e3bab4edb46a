import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createBridgeHost, InProcessJsRunner, JsToolCatalogue, UserToolManager, type ClosableBridgeHost } from '@oneclaw/js-tools';
import { ToolExecutionEngine, ToolRegistry, type ToolResult } from '@oneclaw/tool-registry';
import { fakeTool } from '@oneclaw/tool-registry/testing';
import { BUILTIN_GROUPS } from '../builtin-tools';
import { createJsToolManagementTools } from './js-tool-management-tools';

// A real registry, the real catalogue loader and user tool manager, the execution engine, and
// created tools run for real in QuickJS (in-process runner, real bridge host on a temp files folder).
let host: ClosableBridgeHost;
let runner: InProcessJsRunner;
let dir: string;
let userFolder: string;
let registry: ToolRegistry;
let catalogue: JsToolCatalogue;
let engine: ToolExecutionEngine;
let calls = 0;

const WORD_COUNT = {
  name: 'word_count',
  description: 'Counts the words in a text.',
  parameters_schema: '{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}',
  js_code: 'async function execute(params) { return String(params.text.split(/\\s+/).filter(Boolean).length); }',
};

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-js-tool-management-'));
  host = createBridgeHost({ filesRoot: path.join(dir, 'files') });
  runner = new InProcessJsRunner(host);
});
afterAll(async () => {
  await runner.close();
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  userFolder = path.join(dir, `tools-${calls}`);
  mkdirSync(userFolder);
  registry = new ToolRegistry();
  // A built-in TypeScript tool, as the server registers them before the JS catalogue.
  registry.register(fakeTool('read_file'), { kind: 'built-in', fileName: 'read-file.ts' });
  catalogue = new JsToolCatalogue({ registry, runner, folders: [{ path: userFolder, kind: 'js-user' }] });
  const manager = new UserToolManager({ folder: userFolder, catalogue, registry });
  registry.registerGroup(BUILTIN_GROUPS.js_tool_management, { kind: 'built-in', fileName: 'js-tool-management-tools.ts' });
  for (const tool of createJsToolManagementTools(manager)) {
    registry.register(tool, { kind: 'built-in', fileName: 'js-tool-management-tools.ts', group: 'js_tool_management' });
  }
  catalogue.loadAll();
  engine = new ToolExecutionEngine(registry);
});
afterEach(() => rmSync(userFolder, { recursive: true, force: true }));

async function call(toolName: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  calls += 1;
  // The active set is read per call, as the agent loop reads it per model request.
  const outcome = await engine.execute({ callId: `c${calls}`, toolName, arguments: args }, { sessionId: 's', activeToolNames: registry.toolNames() });
  return outcome.result;
}

async function success(toolName: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = await call(toolName, args);
  if (result.status !== 'success') throw new Error(`expected success from ${toolName}, got ${result.errorType}: ${result.message}`);
  return result.result;
}

/** The user folder's files and their content. */
function snapshot(): Record<string, string> {
  return Object.fromEntries(
    readdirSync(userFolder)
      .sort()
      .map((f) => [f, readFileSync(path.join(userFolder, f), 'utf8')]),
  );
}

/** Calls the tool, expects the error, and that neither the folder nor the registry changed. */
async function expectRefused(toolName: string, args: Record<string, unknown>, errorType: string, needle?: string): Promise<void> {
  const files = snapshot();
  const version = registry.version;
  const result = await call(toolName, args);
  expect(result).toMatchObject({ status: 'error', errorType });
  if (needle) expect(result.status === 'error' && result.message).toContain(needle);
  expect(snapshot()).toEqual(files);
  expect(registry.version).toBe(version);
}

describe('js_tool_management group (issue 6, G8)', () => {
  it('registers create, list, update and delete in the group with the catalogue timeouts', () => {
    expect(registry.groupToolNames('js_tool_management')).toEqual(['create_js_tool', 'list_user_tools', 'update_js_tool', 'delete_js_tool']);
    expect(['create_js_tool', 'list_user_tools', 'update_js_tool', 'delete_js_tool'].map((n) => registry.definition(n)?.timeoutMs)).toEqual([10_000, 5_000, 10_000, 5_000]);
  });
});

describe('create_js_tool', () => {
  it('creates a tool that can be called through the engine in the same turn; it runs in QuickJS', async () => {
    expect(await success('create_js_tool', WORD_COUNT)).toBe(
      "Created the tool 'word_count' (word_count.json and word_count.js in the user tools folder). It can be called from now on.",
    );
    expect(Object.keys(snapshot())).toEqual(['word_count.js', 'word_count.json']);
    expect(registry.get('word_count')?.source).toEqual({ kind: 'js-user', fileName: 'word_count.js' });
    expect(await call('word_count', { text: 'one two  three' })).toEqual({ status: 'success', result: '3' });
    // Its schema is enforced by the engine like any tool's.
    expect(await call('word_count', {})).toMatchObject({ status: 'error', errorType: 'validation_error' });
  });

  it('accepts the schema as an object too, permissions as a comma-separated list, and a timeout in seconds', async () => {
    await success('create_js_tool', {
      ...WORD_COUNT,
      name: 'shout',
      parameters_schema: { properties: { text: { type: 'string' } } },
      js_code: 'async function execute(params) { return params.text.toUpperCase() + "!"; }',
      required_permissions: 'files.read, network',
      timeout_seconds: 12,
    });
    expect(registry.definition('shout')).toMatchObject({
      parameters: { type: 'object', properties: { text: { type: 'string' } } },
      requiredPermissions: ['files.read', 'network'],
      timeoutMs: 12_000,
    });
    expect(await call('shout', { text: 'hey' })).toEqual({ status: 'success', result: 'HEY!' });
  });

  it('uses the 30 s default timeout when none is given', async () => {
    await success('create_js_tool', WORD_COUNT);
    expect(registry.definition('word_count')?.timeoutMs).toBe(30_000);
  });

  it('refuses a bad name and writes nothing (invalid_name)', async () => {
    await expectRefused('create_js_tool', { ...WORD_COUNT, name: 'Word-Count' }, 'invalid_name', 'snake_case');
  });

  it('refuses the name of a built-in tool, and of a tool of its own group, and writes nothing (name_taken)', async () => {
    await expectRefused('create_js_tool', { ...WORD_COUNT, name: 'read_file' }, 'name_taken', 'a built-in tool');
    await expectRefused('create_js_tool', { ...WORD_COUNT, name: 'create_js_tool' }, 'name_taken', 'a built-in tool');
  });

  it('refuses a name already used by a user tool (name_taken)', async () => {
    await success('create_js_tool', WORD_COUNT);
    await expectRefused('create_js_tool', { ...WORD_COUNT, js_code: 'async function execute() { return "other"; }' }, 'name_taken');
    expect(await call('word_count', { text: 'a b' })).toEqual({ status: 'success', result: '2' });
  });

  it('refuses an invalid schema and writes nothing (invalid_parameters)', async () => {
    await expectRefused('create_js_tool', { ...WORD_COUNT, parameters_schema: '{"properties": ' }, 'invalid_parameters', 'not valid JSON');
    await expectRefused('create_js_tool', { ...WORD_COUNT, parameters_schema: '{"type":"array"}' }, 'invalid_parameters');
    await expectRefused(
      'create_js_tool',
      { ...WORD_COUNT, parameters_schema: { properties: { text: { type: 'no-such-type' } } } },
      'invalid_parameters',
      'not a valid JSON Schema',
    );
  });

  it('refuses code without an execute function and writes nothing (missing_function)', async () => {
    await expectRefused('create_js_tool', { ...WORD_COUNT, js_code: 'function run(params) { return 1; }' }, 'missing_function', "top-level function 'execute'");
  });

  it('refuses code with a syntax error, naming the line, and writes nothing (invalid_code)', async () => {
    await expectRefused('create_js_tool', { ...WORD_COUNT, js_code: 'async function execute(params) {\n  return params.;\n}' }, 'invalid_code', 'line 2');
  });

  it('refuses an empty description and writes nothing (invalid_definition)', async () => {
    await expectRefused('create_js_tool', { ...WORD_COUNT, description: '  ' }, 'invalid_definition', 'description');
  });

  it('refuses missing fields and out-of-range timeouts before the manager is asked (validation_error)', async () => {
    const { js_code: _code, ...withoutCode } = WORD_COUNT;
    await expectRefused('create_js_tool', withoutCode, 'validation_error', 'js_code');
    await expectRefused('create_js_tool', { ...WORD_COUNT, timeout_seconds: 0 }, 'validation_error');
    await expectRefused('create_js_tool', { ...WORD_COUNT, timeout_seconds: 301 }, 'validation_error');
    await expectRefused('create_js_tool', { ...WORD_COUNT, parameters_schema: 42 }, 'validation_error');
  });
});

describe('update_js_tool', () => {
  beforeEach(async () => {
    await success('create_js_tool', { ...WORD_COUNT, timeout_seconds: 7 });
  });

  it('replaces the code; the next call runs the new version', async () => {
    expect(await success('update_js_tool', { name: 'word_count', js_code: 'async function execute(params) { return "words: " + params.text.split(" ").length; }' })).toBe(
      "Updated the tool 'word_count' (js_code). The new version is used from the next call.",
    );
    expect(await call('word_count', { text: 'a b c' })).toEqual({ status: 'success', result: 'words: 3' });
  });

  it('changes only the fields given', async () => {
    await success('update_js_tool', {
      name: 'word_count',
      description: 'Counts words.',
      parameters_schema: { properties: { text: { type: 'string' }, lang: { type: 'string' } } },
    });
    expect(registry.definition('word_count')).toMatchObject({
      description: 'Counts words.',
      timeoutMs: 7_000,
      parameters: { type: 'object', properties: { text: { type: 'string' }, lang: { type: 'string' } } },
    });
    expect(await call('word_count', { text: 'still the old code' })).toEqual({ status: 'success', result: '4' });
  });

  it('refuses bad code or schema and keeps the tool as it was', async () => {
    await expectRefused('update_js_tool', { name: 'word_count', js_code: 'async function execute( {' }, 'invalid_code');
    await expectRefused('update_js_tool', { name: 'word_count', js_code: 'function helper() {}' }, 'missing_function');
    await expectRefused('update_js_tool', { name: 'word_count', parameters_schema: '[]' }, 'invalid_parameters');
    expect(await call('word_count', { text: 'a b' })).toEqual({ status: 'success', result: '2' });
  });

  it('refuses an update that changes nothing (nothing_to_update)', async () => {
    await expectRefused('update_js_tool', { name: 'word_count' }, 'nothing_to_update', 'pass at least one of');
  });

  it('refuses an unknown tool (not_found) and a built-in (not_a_user_tool), writing nothing', async () => {
    await expectRefused('update_js_tool', { name: 'no_such_tool', description: 'x' }, 'not_found', 'List the user tools');
    await expectRefused('update_js_tool', { name: 'read_file', description: 'x' }, 'not_a_user_tool', 'built-in');
  });
});

describe('delete_js_tool', () => {
  it('deletes the files; calling the tool afterwards is tool_not_found', async () => {
    await success('create_js_tool', WORD_COUNT);
    expect(await success('delete_js_tool', { name: 'word_count' })).toBe("Deleted the user tool 'word_count'.");
    expect(snapshot()).toEqual({});
    expect(await call('word_count', { text: 'a' })).toMatchObject({ status: 'error', errorType: 'tool_not_found' });
  });

  it('refuses a name with a folder in it (validation_error) and deletes nothing outside the user folder', async () => {
    const lib = path.join(dir, 'lib');
    mkdirSync(lib, { recursive: true });
    writeFileSync(path.join(lib, 'helpers.js'), 'module.exports = {};');
    for (const name of ['../lib/helpers', path.join(lib, 'helpers'), '..']) {
      await expectRefused('delete_js_tool', { name }, 'validation_error', 'name');
      await expectRefused('update_js_tool', { name, js_code: 'function execute() {}' }, 'validation_error', 'name');
    }
    expect(readdirSync(lib)).toEqual(['helpers.js']);
  });

  it('refuses an unknown tool (not_found) and a built-in (not_a_user_tool), deleting nothing', async () => {
    await success('create_js_tool', WORD_COUNT);
    await expectRefused('delete_js_tool', { name: 'no_such_tool' }, 'not_found');
    await expectRefused('delete_js_tool', { name: 'delete_js_tool' }, 'not_a_user_tool', 'built-in');
    expect(registry.has('word_count')).toBe(true);
  });
});

describe('list_user_tools', () => {
  it('says the folder is empty', async () => {
    expect(await success('list_user_tools')).toBe('The user tools folder is empty. Create a tool with create_js_tool.');
  });

  it('lists single tools, group files with their tools, and files that failed to load with their problems', async () => {
    await success('create_js_tool', WORD_COUNT);
    writeFileSync(
      path.join(userFolder, 'text_kit.json'),
      JSON.stringify([
        { _meta: true, display_name: 'Text Kit', description: 'Small text helpers.' },
        { name: 'upper', description: 'Upper-cases a text.', function: 'upper' },
        { name: 'lower', description: 'Lower-cases a text.', function: 'lower' },
      ]),
    );
    writeFileSync(path.join(userFolder, 'text_kit.js'), 'function upper(p) { return p.text.toUpperCase(); }\nfunction lower(p) { return p.text.toLowerCase(); }');
    writeFileSync(path.join(userFolder, 'broken.json'), JSON.stringify({ name: 'broken', description: 'Broken.' }));
    writeFileSync(path.join(userFolder, 'broken.js'), 'function execute( {');
    catalogue.loadAll(); // as the folder watcher does when files are dropped in
    expect(await success('list_user_tools')).toBe(
      [
        '3 files in the user tools folder:',
        '- broken.json: not loaded',
        "    error: Syntax error in 'broken.js' at line 1, column 20: Unexpected token. No tools from 'broken.json' were loaded.",
        "- text_kit.json: tool group 'text_kit' (Text Kit: Small text helpers.), 2 tools",
        '    - upper: Upper-cases a text.',
        '    - lower: Lower-cases a text.',
        '- word_count.json: tool word_count: Counts the words in a text.',
      ].join('\n'),
    );
  });
});
