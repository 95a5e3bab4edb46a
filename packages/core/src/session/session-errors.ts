import { OneClawError } from '../oneclaw-error';

/** A command the session's current state does not allow. Nothing is recorded. */
export class SessionRuleError extends OneClawError {}

export const sessionErrors = {
  notFound: (sessionId: string | null) =>
    new SessionRuleError('session_not_found', `Session${sessionId ? ` '${sessionId}'` : ''} does not exist. Start it first.`, sessionId ? { sessionId } : {}),
  alreadyStarted: (sessionId: string) =>
    new SessionRuleError('session_already_started', `Session '${sessionId}' already exists. Use a new session id.`, {
      sessionId,
    }),
  groupNotFound: (groupName: string, available: readonly string[]) =>
    new SessionRuleError('group_not_found', `Tool group '${groupName}' does not exist. Available groups: ${available.length ? available.join(', ') : '(none)'}.`, {
      groupName,
      available,
    }),
  groupNotLoaded: (groupName: string) =>
    new SessionRuleError('group_not_loaded', `Tool group '${groupName}' is not loaded in this session, so it cannot be unloaded.`, {
      groupName,
    }),
  unknownToolCall: (callId: string) =>
    new SessionRuleError('unknown_tool_call', `No tool call '${callId}' is waiting for a result in this session. Record the assistant message with the call first.`, { callId }),
  toolNameMismatch: (callId: string, expected: string, got: string) =>
    new SessionRuleError('tool_call_mismatch', `Tool call '${callId}' was made to '${expected}', not '${got}'.`, {
      callId,
      expected,
      got,
    }),
  invalidCompactionBoundary: (messageId: string, problem: string) =>
    new SessionRuleError('invalid_compaction_boundary', `Cannot compact up to message '${messageId}': ${problem}`, { messageId }),
  turnInProgress: (turnId: string) =>
    new SessionRuleError('turn_in_progress', `The session is still answering a message (turn ${turnId}). Wait for it to finish, or cancel it, then try again.`, { turnId }),
  nothingToRetry: () => new SessionRuleError('nothing_to_retry', 'There is nothing to retry: the conversation has no message since it was last cleared. Send a message instead.'),
  nothingToEdit: () => new SessionRuleError('nothing_to_edit', 'There is nothing to edit: the conversation has no message since it was last cleared. Send a message instead.'),
  notLastUserMessage: (messageId: string, lastUserMessageId: string) =>
    new SessionRuleError(
      'not_last_user_message',
      `Message '${messageId}' is not the last message you sent in this conversation (that is '${lastUserMessageId}'): only the last one can be retried or edited. Reload the conversation and try again.`,
      { messageId, lastUserMessageId },
    ),
  archived: (sessionId: string | null) =>
    new SessionRuleError(
      'session_archived',
      `Session${sessionId ? ` '${sessionId}'` : ''} was deleted: it takes no new messages or changes. Its history stays in the audit (GET /api/sessions/${sessionId ?? ':id'}/audit). Start a new session to go on.`,
      sessionId ? { sessionId } : {},
    ),
  titleEmpty: () => new SessionRuleError('title_empty', 'A session title cannot be empty. Type a name, or cancel to keep the current one.'),
  titleTooLong: (length: number, max: number) =>
    new SessionRuleError('title_too_long', `A session title is at most ${max} characters; this one has ${length}. Shorten it.`, { length, max }),
  invalidCommand: (problem: string) => new SessionRuleError('invalid_command', problem),
  messageEmpty: () => new SessionRuleError('message_empty', 'A message needs some text or at least one attached file. Type a message, or attach an image or a PDF.'),
};
