import { describe, expect, it } from '@jest/globals';
import type { EventStore } from '@oneclaw/core';
import { AppLifecycle } from './app-lifecycle';
import type { SessionCheckpoints } from './sessions/session-checkpoints';
import type { SessionIndex } from './sessions/session-index';
import type { ToolRuntime } from './tools/tool-runtime';
import type { TurnRegistry } from './turns/turn-registry';

describe('AppLifecycle', () => {
  const sessionIndexOf = (steps: string[]) => ({ close: () => void steps.push('session list closed') }) as unknown as SessionIndex;

  it('F4 waits for snapshot writes in flight before it closes the store, then closes it', async () => {
    const steps: string[] = [];
    let finishWrites: () => void = () => undefined;
    const writesDone = new Promise<void>((resolve) => (finishWrites = resolve));
    const store = { close: async () => void steps.push('store closed') } as unknown as EventStore;
    const tools = { close: async () => void steps.push('tools closed') } as unknown as ToolRuntime;
    const checkpoints = { idle: () => writesDone.then(() => void steps.push('snapshots written')) } as unknown as SessionCheckpoints;
    const lifecycle = new AppLifecycle(store, tools, {} as TurnRegistry, { checkpoints, sessionIndex: sessionIndexOf(steps) });

    const shutdown = lifecycle.onApplicationShutdown();
    // Every step above is a promise callback: let all of them run that can run.
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(steps).toEqual(['tools closed', 'session list closed']);

    finishWrites();
    await shutdown;
    expect(steps).toEqual(['tools closed', 'session list closed', 'snapshots written', 'store closed']);
  });

  it('closes the store at once when there are no snapshots (KurrentDB, PostgreSQL)', async () => {
    const steps: string[] = [];
    const store = { close: async () => void steps.push('store closed') } as unknown as EventStore;
    const tools = { close: async () => void steps.push('tools closed') } as unknown as ToolRuntime;
    await new AppLifecycle(store, tools, {} as TurnRegistry, { sessionIndex: sessionIndexOf(steps) }).onApplicationShutdown();
    expect(steps).toEqual(['tools closed', 'session list closed', 'store closed']);
  });
});
