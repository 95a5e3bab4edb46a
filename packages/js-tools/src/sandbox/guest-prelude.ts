/**
 * Guest-side glue for the bridges. Each bridge is a small snippet, evaluated in the call's fresh
 * context only when the tool first touches that global (`fetch`, `fs`...): a tool that uses no
 * bridge pays nothing for them, and one that uses `fetch` pays for `fetch` alone. A snippet is a
 * function of the host object (functions that take and return JSON strings, so no host object or
 * handle is ever reachable from the guest) and of the shared helpers in GUEST_HELPERS.
 *
 * Host results are `{"value": ...}` or `{"error": {"name", "code", "message"}}`; `raise` turns
 * the latter into a guest Error with a `code`.
 */
export const GUEST_HELPERS = String.raw`(function () {
  'use strict';
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
  return { raise: raise, unwrap: unwrap };
})`;

export const BRIDGE_NAMES = ['console', 'fs', 'fetch', '_time', 'lib', 'google'] as const;
export type BridgeName = (typeof BRIDGE_NAMES)[number];

/** The host object's functions (run-js-call.ts) a bridge's snippet calls: only those are defined for it. */
export const HOST_FUNCTIONS: Readonly<Record<BridgeName, readonly HostFunctionName[]>> = {
  console: ['log'],
  fs: ['fs'],
  fetch: ['fetch', 'body'],
  _time: ['time'],
  lib: ['lib'],
  google: ['googleToken'],
};
export type HostFunctionName = 'log' | 'fs' | 'time' | 'body' | 'lib' | 'fetch' | 'googleToken';

/** Each evaluates to `function (host, helpers) { return <the global's value>; }`. */
export const BRIDGE_SOURCES: Readonly<Record<BridgeName, string>> = {
  console: String.raw`(function (host) {
  'use strict';
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
  return { log: logger('log'), info: logger('info'), warn: logger('warn'), error: logger('error'), debug: logger('debug') };
})`,

  fs: String.raw`(function (host, helpers) {
  'use strict';
  function op(name) {
    return function () {
      return helpers.unwrap(host.fs(name, JSON.stringify(Array.prototype.slice.call(arguments))));
    };
  }
  return { readFile: op('readFile'), writeFile: op('writeFile'), appendFile: op('appendFile'), exists: op('exists'), list: op('list'), delete: op('delete') };
})`,

  _time: String.raw`(function (host, helpers) {
  'use strict';
  return function _time(timezone, format) {
    return helpers.unwrap(host.time(JSON.stringify([timezone, format])));
  };
})`,

  lib: String.raw`(function (host, helpers) {
  'use strict';
  var loaded = {};
  return function lib(name) {
    name = String(name);
    if (Object.prototype.hasOwnProperty.call(loaded, name)) return loaded[name].exports;
    var factory = host.lib(name);
    if (typeof factory === 'string') helpers.unwrap(factory);
    var module = { exports: {} };
    loaded[name] = module;
    factory.call(module.exports, module, module.exports, lib);
    return module.exports;
  };
})`,

  fetch: String.raw`(function (host, helpers) {
  'use strict';
  var unwrap = helpers.unwrap;
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
  return function fetch(url, init) {
    init = init || {};
    var req = { url: String(url), method: init.method ? String(init.method).toUpperCase() : 'GET', headers: {} };
    var h = init.headers || {};
    for (var k in h) if (Object.prototype.hasOwnProperty.call(h, k) && h[k] !== undefined && h[k] !== null) req.headers[k] = String(h[k]);
    if (init.body !== undefined && init.body !== null) req.body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    if (init.bodyBase64 !== undefined) req.bodyBase64 = String(init.bodyBase64);
    if (init.multipart !== undefined) req.multipart = init.multipart;
    if (init.saveTo !== undefined) req.saveTo = String(init.saveTo);
    if (init.saveFrom !== undefined) req.saveFrom = init.saveFrom;
    return host.fetch(JSON.stringify(req)).then(function (json) { return response(unwrap(json)); });
  };
})`,

  google: String.raw`(function (host, helpers) {
  'use strict';
  return { getAccessToken: function () { return host.googleToken().then(helpers.unwrap); } };
})`,
};
