import { describe, expect, it } from '@jest/globals';
import type { ToolPayload } from '@oneclaw/tool-registry';
import { AnthropicProvider } from '../anthropic/anthropic-provider';
import { GeminiProvider } from '../gemini/gemini-provider';
import type { ChatMessage, ModelRequest } from '../model-provider';
import { OpenAiCompatibleProvider } from '../openai-compatible/openai-compatible-provider';
import { ConversationJson, MESSAGES_SLOT, TOOLS_SLOT, fillJson, jsonArray } from './body-json';

/** A deterministic generator (a 31-bit LCG): the same sequences on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

const TEXTS = ['', ' \n ', 'hello', 'Price: $& and $1', `"${MESSAGES_SLOT}"`, TOOLS_SLOT, 'a\u2028b café 😀', 'line\nbreak'];

const CALL_IDS = ['call_0', 'call_1', 'call_0_2', 'functions.read_file:0', 'functions_read_file_0', ''];

/** Any chat message, with what makes entries merge or vanish: tool results in a row, empty assistant turns. */
function randomMessage(next: () => number, n: number, provider: 'openai' | 'anthropic' | 'gemini'): ChatMessage {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const roll = next();
  if (roll < 0.3) {
    const attachments = next() < 0.15 ? [{ hash: `h${n}`, name: 'a.png', mediaType: 'image/png', bytes: 3, data: 'AAAA' }] : undefined;
    return { role: 'user', text: pick(TEXTS), ...(attachments ? { attachments } : {}) };
  }
  if (roll < 0.6) {
    // Ids repeat across rounds and some are ill-formed for Anthropic, which then maps them by the ids before.
    const calls = Array.from({ length: Math.floor(next() * 3) }, (_, i) => ({
      callId: next() < 0.5 ? pick(CALL_IDS) : `c${n}-${i}`,
      toolName: 'read_file',
      arguments: next() < 0.5 ? { path: pick(TEXTS) } : {},
    }));
    const metadata =
      next() < 0.3
        ? provider === 'anthropic'
          ? { provider, data: { blocks: [{ type: 'thinking', thinking: 'hm', signature: 'sig' }] } }
          : { provider, data: { textSignature: 'sig' } }
        : undefined;
    return { role: 'assistant', text: pick(TEXTS), toolCalls: calls, ...(metadata ? { providerMetadata: metadata } : {}) };
  }
  return { role: 'tool', callId: next() < 0.7 ? pick(CALL_IDS) : `c${n}`, toolName: 'read_file', content: pick(TEXTS), isError: next() < 0.3 };
}

const PROVIDERS = [
  ['openai', () => new OpenAiCompatibleProvider({ apiKey: 'k' })],
  ['anthropic', () => new AnthropicProvider({ apiKey: 'k' })],
  ['gemini', () => new GeminiProvider({ apiKey: 'k' })],
] as const;

function toolsFor(provider: 'openai' | 'anthropic' | 'gemini'): ToolPayload {
  switch (provider) {
    case 'openai':
      return { provider, tools: [{ type: 'function', function: { name: 'read_file', description: TOOLS_SLOT, parameters: { type: 'object', properties: {} } } }] };
    case 'anthropic':
      return { provider, tools: [{ name: 'read_file', description: 'reads', input_schema: { type: 'object', properties: {} } }] };
    case 'gemini':
      return { provider, tools: [{ functionDeclarations: [{ name: 'read_file', description: 'reads', parameters: { type: 'object', properties: {} } }] }] } as ToolPayload;
  }
}

/** A ConversationJson whose entries are the messages' roles, recording how many messages each conversion got. */
function countingConversationJson(): { json: ConversationJson; converted: number[] } {
  const converted: number[] = [];
  const json = new ConversationJson((messages, from) => {
    converted.push(messages.length - from);
    return { entries: messages.slice(from).map((m) => m.role), lastStart: Math.max(from, messages.length - 1) };
  });
  return { json, converted };
}

describe('request bodies built from kept JSON (F5)', () => {
  it.each(PROVIDERS)(
    '%s: over 400 random requests (conversations that go on, restart, are cut or changed in the same array) bodyJson is exactly JSON.stringify(buildBody)',
    (name, make) => {
      const provider = make();
      const next = random(name.length * 7919);
      const tools = toolsFor(name);
      const noTools: ToolPayload = { provider: name, tools: [] } as ToolPayload;
      let messages: ChatMessage[] = [];
      let wentOn = 0;
      for (let i = 0; i < 400; i++) {
        const roll = next();
        if (roll < 0.65) {
          // Goes on: a new array with the same objects and more, as the server sends.
          messages = [...messages, ...Array.from({ length: 1 + Math.floor(next() * 3) }, (_, k) => randomMessage(next, i * 10 + k, name))];
          wentOn += 1;
        } else if (roll < 0.75) messages = messages.slice(0, Math.floor(next() * messages.length));
        else if (roll < 0.85 && messages.length > 1) messages[Math.floor(next() * messages.length)] = randomMessage(next, i * 10 + 9, name);
        else if (roll < 0.9) messages.push(randomMessage(next, i * 10 + 8, name));
        else messages = [randomMessage(next, i * 10 + 7, name)];
        const request: ModelRequest = {
          model: next() < 0.1 ? MESSAGES_SLOT : 'm',
          // A slot's text as a whole field before the slot: what a search for the slot would find first.
          system: next() < 0.2 ? '' : next() < 0.3 ? MESSAGES_SLOT : next() < 0.4 ? TOOLS_SLOT : 'Be brief.',
          messages,
          tools: next() < 0.3 ? noTools : tools,
          ...(next() < 0.5 ? { maxOutputTokens: 100 } : {}),
        };
        expect({ i, body: provider.bodyJson(request) }).toEqual({ i, body: JSON.stringify(provider.buildBody(request)) });
      }
      expect(wentOn).toBeGreaterThan(200);
    },
  );

  it('a conversation that goes on is converted only from its last entry on', () => {
    const { json, converted } = countingConversationJson();
    const a: ChatMessage = { role: 'user', text: 'a' };
    const b: ChatMessage = { role: 'assistant', text: 'b', toolCalls: [] };
    const c: ChatMessage = { role: 'user', text: 'c' };
    expect(json.of([a, b])).toEqual(['"user"', '"assistant"']);
    expect(json.of([a, b, c])).toEqual(['"user","assistant"', '"user"']);
    expect(json.of([a, c])).toEqual(['"user"', '"user"']);
    // 2 at first; then from the last entry (b): b and c; then all again, as [a, c] does not go on.
    expect(converted).toEqual([2, 2, 2]);
  });

  it('keeps nothing for a conversation carrying attached files’ bytes (they are loaded into new objects for every request)', () => {
    const { json, converted } = countingConversationJson();
    const a: ChatMessage = { role: 'user', text: 'a' };
    const withFile: ChatMessage = { role: 'user', text: 'b', attachments: [{ hash: 'h', name: 'a.png', mediaType: 'image/png', bytes: 3, data: 'AAAA' }] };
    const missing: ChatMessage = { role: 'user', text: 'c', attachments: [{ hash: 'g', name: 'b.png', mediaType: 'image/png', bytes: 3, missing: true }] };
    const b: ChatMessage = { role: 'user', text: 'b' };
    for (const conversation of [
      [a, withFile],
      [b, missing],
    ]) {
      json.of(conversation);
      json.of(conversation);
    }
    // Kept, each second request would have converted only from its last entry (1 message).
    expect(converted).toEqual([2, 2, 2, 2]);
  });

  it('fillJson cuts each slot at its last occurrence, so earlier fields may hold the slot text; a missing slot is an error', () => {
    const template = { model: MESSAGES_SLOT, system: TOOLS_SLOT, messages: MESSAGES_SLOT, tools: TOOLS_SLOT, stream: true };
    expect(
      JSON.parse(
        fillJson(template, [
          [MESSAGES_SLOT, jsonArray(['1', '', '2'])],
          [TOOLS_SLOT, ['{"t":1}']],
        ]),
      ),
    ).toEqual({
      model: MESSAGES_SLOT,
      system: TOOLS_SLOT,
      messages: [1, 2],
      tools: { t: 1 },
      stream: true,
    });
    expect(jsonArray([])).toEqual(['[', ']']);
    expect(() => fillJson({ model: 'm' }, [[MESSAGES_SLOT, ['[]']]])).toThrow(/no .*slot/);
  });
});
