// Google Gmail Settings tools: users.settings of the Gmail API v1 for the signed-in user.
var google_api = lib('google_api');
var gmail_labels = lib('gmail_labels');

// The host the Gmail API's discovery document names (rootUrl), not the older shared www.googleapis.com.
var SETTINGS = 'https://gmail.googleapis.com/gmail/v1/users/me/settings';

function _settings(method, path, options) {
  return google_api.request('Gmail', method, SETTINGS + path, options);
}

// Gmail times are epoch milliseconds as int64 strings; people and models write ISO 8601.
function _millis(value, name) {
  if (value === undefined) return undefined;
  if (/^\d{10,}$/.test(value)) return value;
  var time = Date.parse(value);
  if (isNaN(time)) throw new Error(name + " must be an ISO 8601 date or date-time such as '2025-07-01' or '2025-07-01T08:00:00Z', not '" + value + "'.");
  return String(time);
}

function _iso(millis) {
  return millis ? new Date(Number(millis)).toISOString() : undefined;
}

function _vacation(v) {
  return {
    enableAutoReply: v.enableAutoReply === true,
    responseSubject: v.responseSubject || '',
    responseBodyHtml: v.responseBodyHtml || '',
    responseBodyPlainText: v.responseBodyPlainText || '',
    restrictToContacts: v.restrictToContacts === true,
    restrictToDomain: v.restrictToDomain === true,
    startTime: _iso(v.startTime),
    endTime: _iso(v.endTime),
  };
}

// PUT replaces the whole resource, so what the caller leaves out is read first and kept.
async function _update(path, changes) {
  var current = await _settings('GET', path);
  var next = {};
  for (var key in current) if (Object.prototype.hasOwnProperty.call(current, key)) next[key] = current[key];
  for (var name in changes) if (changes[name] !== undefined) next[name] = changes[name];
  return _settings('PUT', path, { body: next });
}

async function gmailSettingsGetVacation() {
  return _vacation(await _settings('GET', '/vacation'));
}

async function gmailSettingsUpdateVacation(params) {
  var changes = {
    enableAutoReply: params.enable_auto_reply,
    startTime: _millis(params.start_time, 'start_time'),
    endTime: _millis(params.end_time, 'end_time'),
    responseSubject: params.subject,
    responseBodyHtml: params.body_html,
    restrictToDomain: params.restrict_to_domain,
    restrictToContacts: params.restrict_to_contacts,
  };
  if (changes.startTime && changes.endTime && Number(changes.endTime) <= Number(changes.startTime)) throw new Error('end_time must be after start_time.');
  return _vacation(await _update('/vacation', changes));
}

async function gmailSettingsGetImap() {
  return _settings('GET', '/imap');
}

async function gmailSettingsUpdateImap(params) {
  var changes = { enabled: params.enabled, autoExpunge: params.auto_expunge, expungeBehavior: params.expunge_behavior, maxFolderSize: params.max_folder_size };
  if (Object.keys(changes).every(function (k) { return changes[k] === undefined; })) {
    throw new Error('Give at least one of enabled, auto_expunge, expunge_behavior or max_folder_size.');
  }
  return _update('/imap', changes);
}

async function gmailSettingsListFilters() {
  var filters = (await _settings('GET', '/filters')).filter || [];
  return { count: filters.length, filters: filters.map(function (f) { return { id: f.id, criteria: f.criteria || {}, action: f.action || {} }; }) };
}

async function gmailSettingsCreateFilter(params) {
  var criteria = {};
  ['from', 'to', 'subject', 'query'].forEach(function (key) {
    if (params[key] !== undefined && params[key] !== '') criteria[key] = params[key];
  });
  if (Object.keys(criteria).length === 0) throw new Error('A filter needs a criterion: give from, to, subject or query.');
  if (!(params.add_label_ids || []).length && !(params.remove_label_ids || []).length) {
    throw new Error('A filter needs an action: give add_label_ids or remove_label_ids.');
  }
  var resolve = gmail_labels.resolver();
  var action = {};
  if ((params.add_label_ids || []).length) action.addLabelIds = await resolve(params.add_label_ids);
  if ((params.remove_label_ids || []).length) action.removeLabelIds = await resolve(params.remove_label_ids);
  var filter = await _settings('POST', '/filters', { body: { criteria: criteria, action: action } });
  return { id: filter.id, criteria: filter.criteria, action: filter.action };
}

async function gmailSettingsDeleteFilter(params) {
  await _settings('DELETE', '/filters/' + encodeURIComponent(params.filter_id));
  return { deleted: params.filter_id };
}

async function gmailSettingsListForwardingAddresses() {
  var addresses = (await _settings('GET', '/forwardingAddresses')).forwardingAddresses || [];
  return { count: addresses.length, forwardingAddresses: addresses };
}

async function gmailSettingsGetAutoForwarding() {
  return _settings('GET', '/autoForwarding');
}

async function gmailSettingsListSendAs() {
  var sendAs = (await _settings('GET', '/sendAs')).sendAs || [];
  return {
    count: sendAs.length,
    sendAs: sendAs.map(function (s) {
      return {
        sendAsEmail: s.sendAsEmail,
        displayName: s.displayName,
        replyToAddress: s.replyToAddress || undefined,
        signature: s.signature || '',
        isPrimary: s.isPrimary === true,
        isDefault: s.isDefault === true,
        treatAsAlias: s.treatAsAlias,
        verificationStatus: s.verificationStatus,
      };
    }),
  };
}

async function gmailSettingsGetLanguage() {
  return _settings('GET', '/language');
}

async function gmailSettingsAddForwarding(params) {
  var address = await _settings('POST', '/forwardingAddresses', { body: { forwardingEmail: params.forwarding_email } });
  var result = { forwardingEmail: address.forwardingEmail, verificationStatus: address.verificationStatus };
  if (address.verificationStatus === 'pending') result.note = 'Gmail sent a verification email to ' + address.forwardingEmail + '; it can be used for forwarding once confirmed.';
  return result;
}

async function gmailSettingsSetAutoForward(params) {
  var body = { enabled: params.enabled };
  if (params.enabled) {
    if (!params.email_address) throw new Error('email_address is required to turn auto-forwarding on (a verified forwarding address).');
    body.emailAddress = params.email_address;
    body.disposition = params.disposition || 'leaveInInbox';
  } else {
    if (params.email_address) body.emailAddress = params.email_address;
    if (params.disposition) body.disposition = params.disposition;
  }
  return _settings('PUT', '/autoForwarding', { body: body });
}

async function gmailSettingsListDelegates() {
  var delegates = (await _settings('GET', '/delegates')).delegates || [];
  return { count: delegates.length, delegates: delegates };
}
