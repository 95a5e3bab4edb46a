/**
 * Guest-side glue, evaluated in every call's fresh context before the tool's code. It receives
 * the host object (functions that take and return JSON strings, so no host object or handle is
 * ever reachable from the guest) and defines the bridges a tool sees: console, fs, fetch, _time,
 * lib and google. The host object itself is not left on globalThis.
 *
 * Host results are `{"value": ...}` or `{"error": {"name", "code", "message"}}`; `raise` turns
 * the latter into a guest Error with a `code`.
 */
export const GUEST_PRELUDE = String.raw`(function (host) {
  'use strict';
  var G = globalThis;
  function raise(e) {
    var err = new Error(e.message);
    err.name = e.name || 'Error';
    if (e.code) err.code = e.code;
    throw err;
  }
  function unwrap(json) {
    var r = JSON.parse(json);
    if (r.error) raise(r.error);
    return r.value;
  }
  function show(v) {
    if (typeof v === 'string') return v;
    if (v instanceof Error) return v.name + ': ' + v.message;
    try {
      var s = JSON.stringify(v);
      return s === undefined ? String(v) : s;
    } catch (e) {
      return String(v);
    }
  }
  function logger(level) {
    return function () {
      var parts = [];
      for (var i = 0; i < arguments.length; i++) parts.push(show(arguments[i]));
      host.log(level, parts.join(' '));
    };
  }
  G.console = { log: logger('log'), info: logger('info'), warn: logger('warn'), error: logger('error'), debug: logger('debug') };

  function fsOp(op) {
    return function () {
      return unwrap(host.fs(op, JSON.stringify(Array.prototype.slice.call(arguments))));
    };
  }
  G.fs = {
    readFile: fsOp('readFile'),
    writeFile: fsOp('writeFile'),
    appendFile: fsOp('appendFile'),
    exists: fsOp('exists'),
    list: fsOp('list'),
    delete: fsOp('delete')
  };

  G._time = function (timezone, format) {
    return unwrap(host.time(JSON.stringify([timezone, format])));
  };

  var libraries = {};
  G.lib = function (name) {
    name = String(name);
    if (Object.prototype.hasOwnProperty.call(libraries, name)) return libraries[name].exports;
    var factory = host.lib(name);
    if (typeof factory === 'string') unwrap(factory);
    var module = { exports: {} };
    libraries[name] = module;
    factory.call(module.exports, module, module.exports, G.lib);
    return module.exports;
  };

  function response(r) {
    var headers = r.headers;
    Object.defineProperty(headers, 'get', {
      value: function (n) {
        var v = headers[String(n).toLowerCase()];
        return v === undefined ? null : v;
      }
    });
    var res = {
      status: r.status,
      statusText: r.statusText,
      ok: r.status >= 200 && r.status < 300,
      url: r.url,
      headers: headers,
      text: function () { return Promise.resolve(unwrap(host.body(r.bodyId, 'text'))); },
      json: function () { return Promise.resolve(JSON.parse(unwrap(host.body(r.bodyId, 'text')))); },
      base64: function () { return Promise.resolve(unwrap(host.body(r.bodyId, 'base64'))); }
    };
    if (r.saved) res.saved = r.saved;
    return res;
  }
  G.fetch = function (url, init) {
    init = init || {};
    var req = { url: String(url), method: init.method ? String(init.method).toUpperCase() : 'GET', headers: {} };
    var h = init.headers || {};
    for (var k in h) if (Object.prototype.hasOwnProperty.call(h, k) && h[k] !== undefined && h[k] !== null) req.headers[k] = String(h[k]);
    if (init.body !== undefined && init.body !== null) req.body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    if (init.bodyBase64 !== undefined) req.bodyBase64 = String(init.bodyBase64);
    if (init.multipart !== undefined) req.multipart = init.multipart;
    if (init.saveTo !== undefined) req.saveTo = String(init.saveTo);
    return host.fetch(JSON.stringify(req)).then(function (json) { return response(unwrap(json)); });
  };

  G.google = {
    getAccessToken: function () { return host.googleToken().then(unwrap); }
  };
})`;
