/**
 * Runs the tasks of one key one after another (each starts once the one before has settled,
 * whether it succeeded or not) and the tasks of different keys side by side: one writer at a
 * time per session, per secret.
 *
 * A secret's change spans two stores, the secret file and the `config` stream, with an await
 * between them: two changes of the same secret (a PUT and a DELETE of one variable) through one
 * queue cannot write the file between each other's two steps and leave the file and the stream
 * disagreeing. Replicas have secret files of their own, so one process is the right scope.
 */
export class PerKeyQueue {
  /** Per key, the last task queued: the next one waits for it. */
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(task);
    this.tails.set(key, next);
    // Forget an idle key, so the map holds only keys with work in flight.
    void next
      .finally(() => {
        if (this.tails.get(key) === next) this.tails.delete(key);
      })
      .catch(() => undefined);
    return next;
  }

  /** Keys with a task queued or running (for tests). */
  get busyKeys(): number {
    return this.tails.size;
  }
}
