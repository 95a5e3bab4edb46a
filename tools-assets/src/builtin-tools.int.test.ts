import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startToolHarness, type ToolHarness } from './testing/tool-harness';

let h: ToolHarness;
beforeAll(async () => {
  h = await startToolHarness();
});
afterAll(async () => {
  await h.close();
});

describe('J8 and T4 shipped single-tool files (core tools)', () => {
  it('get_current_time: ISO 8601 with the zone offset by default, or human readable; an unknown zone is an error', async () => {
    const iso = await h.call('get_current_time', { timezone: 'Asia/Kolkata' });
    expect(iso.status === 'success' && iso.result).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+05:30$/);
    const utc = await h.call('get_current_time', { timezone: 'UTC' });
    expect(utc.status === 'success' && utc.result).toMatch(/Z$/);
    const human = await h.call('get_current_time', { timezone: 'Europe/Paris', format: 'human_readable' });
    expect(human.status === 'success' && human.result).toMatch(/^[A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2}, \d{4} at \d{2}:\d{2}:\d{2} GMT\+0[12]:00 \(Europe\/Paris\)$/);
    const bad = await h.call('get_current_time', { timezone: 'Mars/Olympus' });
    expect(bad).toMatchObject({ status: 'error', errorType: 'execution_error' });
    expect(bad.status === 'error' && bad.message).toMatch(/Unknown timezone 'Mars\/Olympus'/);
    expect(await h.call('get_current_time', { format: 'unix' })).toMatchObject({ status: 'error', errorType: 'validation_error' });
  });

  it('write_file then read_file: overwrite, append, folders created, confirmation with count, path and mode', async () => {
    expect(await h.call('write_file', { path: 'notes/todo.md', content: 'buy milk' })).toEqual({
      status: 'success',
      result: 'Wrote 8 characters to notes/todo.md (overwrite).',
    });
    expect(await h.call('write_file', { path: 'notes/todo.md', content: '\ncall Bo', mode: 'append' })).toMatchObject({
      status: 'success',
      result: expect.stringContaining('(append)'),
    });
    expect(readFileSync(path.join(h.filesRoot, 'notes/todo.md'), 'utf8')).toBe('buy milk\ncall Bo');
    expect(await h.call('read_file', { path: 'notes/todo.md' })).toEqual({ status: 'success', result: 'buy milk\ncall Bo' });
  });

  it('read_file: base64 for binary files; a missing file and a path outside the files folder are clear errors', async () => {
    writeFileSync(path.join(h.filesRoot, 'bytes.bin'), Buffer.from([0, 255, 1, 128]));
    expect(await h.call('read_file', { path: 'bytes.bin', encoding: 'base64' })).toEqual({ status: 'success', result: 'AP8BgA==' });
    const missing = await h.call('read_file', { path: 'nope.txt' });
    expect(missing.status === 'error' && missing.message).toMatch(/nope\.txt/);
    const outside = await h.call('read_file', { path: '../../etc/passwd' });
    expect(outside.status === 'error' && outside.message).toMatch(/outside/);
    expect(await h.call('read_file', {})).toMatchObject({ status: 'error', errorType: 'validation_error' });
  });

  it('http_request: method, headers and body reach the server; status, content type and body come back', async () => {
    h.api.route('POST', 'api.example.com', '/v1/items', (req) => ({ status: 201, json: { got: req.json(), auth: req.headers['x-api-key'] } }), { auth: false });
    const result = await h.call('http_request', {
      url: 'https://api.example.com/v1/items',
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Api-Key': 'k1' },
      body: '{"a":1}',
    });
    expect(result.status).toBe('success');
    const text = result.status === 'success' ? result.result : '';
    expect(text.split('\n')[0]).toBe('HTTP 201 Created');
    expect(text).toContain('Content-Type: application/json');
    expect(text.endsWith('\n\n{"got":{"a":1},"auth":"k1"}')).toBe(true);
  });

  it('http_request: PATCH, DELETE and HEAD; a large body is cut with a note; a private address is refused', async () => {
    for (const method of ['PATCH', 'DELETE', 'HEAD']) {
      h.api.route(method, 'api.example.com', '/v1/thing', (req) => ({ json: { method: req.method, body: req.text() } }), { auth: false });
    }
    const patch = await h.call('http_request', { url: 'https://api.example.com/v1/thing', method: 'PATCH', body: 'x=1' });
    expect(patch.status === 'success' && patch.result).toContain('{"method":"PATCH","body":"x=1"}');
    const del = await h.call('http_request', { url: 'https://api.example.com/v1/thing', method: 'DELETE' });
    expect(del.status === 'success' && del.result).toContain('"method":"DELETE"');
    const head = await h.call('http_request', { url: 'https://api.example.com/v1/thing', method: 'HEAD' });
    expect(head.status === 'success' && head.result.endsWith('\n\n')).toBe(true);

    h.api.route('GET', 'api.example.com', '/big', () => ({ body: 'z'.repeat(150_000), headers: { 'content-type': 'text/plain' } }), { auth: false });
    const big = await h.call('http_request', { url: 'https://api.example.com/big' });
    expect(big.status === 'success' && big.result.slice(-80)).toMatch(/\[body cut: showing the first 20000 of 150000 characters\]$/);

    const local = await h.call('http_request', { url: 'http://169.254.169.254/latest/meta-data/' });
    expect(local.status === 'error' && local.message).toMatch(/169\.254\.169\.254|not allowed|private|forbidden/i);
  });
});
