// Google Gmail tools: the signed-in user's mailbox through the Gmail API v1.
var google_api = lib('google_api');
var mime = lib('mime');
var gmail_labels = lib('gmail_labels');

// The host the Gmail API's discovery document names (rootUrl), not the older shared www.googleapis.com.
var BASE = 'https://gmail.googleapis.com/gmail/v1/users/me';
// Below the execution engine's 30 000-character cut, so the note saying how much was cut survives.
var MAX_BODY_CHARS = 20000;
var THREAD_BODY_CHARS = 5000;

function _gmail(method, path, options) {
  return google_api.request('Gmail', method, BASE + path, options);
}

function _id(value) {
  return encodeURIComponent(String(value));
}

function _header(headers, name) {
  name = name.toLowerCase();
  for (var i = 0; i < (headers || []).length; i++) if (String(headers[i].name).toLowerCase() === name) return headers[i].value;
  return undefined;
}

// Gmail HTML-escapes snippets ("it&#39;s"). An entity that names no character (past U+10FFFF,
// where fromCodePoint throws, or a surrogate) is kept as written rather than failing the call.
function _unescape(text) {
  return String(text || '')
    .replace(/&#(\d+);/g, function (m, n) {
      var code = Number(n);
      return code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? m : String.fromCodePoint(code);
    })
    .replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

function _cut(text, max) {
  if (text.length <= max) return text;
  return text.slice(0, max) + '\n\n[body cut: showing the first ' + max + ' of ' + text.length + ' characters]';
}

function _charset(part) {
  var match = /charset\s*=\s*"?([^";\s]+)/i.exec(_header(part.headers, 'Content-Type') || '');
  return match ? match[1] : undefined;
}

// Collects the first text/plain and text/html bodies and every attachment of a MessagePart tree.
function _walk(part, found) {
  if (!part) return;
  var type = String(part.mimeType || '').toLowerCase();
  var body = part.body || {};
  if (part.filename || (body.attachmentId && type.indexOf('multipart/') !== 0)) {
    found.attachments.push({ filename: part.filename || '', mimeType: part.mimeType, size: body.size || 0, attachmentId: body.attachmentId, partId: part.partId });
  } else if (type === 'text/plain' && found.text === undefined && body.data !== undefined) {
    found.text = mime.decodeText(body.data, _charset(part));
  } else if (type === 'text/html' && found.html === undefined && body.data !== undefined) {
    found.html = mime.decodeText(body.data, _charset(part));
  }
  for (var i = 0; i < (part.parts || []).length; i++) _walk(part.parts[i], found);
}

// A users.messages resource (format=full) trimmed to what a reader needs.
function _message(message, bodyLimit) {
  var headers = (message.payload && message.payload.headers) || [];
  var found = { attachments: [] };
  _walk(message.payload, found);
  var body = found.text !== undefined ? found.text : found.html;
  return {
    id: message.id,
    threadId: message.threadId,
    labelIds: message.labelIds || [],
    from: _header(headers, 'From'),
    to: _header(headers, 'To'),
    cc: _header(headers, 'Cc'),
    replyTo: _header(headers, 'Reply-To'),
    subject: _header(headers, 'Subject'),
    date: _header(headers, 'Date'),
    snippet: _unescape(message.snippet),
    bodyFormat: found.text !== undefined ? 'text' : found.html !== undefined ? 'html' : 'none',
    body: body === undefined ? '' : _cut(body, bodyLimit),
    attachments: found.attachments,
  };
}

function _brief(message) {
  return { id: message.id, threadId: message.threadId, labelIds: message.labelIds || [] };
}

async function _modify(messageId, add, remove) {
  return _brief(await _gmail('POST', '/messages/' + _id(messageId) + '/modify', { body: { addLabelIds: add, removeLabelIds: remove } }));
}

// Resolves add_labels / remove_labels (names or ids); at least one label must be given.
async function _labelChanges(params) {
  if (!(params.add_labels || []).length && !(params.remove_labels || []).length) throw new Error('Give add_labels or remove_labels (label names or ids).');
  var resolve = gmail_labels.resolver();
  return { addLabelIds: await resolve(params.add_labels || []), removeLabelIds: await resolve(params.remove_labels || []) };
}

async function gmailSearch(params) {
  var list = await _gmail('GET', '/messages', { query: { q: params.query, maxResults: params.max_results || 20 } });
  var hits = list.messages || [];
  var messages = [];
  for (var i = 0; i < hits.length; i++) {
    var m = await _gmail('GET', '/messages/' + _id(hits[i].id), { query: { format: 'metadata', metadataHeaders: ['Subject', 'From', 'Date'] } });
    var headers = (m.payload && m.payload.headers) || [];
    messages.push({
      id: m.id,
      threadId: m.threadId,
      from: _header(headers, 'From'),
      subject: _header(headers, 'Subject'),
      date: _header(headers, 'Date'),
      snippet: _unescape(m.snippet),
      labelIds: m.labelIds || [],
    });
  }
  return { query: params.query, count: messages.length, resultSizeEstimate: list.resultSizeEstimate || 0, more: !!list.nextPageToken, messages: messages };
}

async function gmailGetMessage(params) {
  return _message(await _gmail('GET', '/messages/' + _id(params.message_id), { query: { format: 'full' } }), MAX_BODY_CHARS);
}

async function gmailSend(params) {
  var raw = mime.encodeMessage({ to: params.to, cc: params.cc, bcc: params.bcc, subject: params.subject, body: params.body, html: params.html === true });
  return _brief(await _gmail('POST', '/messages/send', { body: { raw: raw } }));
}

async function gmailReply(params) {
  var original = await _gmail('GET', '/messages/' + _id(params.message_id), {
    query: { format: 'metadata', metadataHeaders: ['Subject', 'From', 'To', 'Reply-To', 'Message-ID', 'References'] },
  });
  var headers = (original.payload && original.payload.headers) || [];
  // Answering one's own sent message continues the conversation with its recipients.
  var mine = (original.labelIds || []).indexOf('SENT') >= 0 && _header(headers, 'To');
  var to = mine ? _header(headers, 'To') : _header(headers, 'Reply-To') || _header(headers, 'From');
  if (!to) throw new Error('Message ' + params.message_id + ' has no From address to reply to.');
  var subject = _header(headers, 'Subject') || '';
  if (!/^re:/i.test(subject.trim())) subject = 'Re: ' + subject;
  var messageId = _header(headers, 'Message-ID');
  var references = [_header(headers, 'References'), messageId].filter(Boolean).join(' ');
  var raw = mime.encodeMessage({ to: to, subject: subject, body: params.body, html: params.html === true, inReplyTo: messageId, references: references });
  var sent = await _gmail('POST', '/messages/send', { body: { raw: raw, threadId: original.threadId } });
  var result = _brief(sent);
  result.to = to;
  result.subject = subject;
  return result;
}

async function gmailTrash(params) {
  var ids = params.message_id ? [params.message_id] : [];
  (params.message_ids || []).forEach(function (id) {
    if (ids.indexOf(id) < 0) ids.push(id);
  });
  if (ids.length === 0) throw new Error('Give message_id (one message) or message_ids (several).');
  if (ids.length === 1) {
    var message = await _gmail('POST', '/messages/' + _id(ids[0]) + '/trash');
    return { trashed: [message.id], count: 1 };
  }
  await _gmail('POST', '/messages/batchModify', { body: { ids: ids, addLabelIds: ['TRASH'], removeLabelIds: ['INBOX'] } });
  return { trashed: ids, count: ids.length };
}

async function gmailUntrash(params) {
  return _brief(await _gmail('POST', '/messages/' + _id(params.message_id) + '/untrash'));
}

async function gmailMarkRead(params) {
  return _modify(params.message_id, [], ['UNREAD']);
}

async function gmailMarkUnread(params) {
  return _modify(params.message_id, ['UNREAD'], []);
}

async function gmailAddLabel(params) {
  var ids = await gmail_labels.resolver()([params.label_id]);
  return _modify(params.message_id, ids, []);
}

async function gmailRemoveLabel(params) {
  var ids = await gmail_labels.resolver()([params.label_id]);
  return _modify(params.message_id, [], ids);
}

async function gmailListLabels() {
  var labels = (await _gmail('GET', '/labels')).labels || [];
  return {
    count: labels.length,
    labels: labels.map(function (l) { return { id: l.id, name: l.name, type: l.type }; }),
  };
}

async function gmailCreateLabel(params) {
  // The reference marks both visibilities required; the defaults are what Gmail's own UI gives a new label.
  var label = await _gmail('POST', '/labels', {
    body: {
      name: params.name,
      messageListVisibility: params.message_list_visibility || 'show',
      labelListVisibility: params.label_list_visibility || 'labelShow',
    },
  });
  return {
    id: label.id,
    name: label.name,
    type: label.type,
    messageListVisibility: label.messageListVisibility,
    labelListVisibility: label.labelListVisibility,
  };
}

async function gmailCreateDraft(params) {
  var raw = mime.encodeMessage({ to: params.to, cc: params.cc, subject: params.subject, body: params.body, html: params.html === true });
  var draft = await _gmail('POST', '/drafts', { body: { message: { raw: raw } } });
  return { id: draft.id, messageId: draft.message && draft.message.id, threadId: draft.message && draft.message.threadId };
}

async function gmailListDrafts(params) {
  var list = await _gmail('GET', '/drafts', { query: { maxResults: params.max_results || 20 } });
  var drafts = (list.drafts || []).map(function (d) {
    return { id: d.id, messageId: d.message && d.message.id, threadId: d.message && d.message.threadId };
  });
  return { count: drafts.length, resultSizeEstimate: list.resultSizeEstimate || 0, more: !!list.nextPageToken, drafts: drafts };
}

async function gmailSendDraft(params) {
  return _brief(await _gmail('POST', '/drafts/send', { body: { id: params.draft_id } }));
}

// The attachment is decoded and saved on the host: as base64url in the sandbox, one over about
// 3 MB would pass the bridge's 4 Mi-character limit (Gmail allows 25 MB).
async function gmailGetAttachment(params) {
  var path = '/messages/' + _id(params.message_id) + '/attachments/' + _id(params.attachment_id);
  var response = await _gmail('GET', path, { saveTo: params.save_path, saveFrom: { field: 'data', encoding: 'base64url' } });
  return { path: params.save_path, size: response.saved.bytes };
}

async function gmailListThreads(params) {
  var list = await _gmail('GET', '/threads', { query: { q: params.query, maxResults: params.max_results || 20 } });
  var threads = (list.threads || []).map(function (t) {
    return { id: t.id, snippet: _unescape(t.snippet), historyId: t.historyId };
  });
  return { query: params.query, count: threads.length, resultSizeEstimate: list.resultSizeEstimate || 0, more: !!list.nextPageToken, threads: threads };
}

async function gmailGetThread(params) {
  var thread = await _gmail('GET', '/threads/' + _id(params.thread_id), { query: { format: 'full' } });
  var messages = (thread.messages || []).map(function (m) { return _message(m, THREAD_BODY_CHARS); });
  return { id: thread.id, historyId: thread.historyId, messageCount: messages.length, messages: messages };
}

async function gmailModifyLabels(params) {
  if (!!params.message_id === !!params.thread_id) throw new Error('Give exactly one of message_id or thread_id.');
  var changes = await _labelChanges(params);
  if (params.message_id) return _modify(params.message_id, changes.addLabelIds, changes.removeLabelIds);
  var thread = await _gmail('POST', '/threads/' + _id(params.thread_id) + '/modify', { body: changes });
  return { threadId: thread.id, messages: (thread.messages || []).map(_brief) };
}

async function gmailDeleteLabel(params) {
  var ids = await gmail_labels.resolver()([params.label_id]);
  await _gmail('DELETE', '/labels/' + _id(ids[0]));
  return { deleted: ids[0] };
}

async function gmailGetDraft(params) {
  var draft = await _gmail('GET', '/drafts/' + _id(params.draft_id), { query: { format: 'full' } });
  return { id: draft.id, message: _message(draft.message || {}, MAX_BODY_CHARS) };
}

async function gmailDeleteDraft(params) {
  await _gmail('DELETE', '/drafts/' + _id(params.draft_id));
  return { deleted: params.draft_id };
}

function _historyMessages(entries, withLabels) {
  return (entries || []).map(function (e) {
    var out = { id: e.message.id, threadId: e.message.threadId };
    if (withLabels) out.labelIds = e.labelIds || [];
    return out;
  });
}

async function gmailHistory(params) {
  var labelId = params.label_id ? (await gmail_labels.resolver()([params.label_id]))[0] : undefined;
  var result = await _gmail('GET', '/history', { query: { startHistoryId: params.start_history_id, maxResults: params.max_results || 50, labelId: labelId } });
  var changes = (result.history || []).map(function (h) {
    var change = { id: h.id };
    if (h.messagesAdded) change.messagesAdded = _historyMessages(h.messagesAdded, false);
    if (h.messagesDeleted) change.messagesDeleted = _historyMessages(h.messagesDeleted, false);
    if (h.labelsAdded) change.labelsAdded = _historyMessages(h.labelsAdded, true);
    if (h.labelsRemoved) change.labelsRemoved = _historyMessages(h.labelsRemoved, true);
    return change;
  });
  return { historyId: result.historyId, count: changes.length, more: !!result.nextPageToken, changes: changes };
}

async function gmailBatchModify(params) {
  var changes = await _labelChanges(params);
  await _gmail('POST', '/messages/batchModify', {
    body: { ids: params.message_ids, addLabelIds: changes.addLabelIds, removeLabelIds: changes.removeLabelIds },
  });
  return { modified: params.message_ids.length, addLabelIds: changes.addLabelIds, removeLabelIds: changes.removeLabelIds };
}
