/**
 * Where a turn's time goes, measured inside a running server without touching its code:
 * a timing proxy over the EventStore and timing wrappers on the prototypes (and one module
 * export) the agent loop calls. Only meaningful with one turn at a time: every timed call is
 * billed to the turn the clock is on.
 */
import type { EventStore } from '@oneclaw/core';
import { ToolExecutionEngine, ToolGroupPrompt, ToolPayloads } from '@oneclaw/tool-registry';
import { OpenAiCompatibleProvider } from '@oneclaw/model-providers';
import { SessionRepository } from '../sessions/session-repository';
import conversation = require('../turns/conversation');

export const PARTS = ['store', 'repository', 'prompt', 'model', 'engine'] as const;
export type Part = (typeof PARTS)[number];
export type PartTimes = Record<Part, number>;

const zero = (): PartTimes => ({ store: 0, repository: 0, prompt: 0, model: 0, engine: 0 });

export class PartClock {
  private current: PartTimes | undefined;
  /** EventStore calls since the clock was made, by method (only while a turn is on the clock). */
  readonly storeCalls: Record<string, number> = {};
  /** Milliseconds spent in those calls, by method. */
  readonly storeMs: Record<string, number> = {};
  /** Depth of repository calls in flight: store time inside them is subtracted from `repository`. */
  private repositoryDepth = 0;

  begin(): void {
    this.current = zero();
  }

  /** The parts of the turn since `begin`; the clock then stops billing. */
  end(): PartTimes {
    const parts = this.current ?? zero();
    this.current = undefined;
    return parts;
  }

  add(part: Part, ms: number): void {
    if (!this.current) return;
    this.current[part] += ms;
    // `repository` is reported without the store calls it makes.
    if (part === 'store' && this.repositoryDepth > 0) this.current.repository -= ms;
  }

  async timeAsync<T>(part: Part, run: () => Promise<T>): Promise<T> {
    const started = performance.now();
    if (part === 'repository') this.repositoryDepth += 1;
    try {
      return await run();
    } finally {
      if (part === 'repository') this.repositoryDepth -= 1;
      this.add(part, performance.now() - started);
    }
  }

  async timeStore<T>(method: string, run: () => Promise<T>): Promise<T> {
    if (!this.current) return run();
    this.storeCalls[method] = (this.storeCalls[method] ?? 0) + 1;
    const started = performance.now();
    try {
      return await this.timeAsync('store', run);
    } finally {
      this.storeMs[method] = (this.storeMs[method] ?? 0) + performance.now() - started;
    }
  }

  timeSync<T>(part: Part, run: () => T): T {
    const started = performance.now();
    try {
      return run();
    } finally {
      this.add(part, performance.now() - started);
    }
  }
}

/** Every EventStore call timed as `store`. */
export function timedEventStore(inner: EventStore, clock: PartClock): EventStore {
  return {
    append: (streamId, events, options) => clock.timeStore('append', () => inner.append(streamId, events, options)),
    readStream: (streamId, options) => clock.timeStore('readStream', () => inner.readStream(streamId, options)),
    readAll: (options) => clock.timeStore('readAll', () => inner.readAll(options)),
    streamState: (streamId) => clock.timeStore('streamState', () => inner.streamState(streamId)),
    close: () => inner.close(),
  };
}

type AnyFn = (this: unknown, ...args: never[]) => unknown;

/**
 * Wraps the methods the agent loop calls per round. Returns the function that puts them back.
 * - repository: SessionRepository.recordAll / preview / get (decide, fold, queueing), store time subtracted
 * - prompt: ToolPayloads.build, ToolGroupPrompt.render, toChatMessages
 * - model: OpenAiCompatibleProvider.complete (request encode, fetch to the fake, SSE decode)
 * - engine: ToolExecutionEngine.executeAll (checks, validation, the JS tool run)
 */
export function instrument(clock: PartClock): () => void {
  const restores: Array<() => void> = [];
  const wrap = (target: object, name: string, part: Part, kind: 'sync' | 'async'): void => {
    const holder = target as Record<string, AnyFn>;
    const original = holder[name];
    if (typeof original !== 'function') throw new Error(`cannot instrument ${name}: not a function`);
    holder[name] =
      kind === 'async'
        ? function (this: unknown, ...args: never[]) {
            return clock.timeAsync(part, () => original.apply(this, args) as Promise<unknown>);
          }
        : function (this: unknown, ...args: never[]) {
            return clock.timeSync(part, () => original.apply(this, args));
          };
    restores.push(() => {
      holder[name] = original;
    });
  };
  // `record` goes through `recordAll`; a turn stages with `preview` and records with `recordAll`.
  wrap(SessionRepository.prototype, 'recordAll', 'repository', 'async');
  wrap(SessionRepository.prototype, 'preview', 'repository', 'sync');
  wrap(SessionRepository.prototype, 'get', 'repository', 'async');
  wrap(ToolPayloads.prototype, 'build', 'prompt', 'sync');
  wrap(ToolGroupPrompt.prototype, 'render', 'prompt', 'sync');
  wrap(conversation, 'toChatMessages', 'prompt', 'sync');
  wrap(OpenAiCompatibleProvider.prototype, 'complete', 'model', 'async');
  wrap(ToolExecutionEngine.prototype, 'executeAll', 'engine', 'async');
  return () => {
    for (const restore of restores.reverse()) restore();
  };
}

export interface Summary {
  readonly n: number;
  readonly p50: number;
  readonly p99: number;
  readonly mean: number;
  readonly total: number;
}

/** Nearest-rank percentiles. */
export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
  const total = sorted.reduce((a, b) => a + b, 0);
  return { n: sorted.length, p50: at(0.5), p99: at(0.99), mean: total / sorted.length, total };
}
