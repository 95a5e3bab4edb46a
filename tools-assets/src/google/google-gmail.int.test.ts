import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { FAKE_GOOGLE_ACCESS_TOKEN } from '../testing/fake-google-api';
import { GMAIL_SEED_ATTACHMENT, parseMime, registerGmailRoutes, type GmailFake } from '../testing/fake-google/gmail';
import { googleToolChecks, type GoogleToolChecks } from '../testing/google-tool-checks';
import { startToolHarness, type ToolHarness } from '../testing/tool-harness';

const BASE = '/gmail/v1/users/me';
let h: ToolHarness;
let gmail: GmailFake;
let c: GoogleToolChecks;

beforeAll(async () => {
  h = await startToolHarness({ files: ['google_gmail'] });
  gmail = registerGmailRoutes(h.api);
  c = googleToolChecks(h, 'Gmail', 'gmail.googleapis.com');
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => h.api.clearRequests());
afterEach(() => {
  c.sent(); // every request carried the bearer token and went to gmail.googleapis.com, the Gmail discovery document's host
  expect(h.api.unmatched.map((r) => `${r.method} ${r.path}`)).toEqual([]);
});

/** Runs a tool that must succeed; returns its parsed JSON result. */
const ok = async (tool: string, params: Record<string, unknown> = {}): Promise<any> => c.ok(await h.call(tool, params));

async function fails(tool: string, params: Record<string, unknown>, errorType: string, message: RegExp): Promise<void> {
  const outcome = await h.call(tool, params);
  expect(outcome).toMatchObject({ status: 'error', errorType });
  expect(outcome.status === 'error' && outcome.message).toMatch(message);
}

/** "METHOD /path?query" of every request the fake received, in order. */
function calls(): string[] {
  return h.api.requests.map((r) => `${r.method} ${r.path}${[...r.query].length ? `?${r.query.toString()}` : ''}`);
}

/** The decoded RFC 5322 text of the `raw` (or `message.raw`) of request `index`. */
function rawOf(index: number): string {
  const body = c.body(index) as { raw?: string; message?: { raw: string } };
  const raw = body.raw ?? body.message!.raw;
  expect(raw).toMatch(/^[A-Za-z0-9_-]+={0,2}$/);
  return Buffer.from(raw, 'base64url').toString('latin1');
}

function idBySubject(subject: string): string {
  const found = [...gmail.messages.values()].find((m) => gmail.header(m.id, 'subject') === subject);
  if (!found) throw new Error(`no message "${subject}"`);
  return found.id;
}

let seeded = 0;
function seedInboxMessage(subject: string): string {
  seeded += 1;
  return gmail.addMessage(
    `From: Lin <lin@example.net>\r\nTo: ada@example.com\r\nSubject: ${subject}\r\nMessage-ID: <seed-${seeded}@example.net>\r\nContent-Type: text/plain; charset=UTF-8\r\n\r\nBody ${seeded}\r\n`,
    ['INBOX', 'UNREAD'],
  ).id;
}

/** An archived message (no labels, so no inbox listing changes) with one attachment. */
function seedAttachmentMessage(subject: string, filename: string, content: Buffer): string {
  seeded += 1;
  return gmail.addMessage(
    [
      `From: Lin <lin@example.net>`,
      'To: ada@example.com',
      `Subject: ${subject}`,
      `Message-ID: <seed-${seeded}@example.net>`,
      'Content-Type: multipart/mixed; boundary="b"',
      '',
      '--b',
      'Content-Type: text/plain; charset=UTF-8',
      '',
      'See attached.',
      '--b',
      `Content-Type: application/octet-stream; name="${filename}"`,
      `Content-Disposition: attachment; filename="${filename}"`,
      'Content-Transfer-Encoding: base64',
      '',
      content.toString('base64').replace(/(.{76})/g, '$1\r\n'),
      '--b--',
      '',
    ].join('\r\n'),
    [],
  ).id;
}

describe('J8 google_gmail: reading', () => {
  it('gmail_search: lists hits, then reads each one’s Subject, From and Date metadata in turn', async () => {
    const result = await ok('gmail_search', { query: 'subject:quarterly' });
    const [list, ...gets] = h.api.requests;
    expect(list!.method).toBe('GET');
    expect(list!.path).toBe(`${BASE}/messages`);
    expect(Object.fromEntries(list!.query)).toEqual({ q: 'subject:quarterly', maxResults: '20' });
    expect(gets).toHaveLength(2);
    for (const get of gets) {
      expect(get.query.get('format')).toBe('metadata');
      expect(get.query.getAll('metadataHeaders')).toEqual(['Subject', 'From', 'Date']);
    }
    expect(result).toMatchObject({ query: 'subject:quarterly', count: 2, resultSizeEstimate: 2, more: false });
    expect(result.messages.map((m: { subject: string }) => m.subject)).toEqual(['Re: Quarterly report', 'Quarterly report']);
    expect(result.messages[1]).toMatchObject({
      id: idBySubject('Quarterly report'),
      from: 'Grace Hopper <grace@navy.example>',
      date: 'Mon, 7 Oct 2024 09:15:00 +0000',
      labelIds: expect.arrayContaining(['INBOX', 'Label_1']),
    });
    expect(result.messages[1].snippet).toContain('The Q3 report is attached. The café budget is €1.2k.');
    expect(gets.map((g) => g.path)).toEqual(result.messages.map((m: { id: string }) => `${BASE}/messages/${m.id}`));
  });

  it('gmail_search: max_results caps the hits; encoded headers come back decoded; nothing found is an empty list', async () => {
    const one = await ok('gmail_search', { query: 'subject:quarterly', max_results: 1 });
    expect(h.api.requests[0]!.query.get('maxResults')).toBe('1');
    expect(one).toMatchObject({ count: 1, more: true });
    const berlin = await ok('gmail_search', { query: 'Berlin' });
    expect(berlin.messages[0]).toMatchObject({ subject: 'Grüße aus Berlin', from: 'Zoë Müller <zoe@example.de>' });
    h.api.clearRequests();
    expect(await ok('gmail_search', { query: 'from:nobody@nowhere.example' })).toMatchObject({ count: 0, resultSizeEstimate: 0, messages: [] });
    expect(calls()).toHaveLength(1);
    await fails('gmail_search', {}, 'validation_error', /query/);
    await fails('gmail_search', { query: 'x', max_results: 0 }, 'validation_error', /max_results/);
  });

  it('gmail_get_message: format=full gives headers, the text/plain body (not the HTML one) and the attachment list', async () => {
    const id = idBySubject('Quarterly report');
    const message = await ok('gmail_get_message', { message_id: id });
    expect(calls()).toEqual([`GET ${BASE}/messages/${id}?format=full`]);
    expect(message).toMatchObject({
      id,
      threadId: id,
      from: 'Grace Hopper <grace@navy.example>',
      to: 'Ada Lovelace <ada@example.com>',
      subject: 'Quarterly report',
      bodyFormat: 'text',
      body: 'Hi Ada,\r\n\r\nThe Q3 report is attached. The café budget is €1.2k.\r\n\r\nGrace',
    });
    expect(message.attachments).toEqual([
      { filename: 'report-q3.pdf', mimeType: 'application/pdf', size: GMAIL_SEED_ATTACHMENT.length, attachmentId: expect.stringMatching(/^ANGjdJ/), partId: '1' },
    ]);
  });

  it('gmail_get_message: a Latin-1 body and RFC 2047 headers are decoded; an HTML-only message gives its HTML', async () => {
    const berlin = await ok('gmail_get_message', { message_id: idBySubject('Grüße aus Berlin') });
    expect(berlin).toMatchObject({ from: 'Zoë Müller <zoe@example.de>', bodyFormat: 'text', body: 'Liebe Ada, viele Grüße aus Berlin! Zöe\r\n', attachments: [] });
    const receipt = await ok('gmail_get_message', { message_id: idBySubject('Your receipt #4411') });
    expect(receipt.bodyFormat).toBe('html');
    expect(receipt.body).toContain('<h1>Receipt #4411</h1>');
    expect(receipt.snippet).toContain("Ada's Shop");
  });

  it('gmail_get_message: an unknown id is the API’s 404; a missing id is a validation error', async () => {
    await fails('gmail_get_message', { message_id: '18fffffffffffff0' }, 'execution_error', /^Gmail API error \(404\): .*Requested entity was not found/);
    expect(calls()).toEqual([`GET ${BASE}/messages/18fffffffffffff0?format=full`]);
    await fails('gmail_get_message', {}, 'validation_error', /message_id/);
    await fails('gmail_get_message', { message_id: '' }, 'validation_error', /message_id/);
  });

  it('gmail_list_threads: GET /threads with q and maxResults; gmail_get_thread: every message, oldest first', async () => {
    const first = idBySubject('Quarterly report');
    const threads = await ok('gmail_list_threads', { query: 'subject:quarterly', max_results: 5 });
    expect(calls()).toEqual([`GET ${BASE}/threads?q=subject%3Aquarterly&maxResults=5`]);
    expect(threads).toMatchObject({ count: 1, threads: [{ id: first, snippet: 'Thanks Grace, reading it today.', historyId: gmail.messages.get(first)!.historyId }] });

    h.api.clearRequests();
    const thread = await ok('gmail_get_thread', { thread_id: first });
    expect(calls()).toEqual([`GET ${BASE}/threads/${first}?format=full`]);
    expect(thread.id).toBe(first);
    expect(thread.messageCount).toBe(2);
    expect(thread.messages.map((m: { subject: string; from: string }) => [m.subject, m.from])).toEqual([
      ['Quarterly report', 'Grace Hopper <grace@navy.example>'],
      ['Re: Quarterly report', 'Ada Lovelace <ada@example.com>'],
    ]);
    expect(thread.messages[1].body).toBe('Thanks Grace, reading it today.\r\n');
    expect(thread.messages[0].attachments).toHaveLength(1);
    await fails('gmail_get_thread', { thread_id: 'nope' }, 'execution_error', /^Gmail API error \(404\)/);
    await fails('gmail_list_threads', {}, 'validation_error', /query/);
  });

  it('gmail_get_attachment: the decoded bytes are written to save_path; returns {path, size}', async () => {
    const id = idBySubject('Quarterly report');
    const message = await ok('gmail_get_message', { message_id: id });
    const attachmentId = message.attachments[0].attachmentId as string;
    h.api.clearRequests();
    const saved = await ok('gmail_get_attachment', { message_id: id, attachment_id: attachmentId, save_path: 'downloads/report-q3.pdf' });
    expect(calls()).toEqual([`GET ${BASE}/messages/${id}/attachments/${attachmentId}`]);
    expect(saved).toEqual({ path: 'downloads/report-q3.pdf', size: GMAIL_SEED_ATTACHMENT.length });
    expect(readFileSync(path.join(h.filesRoot, 'downloads/report-q3.pdf')).equals(GMAIL_SEED_ATTACHMENT)).toBe(true);
    await fails('gmail_get_attachment', { message_id: 'unknown1', attachment_id: attachmentId, save_path: 'x.pdf' }, 'execution_error', /^Gmail API error \(404\)/);
    await fails('gmail_get_attachment', { message_id: id, attachment_id: attachmentId, save_path: '../outside.pdf' }, 'execution_error', /outside/);
    await fails('gmail_get_attachment', { message_id: id, attachment_id: attachmentId }, 'validation_error', /save_path/);
  });

  it('gmail_get_attachment: a 5 MB attachment (6.7 MB of base64url, more than a sandbox value may hold) is saved on the host, byte for byte', async () => {
    const bytes = randomBytes(5 * 1024 * 1024);
    const id = seedAttachmentMessage('Large scan', 'scan.bin', bytes);
    const message = await ok('gmail_get_message', { message_id: id });
    const attachmentId = message.attachments[0].attachmentId as string;
    const saved = await ok('gmail_get_attachment', { message_id: id, attachment_id: attachmentId, save_path: 'downloads/scan.bin' });
    expect(saved).toEqual({ path: 'downloads/scan.bin', size: bytes.length });
    expect(readFileSync(path.join(h.filesRoot, 'downloads/scan.bin')).equals(bytes)).toBe(true);
  });
});

describe('J8 google_gmail: snippet entities that name no character', () => {
  // Gmail HTML-escapes snippets; an entity past U+10FFFF or naming a surrogate is not a character.
  // The Gmail fake escapes only real text, so this FAKE answers with such a snippet as it is.
  const SNIPPET = 'it&#39;s &#1114112; &#55357; &#99999999999999999999; &#128512; &amp;#65;';
  let own: ToolHarness;
  beforeAll(async () => {
    own = await startToolHarness({ files: ['google_gmail'] });
    own.api.route('GET', 'gmail.googleapis.com', `${BASE}/messages`, () => ({ json: { messages: [{ id: 'm1', threadId: 't1' }], resultSizeEstimate: 1 } }));
    own.api.route('GET', 'gmail.googleapis.com', `${BASE}/messages/{id}`, () => ({
      json: { id: 'm1', threadId: 't1', labelIds: ['INBOX'], snippet: SNIPPET, payload: { headers: [{ name: 'Subject', value: 'Odd entities' }] } },
    }));
  });
  afterAll(async () => {
    await own.close();
  });

  it('gmail_search keeps such an entity as written and decodes the rest, instead of failing the search', async () => {
    const result = c.ok(await own.call('gmail_search', { query: 'odd' }));
    expect(result.messages).toEqual([expect.objectContaining({ subject: 'Odd entities', snippet: "it's &#1114112; &#55357; &#99999999999999999999; 😀 &#65;" })]);
  });
});

describe('J8 google_gmail: sending (MIME built in the sandbox, parsed by the fake)', () => {
  it('gmail_send: POST /messages/send {raw}: To/Cc/Bcc/Subject headers, UTF-8 text body, encoded-word for a non-ASCII subject', async () => {
    const body = 'Hallo Zoë,\nthe ☕ is on me — see you at 10.\n';
    const sent = await ok('gmail_send', {
      to: 'Zoë Müller <zoe@example.de>, bob@example.com',
      cc: 'Grace Hopper <grace@navy.example>',
      bcc: 'archive@example.com',
      subject: 'Kaffee ☕ morgen?',
      body,
    });
    expect(calls()).toEqual([`POST ${BASE}/messages/send`]);
    expect(Object.keys(c.body(0))).toEqual(['raw']);
    const raw = rawOf(0);
    expect(raw).toMatch(/^Subject: =\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=\r$/m);
    expect(raw).toMatch(/^To: =\?UTF-8\?B\?[A-Za-z0-9+/=]+\?= <zoe@example\.de>,\r\n bob@example\.com\r$/m);
    expect(raw).toMatch(/^Cc: Grace Hopper <grace@navy\.example>\r$/m);
    expect(raw).toMatch(/^Bcc: archive@example\.com\r$/m);
    expect(raw).toMatch(/^Content-Type: text\/plain; charset=UTF-8\r$/m);
    expect(raw.split('\r\n\r\n')[0]).toMatch(/^[\x20-\x7e\r\n]*$/);

    expect(sent).toEqual({ id: expect.any(String), threadId: sent.id, labelIds: ['SENT'] });
    expect(gmail.header(sent.id, 'subject')).toBe('Kaffee ☕ morgen?');
    expect(gmail.header(sent.id, 'to')).toBe('Zoë Müller <zoe@example.de>, bob@example.com');
    expect(gmail.text(sent.id)).toBe(body.replace(/\n/g, '\r\n'));
    // Gmail stamps what it sends.
    expect(gmail.header(sent.id, 'from')).toBe('Ada Lovelace <ada@example.com>');
  });

  it('gmail_send: html: true gives a text/html part; CR/LF in a subject cannot inject headers; a long subject is folded', async () => {
    const html = await ok('gmail_send', { to: 'bob@example.com', subject: 'Report', body: '<p>See <b>attached</b></p>', html: true });
    expect(rawOf(0)).toMatch(/^Content-Type: text\/html; charset=UTF-8\r$/m);
    expect(gmail.text(html.id)).toBe('<p>See <b>attached</b></p>');

    h.api.clearRequests();
    const sneaky = await ok('gmail_send', { to: 'bob@example.com', subject: 'Hi\r\nBcc: spy@evil.example', body: 'x' });
    const raw = rawOf(0);
    expect(raw).not.toMatch(/^Bcc:/m);
    expect(gmail.header(sneaky.id, 'bcc')).toBeUndefined();
    expect(gmail.header(sneaky.id, 'subject')).toBe('Hi Bcc: spy@evil.example');

    h.api.clearRequests();
    const long = 'Überweisung für die Rechnung Nummer 2024-0815 vom letzten Monat, bitte prüfen — danke!';
    const folded = await ok('gmail_send', { to: 'bob@example.com', subject: long, body: 'x' });
    const lines = rawOf(0).split('\r\n\r\n')[0]!.split('\r\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(78 + 3);
    expect(gmail.header(folded.id, 'subject')).toBe(long);
  });

  it('gmail_send: Gmail refuses a bad recipient (400); missing subject or body is a validation error', async () => {
    await fails('gmail_send', { to: 'not an address', subject: 's', body: 'b' }, 'execution_error', /^Gmail API error \(400\): .*Invalid To header/);
    await fails('gmail_send', { to: 'a@example.com', body: 'b' }, 'validation_error', /subject/);
    await fails('gmail_send', { to: 'a@example.com', subject: 's' }, 'validation_error', /body/);
  });

  it('gmail_reply: reads Subject/From/Message-ID/References, then sends "Re:" with In-Reply-To and References into the same thread', async () => {
    const original = idBySubject('Quarterly report');
    const reply = await ok('gmail_reply', { message_id: original, body: 'Got it, thanks!' });
    expect(calls()[0]).toBe(
      `GET ${BASE}/messages/${original}?format=metadata&metadataHeaders=Subject&metadataHeaders=From&metadataHeaders=To&metadataHeaders=Reply-To&metadataHeaders=Message-ID&metadataHeaders=References`,
    );
    expect(calls()[1]).toBe(`POST ${BASE}/messages/send`);
    expect(c.body(1)).toMatchObject({ threadId: original });
    const raw = rawOf(1);
    expect(raw).toMatch(/^To: Grace Hopper <grace@navy\.example>\r$/m);
    expect(raw).toMatch(/^Subject: Re: Quarterly report\r$/m);
    expect(raw).toMatch(/^In-Reply-To: <q-report-1@navy\.example>\r$/m);
    expect(raw).toMatch(/^References: <q-report-1@navy\.example>\r$/m);
    // The fake files a message into the requested thread only when the headers really answer it.
    expect(reply).toMatchObject({ threadId: original, labelIds: ['SENT'], to: 'Grace Hopper <grace@navy.example>', subject: 'Re: Quarterly report' });
    expect(gmail.text(reply.id)).toBe('Got it, thanks!');
  });

  it('gmail_reply: a non-ASCII sender and subject are re-encoded; an existing "Re:" is not doubled; references accumulate', async () => {
    const berlin = await ok('gmail_reply', { message_id: idBySubject('Grüße aus Berlin'), body: '<p>Danke!</p>', html: true });
    const raw = rawOf(1);
    expect(raw).toMatch(/^To: =\?UTF-8\?B\?.+\?= <zoe@example\.de>\r$/m);
    expect(raw).toMatch(/^Content-Type: text\/html; charset=UTF-8\r$/m);
    expect(gmail.header(berlin.id, 'subject')).toBe('Re: Grüße aus Berlin');
    expect(gmail.header(berlin.id, 'to')).toBe('Zoë Müller <zoe@example.de>');
    expect(berlin.threadId).toBe(idBySubject('Grüße aus Berlin'));

    h.api.clearRequests();
    const mine = [...gmail.messages.values()].find((m) => gmail.header(m.id, 'message-id') === '<CAFada-1@mail.gmail.com>')!;
    const again = await ok('gmail_reply', { message_id: mine.id, body: 'One more thing.' });
    const second = rawOf(1);
    expect(second).toMatch(/^Subject: Re: Quarterly report\r$/m);
    // Answering one's own sent message goes to its recipients.
    expect(second).toMatch(/^To: Grace Hopper <grace@navy\.example>\r$/m);
    expect(second).toMatch(/^References: <q-report-1@navy\.example>\r\n <CAFada-1@mail\.gmail\.com>\r$/m);
    expect(again.threadId).toBe(mine.threadId);
    await fails('gmail_reply', { message_id: 'missing00', body: 'x' }, 'execution_error', /^Gmail API error \(404\)/);
    await fails('gmail_reply', { message_id: mine.id }, 'validation_error', /body/);
  });
});

describe('J8 google_gmail: drafts', () => {
  it('gmail_create_draft: POST /drafts {message:{raw}}; gmail_get_draft reads it back (format=full)', async () => {
    const draft = await ok('gmail_create_draft', { to: 'bob@example.com', cc: 'grace@navy.example', subject: 'Agenda für Montag', body: '1. Zahlen\n2. Kaffee' });
    expect(calls()).toEqual([`POST ${BASE}/drafts`]);
    const body = c.body(0) as { message: Record<string, unknown> };
    expect(Object.keys(body)).toEqual(['message']);
    expect(Object.keys(body.message)).toEqual(['raw']);
    const raw = rawOf(0);
    expect(raw).toMatch(/^To: bob@example\.com\r$/m);
    expect(raw).toMatch(/^Cc: grace@navy\.example\r$/m);
    expect(raw).toMatch(/^Subject: =\?UTF-8\?B\?/m);
    expect(draft).toEqual({ id: expect.stringMatching(/^r\d+$/), messageId: expect.any(String), threadId: expect.any(String) });
    expect(gmail.drafts.get(draft.id)).toBe(draft.messageId);
    expect(gmail.messages.get(draft.messageId)!.labelIds).toEqual(['DRAFT']);

    h.api.clearRequests();
    const read = await ok('gmail_get_draft', { draft_id: draft.id });
    expect(calls()).toEqual([`GET ${BASE}/drafts/${draft.id}?format=full`]);
    expect(read).toMatchObject({
      id: draft.id,
      message: { id: draft.messageId, to: 'bob@example.com', cc: 'grace@navy.example', subject: 'Agenda für Montag', body: '1. Zahlen\r\n2. Kaffee', labelIds: ['DRAFT'] },
    });
    await fails('gmail_get_draft', { draft_id: 'r0' }, 'execution_error', /^Gmail API error \(404\)/);
    await fails('gmail_create_draft', { to: 'bob@example.com', subject: 'x' }, 'validation_error', /body/);
  });

  it('gmail_list_drafts: GET /drafts?maxResults=20 by default', async () => {
    const list = await ok('gmail_list_drafts');
    expect(calls()).toEqual([`GET ${BASE}/drafts?maxResults=20`]);
    expect(list.count).toBe(gmail.drafts.size);
    const lunch = [...gmail.drafts].find(([, messageId]) => gmail.header(messageId, 'subject') === 'Lunch on Friday?')!;
    expect(list.drafts).toContainEqual({ id: lunch[0], messageId: lunch[1], threadId: lunch[1] });
    h.api.clearRequests();
    expect((await ok('gmail_list_drafts', { max_results: 1 })).drafts).toHaveLength(1);
    expect(calls()).toEqual([`GET ${BASE}/drafts?maxResults=1`]);
  });

  it('gmail_send_draft: POST /drafts/send {id}; the draft is gone and its message is SENT', async () => {
    const draft = await ok('gmail_create_draft', { to: 'bob@example.com', subject: 'Ready', body: 'Send me' });
    h.api.clearRequests();
    const sent = await ok('gmail_send_draft', { draft_id: draft.id });
    expect(calls()).toEqual([`POST ${BASE}/drafts/send`]);
    expect(c.body(0)).toEqual({ id: draft.id });
    expect(sent).toEqual({ id: draft.messageId, threadId: draft.threadId, labelIds: ['SENT'] });
    expect(gmail.drafts.has(draft.id)).toBe(false);
    await fails('gmail_send_draft', { draft_id: draft.id }, 'execution_error', /^Gmail API error \(404\)/);
  });

  it('gmail_delete_draft: DELETE /drafts/{id}; deleting again is a 404', async () => {
    const draft = await ok('gmail_create_draft', { to: 'bob@example.com', subject: 'Oops', body: 'never mind' });
    h.api.clearRequests();
    expect(await ok('gmail_delete_draft', { draft_id: draft.id })).toEqual({ deleted: draft.id });
    expect(calls()).toEqual([`DELETE ${BASE}/drafts/${draft.id}`]);
    expect(gmail.drafts.has(draft.id)).toBe(false);
    expect(gmail.messages.has(draft.messageId)).toBe(false);
    await fails('gmail_delete_draft', { draft_id: draft.id }, 'execution_error', /^Gmail API error \(404\)/);
  });
});

describe('J8 google_gmail: labels, read state, trash', () => {
  it('gmail_list_labels: GET /labels gives ids, names and types', async () => {
    const result = await ok('gmail_list_labels');
    expect(calls()).toEqual([`GET ${BASE}/labels`]);
    expect(result.labels).toContainEqual({ id: 'INBOX', name: 'INBOX', type: 'system' });
    expect(result.labels).toContainEqual({ id: 'Label_1', name: 'Work', type: 'user' });
    expect(result.count).toBe(gmail.labels.size);
  });

  it('gmail_create_label: POST /labels {name, messageListVisibility, labelListVisibility} (both required by the reference; defaults show / labelShow); a name that exists is the API’s 409', async () => {
    const label = await ok('gmail_create_label', { name: 'Projects/Apollo' });
    expect(calls()).toEqual([`POST ${BASE}/labels`]);
    expect(c.body(0)).toEqual({ name: 'Projects/Apollo', messageListVisibility: 'show', labelListVisibility: 'labelShow' });
    expect(label).toEqual({ id: expect.stringMatching(/^Label_\d+$/), name: 'Projects/Apollo', type: 'user', messageListVisibility: 'show', labelListVisibility: 'labelShow' });
    expect(gmail.labels.get(label.id)?.name).toBe('Projects/Apollo');
    await fails('gmail_create_label', { name: 'work' }, 'execution_error', /^Gmail API error \(409\): .*Label name exists or conflicts/);
    await fails('gmail_create_label', {}, 'validation_error', /name/);
  });

  it('gmail_create_label: message_list_visibility and label_list_visibility are sent as given; values outside their enums are refused before any request', async () => {
    const hidden = await ok('gmail_create_label', { name: 'Quiet', message_list_visibility: 'hide', label_list_visibility: 'labelShowIfUnread' });
    expect(c.body(0)).toEqual({ name: 'Quiet', messageListVisibility: 'hide', labelListVisibility: 'labelShowIfUnread' });
    expect(gmail.labels.get(hidden.id)).toMatchObject({ messageListVisibility: 'hide', labelListVisibility: 'labelShowIfUnread' });
    await ok('gmail_create_label', { name: 'Out of sight', label_list_visibility: 'labelHide' });
    expect(c.body(1)).toEqual({ name: 'Out of sight', messageListVisibility: 'show', labelListVisibility: 'labelHide' });
    h.api.clearRequests();
    await fails('gmail_create_label', { name: 'Bad', message_list_visibility: 'visible' }, 'validation_error', /message_list_visibility/);
    await fails('gmail_create_label', { name: 'Bad', label_list_visibility: 'show' }, 'validation_error', /label_list_visibility/);
    expect(calls()).toEqual([]);
  });

  it('gmail_delete_label: DELETE /labels/{id} by id or by name; an unknown id is a 404', async () => {
    const byId = await ok('gmail_create_label', { name: 'Temp one' });
    h.api.clearRequests();
    expect(await ok('gmail_delete_label', { label_id: byId.id })).toEqual({ deleted: byId.id });
    expect(calls()).toEqual([`DELETE ${BASE}/labels/${byId.id}`]);
    expect(gmail.labels.has(byId.id)).toBe(false);

    const byName = await ok('gmail_create_label', { name: 'Temp two' });
    h.api.clearRequests();
    expect(await ok('gmail_delete_label', { label_id: 'temp two' })).toEqual({ deleted: byName.id });
    expect(calls()).toEqual([`GET ${BASE}/labels`, `DELETE ${BASE}/labels/${byName.id}`]);
    await fails('gmail_delete_label', { label_id: 'Label_999' }, 'execution_error', /^Gmail API error \(404\)/);
    await fails('gmail_delete_label', { label_id: 'No such label' }, 'execution_error', /Unknown Gmail label "No such label"\. User labels: Work, Receipts/);
  });

  it('gmail_mark_read / gmail_mark_unread: POST /messages/{id}/modify removing or adding UNREAD', async () => {
    const id = seedInboxMessage('Read me');
    expect(await ok('gmail_mark_read', { message_id: id })).toEqual({ id, threadId: id, labelIds: ['INBOX'] });
    expect(calls()).toEqual([`POST ${BASE}/messages/${id}/modify`]);
    expect(c.body(0)).toEqual({ addLabelIds: [], removeLabelIds: ['UNREAD'] });
    h.api.clearRequests();
    expect((await ok('gmail_mark_unread', { message_id: id })).labelIds).toEqual(['INBOX', 'UNREAD']);
    expect(c.body(0)).toEqual({ addLabelIds: ['UNREAD'], removeLabelIds: [] });
    expect(gmail.messages.get(id)!.labelIds).toEqual(['INBOX', 'UNREAD']);
    await fails('gmail_mark_read', { message_id: 'gone' }, 'execution_error', /^Gmail API error \(404\)/);
  });

  it('gmail_add_label / gmail_remove_label: ids and system labels go straight to modify; a name is looked up first', async () => {
    const id = seedInboxMessage('Label me');
    await ok('gmail_add_label', { message_id: id, label_id: 'starred' });
    expect(calls()).toEqual([`POST ${BASE}/messages/${id}/modify`]);
    expect(c.body(0)).toEqual({ addLabelIds: ['STARRED'], removeLabelIds: [] });
    h.api.clearRequests();
    const named = await ok('gmail_add_label', { message_id: id, label_id: 'Receipts' });
    expect(calls()).toEqual([`GET ${BASE}/labels`, `POST ${BASE}/messages/${id}/modify`]);
    expect(c.body(1)).toEqual({ addLabelIds: ['Label_2'], removeLabelIds: [] });
    expect(named.labelIds).toEqual(['INBOX', 'UNREAD', 'STARRED', 'Label_2']);
    h.api.clearRequests();
    const removed = await ok('gmail_remove_label', { message_id: id, label_id: 'INBOX' });
    expect(c.body(0)).toEqual({ addLabelIds: [], removeLabelIds: ['INBOX'] });
    expect(removed.labelIds).toEqual(['UNREAD', 'STARRED', 'Label_2']);
    await fails('gmail_add_label', { message_id: id, label_id: 'Label_404' }, 'execution_error', /^Gmail API error \(400\): .*Invalid label: Label_404/);
    await fails('gmail_add_label', { message_id: id }, 'validation_error', /label_id/);
  });

  it('gmail_modify_labels: names resolved once via GET /labels; message or thread endpoint; exactly one target', async () => {
    const thread = idBySubject('Quarterly report');
    const result = await ok('gmail_modify_labels', { thread_id: thread, add_labels: ['travel/japan', 'STARRED'], remove_labels: ['Work', 'Label_2'] });
    expect(calls()).toEqual([`GET ${BASE}/labels`, `POST ${BASE}/threads/${thread}/modify`]);
    expect(c.body(1)).toEqual({ addLabelIds: ['Label_3', 'STARRED'], removeLabelIds: ['Label_1', 'Label_2'] });
    expect(result.threadId).toBe(thread);
    expect(result.messages.length).toBeGreaterThanOrEqual(2);
    for (const m of result.messages) expect(m.labelIds).toEqual(expect.arrayContaining(['Label_3', 'STARRED']));
    for (const m of result.messages) expect(m.labelIds).not.toContain('Label_1');

    h.api.clearRequests();
    const id = seedInboxMessage('Archive me');
    expect(await ok('gmail_modify_labels', { message_id: id, remove_labels: ['INBOX'] })).toEqual({ id, threadId: id, labelIds: ['UNREAD'] });
    expect(calls()).toEqual([`POST ${BASE}/messages/${id}/modify`]);
    await fails('gmail_modify_labels', { message_id: id, thread_id: thread, add_labels: ['STARRED'] }, 'execution_error', /exactly one of message_id or thread_id/);
    await fails('gmail_modify_labels', { message_id: id }, 'execution_error', /add_labels or remove_labels/);
    await fails('gmail_modify_labels', { thread_id: 'nothread', add_labels: ['STARRED'] }, 'execution_error', /^Gmail API error \(404\)/);
  });

  it('gmail_batch_modify: POST /messages/batchModify {ids, addLabelIds, removeLabelIds} with names resolved', async () => {
    const a = seedInboxMessage('Batch A');
    const b = seedInboxMessage('Batch B');
    expect(await ok('gmail_batch_modify', { message_ids: [a, b], add_labels: ['receipts'], remove_labels: ['unread', 'INBOX'] })).toEqual({
      modified: 2,
      addLabelIds: ['Label_2'],
      removeLabelIds: ['UNREAD', 'INBOX'],
    });
    expect(calls()).toEqual([`GET ${BASE}/labels`, `POST ${BASE}/messages/batchModify`]);
    expect(c.body(1)).toEqual({ ids: [a, b], addLabelIds: ['Label_2'], removeLabelIds: ['UNREAD', 'INBOX'] });
    expect(gmail.messages.get(a)!.labelIds).toEqual(['Label_2']);
    expect(gmail.messages.get(b)!.labelIds).toEqual(['Label_2']);
    await fails('gmail_batch_modify', { message_ids: [a, 'ghost'], add_labels: ['STARRED'] }, 'execution_error', /^Gmail API error \(404\)/);
    await fails('gmail_batch_modify', { add_labels: ['STARRED'] }, 'validation_error', /message_ids/);
    await fails('gmail_batch_modify', { message_ids: [] }, 'validation_error', /message_ids/);
  });

  it('gmail_trash: one id uses /trash; several use batchModify (add TRASH, remove INBOX); one of the two is needed', async () => {
    const one = seedInboxMessage('Trash one');
    expect(await ok('gmail_trash', { message_id: one })).toEqual({ trashed: [one], count: 1 });
    expect(calls()).toEqual([`POST ${BASE}/messages/${one}/trash`]);
    expect(h.api.requests[0]!.body.length).toBe(0);
    expect(gmail.messages.get(one)!.labelIds).toEqual(['UNREAD', 'TRASH']);

    h.api.clearRequests();
    const [a, b] = [seedInboxMessage('Trash a'), seedInboxMessage('Trash b')];
    expect(await ok('gmail_trash', { message_ids: [a, b] })).toEqual({ trashed: [a, b], count: 2 });
    expect(calls()).toEqual([`POST ${BASE}/messages/batchModify`]);
    expect(c.body(0)).toEqual({ ids: [a, b], addLabelIds: ['TRASH'], removeLabelIds: ['INBOX'] });
    expect(gmail.messages.get(b)!.labelIds).toContain('TRASH');
    // Trashed mail no longer shows up in a search.
    expect((await ok('gmail_search', { query: 'subject:"Trash a"' })).count).toBe(0);

    await fails('gmail_trash', {}, 'execution_error', /Give message_id \(one message\) or message_ids/);
    await fails('gmail_trash', { message_id: 'nope' }, 'execution_error', /^Gmail API error \(404\)/);
    await fails('gmail_trash', { message_ids: 'abc' }, 'validation_error', /message_ids/);
  });

  it('gmail_untrash: POST /messages/{id}/untrash puts it back in the inbox', async () => {
    const id = seedInboxMessage('Oops trashed');
    await ok('gmail_trash', { message_id: id });
    h.api.clearRequests();
    expect(await ok('gmail_untrash', { message_id: id })).toEqual({ id, threadId: id, labelIds: ['UNREAD', 'INBOX'] });
    expect(calls()).toEqual([`POST ${BASE}/messages/${id}/untrash`]);
    await fails('gmail_untrash', { message_id: 'nope' }, 'execution_error', /^Gmail API error \(404\)/);
  });

  it('gmail_history: changes since a history id (GET /history?startHistoryId&maxResults=50[&labelId]); a too-old id is a 404', async () => {
    const start = gmail.historyId;
    const id = seedInboxMessage('History');
    await ok('gmail_mark_read', { message_id: id });
    await ok('gmail_add_label', { message_id: id, label_id: 'Label_1' });
    const sent = await ok('gmail_send', { to: 'bob@example.com', subject: 'History check', body: 'x' });
    h.api.clearRequests();

    const history = await ok('gmail_history', { start_history_id: start });
    expect(calls()).toEqual([`GET ${BASE}/history?startHistoryId=${start}&maxResults=50`]);
    expect(history).toMatchObject({ historyId: gmail.historyId, count: 3, more: false });
    expect(history.changes.map((c: Record<string, unknown>) => Object.keys(c).filter((k) => k !== 'id'))).toEqual([['labelsRemoved'], ['labelsAdded'], ['messagesAdded']]);
    expect(history.changes[0].labelsRemoved).toEqual([{ id, threadId: id, labelIds: ['UNREAD'] }]);
    expect(history.changes[2].messagesAdded).toEqual([{ id: sent.id, threadId: sent.threadId }]);

    h.api.clearRequests();
    const work = await ok('gmail_history', { start_history_id: start, label_id: 'Work', max_results: 10 });
    expect(calls()).toEqual([`GET ${BASE}/labels`, `GET ${BASE}/history?startHistoryId=${start}&maxResults=10&labelId=Label_1`]);
    expect(work.changes.map((c: { labelsAdded?: unknown }) => c.labelsAdded)).toEqual([[{ id, threadId: id, labelIds: ['Label_1'] }]]);

    await fails('gmail_history', { start_history_id: '1' }, 'execution_error', /^Gmail API error \(404\)/);
    await fails('gmail_history', { start_history_id: 'yesterday' }, 'validation_error', /start_history_id/);
    await fails('gmail_history', {}, 'validation_error', /start_history_id/);
  });
});

describe('J8 google_gmail: the fake refuses what Gmail refuses', () => {
  it('parses MIME strictly: 8-bit header text and 8-bit text without a charset are refused; encoded-words are decoded', () => {
    expect(() => parseMime(Buffer.from('Subject: Grüße\r\n\r\nx', 'utf8'))).toThrow(/US-ASCII/);
    expect(parseMime(Buffer.from('Subject: =?UTF-8?B?R3LDvMOfZQ==?=\r\n\r\nx')).headers).toEqual([{ name: 'Subject', value: 'Grüße' }]);
    expect(() => parseMime(Buffer.from('Content-Type: text/plain\r\n\r\ncaf\xe9', 'latin1'))).toThrow(/no charset/);
  });

  it('answers wrong calls as Gmail would: standard-base64 raw, no recipient, no raw, non-JSON body, wrong method, bad format, unknown parameters and fields, missing fields (a label’s visibilities included), another user', async () => {
    const send = (body: string, type = 'application/json') => direct('POST', `${BASE}/messages/send`, body, type);
    expect(await send(JSON.stringify({ raw: 'VG86IGFAYi5j+/8=' }))).toMatch(/^400 .*Base64 decoding failed/);
    expect(await send(JSON.stringify({ raw: Buffer.from('Subject: x\r\n\r\nx').toString('base64url') }))).toMatch(/^400 .*Recipient address required/);
    expect(await send(JSON.stringify({}))).toMatch(/^400 .*RFC822 payload/);
    expect(await send('raw=abc', 'text/plain')).toMatch(/^400 .*application\/json/);
    expect(await direct('PUT', `${BASE}/messages/send`, '{}', 'application/json')).toMatch(/^404 /);
    expect(await direct('GET', `${BASE}/messages/${idBySubject('Quarterly report')}?format=compact`)).toMatch(/^400 .*format/);
    expect(await direct('GET', `${BASE}/history`)).toMatch(/^400 .*startHistoryId/);
    expect(await direct('GET', `${BASE}/messages?max_results=5`)).toMatch(/^400 .*Unknown name ..max_results/);
    expect(await direct('POST', `${BASE}/messages/${idBySubject('Quarterly report')}/modify`, '{"addLabels":["STARRED"]}', 'application/json')).toMatch(
      /^400 .*Unknown name ..addLabels/,
    );
    expect(await direct('POST', `${BASE}/labels`, '{}', 'application/json')).toMatch(/^400 .*name/);
    expect(await direct('POST', `${BASE}/labels`, '{"name":"No visibility"}', 'application/json')).toMatch(/^400 .*messageListVisibility/);
    expect(await direct('POST', `${BASE}/labels`, '{"name":"x","messageListVisibility":"show","labelListVisibility":"always"}', 'application/json')).toMatch(
      /^400 .*label_list_visibility/,
    );
    expect(await direct('POST', `${BASE}/drafts/send`, '{}', 'application/json')).toMatch(/^400 .*'id'/);
    expect(await direct('GET', '/gmail/v1/users/someone@else.example/labels')).toMatch(/^403 .*Delegation denied/);
    // The PUT above matched no route; the fake's own bookkeeping says so.
    expect(h.api.unmatched.map((r) => `${r.method} ${r.path}`)).toEqual([`PUT ${BASE}/messages/send`]);
    h.api.clearRequests();
  });
});

/**
 * A hand-made request straight to the fake through its intercepting proxy (CONNECT, then TLS
 * trusting the fixture CA), to check what the fake refuses. Returns "<status> <body>".
 */
async function direct(method: string, pathAndQuery: string, body?: string, contentType?: string): Promise<string> {
  const proxy = new URL(h.api.proxyUrl);
  const socket = await new Promise<import('node:net').Socket>((resolve, reject) => {
    const connect = http.request({ host: proxy.hostname, port: proxy.port, method: 'CONNECT', path: 'gmail.googleapis.com:443' });
    connect.on('connect', (res, tunnel) => (res.statusCode === 200 ? resolve(tunnel) : reject(new Error(`CONNECT ${res.statusCode}`))));
    connect.on('error', reject);
    connect.end();
  });
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${FAKE_GOOGLE_ACCESS_TOKEN}` };
    if (contentType) headers['content-type'] = contentType;
    const req = https.request(
      {
        host: 'gmail.googleapis.com',
        servername: 'gmail.googleapis.com',
        path: pathAndQuery,
        method,
        headers,
        ca: h.api.caCertificate,
        createConnection: () => tls.connect({ socket, servername: 'gmail.googleapis.com', ca: h.api.caCertificate }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(`${res.statusCode} ${Buffer.concat(chunks).toString('utf8')}`));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
