import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { activeToolSet, executeSessionCommand, type AuditTrail, type SessionCommand } from '@oneclaw/core';
import { steppingClock, testCatalogue } from '@oneclaw/core/testing';
import { SqliteEventStore } from '@oneclaw/event-store-sqlite';
import { AttachmentStore } from '../attachments/attachment-store';
import { EXIT, runCli } from './oneclaw';

/** Collects what the CLI writes, as the terminal would show it. */
function capture() {
  const out = { stdout: '', stderr: '' };
  const io = {
    stdout: { write: (s: string) => (out.stdout += s) },
    stderr: { write: (s: string) => (out.stderr += s) },
  };
  return { out, io };
}

const SECRET = 'sk-ant-do-not-print-me';

describe('oneclaw CLI on a real SQLite store', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const sessionId = 'audit-1';

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oneclaw-cli-'));
    // A provider key in the environment, as in real use: the CLI must never echo it.
    env = { ONECLAW_DATA_DIR: dir, ANTHROPIC_API_KEY: SECRET };
    const store = SqliteEventStore.open(path.join(dir, 'events.db'));
    const catalogue = testCatalogue();
    const now = steppingClock();
    let n = 0;
    let state = (await executeSessionCommand(store, sessionId, { type: 'StartSession', sessionId, agentId: 'default' }, { now, catalogue, commandId: `cmd${n++}` })).state;
    const run = async (command: SessionCommand) => {
      state = (await executeSessionCommand(store, sessionId, command, { now, catalogue, commandId: `cmd${n++}` })).state;
    };
    const ask = () => run({ type: 'RecordModelRequest', provider: 'anthropic', model: 'claude-sonnet-4-5', toolNames: activeToolSet(state, catalogue), schemaTokens: 1234 });
    await run({ type: 'RecordUserMessage', messageId: 'm1', text: 'search my mail' });
    await ask(); // #1: core tools
    await run({
      type: 'RecordAssistantMessage',
      messageId: 'm2',
      text: '',
      toolCalls: [{ callId: 'call-7', toolName: 'load_tool_group', arguments: { group_name: 'google_gmail' } }],
    });
    await run({ type: 'LoadToolGroup', groupName: 'google_gmail', source: { kind: 'tool_call', callId: 'call-7' } });
    await run({ type: 'RecordToolResult', messageId: 'm3', callId: 'call-7', toolName: 'load_tool_group', durationMs: 1, status: 'success', result: 'ok' });
    await ask(); // #2: core + gmail
    await run({ type: 'RecordTurnFinished', reason: 'completed', detail: 'done', rounds: 2, usage: { inputTokens: 10, outputTokens: 5 } });
    await store.close();
  });

  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('replay prints the events, the tools the model saw and why each was there', async () => {
    const { out, io } = capture();
    expect(await runCli(['replay', sessionId], io, env)).toBe(EXIT.ok);
    expect(out.stderr).toBe('');
    expect(out.stdout).toMatch(/^session audit-1 \(agent default\): 8 events, 2 model requests\n/);
    expect(out.stdout).toContain('loaded group google_gmail (4 tools) by call call-7');
    expect(out.stdout).toContain('model request #2 anthropic/claude-sonnet-4-5: 8 tools, 1234 schema tokens');
    expect(out.stdout).toMatch(/model saw 8 tools:\n(.*\n){4}\s+gmail_search\s+group google_gmail, loaded at #4 by call call-7\n/);
    expect(out.stdout).toMatch(/\s+load_tool_group\s+core\n/);
    expect(out.stdout).not.toContain(SECRET);
  });

  it('replay --json prints the trail as JSON, requests included', async () => {
    const { out, io } = capture();
    expect(await runCli(['replay', '--json', sessionId], io, env)).toBe(EXIT.ok);
    const trail = JSON.parse(out.stdout) as AuditTrail;
    expect(trail.sessionId).toBe(sessionId);
    expect(trail.requests.map((r) => r.toolNames.length)).toEqual([4, 8]);
    expect(trail.requests[1]?.tools.find((t) => t.name === 'gmail_send')?.reason).toMatchObject({
      kind: 'group',
      groupName: 'google_gmail',
      loadedAtRevision: 4,
      source: { kind: 'tool_call', callId: 'call-7' },
    });
  });

  it('an unknown session exits 2 and says which store was searched', async () => {
    const { out, io } = capture();
    expect(await runCli(['replay', 'nope'], io, env)).toBe(EXIT.noSuchSession);
    expect(out.stdout).toBe('');
    expect(out.stderr).toBe(`no session nope in the SQLite store ${path.join(dir, 'events.db')}\n`);
  });

  it.each([
    [[]],
    [['frobnicate']],
    [['replay']],
    [['replay', 'a', 'b']],
    [['replay', '--colour', sessionId]],
    [['serve', '--port', '1']],
    [['attachments']],
    [['attachments', 'purge']],
    [['attachments', 'gc', '--min-age-hours', 'soon']],
    [['attachments', 'gc', '--min-age-hours=-1']],
  ])('bad usage %j exits 64 with the usage text on stderr', async (argv) => {
    const { out, io } = capture();
    expect(await runCli(argv, io, env)).toBe(EXIT.usage);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(/^oneclaw: .+\n\nUsage: oneclaw <command>/);
  });

  it('--help prints the usage on stdout and exits 0', async () => {
    const { out, io } = capture();
    expect(await runCli(['--help'], io, env)).toBe(EXIT.ok);
    expect(out.stdout).toContain('replay <session-id> [--json]');
    expect(out.stderr).toBe('');
  });

  it('a bad configuration exits 78 naming the variable', async () => {
    const { out, io } = capture();
    expect(await runCli(['replay', sessionId], io, { ...env, ONECLAW_PROVIDER: 'nonsense' })).toBe(EXIT.config);
    expect(out.stderr).toContain('ONECLAW_PROVIDER');
    expect(out.stderr).not.toContain(SECRET);
  });

  it('attachments gc removes an old upload no message names and keeps the rest; --dry-run only says so', async () => {
    const files = new AttachmentStore(path.join(dir, 'attachments'));
    const orphan = files.put(Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('never sent')]), 'image/png', 'draft.png');
    const young = files.put(Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('just uploaded')]), 'image/png', 'new.png');
    const dayAgo = new Date(Date.now() - 25 * 3_600_000);
    for (const name of [orphan.hash, `${orphan.hash}.json`]) fs.utimesSync(path.join(files.dir, name), dayAgo, dayAgo);

    const dry = capture();
    expect(await runCli(['attachments', 'gc', '--dry-run'], dry.io, env)).toBe(EXIT.ok);
    expect(dry.out.stdout).toBe(
      `would remove ${orphan.hash} (${orphan.bytes} bytes)\n` +
        `${files.dir} (references from the SQLite store ${path.join(dir, 'events.db')}): 0 referenced by messages (kept), 1 not yet referenced but younger than 24 h (kept), 1 to remove (${orphan.bytes} bytes); dry run, nothing removed.\n`,
    );
    expect(files.describe(orphan.hash)).toBeDefined();

    const real = capture();
    expect(await runCli(['attachments', 'gc'], real.io, env)).toBe(EXIT.ok);
    expect(real.out.stdout).toContain(`removed ${orphan.hash} (${orphan.bytes} bytes)\n`);
    expect(real.out.stderr).toBe('');
    expect(files.describe(orphan.hash)).toBeUndefined();
    expect(files.describe(young.hash)).toEqual(young);
    // --min-age-hours 0: nothing waits, so the upload just made goes too.
    const now = capture();
    expect(await runCli(['attachments', 'gc', '--min-age-hours', '0'], now.io, env)).toBe(EXIT.ok);
    expect(files.describe(young.hash)).toBeUndefined();
  });

  it('a command on a data directory without a store exits 1 naming it, and creates none', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'oneclaw-cli-empty-'));
    try {
      for (const argv of [
        ['attachments', 'gc'],
        ['replay', sessionId],
      ]) {
        const { out, io } = capture();
        expect(await runCli(argv, io, { ...env, ONECLAW_DATA_DIR: empty })).toBe(EXIT.failure);
        expect(out.stderr).toBe(
          `oneclaw: the SQLite store ${path.join(empty, 'events.db')} does not exist: set ONECLAW_DATA_DIR (or ONECLAW_POSTGRES_URL, ONECLAW_KURRENTDB_CONNECTION_STRING) as the server has it.\n`,
        );
      }
      expect(fs.readdirSync(empty)).toEqual([]);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
