import { buildAuditTrail } from '../audit/audit-trail';
import type { EventEnvelope, RecordedEvent } from '../events/event-envelope';
import { asSessionEvent } from '../events/session-event-guards';
import type { AttachmentRef } from '../events/session-events';
import { testCatalogue } from '../testing/fixed-tool-catalogue';
import { sessionScenario } from '../testing/session-scenario';
import type { SessionCommand } from './session-commands';

const start: SessionCommand = { type: 'StartSession', sessionId: 's1', agentId: 'default' };
const PDF: AttachmentRef = { hash: 'a'.repeat(64), name: 'report.pdf', mediaType: 'application/pdf', bytes: 1234 };

describe('attachments on the user message (issue 15)', () => {
  const catalogue = testCatalogue();

  it('records the references (hash, name, media type, size) on MessageSent, and the projection keeps them', () => {
    const s = sessionScenario(catalogue).given(start);
    const [event] = s.record({ type: 'RecordUserMessage', messageId: 'm1', text: 'read this', attachments: [PDF] });
    expect(event?.data).toEqual({ messageId: 'm1', role: 'user', text: 'read this', attachments: [PDF] });
    expect(s.state().messages[0]).toEqual({ messageId: 'm1', role: 'user', text: 'read this', attachments: [PDF] });
  });

  it('records no attachments field when there are none, so the event is the same as before attachments existed', () => {
    const s = sessionScenario(catalogue).given(start);
    const [event] = s.record({ type: 'RecordUserMessage', messageId: 'm1', text: 'hi', attachments: [] });
    expect(event?.data).toEqual({ messageId: 'm1', role: 'user', text: 'hi' });
  });

  it.each([
    ['a short hash', { ...PDF, hash: 'abc' }],
    ['an upper-case hash', { ...PDF, hash: 'A'.repeat(64) }],
    ['a media type that is not allowed', { ...PDF, mediaType: 'text/html' }],
    ['an empty name', { ...PDF, name: '' }],
    ['a negative size', { ...PDF, bytes: -1 }],
  ])('refuses %s with invalid_command', (_label, attachment) => {
    const s = sessionScenario(catalogue).given(start);
    s.when({ type: 'RecordUserMessage', messageId: 'm1', text: 'x', attachments: [attachment as AttachmentRef] }).thenThrows('invalid_command');
  });

  it('old user messages without attachments still replay; a malformed attachments field is skipped as poison', () => {
    const envelope = (data: unknown): EventEnvelope => ({
      type: 'MessageSent',
      data,
      metadata: { eventId: 'e1', occurredAt: '2026-01-01T00:00:00.000Z', correlationId: 'e1', causationId: 'e1', schemaVersion: 1 },
    });
    expect(asSessionEvent(envelope({ messageId: 'm1', role: 'user', text: 'old' }))).not.toBeNull();
    expect(asSessionEvent(envelope({ messageId: 'm1', role: 'user', text: 'new', attachments: [PDF] }))).not.toBeNull();
    expect(asSessionEvent(envelope({ messageId: 'm1', role: 'user', text: 'bad', attachments: [{ hash: 'x' }] }))).toBeNull();
  });

  it('the audit line of the message names each file with its type, size and hash', () => {
    const s = sessionScenario(catalogue).given(start, { type: 'RecordUserMessage', messageId: 'm1', text: 'read this', attachments: [PDF] });
    const recorded = s.history().map((e, revision) => ({ ...e, revision, position: revision }) as unknown as RecordedEvent);
    expect(buildAuditTrail(recorded).events[1]?.summary).toBe('user: read this [attached: report.pdf (application/pdf, 1234 bytes, sha256 aaaaaaaaaaaa…)]');
  });
});
