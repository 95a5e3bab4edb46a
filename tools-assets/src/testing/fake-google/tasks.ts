import { randomBytes } from 'node:crypto';
import { GoogleApiError, type FakeGoogleApi, type GoogleRequest } from '../fake-google-api';
import { pageOf } from './paging';

/** The service host of the Tasks discovery document (rootUrl); the fake answers only there. */
const HOST = 'tasks.googleapis.com';
const V1 = '/tasks/v1';

/** A Task resource as the Tasks API returns it. */
export interface Task {
  kind: 'tasks#task';
  id: string;
  etag: string;
  title: string;
  updated: string;
  selfLink: string;
  parent?: string;
  position: string;
  notes?: string;
  status: 'needsAction' | 'completed';
  due?: string;
  completed?: string;
  hidden?: boolean;
  links: unknown[];
  webViewLink: string;
}

export interface FakeTaskList {
  id: string;
  title: string;
  etag: string;
  updated: string;
  /** Tasks in position order (subtasks keep their own order among siblings). */
  readonly tasks: Task[];
}

export interface TasksFake {
  /** The user's task lists in order; the first is `@default`. */
  readonly lists: FakeTaskList[];
  task(listId: string, taskId: string): Task | undefined;
}

const READ_ONLY = ['kind', 'id', 'etag', 'updated', 'selfLink', 'parent', 'position', 'links', 'webViewLink', 'hidden', 'deleted', 'assignmentInfo'];

/**
 * A fake of the Google Tasks API v1 (https://developers.google.com/tasks/reference/rest): task
 * lists and tasks in memory, seeded with "My Tasks" (the `@default` list, with a subtask, a task
 * completed through the API and one completed in Google's own apps, which the API hides) and "Work".
 *
 * Like the API: `showCompleted` defaults to true and `showHidden` to false, `maxResults` is at most
 * 100 per page, new tasks go first among their siblings, `due` and `completed` must be RFC 3339
 * (the due time is dropped, only the date is kept), `status` is needsAction or completed (completing
 * sets `completed`, reopening clears it), a parent must be a task of the same list, and unknown
 * lists or tasks are 404. Deleting a task removes it and its subtasks.
 */
export function registerTasksRoutes(api: FakeGoogleApi): TasksFake {
  const lists: FakeTaskList[] = [];
  seed(lists);

  const listOf = (req: GoogleRequest): FakeTaskList => {
    const id = req.params.tasklist as string;
    const list = id === '@default' ? lists[0] : lists.find((l) => l.id === id);
    if (!list) throw new GoogleApiError(404, 'Task list not found.');
    return list;
  };
  const taskOf = (list: FakeTaskList, req: GoogleRequest): Task => {
    const task = list.tasks.find((t) => t.id === req.params.task);
    if (!task) throw new GoogleApiError(404, 'Task not found.');
    return task;
  };

  api.route('GET', HOST, `${V1}/users/@me/lists`, (req) => {
    const page = pageOf(lists.map(listResource), req, 'maxResults', 1000, 1000);
    return { json: { kind: 'tasks#taskLists', etag: etag(), ...page } };
  });

  api.route('POST', HOST, `${V1}/users/@me/lists`, (req) => {
    const body = req.json<{ title?: unknown }>();
    if (typeof body.title !== 'string' || body.title.trim() === '') throw new GoogleApiError(400, 'Invalid task list title: a non-empty title is required.');
    if (body.title.length > 1024) throw new GoogleApiError(400, 'Invalid task list title: at most 1024 characters.');
    const list: FakeTaskList = { id: randomId(), title: body.title, etag: etag(), updated: now(), tasks: [] };
    lists.push(list);
    return { json: listResource(list) };
  });

  api.route('GET', HOST, `${V1}/lists/{tasklist}/tasks`, (req) => {
    const list = listOf(req);
    const showCompleted = flag(req, 'showCompleted', true);
    const showHidden = flag(req, 'showHidden', false);
    const visible = ordered(list).filter((t) => (showCompleted || t.status !== 'completed') && (showHidden || !t.hidden));
    return { json: { kind: 'tasks#tasks', etag: etag(), ...pageOf(visible, req, 'maxResults', 20, 100) } };
  });

  api.route('POST', HOST, `${V1}/lists/{tasklist}/tasks`, (req) => {
    const list = listOf(req);
    const parent = req.query.get('parent') ?? undefined;
    if (parent !== undefined && !list.tasks.some((t) => t.id === parent)) throw new GoogleApiError(400, `Invalid parent task: ${parent}`);
    const previous = req.query.get('previous') ?? undefined;
    const siblings = list.tasks.filter((t) => t.parent === parent);
    const after = previous === undefined ? -1 : siblings.findIndex((t) => t.id === previous);
    if (after < 0 && previous !== undefined) throw new GoogleApiError(400, `Invalid previous task: ${previous}`);
    const id = randomId();
    const task: Task = {
      kind: 'tasks#task',
      id,
      etag: etag(),
      title: '',
      updated: now(),
      selfLink: `https://www.googleapis.com/tasks/v1/lists/${list.id}/tasks/${id}`,
      ...(parent !== undefined ? { parent } : {}),
      position: '',
      status: 'needsAction',
      links: [],
      webViewLink: `https://tasks.google.com/task/${id}?sa=6`,
      ...writable(req.json()),
    };
    const anchor = after < 0 ? siblings[0] : siblings[after + 1];
    list.tasks.splice(anchor ? list.tasks.indexOf(anchor) : list.tasks.length, 0, task);
    renumber(list);
    list.updated = task.updated;
    return { json: task };
  });

  api.route('GET', HOST, `${V1}/lists/{tasklist}/tasks/{task}`, (req) => ({ json: taskOf(listOf(req), req) }));

  api.route('PUT', HOST, `${V1}/lists/{tasklist}/tasks/{task}`, (req) => {
    const list = listOf(req);
    const task = taskOf(list, req);
    const body = req.json();
    if (body.id !== undefined && body.id !== task.id) throw new GoogleApiError(400, 'Invalid value for id: it must match the task in the URL.');
    const fields = writable(body);
    for (const key of ['title', 'notes', 'due', 'completed'] as const) delete task[key];
    Object.assign(task, { title: '', status: 'needsAction' }, fields, { etag: etag(), updated: now() });
    if (task.status !== 'completed') delete task.completed;
    list.updated = task.updated;
    return { json: task };
  });

  api.route('DELETE', HOST, `${V1}/lists/{tasklist}/tasks/{task}`, (req) => {
    const list = listOf(req);
    const doomed = new Set([taskOf(list, req).id]);
    for (const t of list.tasks) if (t.parent !== undefined && doomed.has(t.parent)) doomed.add(t.id);
    list.tasks.splice(0, list.tasks.length, ...list.tasks.filter((t) => !doomed.has(t.id)));
    renumber(list);
    return { status: 204 };
  });

  return {
    lists,
    task: (listId, taskId) => (listId === '@default' ? lists[0] : lists.find((l) => l.id === listId))?.tasks.find((t) => t.id === taskId),
  };
}

/** The writable fields of a task body, checked as the API checks them. */
function writable(body: Record<string, unknown>): Partial<Task> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) if (!READ_ONLY.includes(key) && value !== null && value !== undefined) out[key] = value;
  if (out.title !== undefined && typeof out.title !== 'string') throw new GoogleApiError(400, 'Invalid value for title.');
  if (typeof out.title === 'string' && out.title.length > 1024) throw new GoogleApiError(400, 'Invalid value for title: at most 1024 characters.');
  if (out.notes !== undefined && (typeof out.notes !== 'string' || out.notes.length > 8192)) throw new GoogleApiError(400, 'Invalid value for notes.');
  if (out.status !== undefined && out.status !== 'needsAction' && out.status !== 'completed') throw new GoogleApiError(400, `Invalid value for status: ${String(out.status)}`);
  if (out.due !== undefined) out.due = `${new Date(timestamp(out.due, 'due')).toISOString().slice(0, 10)}T00:00:00.000Z`;
  if (out.completed !== undefined) out.completed = new Date(timestamp(out.completed, 'completed')).toISOString();
  if (out.status === 'completed' && out.completed === undefined) out.completed = now();
  return out as Partial<Task>;
}

function timestamp(value: unknown, name: string): number {
  const ok = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i.test(value);
  if (!ok || Number.isNaN(Date.parse(value as string))) throw new GoogleApiError(400, `Invalid value for ${name}: ${String(value)} (an RFC 3339 timestamp is required).`);
  return Date.parse(value as string);
}

/** Top-level tasks in position order, each followed by its subtasks. */
function ordered(list: FakeTaskList): Task[] {
  const top = list.tasks.filter((t) => t.parent === undefined);
  return top.flatMap((t) => [t, ...list.tasks.filter((c) => c.parent === t.id)]);
}

function renumber(list: FakeTaskList): void {
  const counters = new Map<string | undefined, number>();
  for (const task of list.tasks) {
    const n = counters.get(task.parent) ?? 0;
    counters.set(task.parent, n + 1);
    task.position = String(n).padStart(20, '0');
  }
}

function flag(req: GoogleRequest, name: string, fallback: boolean): boolean {
  const value = req.query.get(name);
  if (value === null) return fallback;
  if (value !== 'true' && value !== 'false') throw new GoogleApiError(400, `Invalid boolean value for ${name}: ${value}`);
  return value === 'true';
}

function listResource(list: FakeTaskList): Record<string, unknown> {
  return {
    kind: 'tasks#taskList',
    id: list.id,
    etag: list.etag,
    title: list.title,
    updated: list.updated,
    selfLink: `https://www.googleapis.com/tasks/v1/users/@me/lists/${list.id}`,
  };
}

function now(): string {
  return new Date().toISOString();
}

function etag(): string {
  return `"${randomBytes(9).toString('base64url')}"`;
}

function randomId(): string {
  return randomBytes(16).toString('base64url');
}

function seed(lists: FakeTaskList[]): void {
  const list = (id: string, title: string): FakeTaskList => {
    const l: FakeTaskList = { id, title, etag: etag(), updated: '2024-05-02T08:00:00.000Z', tasks: [] };
    lists.push(l);
    return l;
  };
  const add = (l: FakeTaskList, id: string, fields: Partial<Task>): void => {
    l.tasks.push({
      kind: 'tasks#task',
      id,
      etag: etag(),
      title: '',
      updated: '2024-05-02T08:00:00.000Z',
      selfLink: `https://www.googleapis.com/tasks/v1/lists/${l.id}/tasks/${id}`,
      position: '',
      status: 'needsAction',
      links: [],
      webViewLink: `https://tasks.google.com/task/${id}?sa=6`,
      ...fields,
    });
    renumber(l);
  };
  const mine = list('MDk4NzY1NDMyMTA5ODc2NTQzMjE6MDow', 'My Tasks');
  add(mine, 'Z3JvY2VyaWVzMDAwMDAwMQ', { title: 'Buy groceries', notes: 'Milk, eggs, coffee', due: '2024-05-10T00:00:00.000Z' });
  add(mine, 'Y29mZmVlYmVhbnMwMDAwMDE', { title: 'Coffee beans', parent: 'Z3JvY2VyaWVzMDAwMDAwMQ' });
  add(mine, 'dGF4cmV0dXJuMDAwMDAwMDE', { title: 'File tax return', due: '2024-05-31T00:00:00.000Z' });
  add(mine, 'cGx1bWJlcjAwMDAwMDAwMDE', { title: 'Call the plumber', status: 'completed', completed: '2024-05-01T17:12:40.000Z' });
  add(mine, 'cGFzc3BvcnQwMDAwMDAwMDE', { title: 'Renew passport', status: 'completed', completed: '2024-04-20T10:00:00.000Z', hidden: true });
  const work = list('MTIzNDU2Nzg5MDEyMzQ1Njc4OTA6MTow', 'Work');
  add(work, 'cWJyc2xpZGVzMDAwMDAwMDE', { title: 'Prepare QBR slides', due: '2024-05-14T00:00:00.000Z' });
}
