import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { ToolRegistry } from '@oneclaw/tool-registry';
import { fakeTool } from '@oneclaw/tool-registry/testing';
import { InProcessJsRunner } from '../sandbox/in-process-js-runner';
import { FakeBridgeHost } from '../testing/fake-bridge-host';
import { JsToolCatalogue } from './js-tool-catalogue';
import { callTool, makeTempDir, removeDir, toolEntry, waitFor, writePair } from './tool-folder.fixture';
import { UserToolsWatcher, type RescanReport } from './user-tools-watcher';

const runner = new InProcessJsRunner(new FakeBridgeHost());
afterAll(() => runner.close());

let root: string;
let folder: string;
let registry: ToolRegistry;
let catalogue: JsToolCatalogue;
let watcher: UserToolsWatcher | undefined;
let changes: RescanReport[];
let errors: Error[];

beforeEach(() => {
  root = makeTempDir('watcher');
  folder = join(root, 'user-tools');
  registry = new ToolRegistry();
  registry.register(fakeTool('get_current_time'), { kind: 'built-in' });
  catalogue = new JsToolCatalogue({ registry, runner, folders: [{ path: folder, kind: 'js-user' }] });
  changes = [];
  errors = [];
});
afterEach(() => {
  watcher?.close();
  watcher = undefined;
  removeDir(root);
});

const start = (options: { pollMs?: number } = {}) => {
  watcher = new UserToolsWatcher({
    catalogue,
    folder,
    debounceMs: 30,
    ...options,
    onChange: (report) => changes.push(report),
    onError: (error) => errors.push(error),
  }).start();
  return watcher;
};
const result = async (name: string, params: Record<string, unknown> = {}) => callTool(registry, name, params);

describe('UserToolsWatcher (J7)', () => {
  it('creates the user folder when it is missing', () => {
    expect(existsSync(folder)).toBe(false);
    start();
    expect(existsSync(folder)).toBe(true);
  });

  it('J7: a dropped pair appears without restart, a changed script runs the new code, a removed pair disappears', async () => {
    start();
    writePair(folder, 'greeter', toolEntry('greet'), 'function execute(p){ return "hello " + p.text; }');
    await waitFor('greet registered', () => registry.has('greet'));
    expect(await result('greet', { text: 'Ada' })).toEqual({ status: 'success', result: 'hello Ada' });
    expect(registry.get('greet')?.source).toEqual({ kind: 'js-user', fileName: 'greeter.js' });

    writeFileSync(join(folder, 'greeter.js'), 'function execute(p){ return "bonjour " + p.text; }');
    await waitFor('new behaviour', () => catalogue.scriptOf('greet')?.source.includes('bonjour') === true);
    expect(await result('greet', { text: 'Ada' })).toEqual({ status: 'success', result: 'bonjour Ada' });

    rmSync(join(folder, 'greeter.json'));
    rmSync(join(folder, 'greeter.js'));
    await waitFor('greet removed', () => !registry.has('greet'));
    expect(registry.toolNames()).toEqual(['get_current_time']);
    expect(changes.some((c) => c.removed.includes('greeter'))).toBe(true);
    expect(errors).toEqual([]);
  });

  it('J7: the .js and the .json may arrive in either order', async () => {
    start();
    writeFileSync(join(folder, 'js_first.js'), 'function execute(){ return "js first"; }');
    writeFileSync(join(folder, 'json_first.json'), JSON.stringify([toolEntry('json_first_tool', 'run')]));
    await waitFor('the half pair reported', () => changes.some((c) => c.changed.some((f) => f.baseName === 'json_first')));
    expect(catalogue.fileReport({ path: folder, kind: 'js-user' }, 'json_first')?.problems).toEqual([expect.objectContaining({ code: 'missing_script' })]);
    expect(registry.has('js_first_tool')).toBe(false);

    writeFileSync(join(folder, 'js_first.json'), JSON.stringify(toolEntry('js_first_tool')));
    writeFileSync(join(folder, 'json_first.js'), 'function run(){ return "json first"; }');
    await waitFor('both loaded', () => registry.has('js_first_tool') && registry.has('json_first_tool'));
    expect(await result('js_first_tool')).toEqual({ status: 'success', result: 'js first' });
    expect(await result('json_first_tool')).toEqual({ status: 'success', result: 'json first' });
    expect(registry.groupToolNames('json_first')).toEqual(['json_first_tool']);
  });

  it('J7: a bad manifest dropped in is reported; other tools are unaffected', async () => {
    mkdirSync(folder);
    writePair(folder, 'good', toolEntry('good_tool'), 'function execute(){ return "fine"; }');
    catalogue.loadAll();
    start();
    const version = registry.version;

    writePair(folder, 'bad', '{ "name": "bad_tool", ', 'function execute(){}');
    await waitFor('bad reported', () => changes.some((c) => c.changed.some((f) => f.baseName === 'bad')));
    const bad = changes.flatMap((c) => c.changed).find((f) => f.baseName === 'bad');
    expect(bad?.problems).toEqual([expect.objectContaining({ severity: 'error', code: 'invalid_json', file: 'bad.json' })]);
    expect(registry.version).toBe(version);
    expect(await result('good_tool')).toEqual({ status: 'success', result: 'fine' });
    expect(errors).toEqual([]);
  });

  it('a file whose reload or removal throws is reported under its name; every other reload and removal of the pass happens', async () => {
    mkdirSync(folder);
    for (const name of ['gone_one', 'gone_two']) writePair(folder, name, toolEntry(`${name}_tool`), 'function execute(){}');
    catalogue.loadAll();
    const w = start();
    await w.rescan();
    errors.length = 0;
    // Stand in for anything unexpected that one file's reload or removal throws.
    const reloadFile = catalogue.reloadFile.bind(catalogue);
    jest.spyOn(catalogue, 'reloadFile').mockImplementation((f, baseName) => {
      if (baseName === 'a_bad') throw new RangeError('Maximum call stack size exceeded');
      return reloadFile(f, baseName);
    });
    const removeFile = catalogue.removeFile.bind(catalogue);
    jest.spyOn(catalogue, 'removeFile').mockImplementation((f, baseName) => {
      if (baseName === 'gone_one') throw new Error('could not unregister');
      return removeFile(f, baseName);
    });
    writePair(folder, 'a_bad', toolEntry('a_bad_tool'), 'function execute(){}');
    writePair(folder, 'b_good', toolEntry('b_good_tool'), 'function execute(){ return "good"; }');
    for (const name of ['gone_one', 'gone_two']) {
      rmSync(join(folder, `${name}.json`));
      rmSync(join(folder, `${name}.js`));
    }

    const report = await w.rescan();
    expect(report.changed.map((f) => f.baseName)).toEqual(['b_good']);
    expect(report.removed).toEqual(['gone_two']);
    expect(await result('b_good_tool')).toEqual({ status: 'success', result: 'good' });
    expect(registry.has('gone_two_tool')).toBe(false);
    expect(errors.map((e) => e.message)).toEqual([
      "The user tool file 'a_bad.json' could not be loaded: Maximum call stack size exceeded",
      "The tools of the removed user tool file 'gone_one.json' could not be removed: could not unregister",
    ]);
  });

  it('rescan() reports only what changed; a rescan with no change reports nothing', async () => {
    const w = start();
    await w.rescan();
    changes.length = 0;
    writePair(folder, 'one', toolEntry('one_tool'), 'function execute(){}');
    const report = await w.rescan();
    expect(report.changed.map((f) => f.toolNames)).toEqual([['one_tool']]);
    expect(report.removed).toEqual([]);
    expect(await w.rescan()).toEqual({ changed: [], removed: [] });
  });

  it('survives the folder being deleted (its tools go) and recreated (they come back)', async () => {
    start({ pollMs: 50 });
    writePair(folder, 'phoenix', toolEntry('phoenix_tool'), 'function execute(){ return "alive"; }');
    await waitFor('loaded', () => registry.has('phoenix_tool'));

    rmSync(folder, { recursive: true });
    await waitFor('tools removed with the folder', () => !registry.has('phoenix_tool'));

    mkdirSync(folder);
    writePair(folder, 'phoenix', toolEntry('phoenix_tool'), 'function execute(){ return "reborn"; }');
    await waitFor('tools back after the folder is recreated', () => registry.has('phoenix_tool'));
    expect(await result('phoenix_tool')).toEqual({ status: 'success', result: 'reborn' });

    writeFileSync(join(folder, 'phoenix.js'), 'function execute(){ return "watched again"; }');
    await waitFor('the new folder is watched', () => catalogue.scriptOf('phoenix_tool')?.source.includes('watched again') === true);
  });

  it('close() stops watching, and rescans after it do nothing', async () => {
    const w = start();
    w.close();
    writePair(folder, 'late', toolEntry('late_tool'), 'function execute(){}');
    expect(await w.rescan()).toEqual({ changed: [], removed: [] });
    expect(registry.has('late_tool')).toBe(false);
  });

  it('a throwing onChange listener is reported through onError and does not stop the watcher', async () => {
    watcher = new UserToolsWatcher({
      catalogue,
      folder,
      debounceMs: 30,
      onChange: () => {
        throw new Error('listener broke');
      },
      onError: (error) => errors.push(error),
    }).start();
    writePair(folder, 'first', toolEntry('first_tool'), 'function execute(){}');
    await waitFor('first loaded', () => registry.has('first_tool'));
    writePair(folder, 'second', toolEntry('second_tool'), 'function execute(){}');
    await waitFor('second loaded', () => registry.has('second_tool'));
    expect(errors[0]?.message).toContain('listener broke');
  });
});
