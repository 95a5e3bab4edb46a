import { describe, expect, test } from '@jest/globals';
import type { AttachmentRef, StoredEvent } from '@oneclaw/api-contract';
import { chatReducer, initialChatState, sessionTitle, transcriptFromEvents } from './transcript';

const PDF: AttachmentRef = { hash: 'a'.repeat(64), name: 'report.pdf', mediaType: 'application/pdf', bytes: 1234 };
const event = (data: unknown): StoredEvent => ({
  type: 'MessageSent',
  data,
  metadata: { eventId: 'e1', occurredAt: '2026-01-01T00:00:00Z', correlationId: 'c', causationId: 'c', schemaVersion: 1 },
  streamId: 'session-s1',
  revision: 1,
  position: 1,
});

describe('attachments in the transcript (issue 15)', () => {
  test('the sent message shows its files at once, and a stored one from its event', () => {
    const sending = chatReducer(initialChatState, { type: 'send', text: 'read this', attachments: [PDF] });
    expect(sending.items).toEqual([expect.objectContaining({ kind: 'user', text: 'read this', pending: true, attachments: [PDF] })]);
    expect(transcriptFromEvents([event({ messageId: 'm1', role: 'user', text: 'read this', attachments: [PDF] })])).toEqual([
      { kind: 'user', key: 'm1', messageId: 'm1', text: 'read this', attachments: [PDF] },
    ]);
  });

  test('messages without files have no attachments field (older streams read as before)', () => {
    expect(transcriptFromEvents([event({ messageId: 'm1', role: 'user', text: 'hi' })])).toEqual([{ kind: 'user', key: 'm1', messageId: 'm1', text: 'hi' }]);
    expect(chatReducer(initialChatState, { type: 'send', text: 'hi', attachments: [] }).items[0]).not.toHaveProperty('attachments');
  });

  test('a message of files only: no text, its files; the header names the session by them', () => {
    const PNG: AttachmentRef = { hash: 'b'.repeat(64), name: 'cat.png', mediaType: 'image/png', bytes: 99 };
    const sending = chatReducer(initialChatState, { type: 'send', text: '', attachments: [PNG, PDF] });
    expect(sending.items).toEqual([expect.objectContaining({ kind: 'user', text: '', pending: true, attachments: [PNG, PDF] })]);
    const stored = transcriptFromEvents([event({ messageId: 'm1', role: 'user', text: '', attachments: [PNG, PDF] })]);
    expect(stored).toEqual([{ kind: 'user', key: 'm1', messageId: 'm1', text: '', attachments: [PNG, PDF] }]);
    expect(sessionTitle(stored)).toBe('cat.png, report.pdf');
    expect(sessionTitle(transcriptFromEvents([event({ messageId: 'm1', role: 'user', text: ' see \n these ', attachments: [PNG] })]))).toBe('see these');
    expect(sessionTitle([])).toBe('New conversation');
  });
});
