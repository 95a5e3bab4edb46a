// Google Tasks tools: Tasks API v1 (https://developers.google.com/tasks/reference/rest).
var google_api = lib('google_api');

// The host the Tasks API's discovery document names (rootUrl), not the older shared www.googleapis.com.
var BASE = 'https://tasks.googleapis.com/tasks/v1';
var API = 'Tasks';

function _taskUrl(tasklistId, taskId) {
  var url = BASE + '/lists/' + encodeURIComponent(tasklistId) + '/tasks';
  return taskId === undefined ? url : url + '/' + encodeURIComponent(taskId);
}

/** The API only takes an RFC 3339 timestamp for `due` (it keeps the date part): accept a bare date too. */
function _due(value) {
  if (value === undefined || value === null || value === '') return undefined;
  var text = String(value).trim();
  return /^\d{4}-\d{2}-\d{2}$/.test(text) ? text + 'T00:00:00.000Z' : text;
}

function _task(t) {
  return {
    id: t.id,
    title: t.title,
    notes: t.notes,
    status: t.status,
    due: t.due,
    completed: t.completed,
    parent: t.parent,
    position: t.position,
    updated: t.updated,
    webViewLink: t.webViewLink,
  };
}

async function tasksListTasklists() {
  var data = await google_api.request(API, 'GET', BASE + '/users/@me/lists');
  return {
    tasklists: (data.items || []).map(function (list) {
      return { id: list.id, title: list.title, updated: list.updated };
    }),
  };
}

async function tasksListTasks(params) {
  // The API shows completed tasks unless told otherwise, and hides those completed in Google's
  // own apps unless showHidden is set: say both explicitly so show_completed means what it says.
  var showCompleted = params.show_completed === true;
  var data = await google_api.request(API, 'GET', _taskUrl(params.tasklist_id), {
    query: { showCompleted: String(showCompleted), showHidden: showCompleted ? 'true' : undefined, maxResults: params.max_results },
  });
  var out = { tasks: (data.items || []).map(_task) };
  if (data.nextPageToken) out.more = 'More tasks exist: raise max_results (at most 100).';
  return out;
}

async function tasksGetTask(params) {
  return _task(await google_api.request(API, 'GET', _taskUrl(params.tasklist_id, params.task_id)));
}

async function tasksCreateTask(params) {
  var task = await google_api.request(API, 'POST', _taskUrl(params.tasklist_id), {
    query: { parent: params.parent },
    body: { title: params.title, notes: params.notes, due: _due(params.due) },
  });
  return _task(task);
}

async function tasksUpdateTask(params) {
  var url = _taskUrl(params.tasklist_id, params.task_id);
  var task = await google_api.request(API, 'GET', url);
  if (params.title !== undefined) task.title = params.title;
  if (params.notes !== undefined) task.notes = params.notes;
  if (params.due !== undefined) task.due = _due(params.due);
  if (params.status !== undefined && params.status !== task.status) {
    task.status = params.status;
    if (params.status === 'completed') task.completed = new Date().toISOString();
    else delete task.completed;
  }
  return _task(await google_api.request(API, 'PUT', url, { body: task }));
}

async function tasksCompleteTask(params) {
  var url = _taskUrl(params.tasklist_id, params.task_id);
  var task = await google_api.request(API, 'GET', url);
  task.status = 'completed';
  task.completed = new Date().toISOString();
  return _task(await google_api.request(API, 'PUT', url, { body: task }));
}

async function tasksDeleteTask(params) {
  await google_api.request(API, 'DELETE', _taskUrl(params.tasklist_id, params.task_id));
  return { success: true, deleted: params.task_id };
}

async function tasksCreateTasklist(params) {
  var list = await google_api.request(API, 'POST', BASE + '/users/@me/lists', { body: { title: params.title } });
  return { id: list.id, title: list.title, updated: list.updated };
}
