import type { AttachmentRef } from '@oneclaw/core';
import { sessionScenario, testCatalogue } from '@oneclaw/core/testing';
import type { ResolvedModel } from '../config/model-resolver';
import type { ModelRequest } from '@oneclaw/model-providers';
import type { SecretRedactor } from '../security/secret-redactor';
import type { SessionRepository } from '../sessions/session-repository';
import { ConversationCompactor } from './conversation-compactor';

const PDF: AttachmentRef = { hash: 'c'.repeat(64), name: 'report.pdf', mediaType: 'application/pdf', bytes: 1000 };

describe('compaction and attachments (issue 15)', () => {
  it('the transcript the summary is written from names each attached file and, for a PDF, the pdf tools path', async () => {
    const requests: ModelRequest[] = [];
    const provider = {
      providerId: 'p',
      model: 'm',
      client: {
        name: 'anthropic',
        complete: async (request: ModelRequest) => {
          requests.push(request);
          throw Object.assign(new Error('no model here'), { code: 'provider_unavailable' });
        },
      },
    } as unknown as ResolvedModel;
    const sessions = { record: async () => ({ revision: 1, state: {}, events: [] }) } as unknown as SessionRepository;
    const compactor = new ConversationCompactor({ sessions, redactor: { redactText: (t: string) => t } as SecretRedactor, contextWindowTokens: 1000 });
    const long = 'words '.repeat(400);
    const state = sessionScenario(testCatalogue())
      .given(
        { type: 'StartSession', sessionId: 's', agentId: 'a' },
        { type: 'RecordUserMessage', messageId: 'u1', text: 'summarise this', attachments: [PDF] },
        { type: 'RecordAssistantMessage', messageId: 'a1', text: long, toolCalls: [] },
        { type: 'RecordUserMessage', messageId: 'u2', text: 'thanks' },
        { type: 'RecordAssistantMessage', messageId: 'a2', text: long, toolCalls: [] },
      )
      .state();
    const outcome = await compactor.compact({ sessionId: 's', state, provider, trigger: 'user', commandId: 'c' });
    expect(outcome.code).toBe('summary_failed');
    const sent = requests[0]!.messages[0]!;
    expect(sent.role === 'user' && sent.text).toContain(`User: summarise this\n[Attached application/pdf "report.pdf", pdf tools path "attachment:${PDF.hash}"]`);
  });
});
