import { describe, expect, test } from '@jest/globals';
import type { StreamEvent } from '../api/client';
import { chatReducer, initialChatState, turnFinishedStatus, type ChatAction } from './transcript';

/** The status line after these steps of one turn, each a stream event `[name, data]` or a page action. */
function statusAfter(...steps: (readonly [string, object] | ChatAction)[]): string {
  const actions: ChatAction[] = steps.map((step) => (Array.isArray(step) ? { type: 'sse', event: { event: step[0], data: step[1] } as StreamEvent } : (step as ChatAction)));
  return [{ type: 'send', text: 'hi' } as ChatAction, ...actions].reduce(chatReducer, initialChatState).status;
}

describe('the status line when a turn ends', () => {
  test.each([
    ['completed', 'The assistant replied: Hello.'],
    ['cancelled', 'The assistant replied (stopped early: Cancelled): Hello.'],
    ['round_cap', 'The assistant replied (stopped early: Round limit reached): Hello.'],
    ['loop_breaker', 'The assistant replied (stopped early: Stopped a repeating failing call): Hello.'],
    ['provider_error', 'The assistant replied (stopped early: Model API error): Hello.'],
    ['interrupted', 'The assistant replied (stopped early: Interrupted (the server stopped)): Hello.'],
    ['context_overflow', 'The assistant replied (stopped early: context overflow): Hello.'],
  ])('%s, with a reply: says the assistant replied', (reason, expected) => {
    expect(turnFinishedStatus(reason, 'Some detail.', 'Hello.')).toBe(expected);
  });

  test.each([
    ['completed', 'The assistant finished without a reply.'],
    ['cancelled', 'The turn stopped before the assistant replied: Cancelled. Some detail.'],
    ['round_cap', 'The turn stopped before the assistant replied: Round limit reached. Some detail.'],
    ['loop_breaker', 'The turn failed before the assistant replied: Stopped a repeating failing call. Some detail.'],
    ['provider_error', 'The turn failed before the assistant replied: Model API error. Some detail.'],
    ['interrupted', 'The turn failed before the assistant replied: Interrupted (the server stopped). Some detail.'],
    ['context_overflow', 'The turn stopped before the assistant replied: context overflow. Some detail.'],
  ])('%s, without a reply: says so, and why', (reason, expected) => {
    expect(turnFinishedStatus(reason, 'Some detail.', undefined)).toBe(expected);
    expect(turnFinishedStatus(reason, 'Some detail.', '  \n')).toBe(expected);
  });

  test('a cancelled turn whose partial reply was recorded says the assistant replied, stopped early', () => {
    const status = statusAfter(
      ['turn_started', {}],
      ['model_requested', { round: 1 }],
      ['text_delta', { text: 'Working on it, ' }],
      { type: 'cancel-requested' },
      ['assistant_message', { messageId: 'm1', text: 'Working on it, ', toolCalls: 0, partial: true }],
      ['turn_finished', { reason: 'cancelled', detail: 'The turn was cancelled.' }],
    );
    expect(status).toBe('The assistant replied (stopped early: Cancelled): Working on it, ');
  });

  test('a stream the page closed itself, with text on screen, says the assistant replied, stopped early', () => {
    const status = statusAfter(['turn_started', {}], ['text_delta', { text: 'Partial' }], { type: 'cancel-requested' }, { type: 'stream-ended', aborted: true });
    expect(status).toBe('The assistant replied (stopped early: Cancelled): Partial');
    expect(statusAfter(['turn_started', {}], { type: 'cancel-requested' }, { type: 'stream-ended', aborted: true })).toBe(
      'The turn stopped before the assistant replied: Cancelled. You cancelled the reply.',
    );
  });

  test('text sent with tool calls is not a reply: a turn that fails after tool rounds says it failed before the assistant replied', () => {
    const status = statusAfter(
      ['assistant_message', { messageId: 'm1', text: 'Let me look.', toolCalls: 1 }],
      ['tool_call_started', { callId: 'c1', toolName: 'exec' }],
      ['tool_call_finished', { callId: 'c1', status: 'success', preview: 'ok' }],
      ['turn_finished', { reason: 'provider_error', detail: 'The model API answered 500.' }],
    );
    expect(status).toBe('The turn failed before the assistant replied: Model API error. The model API answered 500.');
  });

  test('a completed turn announces the final reply, even after tool rounds', () => {
    const status = statusAfter(
      ['assistant_message', { messageId: 'm1', text: 'Let me look.', toolCalls: 1 }],
      ['assistant_message', { messageId: 'm2', text: 'Found 3 files.', toolCalls: 0 }],
      ['turn_finished', { reason: 'completed', detail: '' }],
    );
    expect(status).toBe('The assistant replied: Found 3 files.');
    expect(statusAfter(['turn_finished', { reason: 'completed', detail: '' }])).toBe('The assistant finished without a reply.');
  });
});
