import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ToolRegistry } from '@oneclaw/tool-registry';
import { explodingRefSchema, fakeTool } from '@oneclaw/tool-registry/testing';
import { InProcessJsRunner } from '../sandbox/in-process-js-runner';
import { FakeBridgeHost } from '../testing/fake-bridge-host';
import { JsToolCatalogue, type JsToolFolder } from './js-tool-catalogue';
import { callTool, makeToolFolders, removeDir, toolEntry, writePair } from './tool-folder.fixture';
import { UserToolError, UserToolManager, type UserToolErrorCode, type UserToolInput } from './user-tool-manager';

const runner = new InProcessJsRunner(new FakeBridgeHost());
afterAll(() => runner.close());

const WORD_COUNT: UserToolInput = {
  name: 'word_count',
  description: 'Counts the words in a text',
  parameters: { properties: { text: { type: 'string' } }, required: ['text'] },
  code: 'function _words(t) { return t.split(/\\s+/).filter(Boolean); }\nasync function execute(params) { return String(_words(params.text).length); }',
};

let root: string;
let builtIn: JsToolFolder;
let user: JsToolFolder;
let registry: ToolRegistry;
let catalogue: JsToolCatalogue;
let manager: UserToolManager;

beforeEach(() => {
  ({ root, builtIn, user } = makeToolFolders('user-tools', { createUser: false }));
  registry = new ToolRegistry();
  registry.register(fakeTool('read_file'), { kind: 'built-in' });
  writePair(builtIn.path, 'shipped', toolEntry('shipped_tool'), 'function execute(){}');
  catalogue = new JsToolCatalogue({ registry, runner, folders: [builtIn, user] });
  catalogue.loadAll();
  manager = new UserToolManager({ folder: user.path, catalogue, registry });
});
afterEach(() => removeDir(root));

/** Runs `action`, expects a UserToolError with `code`, and that the user folder is as it was. */
function expectRefused(action: () => unknown, code: UserToolErrorCode, needle?: string): UserToolError {
  const before = existsSync(user.path) ? readdirSync(user.path).sort() : [];
  const version = registry.version;
  let caught: unknown;
  try {
    action();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(UserToolError);
  const error = caught as UserToolError;
  expect(error.code).toBe(code);
  if (needle) expect(error.message).toContain(needle);
  expect(existsSync(user.path) ? readdirSync(user.path).sort() : []).toEqual(before);
  expect(registry.version).toBe(version);
  return error;
}

const run = (name: string, params: Record<string, unknown>) => callTool(registry, name, params);

describe('UserToolManager.create', () => {
  it('writes a single-tool pair and registers the tool at once; it runs', async () => {
    const info = manager.create({ ...WORD_COUNT, requiredPermissions: 'files.read, net ,', timeoutSeconds: 5 });
    expect(info).toEqual({
      name: 'word_count',
      fileName: 'word_count.js',
      manifest: 'single',
      tools: [{ name: 'word_count', description: 'Counts the words in a text' }],
      problems: [],
    });
    expect(readdirSync(user.path).sort()).toEqual(['word_count.js', 'word_count.json']);
    expect(JSON.parse(readFileSync(join(user.path, 'word_count.json'), 'utf8'))).toEqual({
      name: 'word_count',
      description: 'Counts the words in a text',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      requiredPermissions: ['files.read', 'net'],
      timeoutSeconds: 5,
    });
    expect(registry.definition('word_count')).toMatchObject({ timeoutMs: 5000, requiredPermissions: ['files.read', 'net'] });
    expect(registry.get('word_count')?.source).toEqual({ kind: 'js-user', fileName: 'word_count.js' });
    expect(await run('word_count', { text: 'one two  three' })).toEqual({ status: 'success', result: '3' });
  });

  it('accepts parameters as JSON text and creates the folder when it is missing', () => {
    expect(existsSync(user.path)).toBe(false);
    manager.create({ ...WORD_COUNT, parameters: '{"type":"object","properties":{"text":{"type":"string"}}}' });
    expect(registry.definition('word_count')?.parameters).toEqual({ type: 'object', properties: { text: { type: 'string' } } });
  });

  it.each([['Word-Count'], ['1tool'], [''], ['a'.repeat(65)]])('invalid_name: %j', (name) => {
    expectRefused(() => manager.create({ ...WORD_COUNT, name }), 'invalid_name', 'snake_case');
  });

  it('name_taken: a built-in TypeScript tool, a shipped JS tool, or a user file that failed to load', () => {
    expectRefused(() => manager.create({ ...WORD_COUNT, name: 'read_file' }), 'name_taken', 'a built-in tool');
    expectRefused(() => manager.create({ ...WORD_COUNT, name: 'shipped_tool' }), 'name_taken', "'shipped.js'");
    mkdirSync(user.path);
    writeFileSync(join(user.path, 'half_done.json'), '{ broken');
    expectRefused(() => manager.create({ ...WORD_COUNT, name: 'half_done' }), 'name_taken', 'Update or delete');
  });

  it('name_taken: a tool in a user group file', () => {
    mkdirSync(user.path);
    writePair(user.path, 'my_group', [toolEntry('grouped_tool', 'g')], 'function g(){}');
    catalogue.loadAll();
    expectRefused(() => manager.create({ ...WORD_COUNT, name: 'grouped_tool' }), 'name_taken', "'my_group.js'");
  });

  it.each([
    ['JSON text that does not parse', '{"type": "object",', 'not valid JSON'],
    ['an array', [], 'JSON Schema object'],
    ['a non-object root type', { type: 'string' }, 'type "object"'],
    ['properties that are not an object', { properties: ['text'] }, 'properties'],
    ['a schema Ajv cannot compile', { properties: { text: { type: 'no-such-type' } } }, 'not a valid JSON Schema'],
  ])('invalid_parameters: %s', (_label, parameters, needle) => {
    expectRefused(() => manager.create({ ...WORD_COUNT, parameters: parameters as object }), 'invalid_parameters', needle);
  });

  it('invalid_parameters: a schema whose $refs inline past the cap is refused before anything is written, on create and on update', () => {
    // 1.7 KB of JSON that inlines to 2^18 subschemas: the registry would refuse it after the write.
    const error = expectRefused(() => manager.create({ ...WORD_COUNT, parameters: explodingRefSchema(18) }), 'invalid_parameters');
    expect(error.message).toMatch(
      /^Tool 'word_count' was not saved: its parameters schema cannot be sent to a model \(.*more than 10000 subschemas.*\)\. Fix the schema and try again\.$/,
    );
    expect(existsSync(user.path) ? readdirSync(user.path) : []).toEqual([]);

    manager.create(WORD_COUNT);
    const manifest = readFileSync(join(user.path, 'word_count.json'), 'utf8');
    expectRefused(() => manager.update('word_count', { parameters: explodingRefSchema(18) }), 'invalid_parameters', 'cannot be sent to a model');
    expect(readFileSync(join(user.path, 'word_count.json'), 'utf8')).toBe(manifest);
  });

  it.each([
    ['an empty description', { description: ' ' }, 'description'],
    ['a zero timeout', { timeoutSeconds: 0 }, 'timeoutSeconds'],
    ['blank permissions in an array', { requiredPermissions: ['ok', ''] }, 'requiredPermissions'],
  ])('invalid_definition: %s', (_label, change, needle) => {
    expectRefused(() => manager.create({ ...WORD_COUNT, ...change }), 'invalid_definition', needle);
  });

  it('invalid_code: a syntax error (with line and column) or empty code', () => {
    const error = expectRefused(
      () => manager.create({ ...WORD_COUNT, code: 'function execute(p) {\n  return p.;\n}' }),
      'invalid_code',
      "Syntax error in 'word_count.js' at line 2",
    );
    expect(error.details).toMatchObject({ line: 2 });
    expectRefused(() => manager.create({ ...WORD_COUNT, code: '  ' }), 'invalid_code', 'async function execute(params)');
  });

  it('missing_function: the code must define a top-level execute', () => {
    expectRefused(() => manager.create({ ...WORD_COUNT, code: 'function run(p) { return 1; }' }), 'missing_function', "top-level function 'execute'");
    expectRefused(() => manager.create({ ...WORD_COUNT, code: 'function outer() { function execute() {} }' }), 'missing_function');
  });

  it('write_failed: the folder cannot be created; nothing is registered', () => {
    writeFileSync(user.path, 'a file where the folder should be');
    const broken = new UserToolManager({ folder: user.path, catalogue, registry });
    const version = registry.version;
    expect(() => broken.create(WORD_COUNT)).toThrow(expect.objectContaining({ code: 'write_failed', message: expect.stringContaining('writable') }));
    expect(registry.version).toBe(version);
    expect(readFileSync(user.path, 'utf8')).toBe('a file where the folder should be');
  });

  it('leaves no temp files behind', () => {
    manager.create(WORD_COUNT);
    manager.update('word_count', { description: 'Counts words' });
    expect(readdirSync(user.path).sort()).toEqual(['word_count.js', 'word_count.json']);
  });
});

describe('UserToolManager.update', () => {
  it('changes the given fields only; the new code runs on the next call', async () => {
    manager.create({ ...WORD_COUNT, timeoutSeconds: 3, requiredPermissions: ['net'] });
    const info = manager.update('word_count', { code: 'function execute(p) { return "words: " + p.text.split(" ").length; }' });
    expect(info.tools).toEqual([{ name: 'word_count', description: 'Counts the words in a text' }]);
    expect(registry.definition('word_count')).toMatchObject({ timeoutMs: 3000, requiredPermissions: ['net'] });
    expect(await run('word_count', { text: 'a b' })).toEqual({ status: 'success', result: 'words: 2' });

    manager.update('word_count', { description: 'Counts words', parameters: '{"properties":{"text":{"type":"string"},"lang":{"type":"string"}}}', timeoutSeconds: 9 });
    expect(registry.definition('word_count')).toMatchObject({
      description: 'Counts words',
      timeoutMs: 9000,
      parameters: { type: 'object', properties: { text: { type: 'string' }, lang: { type: 'string' } } },
    });
    expect(await run('word_count', { text: 'a b c' })).toEqual({ status: 'success', result: 'words: 3' });
    expect(registry.toolNames()).toEqual(['read_file', 'shipped_tool', 'word_count']);
  });

  it('validates like create and leaves the tool as it was when refused', async () => {
    manager.create(WORD_COUNT);
    expectRefused(() => manager.update('word_count', { code: 'function execute( {' }), 'invalid_code');
    expectRefused(() => manager.update('word_count', { code: 'function other() {}' }), 'missing_function');
    expectRefused(() => manager.update('word_count', { parameters: { type: 'array' } }), 'invalid_parameters');
    expectRefused(() => manager.update('word_count', { description: '' }), 'invalid_definition');
    expect(await run('word_count', { text: 'still works' })).toEqual({ status: 'success', result: '2' });
  });

  it('repairs a user file that failed to load', () => {
    mkdirSync(user.path);
    writePair(user.path, 'fixme', toolEntry('fixme'), 'function execute( {');
    catalogue.loadAll();
    expect(registry.has('fixme')).toBe(false);
    const info = manager.update('fixme', { code: 'function execute() { return "fixed"; }' });
    expect(info.problems).toEqual([]);
    expect(registry.has('fixme')).toBe(true);
  });

  it('not_a_user_tool: built-in and shipped tools, and tools inside a user group file', () => {
    expectRefused(() => manager.update('read_file', { description: 'x' }), 'not_a_user_tool', 'built-in');
    expectRefused(() => manager.update('shipped_tool', { description: 'x' }), 'not_a_user_tool', "'shipped.js'");
    mkdirSync(user.path);
    writePair(user.path, 'my_group', [toolEntry('grouped_tool', 'g')], 'function g(){}');
    catalogue.loadAll();
    expectRefused(() => manager.update('grouped_tool', { description: 'x' }), 'not_a_user_tool', "group file 'my_group.json'");
    expectRefused(() => manager.update('my_group', { description: 'x' }), 'not_a_user_tool');
  });

  it('not_found: no such tool', () => {
    expectRefused(() => manager.update('nothing_here', { description: 'x' }), 'not_found', 'create it');
  });

  it('invalid_name: a name with a folder in it never reaches the disk, even when a pair lies there', () => {
    // A valid single-tool pair outside the user folder, reachable as '../files/x' from it.
    const outside = join(root, 'files');
    mkdirSync(outside);
    mkdirSync(user.path);
    writePair(outside, 'x', toolEntry('outside_tool'), 'function execute(){ return "old"; }');
    const before = { json: readFileSync(join(outside, 'x.json'), 'utf8'), js: readFileSync(join(outside, 'x.js'), 'utf8') };
    for (const name of ['../files/x', `${outside}/x`, '..', '.x', 'a\\b']) {
      expectRefused(() => manager.update(name, { code: 'function execute(){ return "new"; }' }), 'invalid_name', 'no folders');
    }
    expect({ json: readFileSync(join(outside, 'x.json'), 'utf8'), js: readFileSync(join(outside, 'x.js'), 'utf8') }).toEqual(before);
    expect(readdirSync(outside).sort()).toEqual(['x.js', 'x.json']);
  });
});

describe('UserToolManager.delete and list', () => {
  it('delete removes both files and the tool', () => {
    manager.create(WORD_COUNT);
    manager.delete('word_count');
    expect(readdirSync(user.path)).toEqual([]);
    expect(registry.has('word_count')).toBe(false);
    expect(manager.list()).toEqual([]);
    expectRefused(() => manager.delete('word_count'), 'not_found');
  });

  it('delete removes a whole user group file by its file name, but not one of its tools', () => {
    mkdirSync(user.path);
    writePair(user.path, 'my_group', [toolEntry('tool_a', 'a'), toolEntry('tool_b', 'b')], 'function a(){} function b(){}');
    catalogue.loadAll();
    expectRefused(() => manager.delete('tool_a'), 'not_a_user_tool', "delete the whole file with the name 'my_group'");
    manager.delete('my_group');
    expect(registry.has('tool_a') || registry.has('tool_b') || registry.hasGroup('my_group')).toBe(false);
    expect(readdirSync(user.path)).toEqual([]);
  });

  it('invalid_name: delete never removes a file outside the user folder', () => {
    const lib = join(root, 'lib');
    mkdirSync(lib);
    mkdirSync(user.path);
    writeFileSync(join(lib, 'helpers.js'), 'module.exports = {};');
    writeFileSync(join(lib, 'helpers.json'), '{}');
    for (const name of ['../lib/helpers', `${lib}/helpers`, '..\\lib\\helpers', '.', '']) {
      expectRefused(() => manager.delete(name), 'invalid_name', 'List the user tools');
    }
    expect(readdirSync(lib).sort()).toEqual(['helpers.js', 'helpers.json']);
  });

  it('delete refuses built-in and shipped tools', () => {
    expectRefused(() => manager.delete('read_file'), 'not_a_user_tool');
    expectRefused(() => manager.delete('shipped_tool'), 'not_a_user_tool');
    expect(registry.has('shipped_tool')).toBe(true);
  });

  it('delete cleans up half a pair that never loaded', () => {
    mkdirSync(user.path);
    writeFileSync(join(user.path, 'orphan.js'), 'function execute(){}');
    manager.delete('orphan');
    expect(readdirSync(user.path)).toEqual([]);
  });

  it('list shows every user file, single or group, with its tools and problems (not built-in files)', () => {
    manager.create(WORD_COUNT);
    writePair(user.path, 'my_group', [{ _meta: true, display_name: 'Mine', description: 'My tools' }, toolEntry('tool_a', 'a'), toolEntry('tool_b')], 'function a(){}');
    catalogue.loadAll();
    const list = manager.list();
    expect(list.map((i) => [i.name, i.manifest, i.tools.map((t) => t.name)])).toEqual([
      ['my_group', 'group', ['tool_a']],
      ['word_count', 'single', ['word_count']],
    ]);
    expect(list[0]?.group).toEqual({ name: 'my_group', displayName: 'Mine', description: 'My tools' });
    expect(list[0]?.problems).toEqual([expect.objectContaining({ code: 'missing_function', tool: 'tool_b' })]);
  });
});
