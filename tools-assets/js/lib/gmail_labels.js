// Gmail label names to label ids, for the google_gmail and google_gmail_settings tools: the model
// knows labels by name ("Receipts"), the API wants ids ("Label_12"). Load with
// `var gmail_labels = lib('gmail_labels');`.

var google_api = lib('google_api');

var LABELS_URL = 'https://gmail.googleapis.com/gmail/v1/users/me/labels';
var SYSTEM_LABELS = [
  'INBOX', 'SENT', 'DRAFT', 'TRASH', 'SPAM', 'UNREAD', 'STARRED', 'IMPORTANT', 'CHAT',
  'CATEGORY_PERSONAL', 'CATEGORY_SOCIAL', 'CATEGORY_PROMOTIONS', 'CATEGORY_UPDATES', 'CATEGORY_FORUMS',
];

/**
 * A resolver for one tool call: system labels (any case) and `Label_<n>` ids pass through; any
 * other value is matched against the account's labels by id, then by name ignoring case. GET
 * /labels is fetched at most once per resolver, and only when a name needs it.
 */
function resolver() {
  var labels = null;
  return async function resolve(values) {
    var ids = [];
    for (var i = 0; i < (values || []).length; i++) {
      var value = String(values[i]).trim();
      if (SYSTEM_LABELS.indexOf(value.toUpperCase()) >= 0) {
        ids.push(value.toUpperCase());
        continue;
      }
      if (/^Label_\d+$/.test(value)) {
        ids.push(value);
        continue;
      }
      if (labels === null) labels = (await google_api.request('Gmail', 'GET', LABELS_URL)).labels || [];
      var found = null;
      for (var j = 0; j < labels.length && !found; j++) if (labels[j].id === value) found = labels[j];
      for (var k = 0; k < labels.length && !found; k++) if (labels[k].name.toLowerCase() === value.toLowerCase()) found = labels[k];
      if (!found) {
        var names = labels.filter(function (l) { return l.type === 'user'; }).map(function (l) { return l.name; });
        throw new Error('Unknown Gmail label "' + value + '". User labels: ' + (names.length ? names.join(', ') : '(none)') + '; system labels: ' + SYSTEM_LABELS.join(', ') + '.');
      }
      ids.push(found.id);
    }
    return ids;
  };
}

module.exports = { resolver: resolver, SYSTEM_LABELS: SYSTEM_LABELS };
