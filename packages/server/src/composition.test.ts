import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { InMemoryEventStore, sessionStreamId, type EventStore } from '@oneclaw/core';
import { composeRuntime, type Runtime } from './composition';
import { createLogger } from './logging/logger';
import { SecretRedactor } from './security/secret-redactor';
import { loadServerConfig } from './server-config';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The server's objects on an in-memory store, with no model configured; `calls` lists every store method used. */
function compose(): { runtime: Runtime; store: EventStore; calls: string[] } {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-compose-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadServerConfig({ ONECLAW_DATA_DIR: dataDir, ONECLAW_JS_WORKERS: '1', ONECLAW_TIMEZONE: 'UTC' });
  const calls: string[] = [];
  const inner = new InMemoryEventStore();
  const store = new Proxy(inner, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(key));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const redactor = new SecretRedactor();
  const runtime = composeRuntime({ config, store, apiToken: 'compose-test-token-0123456789', logger: createLogger({ level: 'silent', redactor }), redactor });
  cleanups.push(() => runtime.tools.close());
  return { runtime, store, calls };
}

describe('composeRuntime (the composition root)', () => {
  it('only constructs: it neither reads nor writes the event store (the lifecycles do, once every object exists)', () => {
    const { runtime, calls } = compose();
    expect(calls).toEqual([]);
    expect(runtime.agents).toBe(runtime.config.agents);
    expect(runtime.redactor.redactText('key compose-test-token-0123456789')).not.toContain('compose-test-token-0123456789');
  });

  it('closes the cycle: a task run goes through the port to the composed turn runner, once the service is started', async () => {
    const { runtime, store } = compose();
    const { task } = await runtime.scheduledTasks.schedule({ name: 'Report', prompt: 'Write the report.', schedule: { type: 'daily', hour: 7, minute: 0 } });
    await expect(runtime.scheduledTasks.runNow(task.taskId)).rejects.toMatchObject({ code: 'scheduler_not_ready' });

    runtime.scheduledTasks.start();
    const run = await runtime.scheduledTasks.runNow(task.taskId);
    await runtime.scheduledTasks.whenIdle();
    // The launcher started the run's session and asked the runner, which found no model configured.
    expect((await store.readStream(sessionStreamId(run.sessionId))).map((e) => e.type)).toEqual(['SessionStarted']);
    const [view] = await runtime.scheduledTasks.list();
    expect(view?.task.runs).toMatchObject([{ runId: run.runId, status: 'failed', reason: 'provider_not_configured' }]);
  });
});
