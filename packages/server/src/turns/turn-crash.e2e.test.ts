import { afterEach, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { replay, type RecordedEvent } from '@oneclaw/core';
import { startFakeModelServer, type FakeModelServer } from '../testing/fake-model-server';
import { fakeReply } from '../testing/fake-model/fake-reply';

// The server runs as a real child process from the TypeScript source (swc require hook), and is
// killed with SIGKILL in the middle of a tool call: nothing gets to run on the way out.
const LOADER = path.resolve(__dirname, '../../../../scripts/register-typescript.js');
const MAIN = path.resolve(__dirname, '../main.ts');
const TOKEN = 'crash-test-token-0123456789';
const KEY = 'sk-ant-crash-test-key-000';

class ServerProcess {
  private output = '';
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<unknown>;

  constructor(env: Record<string, string>) {
    this.child = spawn(process.execPath, ['-r', LOADER, MAIN], { env: { ...process.env, ...env } });
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => (this.output += chunk));
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.output += chunk));
    this.exited = new Promise((resolve) => this.child.on('close', resolve));
  }

  async url(): Promise<string> {
    for (let i = 0; i < 600; i++) {
      const match = /listening on (http:\/\/\S+)/.exec(this.output);
      if (match) return match[1] as string;
      if (this.child.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`server did not start:\n${this.output.slice(-2000)}`);
  }
}

describe('a server killed with SIGKILL mid-turn (fake Anthropic model)', () => {
  let dataDir: string;
  let model: FakeModelServer;
  const children: ServerProcess[] = [];

  afterEach(async () => {
    for (const c of children) c.child.kill('SIGKILL');
    await Promise.all(children.map((c) => c.exited));
    await model.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('leaves a stream that replays consistently; the next turn records the unfinished call as interrupted and goes on', async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-turn-crash-'));
    // A user tool that never returns (until its 60 s timeout): the process dies while it runs.
    mkdirSync(path.join(dataDir, 'tools'));
    writeFileSync(
      path.join(dataDir, 'tools', 'spin.json'),
      JSON.stringify({ name: 'spin', description: 'Spins', parameters: { type: 'object', properties: {} }, timeoutSeconds: 60 }),
    );
    writeFileSync(path.join(dataDir, 'tools', 'spin.js'), 'function execute() { for (;;) {} }');
    model = await startFakeModelServer('anthropic', { apiKey: KEY });
    const env = { ONECLAW_DATA_DIR: dataDir, PORT: '0', ONECLAW_API_TOKEN: TOKEN, ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: model.url, ONECLAW_LOG: 'warn' };
    const api = async (url: string, method: string, route: string, body?: unknown) => {
      const response = await fetch(url + route, {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await response.json()) as any;
    };

    const first = new ServerProcess(env);
    children.push(first);
    const url1 = await first.url();
    await api(url1, 'POST', '/api/sessions', { sessionId: 'c' });
    model.enqueue(fakeReply.toolCall('spin', {}, 'Spinning.'));
    void api(url1, 'POST', '/api/sessions/c/messages', { text: 'spin please' }).catch(() => undefined);
    // Wait until the call is recorded and running (the assistant message with the call is in the stream).
    for (let i = 0; i < 400; i++) {
      const events: RecordedEvent[] = (await api(url1, 'GET', '/api/sessions/c/events')).events;
      if (events.some((e) => e.type === 'MessageSent' && (e.data as { role: string }).role === 'assistant')) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    first.child.kill('SIGKILL');
    await first.exited;

    const second = new ServerProcess(env);
    children.push(second);
    const url2 = await second.url();
    const afterCrash: RecordedEvent[] = (await api(url2, 'GET', '/api/sessions/c/events')).events;
    expect(afterCrash.map((e) => e.revision)).toEqual(afterCrash.map((_, i) => i));
    const state = replay(afterCrash);
    expect(state.skippedEvents).toBe(0);
    expect([...state.pendingToolCalls.values()].map((c) => c.toolName)).toEqual(['spin']);
    expect(afterCrash.some((e) => e.type === 'TurnFinished')).toBe(false);

    model.enqueue(fakeReply.text('Sorry, that tool was cut off.'));
    const turn = await api(url2, 'POST', '/api/sessions/c/messages', { text: 'what happened?' });
    expect(turn.reason).toBe('completed');
    const events: RecordedEvent[] = (await api(url2, 'GET', '/api/sessions/c/events')).events;
    const tail = events.slice(afterCrash.length).map((e) => [e.type, (e.data as { role?: string; errorType?: string; reason?: string }).errorType ?? (e.data as { reason?: string }).reason ?? (e.data as { role?: string }).role]);
    expect(tail.slice(0, 3)).toEqual([
      ['MessageSent', 'interrupted'],
      ['TurnFinished', 'interrupted'],
      ['MessageSent', 'user'],
    ]);
    expect(replay(events).pendingToolCalls.size).toBe(0);
    // Two server processes compile the whole server from source (swc) at start: allow for it.
  }, 60_000);
});
