import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { registerTasksRoutes, type TasksFake } from '../testing/fake-google/tasks';
import { googleToolChecks, type GoogleToolChecks } from '../testing/google-tool-checks';
import { startToolHarness, type ToolHarness } from '../testing/tool-harness';

const MY_TASKS = 'MDk4NzY1NDMyMTA5ODc2NTQzMjE6MDow';
const WORK = 'MTIzNDU2Nzg5MDEyMzQ1Njc4OTA6MTow';
const GROCERIES = 'Z3JvY2VyaWVzMDAwMDAwMQ';
const TAXES = 'dGF4cmV0dXJuMDAwMDAwMDE';

let h: ToolHarness;
let tasks: TasksFake;
let c: GoogleToolChecks;
beforeAll(async () => {
  h = await startToolHarness({ files: ['google_tasks'] });
  tasks = registerTasksRoutes(h.api);
  c = googleToolChecks(h, 'Tasks', 'tasks.googleapis.com');
});
beforeEach(() => h.api.clearRequests());
afterAll(async () => {
  expect(h.api.unmatched).toEqual([]);
  await h.close();
});

function titles(result: { tasks: { title: string }[] }): string[] {
  return result.tasks.map((t) => t.title);
}

describe('J8 google_tasks: reading', () => {
  it('tasks_list_tasklists: the lists with ids and titles', async () => {
    const result = c.ok(await h.call('tasks_list_tasklists'));
    expect(c.sent()).toEqual(['GET /tasks/v1/users/@me/lists']);
    expect(result.tasklists).toEqual([
      { id: MY_TASKS, title: 'My Tasks', updated: '2024-05-02T08:00:00.000Z' },
      { id: WORK, title: 'Work', updated: '2024-05-02T08:00:00.000Z' },
    ]);
  });

  it('tasks_list_tasks: open tasks by default (showCompleted=false said explicitly), subtasks after their parent', async () => {
    const open = c.ok(await h.call('tasks_list_tasks', { tasklist_id: '@default' }));
    expect(c.sent()).toEqual(['GET /tasks/v1/lists/%40default/tasks']);
    expect(Object.fromEntries(c.request(0).query)).toEqual({ showCompleted: 'false' });
    expect(titles(open)).toEqual(['Buy groceries', 'Coffee beans', 'File tax return']);
    expect(open.tasks[0]).toEqual({
      id: GROCERIES,
      title: 'Buy groceries',
      notes: 'Milk, eggs, coffee',
      status: 'needsAction',
      due: '2024-05-10T00:00:00.000Z',
      position: '00000000000000000000',
      updated: '2024-05-02T08:00:00.000Z',
      webViewLink: `https://tasks.google.com/task/${GROCERIES}?sa=6`,
    });
    expect(open.tasks[1].parent).toBe(GROCERIES);
  });

  it('tasks_list_tasks: show_completed includes tasks completed anywhere (showHidden too); max_results pages', async () => {
    const all = c.ok(await h.call('tasks_list_tasks', { tasklist_id: MY_TASKS, show_completed: true }));
    expect(c.sent()).toEqual([`GET /tasks/v1/lists/${MY_TASKS}/tasks`]);
    expect(Object.fromEntries(c.request(0).query)).toEqual({ showCompleted: 'true', showHidden: 'true' });
    expect(titles(all)).toEqual(['Buy groceries', 'Coffee beans', 'File tax return', 'Call the plumber', 'Renew passport']);
    expect(all.tasks[4]).toMatchObject({ status: 'completed', completed: '2024-04-20T10:00:00.000Z' });

    h.api.clearRequests();
    const two = c.ok(await h.call('tasks_list_tasks', { tasklist_id: MY_TASKS, max_results: 2 }));
    expect(c.request(0).query.get('maxResults')).toBe('2');
    expect(titles(two)).toEqual(['Buy groceries', 'Coffee beans']);
    expect(two.more).toMatch(/More tasks/);

    c.apiError(await h.call('tasks_list_tasks', { tasklist_id: 'nolist' }), 404);
    c.invalid(await h.call('tasks_list_tasks', { tasklist_id: MY_TASKS, max_results: 101 }));
  });

  it('tasks_get_task: one task; unknown is 404; a missing task id is a validation error', async () => {
    const task = c.ok(await h.call('tasks_get_task', { tasklist_id: WORK, task_id: 'cWJyc2xpZGVzMDAwMDAwMDE' }));
    expect(c.sent()).toEqual([`GET /tasks/v1/lists/${WORK}/tasks/cWJyc2xpZGVzMDAwMDAwMDE`]);
    expect(task).toMatchObject({ title: 'Prepare QBR slides', status: 'needsAction', due: '2024-05-14T00:00:00.000Z' });
    c.apiError(await h.call('tasks_get_task', { tasklist_id: WORK, task_id: 'nosuchtask' }), 404);
    c.invalid(await h.call('tasks_get_task', { tasklist_id: WORK }));
  });
});

describe('J8 google_tasks: writing', () => {
  it('tasks_create_task: title, notes and a bare due date made RFC 3339; the new task goes first', async () => {
    const task = c.ok(await h.call('tasks_create_task', { tasklist_id: WORK, title: 'Send the minutes', notes: 'To the whole team', due: '2024-05-16' }));
    expect(c.sent()).toEqual([`POST /tasks/v1/lists/${WORK}/tasks`]);
    expect(c.request(0).query.toString()).toBe('');
    expect(c.body(0)).toEqual({ title: 'Send the minutes', notes: 'To the whole team', due: '2024-05-16T00:00:00.000Z' });
    expect(task).toMatchObject({ title: 'Send the minutes', status: 'needsAction', due: '2024-05-16T00:00:00.000Z', position: '00000000000000000000' });
    expect(tasks.lists[1]?.tasks.map((t) => t.title)).toEqual(['Send the minutes', 'Prepare QBR slides']);
  });

  it('tasks_create_task: a subtask through ?parent=; an unknown parent is refused; a title is required', async () => {
    const sub = c.ok(await h.call('tasks_create_task', { tasklist_id: '@default', title: 'Eggs', parent: GROCERIES, due: '2024-05-09T15:00:00+02:00' }));
    expect(c.sent()).toEqual(['POST /tasks/v1/lists/%40default/tasks']);
    expect(c.request(0).query.get('parent')).toBe(GROCERIES);
    expect(c.body(0)).toEqual({ title: 'Eggs', due: '2024-05-09T15:00:00+02:00' });
    expect(sub).toMatchObject({ parent: GROCERIES, due: '2024-05-09T00:00:00.000Z' });
    expect(titles(c.ok(await h.call('tasks_list_tasks', { tasklist_id: MY_TASKS })))).toEqual(['Buy groceries', 'Eggs', 'Coffee beans', 'File tax return']);

    c.apiError(await h.call('tasks_create_task', { tasklist_id: MY_TASKS, title: 'Orphan', parent: 'nosuchtask' }), 400);
    c.invalid(await h.call('tasks_create_task', { tasklist_id: MY_TASKS }));
  });

  it('tasks_update_task: GET, merge, PUT the whole task; reopening clears the completion time', async () => {
    const updated = c.ok(await h.call('tasks_update_task', { tasklist_id: MY_TASKS, task_id: TAXES, title: 'File 2023 tax return', due: '2024-06-15' }));
    expect(c.sent()).toEqual([`GET /tasks/v1/lists/${MY_TASKS}/tasks/${TAXES}`, `PUT /tasks/v1/lists/${MY_TASKS}/tasks/${TAXES}`]);
    expect(c.body(1)).toMatchObject({ id: TAXES, kind: 'tasks#task', title: 'File 2023 tax return', status: 'needsAction', due: '2024-06-15T00:00:00.000Z' });
    expect(updated).toMatchObject({ id: TAXES, title: 'File 2023 tax return', due: '2024-06-15T00:00:00.000Z' });

    h.api.clearRequests();
    const reopened = c.ok(await h.call('tasks_update_task', { tasklist_id: MY_TASKS, task_id: 'cGx1bWJlcjAwMDAwMDAwMDE', status: 'needsAction' }));
    expect(c.body(1).status).toBe('needsAction');
    expect(c.body(1).completed).toBeUndefined();
    expect(reopened).toMatchObject({ title: 'Call the plumber', status: 'needsAction' });
    expect(reopened.completed).toBeUndefined();
    c.invalid(await h.call('tasks_update_task', { tasklist_id: MY_TASKS, task_id: TAXES, status: 'done' }));
    c.apiError(await h.call('tasks_update_task', { tasklist_id: MY_TASKS, task_id: 'nosuchtask', title: 'x' }), 404);
  });

  it('tasks_complete_task: GET, then PUT with status completed and completed = now', async () => {
    const before = Date.now();
    const done = c.ok(await h.call('tasks_complete_task', { tasklist_id: WORK, task_id: 'cWJyc2xpZGVzMDAwMDAwMDE' }));
    expect(c.sent()).toEqual([`GET /tasks/v1/lists/${WORK}/tasks/cWJyc2xpZGVzMDAwMDAwMDE`, `PUT /tasks/v1/lists/${WORK}/tasks/cWJyc2xpZGVzMDAwMDAwMDE`]);
    const put = c.body(1);
    expect(put).toMatchObject({ title: 'Prepare QBR slides', status: 'completed', completed: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/) });
    expect(Math.abs(Date.parse(put.completed) - before)).toBeLessThan(60_000);
    expect(done).toMatchObject({ status: 'completed', completed: new Date(Date.parse(put.completed)).toISOString() });
    expect(titles(c.ok(await h.call('tasks_list_tasks', { tasklist_id: WORK })))).not.toContain('Prepare QBR slides');
    c.apiError(await h.call('tasks_complete_task', { tasklist_id: WORK, task_id: 'nosuchtask' }), 404);
  });

  it('tasks_delete_task: DELETE answers 204; the task and its subtasks are gone', async () => {
    expect(c.ok(await h.call('tasks_delete_task', { tasklist_id: MY_TASKS, task_id: GROCERIES }))).toEqual({ success: true, deleted: GROCERIES });
    expect(c.sent()).toEqual([`DELETE /tasks/v1/lists/${MY_TASKS}/tasks/${GROCERIES}`]);
    expect(tasks.task(MY_TASKS, GROCERIES)).toBeUndefined();
    expect(tasks.lists[0]?.tasks.some((t) => t.parent === GROCERIES)).toBe(false);
    c.apiError(await h.call('tasks_delete_task', { tasklist_id: MY_TASKS, task_id: GROCERIES }), 404);
  });

  it('tasks_create_tasklist: POST the title; the list can take tasks at once', async () => {
    const list = c.ok(await h.call('tasks_create_tasklist', { title: 'Holiday packing' }));
    expect(c.sent()).toEqual(['POST /tasks/v1/users/@me/lists']);
    expect(c.body(0)).toEqual({ title: 'Holiday packing' });
    expect(list).toEqual({ id: expect.any(String), title: 'Holiday packing', updated: expect.any(String) });
    c.ok(await h.call('tasks_create_task', { tasklist_id: list.id, title: 'Sunscreen' }));
    expect(tasks.lists.at(-1)?.tasks.map((t) => t.title)).toEqual(['Sunscreen']);
    c.invalid(await h.call('tasks_create_tasklist', {}));
  });
});
