import { fitReply, type ReplyParts } from './fit-reply';

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;
const LIMIT = 10_000;

describe('fitReply', () => {
  it('leaves a reply that fits as it is', () => {
    const reply: ReplyParts = { text: 'hello', toolCalls: [{ callId: 'c1', toolName: 't', arguments: { a: 1 } }] };
    expect(fitReply(reply, LIMIT)).toEqual({ reply });
  });

  it('cuts an over-long text to fit, with a note in the text and the sizes in `cut`', () => {
    const text = 'é'.repeat(20_000); // 2 bytes each in UTF-8
    const fitted = fitReply({ text, toolCalls: [] }, LIMIT);
    expect(bytes(fitted.reply)).toBeLessThanOrEqual(LIMIT);
    expect(fitted.reply.text).toMatch(/^é+\n\n\[OneClaw: the reply was cut here to fit the record size limit; \d+ of 40000 bytes kept\.\]$/);
    expect(fitted.cut).toEqual({
      limitBytes: LIMIT,
      textBytes: 40_000,
      keptTextBytes: new TextEncoder().encode(fitted.reply.text).length,
      argumentsCut: [],
      providerMetadataDropped: false,
    });
    // As much as possible is kept: one more character would not fit.
    expect(bytes(fitted.reply)).toBeGreaterThan(LIMIT - 200);
  });

  it('never splits a surrogate pair', () => {
    const fitted = fitReply({ text: '😀'.repeat(5_000), toolCalls: [] }, LIMIT);
    const kept = fitted.reply.text.split('\n\n[OneClaw')[0] as string;
    expect(kept).toBe('😀'.repeat(Array.from(kept).length));
  });

  it('replaces the largest arguments by a marker and keeps the call, its id and the small arguments', () => {
    const reply: ReplyParts = {
      text: 'Writing.',
      toolCalls: [
        { callId: 'big', toolName: 'write_file', arguments: { content: 'x'.repeat(30_000) } },
        { callId: 'small', toolName: 'read_file', arguments: { path: 'a' } },
      ],
    };
    const fitted = fitReply(reply, LIMIT);
    expect(bytes(fitted.reply)).toBeLessThanOrEqual(LIMIT);
    expect(fitted.reply.text).toBe('Writing.');
    expect(fitted.reply.toolCalls).toEqual([
      { callId: 'big', toolName: 'write_file', arguments: { _cut: expect.stringContaining('30014 bytes') } },
      { callId: 'small', toolName: 'read_file', arguments: { path: 'a' } },
    ]);
    expect(fitted.cut).toMatchObject({ argumentsCut: ['big'], textBytes: 8, keptTextBytes: 8 });
  });

  it('S6 cuts the reasoning first, to what the rest leaves, with a note; text, calls and provider state stay whole', () => {
    const reply: ReplyParts = {
      text: 'The answer.',
      toolCalls: [{ callId: 'c1', toolName: 'read_file', arguments: { path: 'a' } }],
      providerMetadata: { provider: 'anthropic', data: { blocks: [] } },
      reasoning: 'r'.repeat(30_000),
    };
    const fitted = fitReply(reply, LIMIT);
    expect(bytes(fitted.reply)).toBeLessThanOrEqual(LIMIT);
    expect(bytes(fitted.reply)).toBeGreaterThan(LIMIT - 200);
    expect(fitted.reply).toMatchObject({ text: 'The answer.', toolCalls: reply.toolCalls, providerMetadata: reply.providerMetadata });
    expect(fitted.reply.reasoning).toMatch(/^r+\n\n\[OneClaw: the reasoning was cut here to fit the record size limit; \d+ of 30000 bytes kept\.\]$/);
    expect(fitted.cut).toEqual({
      limitBytes: LIMIT,
      textBytes: 11,
      keptTextBytes: 11,
      argumentsCut: [],
      providerMetadataDropped: false,
      reasoningBytes: 30_000,
      keptReasoningBytes: new TextEncoder().encode(fitted.reply.reasoning).length,
    });
  });

  it('S6 drops the reasoning entirely when the text alone is over the limit', () => {
    const fitted = fitReply({ text: 't'.repeat(20_000), toolCalls: [], reasoning: 'short thought' }, LIMIT);
    expect(bytes(fitted.reply)).toBeLessThanOrEqual(LIMIT);
    expect(fitted.reply.reasoning).toBeUndefined();
    expect(fitted.cut).toMatchObject({ reasoningBytes: 13, keptReasoningBytes: 0, textBytes: 20_000 });
  });

  it('drops large provider state before cutting more text', () => {
    const fitted = fitReply({ text: 'ok', toolCalls: [], providerMetadata: { provider: 'anthropic', data: 'z'.repeat(20_000) } }, LIMIT);
    expect(fitted.reply).toEqual({ text: 'ok', toolCalls: [] });
    expect(fitted.cut?.providerMetadataDropped).toBe(true);
  });
});
