import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfinedFs } from '@oneclaw/js-tools';
import { MAX_ANSWER_CHARS, ToolExecutionEngine, ToolRegistry, type ToolResult } from '@oneclaw/tool-registry';
import { loadServerConfig } from '../../../server-config';
import { createExecTool } from './exec-tool';

let base: string;
let root: string;
let files: ConfinedFs;

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'oneclaw-exec-')));
  files = new ConfinedFs({ root: path.join(base, 'files') });
  root = files.root as string;
  fs.mkdirSync(path.join(base, 'outside'));
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

const exec = (params: Record<string, unknown>, signal = new AbortController().signal): Promise<ToolResult> =>
  createExecTool({ enabled: true, files, timeZone: () => 'Asia/Tokyo' }).execute(params, { signal, sessionId: 's', callId: 'c', env: {} });

function text(result: ToolResult): string {
  if (result.status !== 'success') throw new Error(`expected success, got ${result.errorType}: ${result.message}`);
  return result.result;
}

/**
 * False once the process is gone, a zombie (its parent died, and init may reap it late) or exiting:
 * the output pipes close in the middle of its exit, so the call can end a moment before the
 * process reaches the zombie state. PF_EXITING (0x4 in the flags field) is set at the start of exit.
 */
function isAlive(pid: number): boolean {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const flags = Number(fields[6]);
  return state !== 'Z' && state !== 'X' && (flags & 0x4) === 0;
}

async function waitForFile(file: string): Promise<string> {
  for (;;) {
    const content = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    if (content.endsWith('\n')) return content.trim();
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('exec (issue 6, CATALOGUE section 8)', () => {
  it('runs the command in a real shell and answers "[Exit Code: N]" then stdout', async () => {
    expect(text(await exec({ command: 'echo hello; echo "$((6 * 7))"' }))).toBe('[Exit Code: 0]\nhello\n42');
  });

  it('reports a non-zero exit code, and "(no output)" when nothing was printed (still a success)', async () => {
    expect(text(await exec({ command: 'exit 3' }))).toBe('[Exit Code: 3]\n(no output)');
  });

  it('reports 128 + N when a signal N ended the shell', async () => {
    expect(text(await exec({ command: 'echo before; kill -9 $$' }))).toBe('[Exit Code: 137]\nbefore');
  });

  it('puts stderr in a "[stderr]" section after stdout', async () => {
    expect(text(await exec({ command: 'echo out; echo err >&2; exit 2' }))).toBe('[Exit Code: 2]\nout\n[stderr]\nerr');
    expect(text(await exec({ command: 'echo only-err >&2' }))).toBe('[Exit Code: 0]\n[stderr]\nonly-err');
  });

  it('a timeout is a success with exit code -1 and the output so far, and kills the whole process group (grandchild included)', async () => {
    const pidFile = path.join(root, 'timeout-grandchild.pid');
    const result = text(await exec({ command: 'echo started; sleep 100 & echo $! > timeout-grandchild.pid; wait', timeout_seconds: 1 }));
    expect(result).toBe('[Exit Code: -1]\nstarted\n[timed out after 1 s: the command and the processes it started were killed]');
    const grandchild = Number(fs.readFileSync(pidFile, 'utf8'));
    expect(grandchild).toBeGreaterThan(0);
    expect(isAlive(grandchild)).toBe(false);
  });

  it('clamps timeout_seconds below 1 to 1 second', async () => {
    expect(text(await exec({ command: 'sleep 100', timeout_seconds: 0 }))).toContain('[timed out after 1 s');
  });

  it('kills what the command left running in the background when the shell exits', async () => {
    const result = text(await exec({ command: 'sleep 100 & echo $!' }));
    const [firstLine, pid] = result.split('\n');
    expect(firstLine).toBe('[Exit Code: 0]');
    expect(isAlive(Number(pid))).toBe(false);
  });

  it('a cancelled turn (context.signal) kills the shell and its children', async () => {
    const controller = new AbortController();
    const pending = exec({ command: 'echo $$ > cancel-shell.pid; sleep 100 & echo $! > cancel-child.pid; wait' }, controller.signal);
    const shell = Number(await waitForFile(path.join(root, 'cancel-shell.pid')));
    const child = Number(await waitForFile(path.join(root, 'cancel-child.pid')));
    controller.abort();
    expect(text(await pending)).toBe('[Exit Code: -1]\n(no output)\n[cancelled: the command and the processes it started were killed]');
    expect(isAlive(shell)).toBe(false);
    expect(isAlive(child)).toBe(false);
  });

  it('runs in the files folder by default, or in working_directory relative to it', async () => {
    fs.mkdirSync(path.join(root, 'projects', 'app'), { recursive: true });
    expect(text(await exec({ command: 'pwd' }))).toBe(`[Exit Code: 0]\n${root}`);
    expect(text(await exec({ command: 'pwd', working_directory: 'projects/app' }))).toBe(`[Exit Code: 0]\n${path.join(root, 'projects', 'app')}`);
  });

  it('refuses a working_directory outside the files folder, through a symbolic link too (forbidden)', async () => {
    fs.symlinkSync(path.join(base, 'outside'), path.join(root, 'out'));
    for (const dir of ['..', '../outside', path.join(base, 'outside'), '/tmp', 'out']) {
      const result = await exec({ command: 'touch escaped', working_directory: dir });
      expect([dir, result.status, result.status === 'error' ? result.errorType : '']).toEqual([dir, 'error', 'forbidden']);
    }
    expect(fs.existsSync(path.join(base, 'outside', 'escaped'))).toBe(false);
  });

  it('refuses a missing working_directory (not_found) and a file (not_a_directory), naming the parameter', async () => {
    fs.writeFileSync(path.join(root, 'plain.txt'), 'x');
    const missing = await exec({ command: 'pwd', working_directory: 'no/such/folder' });
    expect(missing).toMatchObject({ status: 'error', errorType: 'not_found' });
    expect(missing.status === 'error' && missing.message).toMatch(/^working_directory: .*'no\/such\/folder'/);
    expect(missing.status === 'error' && missing.message).not.toContain(base);
    expect(await exec({ command: 'pwd', working_directory: 'plain.txt' })).toMatchObject({ status: 'error', errorType: 'not_a_directory' });
  });

  it("never gives the command the server's environment (a variable set in process.env does not leak); HOME is the files folder", async () => {
    process.env.ONECLAW_TEST_LEAK_CHECK = 'sk-should-never-leak';
    try {
      const result = text(await exec({ command: 'env' }));
      expect(result).not.toContain('sk-should-never-leak');
      expect(result).not.toContain('ONECLAW_TEST_LEAK_CHECK');
      const names = result
        .split('\n')
        .slice(1)
        .map((line) => line.split('=')[0]);
      // sh itself adds PWD (and some shells SHLVL, _).
      expect(names.filter((n) => !['PWD', 'SHLVL', '_', 'OLDPWD'].includes(n ?? '')).sort()).toEqual(['HOME', 'LANG', 'PATH', 'TZ']);
      expect(result).toContain(`HOME=${root}`);
      // The server's zone setting, not the server process's TZ.
      expect(result).toContain('TZ=Asia/Tokyo');
    } finally {
      delete process.env.ONECLAW_TEST_LEAK_CHECK;
    }
  });

  it('cuts the output at max_length with a visible marker', async () => {
    const result = text(await exec({ command: 'yes abcdefghij | head -n 2000', max_length: 500 }));
    expect(result.length).toBeLessThanOrEqual(500);
    expect(result.startsWith('[Exit Code: 0]\nabcdefghij\n')).toBe(true);
    expect(result).toMatch(/\[truncated: showing the first \d+ of \d+ characters\]\n\[output cut: the command printed more than is kept\]$/);
  });

  it('keeps the timeout note when the output is cut, and never answers more than one result holds (the engine would cut the note off)', async () => {
    const result = text(await exec({ command: 'yes abcdefghij; sleep 5', timeout_seconds: 1 }));
    expect(result.length).toBeLessThanOrEqual(MAX_ANSWER_CHARS);
    expect(result.startsWith('[Exit Code: -1]\nabcdefghij\n')).toBe(true);
    expect(result).toMatch(
      /\[truncated: showing the first \d+ of \d+ characters\]\n\[output cut: the command printed more than is kept\]\n\[timed out after 1 s: the command and the processes it started were killed\]$/,
    );
  });

  it('refuses an empty command (missing_parameter) and runs nothing', async () => {
    expect(await exec({ command: '   ' })).toMatchObject({ status: 'error', errorType: 'missing_parameter' });
  });

  it('bad input is a validation_error from the engine (missing command, max_length 0, a string timeout)', async () => {
    const registry = new ToolRegistry();
    registry.register(createExecTool({ enabled: true, files, timeZone: () => 'UTC' }), { kind: 'built-in' });
    const engine = new ToolExecutionEngine(registry);
    const calls = [{}, { command: 'pwd', max_length: 0 }, { command: 'pwd', timeout_seconds: 'ten' }];
    const outcomes = await engine.executeAll(
      calls.map((args, i) => ({ callId: `c${i}`, toolName: 'exec', arguments: args })),
      { sessionId: 's', activeToolNames: ['exec'] },
    );
    expect(outcomes.map((o) => o.result.status === 'error' && o.result.errorType)).toEqual(['validation_error', 'validation_error', 'validation_error']);
    expect(registry.get('exec')?.definition.timeoutMs).toBe(125_000);
  });

  it('is disabled by default (ONECLAW_EXEC_ENABLED): every call answers exec_disabled, says how to enable it, and runs nothing', async () => {
    expect(loadServerConfig({}).execEnabled).toBe(false);
    expect(loadServerConfig({ ONECLAW_EXEC_ENABLED: 'true' }).execEnabled).toBe(true);
    expect(() => loadServerConfig({ ONECLAW_EXEC_ENABLED: 'sometimes' })).toThrow('ONECLAW_EXEC_ENABLED=sometimes is not valid');
    const tool = createExecTool({ enabled: false, files, timeZone: () => 'UTC' });
    expect(tool.definition.description).toContain('exec_disabled');
    const result = await tool.execute({ command: 'touch ran-while-disabled' }, { signal: new AbortController().signal, sessionId: 's', callId: 'c', env: {} });
    expect(result).toMatchObject({ status: 'error', errorType: 'exec_disabled' });
    expect(result.status === 'error' && result.message).toContain('ONECLAW_EXEC_ENABLED=true');
    expect(fs.existsSync(path.join(root, 'ran-while-disabled'))).toBe(false);
  });
});
