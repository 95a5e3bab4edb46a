import { describe, expect, test } from '@jest/globals';
import { ApiError } from '../api/api-error';
import type { StreamEvent } from '../api/client';
import type { SessionView, StoredEvent } from '@oneclaw/api-contract';
import { BUSY_ELSEWHERE_REFUSAL, BUSY_HERE_REFUSAL, ChatSessionStore, chatStoreFor, type ChatApi } from './chat-store';
import { onSessionsChanged } from './sessions-changed';

/** A stored event's metadata as the server records it. */
const meta = (eventId: string) => ({ eventId, occurredAt: '', correlationId: 'c', causationId: 'c', schemaVersion: 1 });

/** A stored MessageSent of the session (a user message, or an assistant reply without tool calls). */
const message = (messageId: string, role: 'user' | 'assistant', text: string, revision: number): StoredEvent => ({
  type: 'MessageSent',
  data: role === 'user' ? { messageId, role, text } : { messageId, role, text, toolCalls: [] },
  metadata: meta(`e${revision}`),
  streamId: 'session-s 1',
  revision,
  position: revision,
});

function view(overrides: Partial<SessionView> = {}): SessionView {
  return {
    sessionId: 's 1',
    agentId: 'default',
    revision: 1,
    messages: [],
    supersededMessageIds: [],
    loadedGroups: [],
    activeTools: [],
    turnInProgress: false,
    title: null,
    summary: null,
    ...overrides,
  };
}

interface OpenStream {
  readonly path: string;
  readonly body: unknown;
  emit(event: string, data?: unknown): void;
  end(): void;
  fail(error: unknown): void;
  readonly signal: AbortSignal;
}

/** A fake API: GETs answer from `stored`, POST/DELETE from `answers`, streams are driven by the test. */
class FakeApi implements ChatApi {
  stored: { view: SessionView; events: StoredEvent[] } = { view: view(), events: [] };
  readonly calls: string[] = [];
  readonly streams: OpenStream[] = [];
  answers = new Map<string, () => unknown>();
  refuseStream: ApiError | undefined;
  /** The Idempotency-Key of each stream request, in order. */
  readonly streamKeys: (string | undefined)[] = [];

  get<T>(path: string): Promise<T> {
    this.calls.push(`GET ${path}`);
    if (!path.includes('/events')) return Promise.resolve(this.stored.view as T);
    // As the server answers: the events from ?fromRevision on (all of them without it).
    const from = Number(new URLSearchParams(path.split('?')[1]).get('fromRevision') ?? 0);
    return Promise.resolve({ events: this.stored.events.filter((event) => event.revision >= from), nextRevision: null } as T);
  }
  post<T>(path: string, body?: unknown): Promise<T> {
    this.calls.push(`POST ${path}${body ? ` ${JSON.stringify(body)}` : ''}`);
    return this.answer<T>(`POST ${path}`);
  }
  delete<T>(path: string): Promise<T> {
    this.calls.push(`DELETE ${path}`);
    return this.answer<T>(`DELETE ${path}`);
  }
  stream(path: string, body: unknown, onEvent: (event: StreamEvent) => void, options: { signal?: AbortSignal; headers?: Record<string, string> } = {}): Promise<void> {
    this.calls.push(`STREAM ${path} ${JSON.stringify(body)}`);
    this.streamKeys.push(options.headers?.['idempotency-key']);
    if (this.refuseStream) return Promise.reject(this.refuseStream);
    return new Promise<void>((resolve, reject) => {
      const signal = options.signal!;
      signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      this.streams.push({ path, body, signal, emit: (event, data = {}) => onEvent({ event, data }), end: resolve, fail: reject });
    });
  }
  private answer<T>(key: string): Promise<T> {
    const make = this.answers.get(key);
    if (!make) return Promise.reject(new ApiError(404, 'not_found', `no answer for ${key}`));
    try {
      return Promise.resolve(make() as T);
    } catch (error) {
      return Promise.reject(error);
    }
  }
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

async function until(check: () => boolean): Promise<void> {
  while (!check()) await flush();
}

describe("a session's chat store", () => {
  test('reads the view and the events of the session (id encoded) and builds the transcript', async () => {
    const api = new FakeApi();
    api.stored = {
      view: view({ loadedGroups: ['pdf'] }),
      events: [{ type: 'MessageSent', data: { messageId: 'u', role: 'user', text: 'hi' }, metadata: meta('e'), streamId: 'session-s 1', revision: 1, position: 1 }],
    };
    const store = new ChatSessionStore(api, 's 1');
    await store.refresh();
    expect(api.calls).toEqual(['GET /api/sessions/s%201', 'GET /api/sessions/s%201/events?limit=1000']);
    expect(store.getState()).toMatchObject({ loaded: true, loadedGroups: ['pdf'], items: [{ kind: 'user', text: 'hi' }] });
  });

  test('sends, streams the turn, tells the session list, then re-reads the stored session', async () => {
    const api = new FakeApi();
    const store = new ChatSessionStore(api, 's');
    let listChanges = 0;
    const off = onSessionsChanged(() => listChanges++);
    const sending = store.send('hello');
    await until(() => api.streams.length === 1);
    expect(store.getState().turn).toBe('running');
    const stream = api.streams[0]!;
    expect(stream.body).toEqual({ text: 'hello' });
    stream.emit('turn_started', { turnId: 't' });
    expect(listChanges).toBe(1);
    stream.emit('text_delta', { text: 'Hi' });
    expect(store.getState().items.at(-1)).toMatchObject({ kind: 'assistant', text: 'Hi', streaming: true });
    api.stored = { view: view(), events: [] };
    stream.emit('turn_finished', { reason: 'completed' });
    stream.end();
    await expect(sending).resolves.toBe('sent');
    off();
    expect(listChanges).toBe(2);
    expect(api.calls.slice(-2)).toEqual(['GET /api/sessions/s', 'GET /api/sessions/s/events?limit=1000']);
    expect(store.getState().turn).toBe('none');
    expect(store.streaming).toBe(false);
  });

  test('a send the server refuses before streaming gives the text back (refused) and shows why', async () => {
    const api = new FakeApi();
    api.refuseStream = new ApiError(503, 'provider_not_configured', 'No model is configured.');
    const store = new ChatSessionStore(api, 's');
    await expect(store.send('hello')).resolves.toBe('refused');
    expect(store.getState().items).toEqual([expect.objectContaining({ kind: 'error', code: 'provider_not_configured', detail: 'No model is configured.' })]);
  });

  test("a send refused because another window's turn runs (409 turn_in_progress) shows that window's notice, no error card; the next read after that turn leaves nothing behind", async () => {
    const api = new FakeApi();
    api.stored = { view: view(), events: [message('m1', 'user', 'hello', 0)] };
    const store = new ChatSessionStore(api, 's');
    await store.refresh();
    expect(store.getState().busyElsewhere).toBe(false);
    // Another window sent meanwhile: this page had not heard of it.
    api.stored = { ...api.stored, view: view({ turnInProgress: true }) };
    api.refuseStream = new ApiError(409, 'turn_in_progress', 'A turn is running; cancel it with POST /api/sessions/s/cancel.');
    await expect(store.send('me too')).resolves.toBe('refused');
    expect(store.getState()).toMatchObject({ turn: 'none', busyElsewhere: true });
    expect(store.getState().items.map((item) => item.kind)).toEqual(['user']);
    expect(store.getState().status).toBe('Not sent: the session is answering a message sent from another window. Your message is back in the box.');
    // The page polls while busy elsewhere; once that turn is over nothing of the refusal stays.
    api.stored = { view: view(), events: [message('m1', 'user', 'hello', 0), message('m2', 'user', 'other', 1), message('m3', 'assistant', 'reply', 2)] };
    await store.refresh();
    expect(store.getState().busyElsewhere).toBe(false);
    expect(store.getState().items.map((item) => item.kind)).toEqual(['user', 'user', 'assistant']);
  });

  test("a retry refused because another window's turn runs says it was not done, not that a message is back in the box", async () => {
    const api = new FakeApi();
    api.stored = { view: view(), events: [message('m1', 'user', 'hello', 0), message('m2', 'assistant', 'hi', 1)] };
    const store = new ChatSessionStore(api, 's');
    await store.refresh();
    api.refuseStream = new ApiError(409, 'turn_in_progress', 'A turn is running; cancel it with POST /api/sessions/s/cancel.');
    await expect(store.retryTurn('m1')).resolves.toBe('refused');
    expect(store.getState().items.some((item) => item.kind === 'error')).toBe(false);
    expect(store.getState().status).toBe('Not done: the session is answering a message sent from another window. Try again when that reply is over.');
  });

  test('a second send while a turn runs is refused without a request', async () => {
    const api = new FakeApi();
    const store = new ChatSessionStore(api, 's');
    void store.send('one');
    await until(() => api.streams.length === 1);
    await expect(store.send('two')).resolves.toBe('refused');
    expect(api.calls.filter((c) => c.startsWith('STREAM'))).toHaveLength(1);
    api.streams[0]!.end();
  });

  test('cancel asks the server, which ends the stream with its recorded stop; the page does not cut it', async () => {
    const api = new FakeApi();
    api.answers.set('POST /api/sessions/s/cancel', () => ({ cancelled: true }));
    const store = new ChatSessionStore(api, 's');
    const sending = store.send('long job');
    await until(() => api.streams.length === 1);
    await store.cancel();
    expect(store.getState().turn).toBe('cancelling');
    const stream = api.streams[0]!;
    expect(stream.signal.aborted).toBe(false);
    stream.emit('turn_finished', { reason: 'cancelled', detail: 'The turn was cancelled (cancelled by the user).' });
    expect(store.getState().items.at(-1)).toMatchObject({ kind: 'turn-stop', reason: 'cancelled' });
    stream.end();
    await sending;
    expect(store.getState().turn).toBe('none');
  });

  test('cancel closes the stream itself when the server had no turn to cancel, or when the stream outlives the grace period', async () => {
    const api = new FakeApi();
    api.answers.set('POST /api/sessions/s/cancel', () => ({ cancelled: false }));
    const store = new ChatSessionStore(api, 's');
    const first = store.send('one');
    await until(() => api.streams.length === 1);
    await store.cancel();
    expect(api.streams[0]!.signal.aborted).toBe(true);
    await first;
    expect(store.getState().turn).toBe('none');

    api.answers.set('POST /api/sessions/s/cancel', () => ({ cancelled: true }));
    const patient = new ChatSessionStore(api, 's', { cancelGraceMs: 1 });
    const second = patient.send('two');
    await until(() => api.streams.length === 2);
    await patient.cancel();
    await second;
    expect(api.streams[1]!.signal.aborted).toBe(true);
    expect(patient.getState().turn).toBe('none');
  });

  test('clear, load and unload use the view the server answers; a refusal is kept as the action error', async () => {
    const api = new FakeApi();
    // As a server would: a read after the change shows it (the store reads once after its first change).
    api.answers.set('POST /api/sessions/s/tool-groups', () => {
      api.stored = { ...api.stored, view: view({ loadedGroups: ['pdf'], messages: [{ messageId: 'u', role: 'user', text: 'x' }] }) };
      return api.stored.view;
    });
    api.answers.set('DELETE /api/sessions/s/tool-groups/google%2Fodd', () => {
      throw new ApiError(409, 'group_not_loaded', "Tool group 'google/odd' is not loaded.");
    });
    api.answers.set('POST /api/sessions/s/clear', () => {
      api.stored = { view: view(), events: [] };
      return api.stored.view;
    });
    const store = new ChatSessionStore(api, 's');
    await expect(store.loadGroup('pdf')).resolves.toBe(true);
    expect(api.calls).toContain('POST /api/sessions/s/tool-groups {"groupName":"pdf"}');
    expect(store.getState().loadedGroups).toEqual(['pdf']);

    await expect(store.unloadGroup('google/odd')).resolves.toBe(false);
    expect(store.getState().actionError).toEqual({ code: 'group_not_loaded', detail: "Tool group 'google/odd' is not loaded." });
    store.dismissError();
    expect(store.getState().actionError).toBeUndefined();

    let listChanges = 0;
    const off = onSessionsChanged(() => listChanges++);
    await expect(store.clear()).resolves.toBe(true);
    off();
    expect(listChanges).toBe(1);
    expect(store.getState()).toMatchObject({ items: [], loadedGroups: [] });
  });

  test("clear refused because another window's turn runs says so in words, not the API's; a read showing that turn over drops the notice, other refusals stay", async () => {
    const api = new FakeApi();
    api.stored = { view: view({ turnInProgress: true }), events: [message('m1', 'user', 'hello', 0)] };
    api.answers.set('POST /api/sessions/s/clear', () => {
      throw new ApiError(409, 'turn_in_progress', 'A turn is running; cancel it with POST /api/sessions/s/cancel.');
    });
    const store = new ChatSessionStore(api, 's');
    await expect(store.clear()).resolves.toBe(false);
    expect(store.getState().actionError).toEqual({ code: 'turn_in_progress', detail: BUSY_ELSEWHERE_REFUSAL });
    expect(store.getState().busyElsewhere).toBe(true);
    await store.refresh();
    expect(store.getState().actionError?.code).toBe('turn_in_progress');
    api.stored = { ...api.stored, view: view() };
    await store.refresh();
    expect(store.getState().actionError).toBeUndefined();

    api.answers.set('DELETE /api/sessions/s/tool-groups/x', () => {
      throw new ApiError(409, 'group_not_loaded', "Tool group 'x' is not loaded.");
    });
    await store.unloadGroup('x');
    await store.refresh();
    expect(store.getState().actionError?.code).toBe('group_not_loaded');
  });

  test("a group load or unload refused because this window's own reply runs says to wait for that reply, not for another window", async () => {
    const api = new FakeApi();
    const store = new ChatSessionStore(api, 's');
    await store.refresh();
    const sending = store.send('long job');
    await until(() => api.streams.length === 1);
    api.answers.set('POST /api/sessions/s/tool-groups', () => {
      throw new ApiError(409, 'turn_in_progress', 'The session is still answering a message (turn t).');
    });
    await expect(store.loadGroup('pdf')).resolves.toBe(false);
    expect(store.getState().actionError).toEqual({ code: 'turn_in_progress', detail: BUSY_HERE_REFUSAL });
    api.streams[0]!.end();
    await sending;
  });

  test('a rename shows its title at once, also while a turn streams (a re-read waits until it is over); a read that started before it is dropped', async () => {
    const api = new FakeApi();
    api.stored = { view: view({ title: 'Old' }), events: [] };
    const store = new ChatSessionStore(api, 's');
    await store.refresh();
    const reading = store.refresh();
    store.renamed('Read before');
    await reading;
    expect(store.getState().title).toBe('Read before');
    const sending = store.send('long job');
    await until(() => api.streams.length === 1);
    store.renamed('New name');
    expect(store.getState().title).toBe('New name');
    await store.refresh();
    expect(store.getState().title).toBe('New name');
    api.stored = { view: view({ title: 'New name' }), events: [] };
    api.streams[0]!.end();
    await sending;
    expect(store.getState().title).toBe('New name');
  });

  test('a session the draft created is known without a read: not loading during its first turn', async () => {
    const api = new FakeApi();
    const store = new ChatSessionStore(api, 's');
    store.startedEmpty(view());
    const sending = store.send('first');
    await until(() => api.streams.length === 1);
    // The page's refresh is skipped while the turn streams; the store is loaded anyway.
    await store.refresh();
    expect(store.getState()).toMatchObject({ loaded: true, turn: 'running' });
    expect(api.calls.filter((call) => call.startsWith('GET'))).toEqual([]);
    store.focusComposerOnOpen();
    expect(store.takeComposerFocus()).toBe(true);
    expect(store.takeComposerFocus()).toBe(false);
    api.streams[0]!.end();
    await sending;
  });

  test('a read that started before a change is dropped; when it was the first, the session is read again, so the page does not stay loading', async () => {
    const api = new FakeApi();
    api.stored = { view: view({ loadedGroups: ['old'] }), events: [message('m1', 'user', 'hello', 0)] };
    api.answers.set('POST /api/sessions/s/tool-groups', () => {
      api.stored = { ...api.stored, view: view({ loadedGroups: ['old', 'new'] }) };
      return api.stored.view;
    });
    const store = new ChatSessionStore(api, 's');
    const reading = store.refresh();
    await store.loadGroup('new');
    await reading;
    expect(store.getState()).toMatchObject({ loaded: true, loadedGroups: ['old', 'new'] });
    expect(store.getState().items.map((item) => item.kind)).toEqual(['user']);
    expect(api.calls.filter((call) => call === 'GET /api/sessions/s')).toHaveLength(2);
  });

  test('one store per session and sign-in', () => {
    const api = new FakeApi();
    expect(chatStoreFor(api, 'a')).toBe(chatStoreFor(api, 'a'));
    expect(chatStoreFor(api, 'a')).not.toBe(chatStoreFor(api, 'b'));
    expect(chatStoreFor(new FakeApi(), 'a')).not.toBe(chatStoreFor(api, 'a'));
  });
});

describe('a send that never reaches the server', () => {
  test('is kept as not sent without re-reading, and Retry sends it again with the same Idempotency-Key', async () => {
    const api = new FakeApi();
    const store = new ChatSessionStore(api, 's 1');
    await store.refresh();
    api.refuseStream = ApiError.network(new TypeError('Failed to fetch'));
    const callsBefore = api.calls.length;
    await expect(store.send('hello')).resolves.toBe('unsent');
    // Only the send itself: a re-read would fail the same way and show a second notice.
    expect(api.calls.slice(callsBefore)).toEqual(['STREAM /api/sessions/s%201/messages {"text":"hello"}']);
    const [item] = store.getState().items;
    expect(item).toMatchObject({ kind: 'user', text: 'hello', unsent: expect.stringContaining('Cannot reach the server') });
    expect(store.getState().loadError).toBeUndefined();

    api.refuseStream = undefined;
    const retried = store.retry(item!.key);
    expect(api.streamKeys).toHaveLength(2);
    expect(api.streamKeys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(api.streamKeys[1]).toBe(api.streamKeys[0]);
    api.stored = { view: view(), events: [{ revision: 1, type: 'MessageSent', data: { messageId: 'u1', role: 'user', text: 'hello' } } as StoredEvent] };
    api.streams[0]!.emit('turn_started');
    api.streams[0]!.end();
    await expect(retried).resolves.toBe('sent');
    expect(store.getState().items).toEqual([expect.objectContaining({ kind: 'user', key: 'u1', text: 'hello' })]);
  });

  test('each new message gets its own Idempotency-Key', async () => {
    const api = new FakeApi();
    const store = new ChatSessionStore(api, 's 1');
    api.refuseStream = ApiError.network(new TypeError('Failed to fetch'));
    await store.send('one');
    await store.send('two');
    expect(new Set(api.streamKeys).size).toBe(2);
  });

  test('a retry of a message that did reach the server (409 duplicate_request) is not an error: the stored message shows once', async () => {
    const api = new FakeApi();
    const store = new ChatSessionStore(api, 's 1');
    await store.refresh();
    api.refuseStream = ApiError.network(new TypeError('Failed to fetch'));
    await store.send('hello');
    api.refuseStream = new ApiError(409, 'duplicate_request', 'This message was already sent with the same Idempotency-Key.');
    api.stored = { view: view(), events: [{ revision: 1, type: 'MessageSent', data: { messageId: 'u1', role: 'user', text: 'hello' } } as StoredEvent] };
    await expect(store.retry(store.getState().items[0]!.key)).resolves.toBe('sent');
    expect(store.getState().items).toEqual([expect.objectContaining({ kind: 'user', key: 'u1', text: 'hello' })]);
    expect(store.getState().turn).toBe('none');
  });
});

describe("re-reading a session's events", () => {
  test('after a turn only the events after the last one read are asked for, and the transcript still has every message', async () => {
    const api = new FakeApi();
    api.stored = { view: view(), events: [message('u1', 'user', 'first', 0), message('a1', 'assistant', 'One.', 1)] };
    const store = new ChatSessionStore(api, 's');
    await store.refresh();
    expect(api.calls.at(-1)).toBe('GET /api/sessions/s/events?limit=1000');

    const sending = store.send('second');
    await until(() => api.streams.length === 1);
    api.stored = { view: view(), events: [...api.stored.events, message('u2', 'user', 'second', 2), message('a2', 'assistant', 'Two.', 3)] };
    api.streams[0]!.emit('turn_started');
    api.streams[0]!.end();
    await expect(sending).resolves.toBe('sent');
    expect(api.calls.at(-1)).toBe('GET /api/sessions/s/events?fromRevision=2&limit=1000');
    expect(store.getState().items.map((item) => item.key)).toEqual(['u1', 'a1', 'u2', 'a2']);

    // Nothing new: the read after the last event brings nothing, and nothing is lost or doubled.
    await store.refresh();
    expect(api.calls.at(-1)).toBe('GET /api/sessions/s/events?fromRevision=4&limit=1000');
    expect(store.getState().items.map((item) => item.key)).toEqual(['u1', 'a1', 'u2', 'a2']);
  });

  test('two reads that overlap add each event once', async () => {
    const api = new FakeApi();
    api.stored = { view: view(), events: [message('u1', 'user', 'first', 0)] };
    const store = new ChatSessionStore(api, 's');
    await Promise.all([store.refresh(), store.refresh()]);
    expect(store.getState().items.map((item) => item.key)).toEqual(['u1']);
  });
});

describe('retry and edit in the chat store', () => {
  const storedTurn = [message('t1-user', 'user', 'joke?', 1), message('t1-assistant-1', 'assistant', 'Joke one.', 2)];

  test('retryTurn posts /retry with the message id and an Idempotency-Key, streams the turn, then re-reads', async () => {
    const api = new FakeApi();
    api.stored = { view: view(), events: storedTurn };
    const store = new ChatSessionStore(api, 's 1');
    await store.refresh();
    const done = store.retryTurn('t1-user');
    await until(() => api.streams.length === 1);
    expect(api.calls.at(-1)).toBe('STREAM /api/sessions/s%201/retry {"messageId":"t1-user"}');
    expect(api.streamKeys[0]).toMatch(/\S{16,}/);
    expect(store.getState().items.map((i) => i.key)).toEqual(['t1-user']);
    api.streams[0]!.emit('turn_started');
    api.streams[0]!.emit('assistant_message', { messageId: 't2-assistant-1', text: 'Joke two.', toolCalls: 0 });
    api.streams[0]!.emit('turn_finished', { reason: 'completed' });
    api.stored = {
      view: view(),
      events: [
        ...storedTurn,
        {
          type: 'TurnRetried',
          data: { turnId: 't2', messageId: 't1-user', supersededMessageIds: ['t1-assistant-1'] },
          metadata: meta('e3'),
          streamId: 'session-s 1',
          revision: 3,
          position: 3,
        },
        message('t2-assistant-1', 'assistant', 'Joke two.', 4),
      ],
    };
    api.streams[0]!.end();
    await expect(done).resolves.toBe('sent');
    expect(store.getState().items.map((i) => (i.kind === 'user' || i.kind === 'assistant' ? i.text : i.kind))).toEqual(['joke?', 'Joke two.']);
  });

  test('a refused edit (stale message) or an unreachable server gives `refused`, never a "not sent" message, and shows the stored session again', async () => {
    const api = new FakeApi();
    api.stored = { view: view(), events: storedTurn };
    const store = new ChatSessionStore(api, 's 1');
    await store.refresh();
    api.refuseStream = new ApiError(409, 'not_last_user_message', 'Reload the conversation and try again.');
    await expect(store.editMessage('t1-user', 'riddle?')).resolves.toBe('refused');
    expect(api.calls).toContain('STREAM /api/sessions/s%201/messages/t1-user/edit {"text":"riddle?"}');
    expect(store.getState().items.map((i) => (i.kind === 'error' ? i.code : i.key))).toEqual(['t1-user', 't1-assistant-1', 'not_last_user_message']);

    api.refuseStream = ApiError.network(new Error('connection refused'));
    await expect(store.editMessage('t1-user', 'riddle?')).resolves.toBe('refused');
    expect(store.getState().items.some((i) => i.kind === 'user' && i.unsent !== undefined)).toBe(false);
    expect(
      store
        .getState()
        .items.filter((i) => i.kind === 'user')
        .map((i) => i.key),
    ).toEqual(['t1-user']);
  });
});
