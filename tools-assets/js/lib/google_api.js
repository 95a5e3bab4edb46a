// Shared by the Google Workspace tool groups: authorised requests to Google's REST APIs.
// Load with `var google_api = lib('google_api');`.

/** `?a=1&b=x%20y` from an object; undefined, null and '' are left out, arrays repeat the key. */
function query(params) {
  var parts = [];
  for (var key in params) {
    if (!Object.prototype.hasOwnProperty.call(params, key)) continue;
    var value = params[key];
    if (value === undefined || value === null || value === '') continue;
    var values = Array.isArray(value) ? value : [value];
    for (var i = 0; i < values.length; i++) parts.push(encodeURIComponent(key) + '=' + encodeURIComponent(String(values[i])));
  }
  return parts.length > 0 ? '?' + parts.join('&') : '';
}

/**
 * Calls a Google API with the user's access token.
 *   api:     name used in errors, e.g. 'Gmail' -> "Gmail API error (404): <body>"
 *   method:  GET, POST, PUT, PATCH or DELETE
 *   url:     full URL without the query string
 *   options: { query: {...}, body: <JSON value>, headers: {...}, multipart: {...}, saveTo: 'path',
 *              saveFrom: {field, encoding} (with saveTo: save that field of the JSON answer, decoded) }
 * Returns the parsed JSON body, `{success: true}` for an empty answer (204), or, with saveTo, the
 * fetch response (its `saved` says where the body went). A non-2xx answer throws, and so does a
 * 2xx one that is not JSON.
 */
async function request(api, method, url, options) {
  options = options || {};
  var token = await google.getAccessToken();
  var headers = { Authorization: 'Bearer ' + token, Accept: 'application/json' };
  var extra = options.headers || {};
  for (var name in extra) if (Object.prototype.hasOwnProperty.call(extra, name)) headers[name] = extra[name];
  var init = { method: method, headers: headers };
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }
  if (options.multipart !== undefined) init.multipart = options.multipart;
  if (options.saveTo !== undefined) init.saveTo = options.saveTo;
  if (options.saveFrom !== undefined) init.saveFrom = options.saveFrom;
  var response = await fetch(url + query(options.query || {}), init);
  if (response.status === 204) return { success: true };
  if (!response.ok) {
    throw new Error(api + ' API error (' + response.status + '): ' + _cut(await response.text(), 2000));
  }
  if (options.saveTo !== undefined) return response;
  var text = await response.text();
  if (text === '') return { success: true };
  try {
    return JSON.parse(text);
  } catch (e) {
    // Not Google's answer (a proxy's sign-in page, a captive portal): taken as a result, it would
    // have tools report success with nothing in it.
    throw new Error(api + ' API error (' + response.status + '): the answer is not JSON: ' + _cut(text, 200));
  }
}

function _cut(text, max) {
  return text.length > max ? text.slice(0, max) + '…' : text;
}

module.exports = { request: request, query: query };
