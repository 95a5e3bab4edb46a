import { describe, expect, it } from '@jest/globals';
import { settle } from '../testing/held-appends-store';
import { PerKeyQueue } from './per-key-queue';

/** A task that records when it starts and ends, and ends when the test says. */
function task(log: string[], name: string) {
  let finish: (fail?: Error) => void = () => undefined;
  const done = new Promise<string>((resolve, reject) => (finish = (fail) => (fail ? reject(fail) : resolve(name))));
  return {
    run: async (): Promise<string> => {
      log.push(`${name} starts`);
      try {
        return await done;
      } finally {
        log.push(`${name} ends`);
      }
    },
    finish,
  };
}

describe('PerKeyQueue', () => {
  it('runs the tasks of one key one after another, even after one fails, and other keys side by side', async () => {
    const queue = new PerKeyQueue();
    const log: string[] = [];
    const a1 = task(log, 'a1');
    const a2 = task(log, 'a2');
    const b1 = task(log, 'b1');
    const first = queue.run('a', a1.run);
    const second = queue.run('a', a2.run);
    const other = queue.run('b', b1.run);
    await settle();
    expect(log).toEqual(['a1 starts', 'b1 starts']);
    a1.finish(new Error('the store is down'));
    await expect(first).rejects.toThrow('the store is down');
    await settle();
    expect(log).toEqual(['a1 starts', 'b1 starts', 'a1 ends', 'a2 starts']);
    a2.finish();
    b1.finish();
    await expect(second).resolves.toBe('a2');
    await expect(other).resolves.toBe('b1');
  });

  it('forgets a key once its last task has settled', async () => {
    const queue = new PerKeyQueue();
    await queue.run('a', async () => 'done');
    await expect(queue.run('b', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await settle();
    expect(queue.busyKeys).toBe(0);
  });
});
