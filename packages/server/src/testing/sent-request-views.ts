import { replay, type RecordedEvent } from '@oneclaw/core';
import { toAnthropicMessages, toGeminiContents, toOpenAiMessages } from '@oneclaw/model-providers';
import { toChatMessages } from '../turns/conversation';
import type { FakeModelKind, FakeModelServer } from '@oneclaw/model-providers/testing';

/**
 * Reads what a FAKE model server received in each provider's wire format, so one e2e test can
 * run against all three: the conversation part of a request, the tool names sent, and (P4) the
 * same conversation rebuilt from the session's stream alone.
 */
export interface SentRequestView {
  readonly kind: FakeModelKind;
  /** The server's environment for this provider, pointed at the fake. */
  env(model: FakeModelServer, apiKey: string): Record<string, string>;
  /** Anthropic `messages`, Gemini `contents`, OpenAI `messages` without the system message. */
  conversation(body: unknown): unknown;
  /** The tool names sent, in order ([] when the request had none). */
  toolNames(body: unknown): string[];
  /** Whether the request carried tools at all (the summary request carries none). */
  hasTools(body: unknown): boolean;
  /** P4: the conversation of the request recorded as `ModelRequested` #requestNumber (1-based), rebuilt by replaying the stream up to it. */
  rebuilt(events: readonly RecordedEvent[], requestNumber: number): unknown;
}

type Body = Record<string, unknown>;

function rebuiltState(events: readonly RecordedEvent[], requestNumber: number) {
  const at = events.filter((e) => e.type === 'ModelRequested')[requestNumber - 1];
  if (!at) throw new Error(`The stream has no ModelRequested #${requestNumber}.`);
  return replay(events.filter((e) => e.revision <= at.revision));
}

export const SENT_REQUEST_VIEWS: Readonly<Record<FakeModelKind, SentRequestView>> = {
  anthropic: {
    kind: 'anthropic',
    env: (model, apiKey) => ({ ONECLAW_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: apiKey, ANTHROPIC_BASE_URL: model.url }),
    conversation: (body) => (body as Body).messages,
    toolNames: (body) => (((body as Body).tools ?? []) as { name: string }[]).map((t) => t.name),
    hasTools: (body) => (body as Body).tools !== undefined,
    rebuilt: (events, n) => toAnthropicMessages(toChatMessages(rebuiltState(events, n), 'anthropic')),
  },
  openai: {
    kind: 'openai',
    env: (model, apiKey) => ({ ONECLAW_PROVIDER: 'openai', OPENAI_API_KEY: apiKey, OPENAI_BASE_URL: model.url }),
    conversation: (body) => ((body as Body).messages as { role: string }[]).filter((m) => m.role !== 'system'),
    toolNames: (body) => (((body as Body).tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name),
    hasTools: (body) => (body as Body).tools !== undefined,
    rebuilt: (events, n) => toOpenAiMessages('', toChatMessages(rebuiltState(events, n), 'openai')),
  },
  gemini: {
    kind: 'gemini',
    env: (model, apiKey) => ({ ONECLAW_PROVIDER: 'gemini', GEMINI_API_KEY: apiKey, GEMINI_BASE_URL: model.url }),
    conversation: (body) => (body as Body).contents,
    toolNames: (body) => (((body as Body).tools ?? []) as { functionDeclarations: { name: string }[] }[]).flatMap((t) => t.functionDeclarations.map((d) => d.name)),
    hasTools: (body) => (body as Body).tools !== undefined,
    rebuilt: (events, n) => toGeminiContents(toChatMessages(rebuiltState(events, n), 'gemini')),
  },
};
