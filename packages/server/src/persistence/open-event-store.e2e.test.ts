import { afterEach, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { callServer, serverProcessEnv, ServerProcessGroup, waitFor } from '../testing/server-process';

// A real server process (from the TypeScript source) on SQLite, started with a preload that
// writes the paths of every module loaded so far when the process gets SIGUSR2 (the server
// does not stop on it: shutdown-signals.e2e.test.ts).
const TOKEN = 'store-modules-test-token-0123456789';

describe('a server on SQLite does not load the other stores’ clients (docs/memory.md)', () => {
  const servers = new ServerProcessGroup();
  afterEach(() => servers.killAll());

  it('neither the KurrentDB client (gRPC, protobuf) nor pg is loaded, after start-up and a request', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-store-modules-'));
    servers.also(() => rmSync(dir, { recursive: true, force: true }));
    const preload = path.join(dir, 'record-modules.js');
    const out = path.join(dir, 'modules.json');
    // Written aside and renamed, so the test never reads half a file.
    writeFileSync(
      preload,
      `const fs = require('node:fs');
process.on('SIGUSR2', () => {
  fs.writeFileSync(${JSON.stringify(`${out}.part`)}, JSON.stringify(Object.keys(require.cache)));
  fs.renameSync(${JSON.stringify(`${out}.part`)}, ${JSON.stringify(out)});
});
`,
    );

    const server = servers.start(serverProcessEnv({ dataDir: path.join(dir, 'data'), token: TOKEN }), { nodeArgs: ['--require', preload] });
    const url = await server.url();
    expect((await callServer(url, TOKEN, 'POST', '/api/sessions', { sessionId: 's' })).sessionId).toBe('s');
    server.child.kill('SIGUSR2');
    const modules = await waitFor('the module list', async () => (existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as string[]) : undefined));
    // The list is real: the SQLite store and its driver are in it.
    expect(modules.some((m) => m.includes('event-store-sqlite'))).toBe(true);
    expect(modules.some((m) => m.includes(`${path.sep}better-sqlite3${path.sep}`))).toBe(true);
    const others = modules.filter((m) => /event-store-kurrentdb|kurrentdb-client|@grpc|protobuf|event-store-postgres|[\\/]node_modules[\\/]pg[\\/]/.test(m));
    expect(others).toEqual([]);
  }, 120_000);
});
