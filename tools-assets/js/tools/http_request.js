// Below the execution engine's 30 000-character cut, so the note saying how much was cut survives.
var MAX_BODY_CHARS = 20000;

async function execute(params) {
  var method = params.method || 'GET';
  var init = { method: method, headers: params.headers || {} };
  if (params.body !== undefined && method !== 'GET' && method !== 'HEAD') init.body = params.body;
  var response = await fetch(params.url, init);
  var lines = ['HTTP ' + response.status + ' ' + response.statusText];
  var type = response.headers.get('content-type');
  var length = response.headers.get('content-length');
  if (type) lines.push('Content-Type: ' + type);
  if (length) lines.push('Content-Length: ' + length);
  var body = method === 'HEAD' ? '' : await response.text();
  if (body.length > MAX_BODY_CHARS) {
    body = body.slice(0, MAX_BODY_CHARS) + '\n\n[body cut: showing the first ' + MAX_BODY_CHARS + ' of ' + body.length + ' characters]';
  }
  return lines.join('\n') + '\n\n' + body;
}
