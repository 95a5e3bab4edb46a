import { isClearCommand, isCompactCommand } from './transcript';

/**
 * /clear and /compact act on a session's conversation, and the new-session draft has none yet:
 * sending either would create a session only to clear or compact nothing (and leave an empty
 * session in the list). The draft shows this note instead of sending.
 */
export function draftCommandNote(text: string): string | undefined {
  if (isClearCommand(text)) return 'There is nothing to clear yet: this session has not started.';
  if (isCompactCommand(text)) return 'There is nothing to compact yet: this session has not started.';
  return undefined;
}
