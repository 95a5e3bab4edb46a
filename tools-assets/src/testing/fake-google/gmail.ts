import { createHash } from 'node:crypto';
import { GoogleApiError, requireFields, type FakeGoogleApi, type GoogleRequest, type GoogleResponse } from '../fake-google-api';
import { enumQuery, rejectUnknownFields, rejectUnknownQuery } from './api-checks';
import { pageOf } from './paging';

/** The service host of Gmail's discovery document (rootUrl); the fake answers only there. */
export const GMAIL_HOST = 'gmail.googleapis.com';
/** The Gmail API's path prefix; `{userId}` is `me` or the account's address. */
export const GMAIL_USER_PATH = '/gmail/v1/users/{userId}';

export interface GmailHeader {
  readonly name: string;
  readonly value: string;
}

export interface GmailMessagePartBody {
  size: number;
  data?: string;
  attachmentId?: string;
}

/** `MessagePart` of the Gmail reference. */
export interface GmailMessagePart {
  partId: string;
  mimeType: string;
  filename: string;
  headers: GmailHeader[];
  body: GmailMessagePartBody;
  parts?: GmailMessagePart[];
}

/** One MIME entity as the fake parsed it out of `raw`. */
export interface MimeEntity {
  /** Header fields unfolded, with RFC 2047 encoded-words decoded (as Gmail's `payload.headers`). */
  readonly headers: GmailHeader[];
  /** Header fields unfolded but not decoded: what was on the wire. */
  readonly rawHeaders: GmailHeader[];
  /** Lower-case `type/subtype`; `text/plain` when there is no Content-Type. */
  readonly mimeType: string;
  /** Content-Type parameters, lower-case names (charset, boundary, name...). */
  readonly params: Readonly<Record<string, string>>;
  readonly filename: string;
  /** The body after Content-Transfer-Encoding decoding (empty for multipart). */
  readonly content: Buffer;
  readonly parts: readonly MimeEntity[];
}

export interface GmailLabel {
  id: string;
  name: string;
  type: 'system' | 'user';
  messageListVisibility?: 'show' | 'hide';
  labelListVisibility?: 'labelShow' | 'labelShowIfUnread' | 'labelHide';
}

export interface FakeGmailMessage {
  readonly id: string;
  threadId: string;
  labelIds: string[];
  raw: Buffer;
  mime: MimeEntity;
  readonly internalDate: string;
  historyId: string;
  /** Attachment id -> bytes, for users.messages.attachments.get. */
  attachments: Map<string, Buffer>;
  /** Set when trashing took the message out of INBOX, so untrashing puts it back. */
  inboxBeforeTrash?: boolean;
}

interface HistoryRecord {
  readonly id: string;
  readonly type: 'messageAdded' | 'messageDeleted' | 'labelAdded' | 'labelRemoved';
  readonly message: { id: string; threadId: string; labelIds: string[] };
  readonly labelIds?: string[];
}

export interface GmailFake {
  readonly emailAddress: string;
  readonly labels: Map<string, GmailLabel>;
  readonly messages: Map<string, FakeGmailMessage>;
  /** Draft id -> message id. */
  readonly drafts: Map<string, string>;
  /** The mailbox's current history id (a decimal string). */
  readonly historyId: string;
  /** Adds a message from its RFC 5322 text (seeding); returns it. */
  addMessage(raw: string | Buffer, labelIds: string[], threadId?: string): FakeGmailMessage;
  /** A header of a stored message, encoded-words decoded; the name is case-insensitive. */
  header(messageId: string, name: string): string | undefined;
  /** The decoded text of a stored message's first text/plain part, else its first text/html part. */
  text(messageId: string): string;
}

const SYSTEM_LABELS: readonly GmailLabel[] = [
  { id: 'CHAT', name: 'CHAT', type: 'system', messageListVisibility: 'hide', labelListVisibility: 'labelHide' },
  { id: 'SENT', name: 'SENT', type: 'system' },
  { id: 'INBOX', name: 'INBOX', type: 'system' },
  { id: 'IMPORTANT', name: 'IMPORTANT', type: 'system', messageListVisibility: 'hide', labelListVisibility: 'labelHide' },
  { id: 'TRASH', name: 'TRASH', type: 'system', messageListVisibility: 'hide', labelListVisibility: 'labelHide' },
  { id: 'DRAFT', name: 'DRAFT', type: 'system' },
  { id: 'SPAM', name: 'SPAM', type: 'system', messageListVisibility: 'hide', labelListVisibility: 'labelHide' },
  { id: 'CATEGORY_FORUMS', name: 'CATEGORY_FORUMS', type: 'system' },
  { id: 'CATEGORY_UPDATES', name: 'CATEGORY_UPDATES', type: 'system' },
  { id: 'CATEGORY_PERSONAL', name: 'CATEGORY_PERSONAL', type: 'system' },
  { id: 'CATEGORY_PROMOTIONS', name: 'CATEGORY_PROMOTIONS', type: 'system' },
  { id: 'CATEGORY_SOCIAL', name: 'CATEGORY_SOCIAL', type: 'system' },
  { id: 'STARRED', name: 'STARRED', type: 'system' },
  { id: 'UNREAD', name: 'UNREAD', type: 'system' },
];

const NOT_FOUND = 'Requested entity was not found.';
const MESSAGE_FORMATS = ['minimal', 'full', 'raw', 'metadata'];

function badRequest(message: string): GoogleApiError {
  return new GoogleApiError(400, message, 'INVALID_ARGUMENT');
}

function notFound(): GoogleApiError {
  return new GoogleApiError(404, NOT_FOUND, 'NOT_FOUND');
}

// ---------------------------------------------------------------------------------------------
// MIME parsing: what Gmail does with `raw` before it stores a message.

function decodeCharset(bytes: Buffer, charset: string | undefined, fatal: boolean): string {
  const name = (charset ?? 'us-ascii').split('*')[0]!.trim().toLowerCase();
  try {
    return new TextDecoder(name === 'us-ascii' ? 'utf-8' : name, { fatal }).decode(bytes);
  } catch (error) {
    if (error instanceof RangeError) throw badRequest(`Unsupported charset '${charset}'.`);
    throw badRequest(`Text is not valid ${charset ?? 'US-ASCII'}.`);
  }
}

const ENCODED_WORD = /=\?([^?\s]+)\?([bBqQ])\?([^?\s]*)\?=/g;

/** RFC 2047: decodes encoded-words; white space between two adjacent encoded-words is dropped. */
export function decodeEncodedWords(value: string): string {
  return value
    .replace(/(=\?[^?\s]+\?[bBqQ]\?[^?\s]*\?=)\s+(?==\?[^?\s]+\?[bBqQ]\?[^?\s]*\?=)/g, '$1')
    .replace(ENCODED_WORD, (_word, charset: string, encoding: string, data: string) => {
      const bytes =
        encoding.toUpperCase() === 'B'
          ? Buffer.from(data, 'base64')
          : Buffer.from(
              data.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
              'latin1',
            );
      // A character split across two words (which RFC 2047 forbids) fails here.
      return decodeCharset(bytes, charset, true);
    });
}

function parseParams(value: string): { main: string; params: Record<string, string> } {
  const [main = '', ...rest] = value.split(';');
  const params: Record<string, string> = {};
  const pattern = /^\s*([^=\s]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|(.*?))\s*$/;
  for (const piece of rest) {
    const match = pattern.exec(piece);
    if (match) params[match[1]!.toLowerCase()] = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : (match[3] ?? '');
  }
  return { main: main.trim().toLowerCase(), params };
}

function transferDecode(body: Buffer, encoding: string): Buffer {
  switch (encoding) {
    case 'base64': {
      const text = body.toString('latin1').replace(/[\r\n\t ]/g, '');
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw badRequest('Invalid base64 in a Content-Transfer-Encoding: base64 part.');
      return Buffer.from(text, 'base64');
    }
    case 'quoted-printable':
      return Buffer.from(
        body
          .toString('latin1')
          .replace(/[ \t]+(?=\r?\n)/g, '')
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      );
    case '7bit':
    case '8bit':
    case 'binary':
      return body;
    default:
      throw badRequest(`Unknown Content-Transfer-Encoding '${encoding}'.`);
  }
}

function splitMultipart(body: Buffer, boundary: string): Buffer[] {
  const text = body.toString('latin1');
  const escaped = boundary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const delimiter = new RegExp(`(^|\\r?\\n)--${escaped}(--)?[ \\t]*(?=\\r?\\n|$)\\r?\\n?`, 'g');
  const parts: Buffer[] = [];
  let start = -1;
  let closed = false;
  for (let match = delimiter.exec(text); match; match = delimiter.exec(text)) {
    if (start >= 0) parts.push(Buffer.from(text.slice(start, match.index), 'latin1'));
    start = match.index + match[0].length;
    if (match[2]) {
      closed = true;
      break;
    }
  }
  if (!closed) throw badRequest(`Multipart body has no closing boundary '--${boundary}--'.`);
  return parts;
}

/**
 * Parses an RFC 5322 / MIME entity. Stricter than Gmail in one way, on purpose: header fields
 * must be 7-bit (RFC 5322 section 2.2), so text that is not ASCII has to arrive as encoded-words.
 */
export function parseMime(raw: Buffer): MimeEntity {
  const text = raw.toString('latin1');
  const crlf = text.indexOf('\r\n\r\n');
  const lf = text.indexOf('\n\n');
  let end = text.length;
  let gap = 0;
  if (/^\r?\n/.test(text)) [end, gap] = [0, text.startsWith('\r\n') ? 2 : 1];
  else if (crlf >= 0 && (lf < 0 || crlf < lf)) [end, gap] = [crlf, 4];
  else if (lf >= 0) [end, gap] = [lf, 2];
  const headerText = text.slice(0, end);
  if (/[^\x00-\x7f]/.test(headerText)) throw badRequest('Invalid RFC 5322 header: header fields must be US-ASCII; encode other text as RFC 2047 encoded-words.');
  const rawHeaders: GmailHeader[] = [];
  for (const line of headerText.replace(/\r?\n(?=[ \t])/g, '').split(/\r?\n/)) {
    if (line === '') continue;
    const match = /^([!-9;-~]+):[ \t]*(.*)$/.exec(line);
    if (!match) throw badRequest(`Invalid RFC 5322 header line: ${JSON.stringify(line.slice(0, 60))}`);
    rawHeaders.push({ name: match[1]!, value: match[2]!.trim() });
  }
  const headers = rawHeaders.map((h) => ({ name: h.name, value: decodeEncodedWords(h.value) }));
  const get = (name: string) => headers.find((h) => h.name.toLowerCase() === name)?.value;
  const type = parseParams(get('content-type') ?? 'text/plain');
  const disposition = parseParams(get('content-disposition') ?? '');
  const filename = disposition.params.filename ?? type.params.name ?? '';
  const body = raw.subarray(Math.min(raw.length, end + gap));
  if (type.main.startsWith('multipart/')) {
    const boundary = type.params.boundary;
    if (!boundary) throw badRequest(`${type.main} without a boundary parameter.`);
    return { headers, rawHeaders, mimeType: type.main, params: type.params, filename, content: Buffer.alloc(0), parts: splitMultipart(body, boundary).map(parseMime) };
  }
  const content = transferDecode(body, (get('content-transfer-encoding') ?? '7bit').toLowerCase());
  if (type.main.startsWith('text/') && !filename) {
    // 8-bit text needs its charset; declared text must decode in that charset.
    if (type.params.charset === undefined && content.some((b) => b > 0x7f)) throw badRequest(`A ${type.main} part has 8-bit content but no charset.`);
    decodeCharset(content, type.params.charset, true);
  }
  return { headers, rawHeaders, mimeType: type.main, params: type.params, filename: decodeEncodedWords(filename), content, parts: [] };
}

function header(entity: MimeEntity, name: string): string | undefined {
  return entity.headers.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value;
}

/** The text of the first text/plain part, else the first text/html one (tags kept). */
function bodyText(entity: MimeEntity, type: 'text/plain' | 'text/html' = 'text/plain'): string | undefined {
  if (entity.parts.length === 0) return entity.mimeType === type && !entity.filename ? decodeCharset(entity.content, entity.params.charset, false) : undefined;
  for (const part of entity.parts) {
    const text = bodyText(part, type);
    if (text !== undefined) return text;
  }
  return undefined;
}

/** Splits an address list at the commas between addresses (not those in quotes or brackets). */
export function splitAddressList(value: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  let angle = false;
  for (const c of value) {
    if (c === '"') quoted = !quoted;
    else if (c === '<' && !quoted) angle = true;
    else if (c === '>' && !quoted) angle = false;
    if (c === ',' && !quoted && !angle) {
      if (current.trim()) out.push(current.trim());
      current = '';
    } else current += c;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/** The addr-spec of each address in a list (`Name <a@b>` or `a@b`); throws on a malformed one. */
function addresses(value: string | undefined, field: string): string[] {
  if (value === undefined) return [];
  return splitAddressList(value).map((address) => {
    const spec = /<([^<>]*)>\s*$/.exec(address)?.[1] ?? address;
    if (!/^[^\s@<>",]+@[^\s@<>",]+$/.test(spec.trim())) throw badRequest(`Invalid ${field} header`);
    return spec.trim();
  });
}

function normalizeSubject(subject: string | undefined): string {
  let s = (subject ?? '').trim();
  while (/^(re|fwd?|aw|sv)\s*:/i.test(s)) s = s.replace(/^(re|fwd?|aw|sv)\s*:\s*/i, '');
  return s.toLowerCase();
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

// ---------------------------------------------------------------------------------------------

class Mailbox implements GmailFake {
  readonly emailAddress = 'ada@example.com';
  readonly displayName = 'Ada Lovelace';
  readonly labels = new Map<string, GmailLabel>();
  readonly messages = new Map<string, FakeGmailMessage>();
  readonly drafts = new Map<string, string>();
  readonly history: HistoryRecord[] = [];
  private nextId = 0x18f3a2b4c5d60000n;
  private nextDraft = 5823949723950436213n;
  private nextLabel = 1;
  private history_ = 2_480_100;
  /** The oldest start id history.list accepts; older ones are "too old" (404), as in Gmail. */
  oldestHistoryId = this.history_;

  get historyId(): string {
    return String(this.history_);
  }

  newMessageId(): string {
    this.nextId += BigInt(0x1a3 + Number(this.nextId % 97n));
    return this.nextId.toString(16);
  }

  newDraftId(): string {
    this.nextDraft += 7919n;
    return `r${this.nextDraft}`;
  }

  newLabelId(): string {
    return `Label_${this.nextLabel++}`;
  }

  bumpHistory(): string {
    this.history_ += 1;
    return this.historyId;
  }

  record(type: HistoryRecord['type'], message: FakeGmailMessage, labelIds?: string[]): void {
    const id = this.bumpHistory();
    message.historyId = id;
    this.history.push({ id, type, message: { id: message.id, threadId: message.threadId, labelIds: [...message.labelIds] }, ...(labelIds ? { labelIds } : {}) });
  }

  addMessage(raw: string | Buffer, labelIds: string[], threadId?: string): FakeGmailMessage {
    const bytes = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
    const mime = parseMime(bytes);
    const id = this.newMessageId();
    const date = Date.parse(header(mime, 'date') ?? '');
    const message: FakeGmailMessage = {
      id,
      threadId: threadId ?? id,
      labelIds: [...labelIds],
      raw: bytes,
      mime,
      internalDate: String(Number.isNaN(date) ? Date.now() : date),
      historyId: this.historyId,
      attachments: new Map(),
    };
    this.messages.set(id, message);
    return message;
  }

  header(messageId: string, name: string): string | undefined {
    const message = this.messages.get(messageId);
    return message && header(message.mime, name);
  }

  text(messageId: string): string {
    const message = this.messages.get(messageId);
    if (!message) throw new Error(`No message ${messageId}`);
    return bodyText(message.mime) ?? bodyText(message.mime, 'text/html') ?? '';
  }

  message(id: string): FakeGmailMessage {
    const message = this.messages.get(id);
    if (!message) throw notFound();
    return message;
  }

  thread(id: string): FakeGmailMessage[] {
    const messages = [...this.messages.values()].filter((m) => m.threadId === id).sort((a, b) => Number(a.internalDate) - Number(b.internalDate));
    if (messages.length === 0) throw notFound();
    return messages;
  }

  snippet(message: FakeGmailMessage): string {
    const html = bodyText(message.mime, 'text/html');
    const text = bodyText(message.mime) ?? (html ?? '').replace(/<[^>]*>/g, ' ');
    return escapeHtml(text.replace(/\s+/g, ' ').trim().slice(0, 160));
  }

  payload(message: FakeGmailMessage): GmailMessagePart {
    const build = (entity: MimeEntity, partId: string): GmailMessagePart => {
      const part: GmailMessagePart = { partId, mimeType: entity.mimeType, filename: entity.filename, headers: entity.headers.map((h) => ({ ...h })), body: { size: 0 } };
      if (entity.mimeType.startsWith('multipart/')) {
        part.parts = entity.parts.map((child, i) => build(child, partId === '' ? String(i) : `${partId}.${i}`));
      } else if (entity.filename) {
        const attachmentId = `ANGjdJ${createHash('sha256').update(`${message.id}/${partId}`).digest('base64url')}`;
        message.attachments.set(attachmentId, entity.content);
        part.body = { attachmentId, size: entity.content.length };
      } else {
        part.body = { size: entity.content.length, data: entity.content.toString('base64url') };
      }
      return part;
    };
    return build(message.mime, '');
  }

  /** users.messages resource in the requested format. */
  render(message: FakeGmailMessage, format: string, metadataHeaders: readonly string[] = []): Record<string, unknown> {
    const base = { id: message.id, threadId: message.threadId, labelIds: [...message.labelIds], snippet: this.snippet(message) };
    const tail = { sizeEstimate: message.raw.length, historyId: message.historyId, internalDate: message.internalDate };
    if (format === 'minimal') return { ...base, ...tail };
    if (format === 'raw') return { ...base, ...tail, raw: message.raw.toString('base64url') };
    if (format === 'metadata') {
      const wanted = metadataHeaders.map((n) => n.toLowerCase());
      const headers = message.mime.headers.filter((h) => wanted.length === 0 || wanted.includes(h.name.toLowerCase()));
      return { ...base, payload: { mimeType: message.mime.mimeType, headers }, ...tail };
    }
    return { ...base, payload: this.payload(message), ...tail };
  }

  brief(message: FakeGmailMessage): { id: string; threadId: string; labelIds: string[] } {
    return { id: message.id, threadId: message.threadId, labelIds: [...message.labelIds] };
  }

  checkLabels(ids: unknown, field: string, adding: boolean): string[] {
    if (ids === undefined) return [];
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) throw badRequest(`Invalid value at '${field}': expected a list of strings.`);
    for (const id of ids as string[]) {
      if (!this.labels.has(id) || (adding && (id === 'DRAFT' || id === 'SENT'))) throw badRequest(`Invalid label: ${id}`);
    }
    return ids as string[];
  }

  modify(message: FakeGmailMessage, add: readonly string[], remove: readonly string[]): void {
    const added = add.filter((id) => !message.labelIds.includes(id));
    const removed = remove.filter((id) => message.labelIds.includes(id) && !add.includes(id));
    message.labelIds = [...message.labelIds.filter((id) => !removed.includes(id)), ...added];
    if (added.length > 0) this.record('labelAdded', message, added);
    if (removed.length > 0) this.record('labelRemoved', message, removed);
  }

  /** Gmail fills in From, Date and Message-ID on what it sends, like an MTA. */
  stamp(message: FakeGmailMessage): void {
    const extra: string[] = [];
    if (!header(message.mime, 'from')) extra.push(`From: ${this.displayName} <${this.emailAddress}>`);
    if (!header(message.mime, 'date')) extra.push(`Date: ${new Date().toUTCString().replace('GMT', '+0000')}`);
    if (!header(message.mime, 'message-id')) extra.push(`Message-ID: <CAF${message.id}@mail.gmail.com>`);
    if (extra.length === 0) return;
    message.raw = Buffer.concat([Buffer.from(extra.join('\r\n') + '\r\n'), message.raw]);
    message.mime = parseMime(message.raw);
  }

  /** Gmail's recipient checks for a message about to be sent. */
  checkRecipients(mime: MimeEntity): void {
    const all = [...addresses(header(mime, 'to'), 'To'), ...addresses(header(mime, 'cc'), 'Cc'), ...addresses(header(mime, 'bcc'), 'Bcc')];
    if (all.length === 0) throw badRequest('Recipient address required');
  }

  /**
   * The thread a new message joins. Gmail honours a requested threadId only when the message
   * answers one in that thread (In-Reply-To or References) and the subjects match; else a new thread.
   */
  threadFor(mime: MimeEntity, requested: unknown): string | undefined {
    if (requested === undefined || requested === null || requested === '') return undefined;
    const thread = this.thread(String(requested));
    const refs = `${header(mime, 'in-reply-to') ?? ''} ${header(mime, 'references') ?? ''}`.match(/<[^<>]+>/g) ?? [];
    const ids = thread.map((m) => header(m.mime, 'message-id')).filter((v): v is string => v !== undefined);
    const answers = refs.some((r) => ids.includes(r));
    const sameSubject = normalizeSubject(header(mime, 'subject')) === normalizeSubject(header(thread[0]!.mime, 'subject'));
    return answers && sameSubject ? String(requested) : undefined;
  }

  /** Decodes and parses a `raw` field. */
  ingest(raw: unknown, field: string): Buffer {
    if (typeof raw !== 'string' || raw === '') throw badRequest("'raw' RFC822 payload message string or uploading message via /upload/* URL required");
    if (!/^[A-Za-z0-9_-]*={0,2}$/.test(raw)) throw badRequest(`Invalid value at '${field}' (TYPE_BYTES), Base64 decoding failed: use the URL-safe alphabet (RFC 4648 section 5).`);
    return Buffer.from(raw, 'base64url');
  }

  matches(message: FakeGmailMessage, q: string, includeSpamTrash: boolean): boolean {
    const labels = message.labelIds;
    const names = labels.map((id) => (this.labels.get(id)?.name ?? id).toLowerCase());
    const h = (name: string) => (header(message.mime, name) ?? '').toLowerCase();
    const text = `${h('subject')} ${h('from')} ${h('to')} ${h('cc')} ${(bodyText(message.mime) ?? bodyText(message.mime, 'text/html') ?? '').toLowerCase()}`;
    const hasAttachment = message.mime.parts.length > 0 && JSON.stringify(this.payload(message)).includes('"attachmentId"');
    let scoped = false;
    const tokens = q.match(/-?(?:[a-z_]+:)?(?:"[^"]*"|\S+)/gi) ?? [];
    for (const token of tokens) {
      const negate = token.startsWith('-');
      const match = /^-?(?:([a-z_]+):)?"?(.*?)"?$/i.exec(token)!;
      const op = (match[1] ?? '').toLowerCase();
      const value = match[2]!.toLowerCase();
      let ok: boolean | undefined;
      switch (op) {
        case 'from':
        case 'to':
        case 'cc':
        case 'bcc':
        case 'subject':
          ok = h(op).includes(value);
          break;
        case 'label':
          ok = names.includes(value) || names.includes(value.replace(/-/g, ' ')) || labels.map((l) => l.toLowerCase()).includes(value);
          break;
        case 'in':
          if (['trash', 'spam', 'anywhere'].includes(value)) scoped = true;
          ok = value === 'anywhere' || labels.includes(value === 'drafts' ? 'DRAFT' : value.toUpperCase());
          break;
        case 'is':
          ok = value === 'read' ? !labels.includes('UNREAD') : labels.includes(value.toUpperCase());
          break;
        case 'has':
          ok = value === 'attachment' ? hasAttachment : labels.includes(value.toUpperCase());
          break;
        case 'after':
        case 'before': {
          const when = Date.parse(value.replace(/\//g, '-'));
          ok = op === 'after' ? Number(message.internalDate) >= when : Number(message.internalDate) < when;
          break;
        }
        case '':
          // "OR" is not understood: the words around it must both match.
          ok = token === 'OR' ? undefined : text.includes(value);
          break;
        default:
          ok = undefined; // an operator the fake does not know filters nothing
      }
      if (ok !== undefined && ok === negate) return false;
    }
    return scoped || includeSpamTrash || !(labels.includes('TRASH') || labels.includes('SPAM'));
  }

  search(req: GoogleRequest): FakeGmailMessage[] {
    const q = req.query.get('q') ?? '';
    const includeSpamTrash = req.query.get('includeSpamTrash') === 'true';
    const labelIds = req.query.getAll('labelIds');
    return [...this.messages.values()]
      .filter((m) => labelIds.every((l) => m.labelIds.includes(l)) && this.matches(m, q, includeSpamTrash))
      .sort((a, b) => Number(b.internalDate) - Number(a.internalDate));
  }
}

// ---------------------------------------------------------------------------------------------
// Seed mailbox.

const PDF_BYTES = Buffer.concat([
  Buffer.from('%PDF-1.4\n%'),
  Buffer.from([0xe2, 0xe3, 0xcf, 0xd3, 0x00, 0xff, 0x10, 0x80]),
  Buffer.from('\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n'),
]);

/** The seeded attachment's bytes (report-q3.pdf on the "Quarterly report" message). */
export const GMAIL_SEED_ATTACHMENT = PDF_BYTES;

function seed(box: Mailbox): void {
  for (const label of SYSTEM_LABELS) box.labels.set(label.id, { ...label });
  for (const name of ['Work', 'Receipts', 'Travel/Japan']) {
    const id = box.newLabelId();
    box.labels.set(id, { id, name, type: 'user', messageListVisibility: 'show', labelListVisibility: 'labelShow' });
  }
  const pdf = PDF_BYTES.toString('base64').replace(/(.{76})/g, '$1\r\n');
  const report = box.addMessage(
    [
      'Return-Path: <grace@navy.example>',
      'From: Grace Hopper <grace@navy.example>',
      'To: Ada Lovelace <ada@example.com>',
      'Subject: Quarterly report',
      'Date: Mon, 7 Oct 2024 09:15:00 +0000',
      'Message-ID: <q-report-1@navy.example>',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="mixed-1"',
      '',
      '--mixed-1',
      'Content-Type: multipart/alternative; boundary="alt-1"',
      '',
      '--alt-1',
      'Content-Type: text/plain; charset=UTF-8',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'Hi Ada,',
      '',
      'The Q3 report is attached. The caf=C3=A9 budget is =E2=82=AC1.2k.',
      '',
      'Grace',
      '--alt-1',
      'Content-Type: text/html; charset=UTF-8',
      '',
      '<p>Hi Ada,</p><p>The Q3 report is attached.</p>',
      '--alt-1--',
      '--mixed-1',
      'Content-Type: application/pdf; name="report-q3.pdf"',
      'Content-Disposition: attachment; filename="report-q3.pdf"',
      'Content-Transfer-Encoding: base64',
      '',
      pdf,
      '--mixed-1--',
      '',
    ].join('\r\n'),
    ['INBOX', 'UNREAD', 'IMPORTANT', 'Label_1'],
  );
  box.addMessage(
    [
      'From: Ada Lovelace <ada@example.com>',
      'To: Grace Hopper <grace@navy.example>',
      'Subject: Re: Quarterly report',
      'Date: Mon, 7 Oct 2024 11:02:00 +0000',
      'Message-ID: <CAFada-1@mail.gmail.com>',
      'In-Reply-To: <q-report-1@navy.example>',
      'References: <q-report-1@navy.example>',
      'Content-Type: text/plain; charset=UTF-8',
      '',
      'Thanks Grace, reading it today.',
      '',
    ].join('\r\n'),
    ['SENT', 'Label_1'],
    report.id,
  );
  box.addMessage(
    [
      'From: =?UTF-8?Q?Zo=C3=AB_M=C3=BCller?= <zoe@example.de>',
      'To: ada@example.com',
      'Subject: =?UTF-8?B?R3LDvMOfZSBhdXMgQmVybGlu?=',
      'Date: Tue, 8 Oct 2024 18:40:00 +0200',
      'Message-ID: <berlin-77@example.de>',
      'Content-Type: text/plain; charset=ISO-8859-1',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'Liebe Ada, viele Gr=FC=DFe aus Berlin! Z=F6e',
      '',
    ].join('\r\n'),
    ['INBOX', 'CATEGORY_PERSONAL'],
  );
  box.addMessage(
    [
      'From: Shop <billing@shop.example>',
      'To: ada@example.com',
      'Subject: Your receipt #4411',
      'Date: Wed, 9 Oct 2024 07:00:00 +0000',
      'Message-ID: <r4411@shop.example>',
      'Content-Type: text/html; charset=UTF-8',
      '',
      "<html><body><h1>Receipt #4411</h1><p>Total: $42.00 &mdash; thanks for your order, Ada's Shop</p></body></html>",
      '',
    ].join('\r\n'),
    ['Label_2', 'CATEGORY_UPDATES'],
  );
  const draft = box.addMessage(
    ['To: bob@example.com', 'Subject: Lunch on Friday?', 'Content-Type: text/plain; charset=UTF-8', '', 'Bob, lunch on Friday at noon?', ''].join('\r\n'),
    ['DRAFT'],
  );
  box.drafts.set(box.newDraftId(), draft.id);
  box.oldestHistoryId = Number(box.bumpHistory());
  for (const m of box.messages.values()) m.historyId = box.historyId;
}

// ---------------------------------------------------------------------------------------------

/**
 * Registers a fake of the Gmail API v1 mailbox (users.messages, .attachments, .threads, .labels,
 * .drafts, .history) on `api` and returns its state. A fake for tests: it holds a small seeded
 * mailbox in memory, answers with the reference's resource shapes (ids, `nextPageToken`,
 * `resultSizeEstimate`, `MessagePart` trees with base64url body data), decodes and parses every
 * `raw` message it is given (base64url alphabet, RFC 5322 headers, RFC 2047 encoded-words,
 * MIME parts, transfer encodings, charsets), refuses what Gmail refuses (missing fields, bad
 * formats, unknown labels, no recipient) and answers unknown ids with 404 "Requested entity was
 * not found.". It understands the common search operators (from:, to:, subject:, label:, in:,
 * is:, has:attachment, after:, before:, words) rather than Gmail's full grammar.
 */
export function registerGmailRoutes(api: FakeGoogleApi): GmailFake {
  const box = new Mailbox();
  seed(box);
  /** `query`: the parameters the method defines; `fields`: those of its JSON body. */
  const route = (method: string, path: string, spec: { query?: readonly string[]; fields?: readonly string[] }, handler: (req: GoogleRequest) => GoogleResponse) =>
    api.route(method, GMAIL_HOST, GMAIL_USER_PATH + path, (req) => {
      if (req.params.userId !== 'me' && req.params.userId !== box.emailAddress) throw new GoogleApiError(403, `Delegation denied for ${box.emailAddress}`, 'PERMISSION_DENIED');
      rejectUnknownQuery(req, spec.query ?? []);
      return handler(req);
    });
  const body = (req: GoogleRequest, fields: readonly string[], where: string) => {
    const json = req.json<Record<string, unknown>>();
    rejectUnknownFields(json, fields, where);
    return json;
  };
  const LIST = ['q', 'maxResults', 'pageToken', 'labelIds', 'includeSpamTrash'];
  const MESSAGE = ['id', 'threadId', 'labelIds', 'snippet', 'historyId', 'internalDate', 'payload', 'sizeEstimate', 'raw'];
  const MODIFY = ['addLabelIds', 'removeLabelIds'];

  // users.messages
  route('GET', '/messages', { query: LIST }, (req) => {
    const found = box.search(req);
    const { items: page, nextPageToken } = pageOf(found, req, 'maxResults', 100, 500);
    return {
      json: {
        ...(page.length ? { messages: page.map((m) => ({ id: m.id, threadId: m.threadId })) } : {}),
        ...(nextPageToken ? { nextPageToken } : {}),
        resultSizeEstimate: found.length,
      },
    };
  });
  route('POST', '/messages/send', {}, (req) => {
    const json = body(req, MESSAGE, 'message');
    const raw = box.ingest(json.raw, 'raw');
    const mime = parseMime(raw);
    box.checkRecipients(mime);
    const message = box.addMessage(raw, ['SENT'], box.threadFor(mime, json.threadId));
    box.stamp(message);
    box.record('messageAdded', message);
    return { json: box.brief(message) };
  });
  route('POST', '/messages/batchModify', {}, (req) => {
    const json = body(req, ['ids', ...MODIFY], 'batch_modify_messages_request');
    if (!Array.isArray(json.ids) || json.ids.length === 0) throw badRequest("Missing required field 'ids'.");
    if (json.ids.length > 1000) throw badRequest('Too many ids: at most 1000 per request.');
    const add = box.checkLabels(json.addLabelIds, 'addLabelIds', true);
    const remove = box.checkLabels(json.removeLabelIds, 'removeLabelIds', false);
    const messages = (json.ids as unknown[]).map((id) => box.message(String(id)));
    for (const message of messages) box.modify(message, add, remove);
    return { status: 204 };
  });
  route('GET', '/messages/{id}', { query: ['format', 'metadataHeaders'] }, (req) => {
    const format = enumQuery(req, 'format', MESSAGE_FORMATS, 'full');
    return { json: box.render(box.message(req.params.id!), format, req.query.getAll('metadataHeaders')) };
  });
  route('POST', '/messages/{id}/modify', {}, (req) => {
    const message = box.message(req.params.id!);
    const json = body(req, MODIFY, 'modify_message_request');
    box.modify(message, box.checkLabels(json.addLabelIds, 'addLabelIds', true), box.checkLabels(json.removeLabelIds, 'removeLabelIds', false));
    return { json: box.brief(message) };
  });
  route('POST', '/messages/{id}/trash', {}, (req) => {
    const message = box.message(req.params.id!);
    const inbox = message.labelIds.includes('INBOX');
    box.modify(message, ['TRASH'], ['INBOX']);
    message.inboxBeforeTrash = inbox;
    return { json: box.brief(message) };
  });
  route('POST', '/messages/{id}/untrash', {}, (req) => {
    const message = box.message(req.params.id!);
    box.modify(message, message.inboxBeforeTrash ? ['INBOX'] : [], ['TRASH']);
    message.inboxBeforeTrash = undefined;
    return { json: box.brief(message) };
  });
  route('GET', '/messages/{messageId}/attachments/{id}', {}, (req) => {
    const message = box.message(req.params.messageId!);
    box.payload(message);
    const data = message.attachments.get(req.params.id!);
    if (!data) throw badRequest('Invalid attachment token');
    return { json: { size: data.length, data: data.toString('base64url') } };
  });

  // users.threads
  route('GET', '/threads', { query: LIST }, (req) => {
    const threadIds = [...new Set(box.search(req).map((m) => m.threadId))];
    const { items: page, nextPageToken } = pageOf(threadIds, req, 'maxResults', 100, 500);
    const threads = page.map((id) => {
      const messages = box.thread(id);
      const last = messages[messages.length - 1]!;
      return { id, snippet: box.snippet(last), historyId: last.historyId };
    });
    return { json: { ...(threads.length ? { threads } : {}), ...(nextPageToken ? { nextPageToken } : {}), resultSizeEstimate: threadIds.length } };
  });
  route('GET', '/threads/{id}', { query: ['format', 'metadataHeaders'] }, (req) => {
    const format = enumQuery(req, 'format', ['full', 'metadata', 'minimal'], 'full');
    const messages = box.thread(req.params.id!);
    const historyId = messages.map((m) => m.historyId).sort((a, b) => Number(b) - Number(a))[0];
    return { json: { id: req.params.id, historyId, messages: messages.map((m) => box.render(m, format, req.query.getAll('metadataHeaders'))) } };
  });
  route('POST', '/threads/{id}/modify', {}, (req) => {
    const messages = box.thread(req.params.id!);
    const json = body(req, MODIFY, 'modify_thread_request');
    const add = box.checkLabels(json.addLabelIds, 'addLabelIds', true);
    const remove = box.checkLabels(json.removeLabelIds, 'removeLabelIds', false);
    for (const message of messages) box.modify(message, add, remove);
    return { json: { id: req.params.id, historyId: box.historyId, messages: messages.map((m) => box.brief(m)) } };
  });

  // users.labels
  route('GET', '/labels', {}, () => ({ json: { labels: [...box.labels.values()].map((l) => ({ ...l })) } }));
  route('POST', '/labels', {}, (req) => {
    const json = body(req, ['id', 'name', 'type', 'messageListVisibility', 'labelListVisibility', 'color'], 'label');
    // The reference marks all three required (a label's visibilities have no server-side default there).
    requireFields(json, ['name', 'messageListVisibility', 'labelListVisibility'], 'label');
    const name = String(json.name).trim();
    if (SYSTEM_LABELS.some((l) => l.name.toLowerCase() === name.toLowerCase())) throw badRequest('Invalid label name');
    if ([...box.labels.values()].some((l) => l.name.toLowerCase() === name.toLowerCase())) throw new GoogleApiError(409, 'Label name exists or conflicts', 'ALREADY_EXISTS');
    if (!['show', 'hide'].includes(String(json.messageListVisibility))) throw badRequest("Invalid value at 'label.message_list_visibility'");
    if (!['labelShow', 'labelShowIfUnread', 'labelHide'].includes(String(json.labelListVisibility))) throw badRequest("Invalid value at 'label.label_list_visibility'");
    const label: GmailLabel = {
      id: box.newLabelId(),
      name,
      type: 'user',
      messageListVisibility: json.messageListVisibility as GmailLabel['messageListVisibility'],
      labelListVisibility: json.labelListVisibility as GmailLabel['labelListVisibility'],
    };
    box.labels.set(label.id, label);
    return { json: label };
  });
  route('DELETE', '/labels/{id}', {}, (req) => {
    const label = box.labels.get(req.params.id!);
    if (!label) throw notFound();
    if (label.type === 'system') throw badRequest('Invalid delete request');
    box.labels.delete(label.id);
    for (const message of box.messages.values()) if (message.labelIds.includes(label.id)) box.modify(message, [], [label.id]);
    return { status: 204 };
  });

  // users.drafts
  const draft = (id: string) => {
    const messageId = box.drafts.get(id);
    if (messageId === undefined) throw notFound();
    return box.message(messageId);
  };
  route('GET', '/drafts', { query: ['maxResults', 'pageToken', 'q', 'includeSpamTrash'] }, (req) => {
    const ids = [...box.drafts.keys()].reverse();
    const { items: page, nextPageToken } = pageOf(ids, req, 'maxResults', 100, 500);
    const drafts = page.map((id) => ({ id, message: { id: draft(id).id, threadId: draft(id).threadId } }));
    return { json: { ...(drafts.length ? { drafts } : {}), ...(nextPageToken ? { nextPageToken } : {}), resultSizeEstimate: ids.length } };
  });
  route('POST', '/drafts', {}, (req) => {
    const json = body(req, ['id', 'message'], 'draft');
    const message = json.message as Record<string, unknown> | undefined;
    if (!message || typeof message !== 'object') throw badRequest('Missing draft message');
    const raw = box.ingest(message.raw, 'draft.message.raw');
    const stored = box.addMessage(raw, ['DRAFT'], box.threadFor(parseMime(raw), message.threadId));
    box.record('messageAdded', stored);
    const id = box.newDraftId();
    box.drafts.set(id, stored.id);
    return { json: { id, message: box.brief(stored) } };
  });
  route('POST', '/drafts/send', {}, (req) => {
    const json = body(req, ['id', 'message'], 'draft');
    requireFields(json, ['id']);
    const message = draft(String(json.id));
    box.checkRecipients(message.mime);
    box.drafts.delete(String(json.id));
    box.stamp(message);
    message.labelIds = message.labelIds.filter((l) => l !== 'DRAFT');
    box.modify(message, ['SENT'], []);
    return { json: box.brief(message) };
  });
  route('GET', '/drafts/{id}', { query: ['format'] }, (req) => {
    const format = enumQuery(req, 'format', MESSAGE_FORMATS, 'full');
    return { json: { id: req.params.id, message: box.render(draft(req.params.id!), format) } };
  });
  route('DELETE', '/drafts/{id}', {}, (req) => {
    const message = draft(req.params.id!);
    box.drafts.delete(req.params.id!);
    box.messages.delete(message.id);
    box.record('messageDeleted', message);
    return { status: 204 };
  });

  // users.history
  route('GET', '/history', { query: ['startHistoryId', 'maxResults', 'pageToken', 'labelId', 'historyTypes'] }, (req) => {
    const start = req.query.get('startHistoryId');
    if (start === null) throw badRequest("Missing required parameter 'startHistoryId'.");
    if (!/^\d+$/.test(start)) throw badRequest(`Invalid value for startHistoryId: ${start}`);
    if (Number(start) < box.oldestHistoryId) throw notFound();
    const types = req.query.getAll('historyTypes');
    for (const type of types) if (!['messageAdded', 'messageDeleted', 'labelAdded', 'labelRemoved'].includes(type)) throw badRequest(`Invalid value at 'history_types': ${type}`);
    const labelId = req.query.get('labelId');
    const records = box.history.filter(
      (r) =>
        Number(r.id) > Number(start) &&
        (types.length === 0 || types.includes(r.type)) &&
        (labelId === null || r.message.labelIds.includes(labelId) || (r.labelIds ?? []).includes(labelId)),
    );
    const { items: page, nextPageToken } = pageOf(records, req, 'maxResults', 100, 500);
    const history = page.map((r) => {
      const entry: Record<string, unknown> = { id: r.id, messages: [{ id: r.message.id, threadId: r.message.threadId }] };
      if (r.type === 'messageAdded') entry.messagesAdded = [{ message: r.message }];
      if (r.type === 'messageDeleted') entry.messagesDeleted = [{ message: r.message }];
      if (r.type === 'labelAdded') entry.labelsAdded = [{ message: r.message, labelIds: r.labelIds }];
      if (r.type === 'labelRemoved') entry.labelsRemoved = [{ message: r.message, labelIds: r.labelIds }];
      return entry;
    });
    return { json: { ...(history.length ? { history } : {}), ...(nextPageToken ? { nextPageToken } : {}), historyId: box.historyId } };
  });

  return box;
}
