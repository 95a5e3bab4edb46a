import { sessionScenario, testCatalogue } from '@oneclaw/core/testing';
import type { AttachmentRef, SessionCommand } from '@oneclaw/core';
import { SUMMARY_HEADER, toChatMessages } from './conversation';
import { withAttachmentBytes } from './load-attachments';

const PDF: AttachmentRef = { hash: 'a'.repeat(64), name: 'report.pdf', mediaType: 'application/pdf', bytes: 4 };
const GONE: AttachmentRef = { hash: 'b'.repeat(64), name: 'old.png', mediaType: 'image/png', bytes: 9 };

const history: SessionCommand[] = [
  { type: 'StartSession', sessionId: 's', agentId: 'a' },
  { type: 'RecordUserMessage', messageId: 'u0', text: 'hello', attachments: [] },
  { type: 'RecordAssistantMessage', messageId: 'a0', text: 'hi', toolCalls: [] },
  { type: 'RecordUserMessage', messageId: 'u1', text: 'read these', attachments: [PDF, GONE, PDF] },
];

describe('attached files in the model request (issue 15)', () => {
  it('the conversation keeps the references; the bytes are read once per file and request; a missing file is marked, not dropped', () => {
    const state = sessionScenario(testCatalogue())
      .given(...history)
      .state();
    const chat = toChatMessages(state, 'anthropic');
    expect(chat[0]).toEqual({ role: 'user', text: 'hello' });
    expect(chat[2]).toEqual({ role: 'user', text: 'read these', attachments: [PDF, GONE, PDF] });

    const reads: string[] = [];
    const loaded = withAttachmentBytes(chat, {
      read: (hash) => {
        reads.push(hash);
        return hash === PDF.hash ? Buffer.from('%PDF') : undefined;
      },
    });
    expect(reads).toEqual([PDF.hash, GONE.hash]);
    expect(loaded[2]).toEqual({
      role: 'user',
      text: 'read these',
      attachments: [
        { ...PDF, data: Buffer.from('%PDF').toString('base64') },
        { ...GONE, missing: true },
        { ...PDF, data: Buffer.from('%PDF').toString('base64') },
      ],
    });
    // The projection is untouched: the next request reads again.
    expect(chat[2]).toEqual({ role: 'user', text: 'read these', attachments: [PDF, GONE, PDF] });
  });

  it('with a cache given (one per turn), a second request reads nothing: neither the files it has nor the one found missing', () => {
    const state = sessionScenario(testCatalogue())
      .given(...history)
      .state();
    const chat = toChatMessages(state, 'anthropic');
    const reads: string[] = [];
    const reader = { read: (hash: string) => (reads.push(hash), hash === PDF.hash ? Buffer.from('%PDF') : undefined) };
    const turnCache = new Map<string, string | undefined>();
    const first = withAttachmentBytes(chat, reader, turnCache);
    const second = withAttachmentBytes(chat, reader, turnCache);
    expect(reads).toEqual([PDF.hash, GONE.hash]);
    expect(second).toEqual(first);
  });

  it("a compaction summary merged into a kept user message keeps that message's files", () => {
    const state = sessionScenario(testCatalogue())
      .given(...history, {
        type: 'RecordCompaction',
        summary: 'They greeted.',
        boundaryMessageId: 'a0',
        trigger: 'user',
        provider: 'anthropic',
        model: 'm',
        tokensBefore: 50,
        tokensAfter: 20,
      })
      .state();
    const chat = toChatMessages(state, 'anthropic');
    expect(chat).toEqual([{ role: 'user', text: `${SUMMARY_HEADER}\nThey greeted.\n[End of summary]\n\nread these`, attachments: [PDF, GONE, PDF] }]);
  });
});
