import { afterEach, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { callServer, serverProcessEnv, ServerProcessGroup, waitFor } from './testing/server-process';

// Real server processes (from the TypeScript source) sent real signals. No model is called.
const TOKEN = 'signals-test-token-0123456789';

describe('signals sent to a server process', () => {
  const servers = new ServerProcessGroup();
  afterEach(() => servers.killAll());

  function temporaryDir(prefix: string): string {
    const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
    servers.also(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  }

  function start(nodeArgs: string[] = [], dataDir = temporaryDir('oneclaw-signals-')) {
    return servers.start(serverProcessEnv({ dataDir, token: TOKEN }), { nodeArgs });
  }

  it('SIGUSR2 with --heapsnapshot-signal writes a heap snapshot and the server keeps serving (docs/memory.md)', async () => {
    const snapshots = temporaryDir('oneclaw-heap-');
    const server = start(['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${snapshots}`]);
    const url = await server.url();
    expect((await callServer(url, TOKEN, 'POST', '/api/sessions', { sessionId: 'before' })).sessionId).toBe('before');

    server.child.kill('SIGUSR2');
    const file = await waitFor('the heap snapshot file', async () => readdirSync(snapshots).find((f) => f.endsWith('.heapsnapshot')));
    expect(file).toMatch(/^Heap\..*\.heapsnapshot$/);

    // Nest's default shutdown hooks also listen for SIGUSR2: the server would be closing by now.
    const after = await callServer(url, TOKEN, 'POST', '/api/sessions', { sessionId: 'after' });
    expect(after.sessionId).toBe('after');
    const list = await callServer(url, TOKEN, 'GET', '/api/sessions');
    expect(list.sessions.map((s: { sessionId: string }) => s.sessionId).sort()).toEqual(['after', 'before']);
    expect(server.child.exitCode).toBeNull();
    expect(server.printed).not.toMatch(/shutting down/i);
  }, 120_000);

  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s stops the server gracefully: the store is closed (its WAL file checkpointed and removed)',
    async (signal) => {
      const dataDir = temporaryDir('oneclaw-signals-');
      const server = start([], dataDir);
      const url = await server.url();
      expect((await callServer(url, TOKEN, 'POST', '/api/sessions', { sessionId: 's' })).sessionId).toBe('s');
      const wal = path.join(dataDir, 'events.db-wal');
      expect(existsSync(wal)).toBe(true);
      server.child.kill(signal);
      await server.exited;
      // Killed without the hooks, the process would leave the WAL file behind.
      expect(existsSync(path.join(dataDir, 'events.db'))).toBe(true);
      expect(existsSync(wal)).toBe(false);
      expect(server.printed).not.toMatch(/"level":(50|60)/);
    },
    120_000,
  );
});
