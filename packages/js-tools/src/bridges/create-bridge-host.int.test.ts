import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { compileScript } from '../sandbox/compiled-script';
import { InProcessJsRunner } from '../sandbox/in-process-js-runner';
import type { JsCallOutcome } from '../sandbox/js-call';
import { startInterceptingProxy, type InterceptingProxy } from '../testing/intercepting-proxy';
import { createBridgeHost, type ClosableBridgeHost } from './create-bridge-host';

// The real bridge host: confined fs in a temp folder, SSRF-safe fetch through the TLS-intercepting
// test proxy (standing in for a corporate proxy), the default network policy.
/** Over the fs bridge's 10 MiB write limit, and (as base64url) over the 10 MiB in-memory response cap. */
const BIG = randomBytes(11 * 1024 * 1024);
const JSON_ANSWERS: Readonly<Record<string, () => string>> = {
  '/attachment': () => JSON.stringify({ size: 5, data: Buffer.from([0, 255, 10, 13, 250]).toString('base64url'), attachmentId: 'a1' }),
  '/big-attachment': () => JSON.stringify({ size: BIG.length, data: BIG.toString('base64url') }),
  '/not-json': () => '<html><body>Proxy sign-in required</body></html>',
  '/no-data': () => JSON.stringify({ size: 3, attachmentId: 'a2' }),
  '/numeric-data': () => JSON.stringify({ data: 5 }),
  '/bad-base64': () => JSON.stringify({ data: 'AP8K$$' }),
  '/array': () => JSON.stringify([{ data: 'AP8K' }]),
};
let root: string;
let libs: string;
let proxy: InterceptingProxy;
let host: ClosableBridgeHost;
let runner: InProcessJsRunner;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-bridge-'));
  libs = mkdtempSync(path.join(os.tmpdir(), 'oneclaw-bridge-libs-'));
  writeFileSync(path.join(libs, 'shout.js'), 'module.exports = function (s) { return s.toUpperCase(); };');
  proxy = await startInterceptingProxy((req, res) => {
    const answer = JSON_ANSWERS[req.path];
    if (answer !== undefined) {
      res.writeHead(200, { 'content-type': req.path === '/not-json' ? 'text/html' : 'application/json' }).end(answer());
    } else if (req.path === '/big.bin') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(BIG);
    } else if (req.path === '/file.bin') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([1, 2, 3, 250]));
    } else if (req.path === '/missing') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no such thing');
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ method: req.method, contentType: req.headers['content-type'] ?? null, body: req.body.toString('latin1') }));
    }
  });
  host = createBridgeHost({ filesRoot: root, libraryFolders: [libs], fetch: { proxyUrl: proxy.url, caCertificates: [proxy.caCertificate] } });
  runner = new InProcessJsRunner(host);
});

afterAll(async () => {
  await host.close();
  await proxy.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(libs, { recursive: true, force: true });
});

async function run(source: string): Promise<JsCallOutcome> {
  return runner.run({ script: compileScript('t.js', source), functionName: 'execute', params: {}, env: {}, timeoutMs: 10_000 });
}

function json(outcome: JsCallOutcome): Record<string, unknown> {
  if (outcome.status !== 'success') throw new Error(`${outcome.errorType}: ${outcome.message}`);
  return JSON.parse(outcome.result) as Record<string, unknown>;
}

describe('the bridge host behind the sandbox (J4)', () => {
  it('fetch goes out through the configured proxy, trusting its extra CA', async () => {
    const result = json(
      await run(
        'async function execute() { var r = await fetch("https://api.example.com/echo", { method: "PUT", headers: { "Content-Type": "text/plain" }, body: "x" }); return await r.json(); }',
      ),
    );
    expect(result).toEqual({ method: 'PUT', contentType: 'text/plain', body: 'x' });
    expect(proxy.requests.at(-1)?.url).toBe('https://api.example.com/echo');
  });

  it('multipart bodies are built on the host, with a file part read through the confined fs', async () => {
    writeFileSync(path.join(root, 'photo.bin'), Buffer.from([0, 255, 10, 13]));
    const result = json(
      await run(`async function execute() {
        var r = await fetch("https://upload.example.com/files", { method: "POST", multipart: { subtype: "related", parts: [
          { contentType: "application/json; charset=UTF-8", body: JSON.stringify({ name: "photo" }) },
          { contentType: "application/octet-stream", file: "photo.bin" } ] } });
        return await r.json();
      }`),
    );
    const boundary = /^multipart\/related; boundary=(.+)$/.exec(String(result.contentType))?.[1];
    expect(boundary).toBeDefined();
    const body = String(result.body);
    expect(body).toContain(`--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n{"name":"photo"}\r\n`);
    expect(body).toContain(`Content-Type: application/octet-stream\r\n\r\n${Buffer.from([0, 255, 10, 13]).toString('latin1')}\r\n--${boundary}--`);
  });

  it('saveTo streams a 2xx body into a file under the files root; a 404 saves nothing', async () => {
    const result = json(
      await run(`async function execute() {
        var ok = await fetch("https://cdn.example.com/file.bin", { saveTo: "downloads/file.bin" });
        var missing = await fetch("https://cdn.example.com/missing", { saveTo: "downloads/missing.bin" });
        return { saved: ok.saved, status: missing.status, missingSaved: missing.saved || null };
      }`),
    );
    expect(result).toEqual({ saved: { path: 'downloads/file.bin', bytes: 4 }, status: 404, missingSaved: null });
    expect([...readFileSync(path.join(root, 'downloads/file.bin'))]).toEqual([1, 2, 3, 250]);
    expect(existsSync(path.join(root, 'downloads/missing.bin'))).toBe(false);
  });

  it('saveFrom saves one JSON field of a 2xx answer, decoded, and hands the guest no body; a 404 saves nothing and can be read', async () => {
    const result = json(
      await run(`async function execute() {
        var ok = await fetch("https://gmail.example.com/attachment", { saveTo: "mail/a.bin", saveFrom: { field: "data", encoding: "base64url" } });
        var missing = await fetch("https://gmail.example.com/missing", { saveTo: "mail/b.bin", saveFrom: { field: "data", encoding: "base64url" } });
        return { saved: ok.saved, body: await ok.text(), status: missing.status, missingBody: await missing.text(), missingSaved: missing.saved || null };
      }`),
    );
    expect(result).toEqual({ saved: { path: 'mail/a.bin', bytes: 5 }, body: '', status: 404, missingBody: 'no such thing', missingSaved: null });
    expect([...readFileSync(path.join(root, 'mail/a.bin'))]).toEqual([0, 255, 10, 13, 250]);
    expect(existsSync(path.join(root, 'mail/b.bin'))).toBe(false);
  });

  it('saveTo and saveFrom files are capped by the download limit, not the 10 MiB write limit of the fs bridge', async () => {
    const result = json(
      await run(`async function execute() {
        var raw = await fetch("https://cdn.example.com/big.bin", { saveTo: "big/raw.bin" });
        var field = await fetch("https://gmail.example.com/big-attachment", { saveTo: "big/field.bin", saveFrom: { field: "data", encoding: "base64url" } });
        return { raw: raw.saved, field: field.saved };
      }`),
    );
    expect(result).toEqual({ raw: { path: 'big/raw.bin', bytes: BIG.length }, field: { path: 'big/field.bin', bytes: BIG.length } });
    expect(readFileSync(path.join(root, 'big/raw.bin')).equals(BIG)).toBe(true);
    expect(readFileSync(path.join(root, 'big/field.bin')).equals(BIG)).toBe(true);
  });

  it('saveFrom: an answer without the field as a valid string is invalid_response and saves nothing; a bad saveFrom is invalid_request before any request', async () => {
    const before = proxy.requests.length;
    const result = json(
      await run(`async function execute() {
        var tries = [
          ["not-json", { field: "data", encoding: "base64url" }],
          ["no-data", { field: "data", encoding: "base64url" }],
          ["numeric-data", { field: "data", encoding: "base64url" }],
          ["bad-base64", { field: "data", encoding: "base64url" }],
          ["array", { field: "data", encoding: "base64url" }],
          ["attachment", { field: "data", encoding: "hex" }],
          ["attachment", { field: "" , encoding: "base64" }],
          ["attachment", "data"],
        ];
        var out = [];
        for (var i = 0; i < tries.length; i++) {
          try { await fetch("https://gmail.example.com/" + tries[i][0], { saveTo: "bad/" + i + ".bin", saveFrom: tries[i][1] }); out.push("saved"); }
          catch (e) { out.push(e.code + ": " + e.message); }
        }
        try { await fetch("https://gmail.example.com/attachment", { saveFrom: { field: "data", encoding: "base64url" } }); out.push("fetched"); }
        catch (e) { out.push(e.code + ": " + e.message); }
        return { out: out };
      }`),
    );
    const out = result.out as string[];
    expect(out[0]).toMatch(
      /^invalid_response: The answer is not JSON \(it starts with "<html><body>Proxy sign-in required.*\), so its field 'data' cannot be saved\. Nothing was saved\.$/,
    );
    expect(out[1]).toBe("invalid_response: The JSON answer has no field 'data' (its fields: size, attachmentId). Nothing was saved.");
    expect(out[2]).toBe("invalid_response: Field 'data' of the JSON answer is a number, not a base64url string. Nothing was saved.");
    expect(out[3]).toBe("invalid_response: Field 'data' of the JSON answer is not valid base64url. Nothing was saved.");
    expect(out[4]).toBe("invalid_response: The JSON answer is an array, not an object with a field 'data'. Nothing was saved.");
    expect(out.slice(5, 8).map((line) => line.split(':')[0])).toEqual(['invalid_request', 'invalid_request', 'invalid_request']);
    expect(out[8]).toMatch(/^invalid_request: saveFrom needs saveTo/);
    expect(proxy.requests.length - before).toBe(5);
    // Neither a file nor a temporary part is left behind.
    expect(existsSync(path.join(root, 'bad')) ? readdirSync(path.join(root, 'bad')) : []).toEqual([]);
  });

  it('SBX-17 fetch to a metadata or loopback address is refused by the SSRF policy, before any connection', async () => {
    const before = proxy.requests.length;
    const result = json(
      await run(`async function execute() {
        var out = [];
        var urls = ["http://169.254.169.254/latest/meta-data/", "http://127.0.0.1:1/", "file:///etc/passwd"];
        for (var i = 0; i < urls.length; i++) { try { await fetch(urls[i]); out.push("fetched"); } catch (e) { out.push(e.code); } }
        return { codes: out };
      }`),
    );
    expect(result.codes).toEqual(['forbidden_url', 'forbidden_url', 'forbidden_url']);
    expect(proxy.requests.length).toBe(before);
  });

  it('fs encodings: base64url writes decoded bytes, base64 reads them back', async () => {
    const result = json(await run('function execute() { fs.writeFile("b.bin", "AP8K", "base64url"); return { back: fs.readFile("b.bin", { encoding: "base64" }) }; }'));
    expect(result).toEqual({ back: 'AP8K' });
    expect([...readFileSync(path.join(root, 'b.bin'))]).toEqual([0, 255, 10]);
  });

  it('lib() loads CommonJS from the library folders; a name with a path is refused', async () => {
    const result = json(await run('function execute() { var err; try { lib("../secret"); } catch (e) { err = e.code; } return { v: lib("shout")("hey"), err: err }; }'));
    expect(result).toEqual({ v: 'HEY', err: 'invalid_request' });
  });

  it('without a files root every fs call fails with root_not_configured (PATH-08)', async () => {
    const bare = createBridgeHost({});
    try {
      expect(() => bare.fs('readFile', ['a.txt'])).toThrow(expect.objectContaining({ code: 'root_not_configured' }));
    } finally {
      await bare.close();
    }
  });
});
