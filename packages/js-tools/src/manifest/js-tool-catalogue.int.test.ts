import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { ToolRegistry, type Tool } from '@oneclaw/tool-registry';
import { fakeTool } from '@oneclaw/tool-registry/testing';
import { InProcessJsRunner } from '../sandbox/in-process-js-runner';
import { FakeBridgeHost } from '../testing/fake-bridge-host';
import { JsToolCatalogue, type FileReport, type JsToolFolder } from './js-tool-catalogue';
import { callTool, makeToolFolders, removeDir, toolEntry, writePair } from './tool-folder.fixture';

const runner = new InProcessJsRunner(new FakeBridgeHost());
afterAll(() => runner.close());

const DRIVE_JS = `
function _prefix(params) { return 'drive:' + (params._env.REGION || '-') + ':'; }
async function listFiles(params) { return _prefix(params) + 'list ' + (params.text || ''); }
function getFile(params) { return _prefix(params) + 'get ' + params.text; }
function notATool() { return 'never'; }
`;
const DRIVE_JSON = [{ _meta: true, display_name: 'Google Drive', description: 'File storage' }, toolEntry('drive_list_files', 'listFiles'), toolEntry('drive_get_file', 'getFile')];

let root: string;
let builtIn: JsToolFolder;
let user: JsToolFolder;
let registry: ToolRegistry;

beforeEach(() => {
  ({ root, builtIn, user } = makeToolFolders('catalogue', { createUser: true }));
  registry = new ToolRegistry();
});
afterEach(() => removeDir(root));

const catalogue = (options: { allowOverride?: boolean } = {}) => new JsToolCatalogue({ registry, runner, folders: [builtIn, user], ...options });
const report = (files: readonly FileReport[], baseName: string) => files.find((f) => f.baseName === baseName);
const errorsOf = (file: FileReport | undefined) => (file?.problems ?? []).filter((p) => p.severity === 'error');
const resultOf = async (name: string, params: Record<string, unknown> = {}, env: Record<string, string> = {}) => callTool(registry, name, params, env);

describe('JsToolCatalogue: loading folders (J1, J2, J3)', () => {
  it('J1: single-tool and group files in one folder; each group tool calls its function with params and _env (J3)', async () => {
    writePair(builtIn.path, 'google_drive', DRIVE_JSON, DRIVE_JS);
    writePair(builtIn.path, 'weather_lookup', toolEntry('weather_lookup'), 'async function execute(params) { return "sunny in " + params.text; }');
    const loaded = catalogue().loadAll();

    expect(loaded.problems).toEqual([]);
    expect(loaded.toolCount).toBe(3);
    expect(registry.toolNames()).toEqual(['drive_list_files', 'drive_get_file', 'weather_lookup']);
    expect(registry.group('google_drive')).toEqual({
      definition: { name: 'google_drive', displayName: 'Google Drive', description: 'File storage' },
      origin: { kind: 'js-built-in', fileName: 'google_drive.js' },
    });
    expect(registry.get('drive_get_file')?.source).toEqual({ kind: 'js-built-in', fileName: 'google_drive.js', group: 'google_drive' });
    expect(registry.get('weather_lookup')?.source).toEqual({ kind: 'js-built-in', fileName: 'weather_lookup.js' });
    expect(registry.coreToolNames()).toEqual(['weather_lookup']);
    expect(registry.toolNames()).not.toContain('notATool');

    expect(await resultOf('drive_list_files', { text: 'root' }, { REGION: 'eu' })).toEqual({ status: 'success', result: 'drive:eu:list root' });
    expect(await resultOf('drive_get_file', { text: 'f1' })).toEqual({ status: 'success', result: 'drive:-:get f1' });
    expect(await resultOf('weather_lookup', { text: 'Oslo' })).toEqual({ status: 'success', result: 'sunny in Oslo' });
  });

  it('J1: the JS source is compiled once per file and shared by all its tools', () => {
    writePair(builtIn.path, 'google_drive', DRIVE_JSON, DRIVE_JS);
    const c = catalogue();
    c.loadAll();
    const script = c.scriptOf('drive_list_files');
    expect(script).toBeDefined();
    expect(c.scriptOf('drive_get_file')).toBe(script);
    expect(script?.fileName).toBe('google_drive.js');
    expect(c.scriptOf('unknown_tool')).toBeUndefined();
  });

  it('TEST-040-10 / TEST-040-11: the group comes from _meta, or is generated from the file and tool names', () => {
    writePair(builtIn.path, 'google_drive', DRIVE_JSON, DRIVE_JS);
    writePair(builtIn.path, 'text_utils', [toolEntry('word_count', 'wc'), toolEntry('char_count', 'cc')], 'function wc(){return 1} function cc(){return 2}');
    const files = catalogue().loadAll().files;
    expect(report(files, 'google_drive')?.group).toEqual({ name: 'google_drive', displayName: 'Google Drive', description: 'File storage' });
    expect(registry.group('text_utils')?.definition).toEqual({ name: 'text_utils', displayName: 'Text Utils', description: 'Tools: word_count, char_count' });
    expect(registry.groupToolNames('text_utils')).toEqual(['word_count', 'char_count']);
  });

  it('files() groups tools by source file, built-in folder first, for the settings UI', () => {
    writePair(user.path, 'a_user', toolEntry('a_user'), 'function execute(){}');
    writePair(builtIn.path, 'z_shipped', toolEntry('z_shipped'), 'function execute(){}');
    writePair(builtIn.path, 'google_drive', DRIVE_JSON, DRIVE_JS);
    const c = catalogue();
    c.loadAll();
    expect(c.files().map((f) => [f.kind, f.fileName, f.manifest, f.toolNames])).toEqual([
      ['js-built-in', 'google_drive.js', 'group', ['drive_list_files', 'drive_get_file']],
      ['js-built-in', 'z_shipped.js', 'single', ['z_shipped']],
      ['js-user', 'a_user.js', 'single', ['a_user']],
    ]);
    const file = c.files()[0];
    expect(file?.folder).toBe(builtIn.path);
    expect(file?.version).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a missing built-in folder is a warning; hidden and temp files are ignored', () => {
    rmSync(builtIn.path, { recursive: true });
    writeFileSync(join(user.path, '.half_written.json'), '{');
    writeFileSync(join(user.path, 'notes.txt'), 'not a tool');
    const loaded = catalogue().loadAll();
    expect(loaded.files).toEqual([]);
    expect(loaded.problems).toEqual([expect.objectContaining({ severity: 'warning', file: builtIn.path })]);
  });
});

describe('JsToolCatalogue: bad files (J5)', () => {
  it('J5: a manifest without its .js, a JS syntax error or an unreadable manifest load no tools; other files still load', () => {
    writePair(user.path, 'no_script', toolEntry('no_script'), undefined);
    writePair(user.path, 'bad_syntax', toolEntry('bad_syntax'), 'function execute( {\n  return 1;\n}');
    mkdirSync(join(user.path, 'a_folder.json'));
    writePair(user.path, 'good_tool', toolEntry('good_tool'), 'function execute(){ return "ok"; }');
    writePair(user.path, 'broken_json', '{ "name": "broken_json", ', 'function execute(){}');
    const files = catalogue().loadAll().files;

    expect(registry.toolNames()).toEqual(['good_tool']);
    expect(errorsOf(report(files, 'no_script'))).toEqual([expect.objectContaining({ code: 'missing_script', file: 'no_script.json' })]);
    expect(errorsOf(report(files, 'no_script'))[0]?.message).toContain("'no_script.js' is missing");
    const syntax = errorsOf(report(files, 'bad_syntax'));
    expect(syntax).toEqual([expect.objectContaining({ code: 'script_syntax_error', file: 'bad_syntax.json' })]);
    expect(syntax[0]?.message).toMatch(/Syntax error in 'bad_syntax.js' at line 2, column 3: Unexpected keyword 'return'/);
    expect(errorsOf(report(files, 'a_folder'))).toEqual([expect.objectContaining({ code: 'unreadable_file', file: 'a_folder.json' })]);
    expect(errorsOf(report(files, 'broken_json'))).toEqual([expect.objectContaining({ code: 'invalid_json' })]);
    expect(report(files, 'good_tool')?.problems).toEqual([]);
  });

  it('J5: a bad entry is skipped and the rest of the group loads; the report names file and tool', () => {
    writePair(builtIn.path, 'mixed', [toolEntry('mixed_ok', 'ok'), toolEntry('mixed_no_fn'), toolEntry('mixed_ok', 'again')], 'function ok(){ return 1 }');
    const file = report(catalogue().loadAll().files, 'mixed');
    expect(file?.toolNames).toEqual(['mixed_ok']);
    expect(errorsOf(file).map((p) => [p.code, p.tool])).toEqual([
      ['missing_function', 'mixed_no_fn'],
      ['duplicate_tool', 'mixed_ok'],
    ]);
  });

  it('J5: a function named by an entry but not defined is a load-time warning and an execution_error at run time', async () => {
    writePair(user.path, 'google_drive', [toolEntry('drive_list', 'listFiles'), toolEntry('drive_read', 'readFile')], 'function listFiles(){ return "listed"; }');
    const file = report(catalogue().loadAll().files, 'google_drive');
    expect(file?.toolNames).toEqual(['drive_list', 'drive_read']);
    expect(file?.problems).toEqual([expect.objectContaining({ severity: 'warning', code: 'function_not_defined', tool: 'drive_read', file: 'google_drive.json' })]);
    expect(file?.problems[0]?.message).toContain("function 'readFile'");

    expect(await resultOf('drive_list')).toEqual({ status: 'success', result: 'listed' });
    expect(await resultOf('drive_read')).toEqual({ status: 'error', errorType: 'execution_error', message: "Function 'readFile' is not defined" });
  });

  it('J5: an empty group file is a warning and registers its (empty) group', () => {
    writePair(user.path, 'empty_one', [], '');
    const file = report(catalogue().loadAll().files, 'empty_one');
    expect(file?.problems).toEqual([expect.objectContaining({ severity: 'warning', code: 'empty_group' })]);
    expect(registry.hasGroup('empty_one')).toBe(true);
    expect(registry.groupToolNames('empty_one')).toEqual([]);
  });

  it('"slicing": false in _meta compiles the file without slicing', () => {
    const js = 'function a(){ return globalThis["_helper"](); }\nfunction _helper(){ return "h"; }\nfunction unused(){}';
    writePair(user.path, 'computed', [{ _meta: true, slicing: false }, toolEntry('computed_a', 'a')], js);
    const c = catalogue();
    c.loadAll();
    expect(c.scriptOf('computed_a')?.sliceFor('a')).toBe(js);
  });
});

describe('JsToolCatalogue: one file never stops the others', () => {
  const chain = (terms: number) => `function execute() { return TABLE.length; }\nvar TABLE = ${Array.from({ length: terms }, () => '"ab"').join(' + ')};\n`;

  it('a file whose expression is thousands of levels deep loads and runs; one too deep for the parser is a syntax error; the files after them load', async () => {
    writePair(user.path, 'a_table', toolEntry('table'), chain(3000));
    writePair(user.path, 'b_too_deep', toolEntry('too_deep'), chain(50_000));
    writePair(user.path, 'c_good', toolEntry('good_tool'), 'function execute(){ return "ok"; }');
    const files = catalogue().loadAll().files;

    expect(registry.toolNames()).toEqual(['table', 'good_tool']);
    expect(report(files, 'a_table')?.problems).toEqual([]);
    const deep = errorsOf(report(files, 'b_too_deep'));
    expect(deep).toEqual([expect.objectContaining({ code: 'script_syntax_error', file: 'b_too_deep.json' })]);
    expect(deep[0]?.message).toContain('Not enough stack space to parse input');
    expect(await resultOf('table')).toEqual({ status: 'success', result: '6000' });
    expect(await resultOf('good_tool')).toEqual({ status: 'success', result: 'ok' });
  });

  it('a file whose loading throws is reported as registration_failed, holds nothing, and is loaded again once it changes', () => {
    writePair(user.path, 'a_group', [toolEntry('a_tool', 'a')], 'function a(){ return 1; }');
    writePair(user.path, 'b_good', toolEntry('good_tool'), 'function execute(){ return "ok"; }');
    // Stands in for any unexpected throw while a file is applied (such as a stack overflow).
    const group = registry.group.bind(registry);
    const spy = jest.spyOn(registry, 'group').mockImplementation((name) => {
      if (name === 'a_group') throw new RangeError('Maximum call stack size exceeded');
      return group(name);
    });
    const c = catalogue();
    const files = c.loadAll().files;

    expect(registry.toolNames()).toEqual(['good_tool']);
    expect(registry.hasGroup('a_group')).toBe(false);
    const failed = report(files, 'a_group');
    expect(failed?.toolNames).toEqual([]);
    expect(errorsOf(failed)).toEqual([expect.objectContaining({ code: 'registration_failed', file: 'a_group.json' })]);
    expect(errorsOf(failed)[0]?.message).toBe("'a_group.json' could not be loaded (Maximum call stack size exceeded). No tools from 'a_group.json' were loaded.");
    expect(report(files, 'b_good')?.problems).toEqual([]);

    spy.mockRestore();
    writePair(user.path, 'a_group', [toolEntry('a_tool', 'a')], 'function a(){ return 2; }');
    expect(c.reloadFile(user, 'a_group')).toMatchObject({ toolNames: ['a_tool'], problems: [] });
    expect(registry.groupToolNames('a_group')).toEqual(['a_tool']);
  });
});

describe('JsToolCatalogue: name clashes (J5, G9)', () => {
  const builtInTool = (name: string): Tool => fakeTool(name, { execute: async () => ({ status: 'success', result: 'from TypeScript' }) });

  it('J5: a tool name clashing with a TypeScript built-in or another file is refused with an error naming both', async () => {
    registry.register(builtInTool('read_file'), { kind: 'built-in', fileName: 'read-file.ts' });
    writePair(builtIn.path, 'shipped', toolEntry('shared_name'), 'function execute(){ return "shipped"; }');
    writePair(user.path, 'mine', [toolEntry('read_file', 'r'), toolEntry('shared_name', 's'), toolEntry('mine_only', 'm')], 'function r(){} function s(){} function m(){}');
    const files = catalogue().loadAll().files;

    expect(report(files, 'mine')?.toolNames).toEqual(['mine_only']);
    const clashes = errorsOf(report(files, 'mine'));
    expect(clashes.map((p) => [p.code, p.tool])).toEqual([
      ['tool_conflict', 'read_file'],
      ['tool_conflict', 'shared_name'],
    ]);
    expect(clashes[0]?.message).toContain('the built-in tools (read-file.ts)');
    expect(clashes[0]?.message).toContain("the user JS file 'mine.js'");
    expect(clashes[1]?.message).toContain("the shipped JS file 'shipped.js'");
    expect(clashes[1]?.file).toBe('mine.json');
    expect(await resultOf('read_file')).toEqual({ status: 'success', result: 'from TypeScript' });
  });

  it('J5: with allowOverride a user file replaces the tool (the user wins); removing it brings the original back', async () => {
    const original = builtInTool('read_file');
    registry.register(original, { kind: 'built-in', fileName: 'read-file.ts' });
    registry.register(fakeTool('after'), { kind: 'built-in' });
    writePair(user.path, 'mine', toolEntry('read_file'), 'function execute(){ return "user version"; }');
    const c = catalogue({ allowOverride: true });
    const file = report(c.loadAll().files, 'mine');

    expect(file?.toolNames).toEqual(['read_file']);
    expect(file?.problems).toEqual([expect.objectContaining({ severity: 'warning', code: 'tool_overridden', tool: 'read_file' })]);
    expect(registry.toolNames()).toEqual(['read_file', 'after']);
    expect(await resultOf('read_file')).toEqual({ status: 'success', result: 'user version' });

    rmSync(join(user.path, 'mine.json'));
    c.loadAll();
    expect(registry.get('read_file')?.tool).toBe(original);
    expect(registry.toolNames()).toEqual(['read_file', 'after']);
  });

  it('J5: allowOverride lets user files override shipped JS tools, which come back (updated) when the override goes', async () => {
    writePair(builtIn.path, 'shipped', [toolEntry('shared_name', 'v1'), toolEntry('shipped_other', 'o')], 'function v1(){ return "shipped v1"; } function o(){}');
    writePair(user.path, 'mine', toolEntry('shared_name'), 'function execute(){ return "user"; }');
    const c = catalogue({ allowOverride: true });
    const files = c.loadAll().files;
    expect(report(files, 'shipped')?.toolNames).toEqual(['shipped_other']);
    expect(report(files, 'shipped')?.problems).toEqual([expect.objectContaining({ code: 'tool_overridden', tool: 'shared_name' })]);
    expect(await resultOf('shared_name')).toEqual({ status: 'success', result: 'user' });

    // The shipped file changes while overridden: the user version stays in place.
    writePair(builtIn.path, 'shipped', [toolEntry('shared_name', 'v2'), toolEntry('shipped_other', 'o')], 'function v2(){ return "shipped v2"; } function o(){}');
    c.reloadFile(builtIn, 'shipped');
    expect(await resultOf('shared_name')).toEqual({ status: 'success', result: 'user' });

    expect(c.removeFile(user, 'mine')).toBe(true);
    expect(await resultOf('shared_name')).toEqual({ status: 'success', result: 'shipped v2' });
    expect(registry.groupOf('shared_name')).toBe('shipped');
    expect(c.fileReport(builtIn, 'shipped')?.toolNames).toEqual(['shared_name', 'shipped_other']);
    expect(c.fileReport(builtIn, 'shipped')?.problems).toEqual([]);
  });

  it('J5: allowOverride does not apply to shipped JS files', () => {
    registry.register(fakeTool('read_file'), { kind: 'built-in' });
    writePair(builtIn.path, 'shipped', toolEntry('read_file'), 'function execute(){}');
    const file = report(catalogue({ allowOverride: true }).loadAll().files, 'shipped');
    expect(file?.toolNames).toEqual([]);
    expect(errorsOf(file)).toEqual([expect.objectContaining({ code: 'tool_conflict' })]);
  });

  it('G9: a group name used by a built-in and by a JS file is refused and reported; the file loads no tools', () => {
    registry.registerGroup({ name: 'pdf', displayName: 'PDF Tools', description: 'PDFs' }, { kind: 'built-in' });
    writePair(user.path, 'pdf', [toolEntry('pdf_merge', 'merge')], 'function merge(){}');
    writePair(builtIn.path, 'google_drive', DRIVE_JSON, DRIVE_JS);
    writePair(user.path, 'google_drive', [toolEntry('my_drive_tool', 'x')], 'function x(){}');
    const files = catalogue().loadAll().files;

    const pdf = files.find((f) => f.baseName === 'pdf');
    expect(pdf?.toolNames).toEqual([]);
    expect(pdf?.group).toBeUndefined();
    expect(errorsOf(pdf)).toEqual([expect.objectContaining({ code: 'group_conflict', file: 'pdf.json' })]);
    expect(errorsOf(pdf)[0]?.message).toContain("Tool group 'pdf' already belongs to the built-in tools");
    expect(registry.group('pdf')?.origin).toEqual({ kind: 'built-in' });

    const userDrive = files.find((f) => f.baseName === 'google_drive' && f.kind === 'js-user');
    expect(errorsOf(userDrive)[0]?.message).toContain("the shipped JS file 'google_drive.js'");
    expect(registry.has('my_drive_tool')).toBe(false);
    expect(registry.groupToolNames('google_drive')).toEqual(['drive_list_files', 'drive_get_file']);
  });

  it('a file refused for a name clash loads by itself once the other file is removed', () => {
    writePair(user.path, 'a_first', toolEntry('shared_name'), 'function execute(){ return "a"; }');
    writePair(user.path, 'b_second', toolEntry('shared_name'), 'function execute(){ return "b"; }');
    const c = catalogue();
    const files = c.loadAll().files;
    expect(report(files, 'b_second')?.toolNames).toEqual([]);
    c.removeFile(user, 'a_first');
    expect(c.fileReport(user, 'b_second')?.toolNames).toEqual(['shared_name']);
    expect(c.fileReport(user, 'b_second')?.problems).toEqual([]);
    expect(c.scriptOf('shared_name')?.fileName).toBe('b_second.js');
  });
});

describe('JsToolCatalogue: reloadFile and removeFile (J7)', () => {
  it('J7: tools that went are unregistered, new ones registered, kept ones replaced in place (order kept)', async () => {
    registry.register(fakeTool('before'), { kind: 'built-in' });
    writePair(user.path, 'kit', [toolEntry('kit_a', 'a'), toolEntry('kit_b', 'b'), toolEntry('kit_c', 'c')], 'function a(){return "a1"} function b(){} function c(){}');
    const c = catalogue();
    c.loadAll();
    registry.register(fakeTool('after'), { kind: 'built-in' });
    const first = c.fileReport(user, 'kit');

    writePair(
      user.path,
      'kit',
      [{ _meta: true, display_name: 'Kit 2', description: 'Second' }, toolEntry('kit_a', 'a'), toolEntry('kit_d', 'd'), toolEntry('kit_c', 'c')],
      'function a(){return "a2"} function c(){} function d(){}',
    );
    const second = c.reloadFile(user, 'kit');

    expect(second.toolNames).toEqual(['kit_a', 'kit_d', 'kit_c']);
    expect(second.version).not.toBe(first?.version);
    expect(registry.toolNames()).toEqual(['before', 'kit_a', 'kit_c', 'after', 'kit_d']);
    expect(registry.groupToolNames('kit')).toEqual(['kit_a', 'kit_c', 'kit_d']);
    expect(registry.group('kit')?.definition).toEqual({ name: 'kit', displayName: 'Kit 2', description: 'Second' });
    expect(await resultOf('kit_a')).toEqual({ status: 'success', result: 'a2' });
  });

  it('J7: reloading an unchanged file does nothing', () => {
    writePair(user.path, 'kit', [toolEntry('kit_a', 'a')], 'function a(){}');
    const c = catalogue();
    c.loadAll();
    const version = registry.version;
    const before = c.fileReport(user, 'kit');
    expect(c.reloadFile(user, 'kit')).toBe(before);
    c.loadAll();
    expect(registry.version).toBe(version);
  });

  it('J7: a file that became invalid loses its old tools and reports why; fixing it brings them back', () => {
    writePair(user.path, 'kit', [toolEntry('kit_a', 'a')], 'function a(){}');
    const c = catalogue();
    c.loadAll();
    writePair(user.path, 'kit', [toolEntry('kit_a', 'a')], 'function a( {');
    const broken = c.reloadFile(user, 'kit');
    expect(broken.toolNames).toEqual([]);
    expect(errorsOf(broken)).toEqual([expect.objectContaining({ code: 'script_syntax_error' })]);
    expect(registry.has('kit_a')).toBe(false);
    expect(registry.hasGroup('kit')).toBe(false);
    expect(c.files().map((f) => f.baseName)).toEqual(['kit']);

    writePair(user.path, 'kit', [toolEntry('kit_a', 'a')], 'function a(){}');
    expect(c.reloadFile(user, 'kit').toolNames).toEqual(['kit_a']);
    expect(registry.groupOf('kit_a')).toBe('kit');
  });

  it('J7: a file may switch between a group and a single tool', () => {
    writePair(user.path, 'kit', [toolEntry('kit', 'execute')], 'function execute(){}');
    const c = catalogue();
    c.loadAll();
    expect(registry.groupOf('kit')).toBe('kit');
    writePair(user.path, 'kit', toolEntry('kit'), 'function execute(){}');
    expect(c.reloadFile(user, 'kit').manifest).toBe('single');
    expect(registry.groupOf('kit')).toBeUndefined();
    expect(registry.hasGroup('kit')).toBe(false);
    writePair(user.path, 'kit', [toolEntry('kit', 'execute')], 'function execute(){}');
    expect(c.reloadFile(user, 'kit').group?.name).toBe('kit');
    expect(registry.groupOf('kit')).toBe('kit');
  });

  it('J7: removeFile unregisters the tools and the group; loadAll drops files gone from disk; a missing manifest removes on reload', () => {
    writePair(user.path, 'kit', [toolEntry('kit_a', 'a')], 'function a(){}');
    writePair(user.path, 'solo', toolEntry('solo'), 'function execute(){}');
    writePair(user.path, 'third', toolEntry('third'), 'function execute(){}');
    const c = catalogue();
    c.loadAll();

    expect(c.removeFile(user, 'kit')).toBe(true);
    expect(c.removeFile(user, 'kit')).toBe(false);
    expect(registry.has('kit_a')).toBe(false);
    expect(registry.hasGroup('kit')).toBe(false);

    rmSync(join(user.path, 'solo.json'));
    c.loadAll();
    expect(registry.has('solo')).toBe(false);

    rmSync(join(user.path, 'third.json'));
    const gone = c.reloadFile(user, 'third');
    expect(gone.toolNames).toEqual([]);
    expect(registry.has('third')).toBe(false);
    // removeFile forgets the file; loadAll reads the folder again, and kit.json is still there.
    expect(c.files().map((f) => f.baseName)).toEqual(['kit']);
    expect(registry.toolNames()).toEqual(['kit_a']);
  });

  it('refuses a base name that is a path', () => {
    expect(() => catalogue().reloadFile(user, '../escape')).toThrow(TypeError);
    expect(() => catalogue().removeFile(user, '.hidden')).toThrow(TypeError);
  });
});
